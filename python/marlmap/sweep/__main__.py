"""python3 -m marlmap.sweep: the marlmap-sweep command."""

from .command import main

# Dask's worker processes start by spawning, which runs this file again
# under another name: only the command itself sweeps.
if __name__ == "__main__":
    main()
