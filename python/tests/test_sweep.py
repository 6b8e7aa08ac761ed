"""marlmap-sweep: networks x accelerators on Dask, resumable, the same
table on any number of workers, a killed worker changing nothing."""

import json
import os
import signal
import socket
import subprocess
import sys

import pytest

import marlmap
from marlmap.sweep import command, engine, tasks

INPUTS = "test/Tools/Inputs"


def options(source_dir, out, *extra):
    return command._parser().parse_args([
        str(source_dir / INPUTS / "small-network.mlir"),
        str(source_dir / INPUTS / "tiny-network.mlir"),
        "--arch", "eyeriss", "--grid", "pe=8x8,4x4 glb_kb=32,64",
        "--searcher", "genetic", "--budget", "150", "--out", str(out),
        *extra])


def table(out):
    return json.loads((out / "sweep.json").read_text())


def test_grid_points_are_named_by_their_values_and_checked():
    grid = tasks.parse_grid("pe=8x8,4x4 glb_kb=64")
    assert grid == [("pe", ["8x8", "4x4"]), ("glb_kb", ["64"])]
    names = [a.name for a in tasks.accelerators(["eyeriss", "simba"], grid)]
    assert names == ["eyeriss[pe=8x8,glb_kb=64]", "eyeriss[pe=4x4,glb_kb=64]",
                     "simba[pe=8x8,glb_kb=64]", "simba[pe=4x4,glb_kb=64]"]
    # A variant's description reads back as the same accelerator.
    variant = marlmap.arch("eyeriss").variant({"pe": "8x8"})
    assert variant.description.startswith("module attributes {accel.target")
    for bad, message in [("pe", "not KEY=VALUE"), ("pe=", "not KEY=VALUE"),
                         ("pe=8x8 pe=4x4", "given twice")]:
        with pytest.raises(ValueError, match=message):
            tasks.parse_grid(bad)
    with pytest.raises(ValueError, match="unknown key 'pes'"):
        tasks.accelerators(["eyeriss"], tasks.parse_grid("pes=8x8"))
    with pytest.raises(ValueError, match="is given twice"):
        tasks.accelerators(["eyeriss", "eyeriss"], [])


def test_one_or_two_workers_give_the_same_table(source_dir, tmp_path):
    one, _, _ = command.sweep(options(source_dir, tmp_path / "one",
                                      "--workers", "1"))
    two, run, done = command.sweep(options(source_dir, tmp_path / "two",
                                           "--workers", "2"))
    assert (run, done) == (8, 0)
    assert one == two == table(tmp_path / "two")
    assert [(row["network"], row["accelerator"]) for row in one][:3] == [
        ("small-network", "eyeriss[pe=8x8,glb_kb=32]"),
        ("small-network", "eyeriss[pe=8x8,glb_kb=64]"),
        ("small-network", "eyeriss[pe=4x4,glb_kb=32]")]
    assert all(row["pe"] in ("8x8", "4x4") and row["glb_kb"] in (32, 64) and
               row["edp"] > 0 for row in one)
    csv = (tmp_path / "two" / "sweep.csv").read_text().splitlines()
    assert len(csv) == 9 and csv[0].startswith("network,accelerator,energy_pJ")
    page = (tmp_path / "two" / "sweep.html").read_text()
    assert "Pareto front" in page and "every network (sums)" in page


def test_a_resumed_sweep_searches_nothing(source_dir, tmp_path):
    first, run, _ = command.sweep(options(source_dir, tmp_path, "--workers",
                                          "1"))
    assert run == 8
    again, run, done = command.sweep(options(source_dir, tmp_path,
                                             "--workers", "1"))
    assert (run, done) == (0, 8) and again == first
    # A damaged row is searched again, the others are not.
    stored = sorted((tmp_path / "tasks").glob("*.json"))
    stored[0].write_text("{not json")
    again, run, done = command.sweep(options(source_dir, tmp_path,
                                             "--workers", "1"))
    assert (run, done) == (1, 7) and again == first


def test_the_factor_space_reaches_the_mapper_and_keys_the_task(
        source_dir, tmp_path, monkeypatch):
    args = options(source_dir, tmp_path, "--factors", "imperfect")
    assert args.factors == "imperfect"
    with pytest.raises(SystemExit):
        options(source_dir, tmp_path, "--factors", "ragged")
    spaces = {}
    real = marlmap.map_module

    def recording(*given, **named):
        mapped = real(*given, **named)
        spaces[named["factors"]] = mapped.report["factors"]
        return mapped

    monkeypatch.setattr(tasks.marlmap, "map_module", recording)
    network = (source_dir / INPUTS / "tiny-network.mlir").read_text()
    eyeriss = tasks.accelerators(["eyeriss"], [])[0]
    keys = set()
    for space in tasks.FACTOR_SPACES:
        task = tasks.Task("tiny", network, eyeriss, tasks.Search(
            searcher="random", budget=20, factors=space))
        assert tasks.run(task)["edp"] > 0
        keys.add(task.key)
    # Each space searched what it names, and its results are its own.
    assert spaces == {space: space for space in tasks.FACTOR_SPACES}
    assert len(keys) == len(tasks.FACTOR_SPACES)


