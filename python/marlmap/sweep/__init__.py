"""marlmap-sweep: networks x accelerators, each pair mapped by the Mapper
as one task on Dask distributed, the results in one table and a Pareto
page (docs/Sweep.md).

`python3 -m marlmap.sweep` runs the command (marlmap.sweep.command);
`tasks` says what a task is and runs one, `results` keeps the output
folder, `engine` runs tasks on a Dask cluster, `page` draws the Pareto
front.
"""
