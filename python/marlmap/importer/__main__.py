"""python3 -m marlmap.importer: the marlmap-import command."""

from .command import main

main()