def dies_once(marker, victim):
    """A task runner whose worker process is killed (SIGKILL) the first
    time it runs the task on `victim`, in the middle of the sweep."""
    def run(task):
        if task.accelerator.name == victim and not os.path.exists(marker):
            with open(marker, "w") as out:
                out.write(str(os.getpid()))
            os.kill(os.getpid(), signal.SIGKILL)
        return tasks.run(task)
    return run


def test_a_killed_worker_changes_nothing(source_dir, tmp_path):
    reference, _, _ = command.sweep(options(source_dir, tmp_path / "ref",
                                            "--workers", "1"))
    marker = tmp_path / "killed"
    with engine.client(workers=2) as client:
        rows, run, _ = command.sweep(
            options(source_dir, tmp_path / "k"), client=client,
            runner=dies_once(str(marker), "eyeriss[pe=4x4,glb_kb=32]"))
        # The dead worker's replacement is up before the cluster closes.
        client.wait_for_workers(2, timeout=120)
    assert marker.exists() and run == 8
    assert rows == reference
    pairs = [(row["network"], row["accelerator"]) for row in rows]
    assert len(pairs) == len(set(pairs)) == 8
    assert len(list((tmp_path / "k" / "tasks").glob("*.json"))) == 8


def test_the_command_says_what_it_did(source_dir, tmp_path):
    argv = [sys.executable, "-m", "marlmap.sweep",
            str(source_dir / INPUTS / "tiny-network.mlir"),
            "--arch", "eyeriss,simba", "--searcher", "random", "--budget",
            "20", "--workers", "1", "--out", str(tmp_path)]
    done = subprocess.run(argv, capture_output=True, text=True, check=True)
    assert done.stdout.splitlines()[-1] == \
        "marlmap-sweep: 2 tasks: 2 run, 0 already done"
    assert "1/2 tiny-network on eyeriss" in done.stderr  # a log, no bar
    bad = subprocess.run(argv[:-2] + ["--grid", "pe=8x8", "--out",
                                      str(tmp_path / "x"), "--arch",
                                      "nowhere"],
                         capture_output=True, text=True)
    assert bad.returncode != 0 and "marlmap-sweep:" in bad.stderr
    broken = tmp_path / "broken.mlir"
    broken.write_text("module { func.func @f( }")
    failed = subprocess.run(argv[:3] + [str(broken)] + argv[4:-2] +
                            ["--out", str(tmp_path / "z")],
                            capture_output=True, text=True)
    assert failed.returncode != 0
    assert "marlmap-sweep: broken on eyeriss: " in failed.stderr
    unknown = subprocess.run(argv[:4] + ["--searcher", "bogus", "--out",
                                         str(tmp_path / "u")],
                             capture_output=True, text=True)
    assert "marlmap-sweep: --searcher: unknown searcher 'bogus'" in \
        unknown.stderr
    walker = subprocess.run(argv[:4] + ["--searcher", "optimal", "--factors",
                                        "imperfect", "--out",
                                        str(tmp_path / "w")],
                            capture_output=True, text=True)
    assert walker.returncode != 0
    assert ("marlmap-sweep: --factors: searcher 'optimal' searches only the "
            "perfect space, not 'imperfect'") in walker.stderr
    assert not (tmp_path / "w").exists()
    gone = subprocess.run(argv[:-2] + ["--out", str(tmp_path / "y"),
                                       "--scheduler", "tcp://127.0.0.1:9"],
                          capture_output=True, text=True)
    assert gone.returncode != 0
    assert "cannot reach the Dask scheduler at tcp://127.0.0.1:9" in \
        gone.stderr


def test_the_documented_levels_are_the_presets(source_dir):
    # docs/Sweep.md says which level each key changes on each preset.
    rows = {}
    for line in (source_dir / "docs" / "Sweep.md").read_text().splitlines():
        cells = [cell.strip() for cell in line.strip("|").split("|")]
        if cells and cells[0] in marlmap.presets():
            rows[cells[0]] = cells[1:]
    assert sorted(rows) == sorted(marlmap.presets())
    for preset, (pe, glb, outer) in rows.items():
        described = marlmap.arch(preset).to_json()
        levels = described["levels"]
        spread = [level for level in levels if level["instances"] > 1]
        assert pe.startswith(f"{spread[-1]['name']} "
                             f"({spread[-1]['mesh_x']}x{spread[-1]['mesh_y']}")
        assert glb == levels[-2]["name"] and outer == levels[-1]["name"]


