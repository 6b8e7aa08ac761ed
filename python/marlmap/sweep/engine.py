"""Running a sweep's tasks on Dask distributed: a local cluster of worker
processes, one thread each, or an existing cluster by its scheduler's
address. Dask schedules, moves the tasks and results, and runs a task
again elsewhere when its worker dies; marlmap adds nothing of its own.
"""

import contextlib
import logging

from . import tasks as sweep_tasks


@contextlib.contextmanager
def client(workers=None, scheduler=None):
    """A Dask client: on `scheduler` (tcp://HOST:PORT) if given, else on a
    local cluster of `workers` processes (default: one per core)."""
    from distributed import Client, LocalCluster
    if scheduler:
        try:
            connected = Client(scheduler, timeout="10s")
        except OSError as error:
            raise RuntimeError(f"cannot reach the Dask scheduler at "
                               f"{scheduler}: {error}") from None
        with connected:
            try:
                yield connected
            except OSError as error:  # the client gave up reconnecting
                raise RuntimeError(f"lost the Dask scheduler at "
                                   f"{scheduler}: {error}") from None
        return
    # The sweep reports a failed task itself, naming it: the workers' own
    # logs of it would only repeat it.
    with LocalCluster(n_workers=workers, threads_per_worker=1,
                      processes=True, dashboard_address=None,
                      silence_logs=logging.CRITICAL) as cluster:
        with Client(cluster) as connected:
            yield connected


def run(client, todo, on_row, runner=sweep_tasks.run):
    """Runs `runner` (by default marlmap's: tasks.run) on every task of
    `todo` on the cluster; `on_row(task, row)` as each finishes, in the
    order they finish. A task that fails stops the sweep with its error
    (the rows stored so far stay); one whose worker dies runs again
    elsewhere."""
    from distributed import as_completed
    futures = {client.submit(runner, task, key=f"task-{task.key}",
                             pure=False): task
               for task in todo}
    try:
        for future in as_completed(futures):
            task = futures[future]
            try:
                row = future.result()
            except Exception as error:  # whatever the worker raised
                raise RuntimeError(f"{task.network} on "
                                   f"{task.accelerator.name}: {error}"
                                   ) from error
            on_row(task, row)
    finally:
        for future in futures:
            future.cancel()
