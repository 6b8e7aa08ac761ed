"""Writing the studies' reports: Markdown tables, the line that says which
command wrote a report, the JSON beside it, and matplotlib for the plots."""

import json
import sys


def row(cells):
    """One Markdown table row."""
    return "| " + " | ".join(cells) + " |"


def rule(alignments):
    """The row under a table's head: one letter per column, l (left) or r
    (right)."""
    return "|" + "".join("---:|" if a == "r" else "---|" for a in alignments)


def written_by(module):
    """The line naming the command, as run, that wrote a report."""
    return (f"Written by `python3 -m {module}` "
            f"(`{' '.join(sys.argv[1:])}`).")


def write_report(out, text, data):
    """Writes the Markdown report `out` and `data` as JSON beside it."""
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(text)
    out.with_suffix(".json").write_text(json.dumps(data, indent=1) + "\n")


def pyplot():
    """matplotlib.pyplot drawing into files, or None without matplotlib
    (the reports then have no plots)."""
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return None
    return plt