def free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def kills_the_scheduler(counter, scheduler_pid, on_call):
    """A task runner that kills the scheduler (SIGKILL) when it is called
    for the `on_call`-th time, then runs the task."""
    def run(task):
        with open(counter, "a") as out:
            out.write("x")
        with open(counter) as calls:
            if len(calls.read()) == on_call:
                os.kill(scheduler_pid, signal.SIGKILL)
        return tasks.run(task)
    return run


def test_a_scheduler_that_goes_away_is_named_and_the_sweep_resumes(
        source_dir, tmp_path):
    reference, _, _ = command.sweep(options(source_dir, tmp_path / "ref",
                                            "--workers", "1"))
    address = f"tcp://127.0.0.1:{free_port()}"
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(sys.path))
    scheduler = subprocess.Popen(
        [sys.executable, "-m", "distributed.cli.dask_scheduler", "--host",
         "127.0.0.1", "--port", address.rsplit(":", 1)[1], "--no-dashboard"],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    worker = subprocess.Popen(
        [sys.executable, "-m", "distributed.cli.dask_worker", address,
         "--nthreads", "1", "--no-dashboard"],
        env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        out = tmp_path / "sweep"
        with pytest.raises(RuntimeError) as lost:
            command.sweep(
                options(source_dir, out, "--scheduler", address),
                runner=kills_the_scheduler(str(tmp_path / "calls"),
                                           scheduler.pid, 3))
        assert f"the Dask scheduler at {address}" in str(lost.value)
        assert "run again to resume" in str(lost.value)
    finally:
        worker.kill()
        scheduler.kill()
        worker.wait()
        scheduler.wait()
    stored = len(list((out / "tasks").glob("*.json")))
    assert stored < 8
    rows, run, done = command.sweep(options(source_dir, out, "--workers", "1"))
    assert (run, done) == (8 - stored, stored) and rows == reference


class ScratchServer:
    """A PostgreSQL server of its own (utils/postgres-scratch.sh): its URI
    (with the superuser's password) and a way to stop it."""

    def __init__(self, source_dir, folder):
        self.script = str(source_dir / "utils" / "postgres-scratch.sh")
        self.folder = folder + "/server"
        started = subprocess.run([self.script, "start", self.folder],
                                 capture_output=True, text=True)
        assert started.returncode == 0, started.stderr
        self.uri = started.stdout.strip()
        self.password = self.uri.split("@")[0].rsplit(":", 1)[1]

    def stop(self):
        subprocess.run([self.script, "stop", self.folder], check=True)


@pytest.fixture
def postgres(source_dir):
    import tempfile
    # In /tmp itself: the server's user must reach the folder, and a test
    # runner's TMPDIR may be private (lit's is).
    folder = tempfile.mkdtemp(prefix="marlmap-postgres-", dir="/tmp")
    os.chmod(folder, 0o755)
    server = ScratchServer(source_dir, folder)
    yield server
    server.stop()
    subprocess.run(["rm", "-rf", folder])


def test_workers_share_a_postgresql_cache(source_dir, tmp_path, postgres):
    first, _, _ = command.sweep(options(source_dir, tmp_path / "first",
                                        "--workers", "2", "--cache",
                                        postgres.uri))
    assert sum(row["searched"] for row in first) > 0
    # Another sweep of the same tasks, elsewhere: every problem comes from
    # the database the first one's workers filled, with the same figures.
    again, run, _ = command.sweep(options(source_dir, tmp_path / "again",
                                          "--workers", "2", "--cache",
                                          postgres.uri))
    assert run == 8
    assert sum(row["searched"] for row in again) == 0
    assert [row["edp"] for row in again] == [row["edp"] for row in first]


def test_a_database_that_goes_away_is_named_and_the_sweep_finishes(
        source_dir, tmp_path, postgres, capsys):
    stopped = []

    def stop_after_first(task, row):
        if not stopped:
            stopped.append(task)
            postgres.stop()

    rows, run, _ = command.sweep(
        options(source_dir, tmp_path / "out", "--workers", "2", "--cache",
                postgres.uri), on_row=stop_after_first)
    # Every task still has its row (searched without the cache), and the
    # warning names the database without its password.
    assert run == 8 and len(rows) == 8
    err = capsys.readouterr().err
    assert "marlmap-sweep: warning:" in err
    assert "mapping cache 'postgresql://marlmap:***@127.0.0.1:" in err
    assert postgres.password not in err
    # A re-run resumes from the rows stored.
    _, run, done = command.sweep(options(source_dir, tmp_path / "out",
                                         "--workers", "1", "--cache",
                                         postgres.uri))
    assert (run, done) == (0, 8)
