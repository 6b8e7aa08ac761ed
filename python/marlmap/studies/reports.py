"""Writing the studies' reports: Markdown tables, the line that says which
command wrote a report, the JSON beside it, and matplotlib for the plots."""

import json
import subprocess
import sys

from . import paths


def row(cells):
    """One Markdown table row."""
    return "| " + " | ".join(cells) + " |"


def rule(alignments):
    """The row under a table's head: one letter per column, l (left) or r
    (right)."""
    return "|" + "".join("---:|" if a == "r" else "---|" for a in alignments)


def written_by(module, argv=None, unmeasured=()):
    """The line naming the command, as run (`argv`, by default the
    process's arguments), that wrote a report; the arguments `unmeasured`
    names (say --resume) change how it ran, not what it measured, and are
    left out."""
    arguments = [arg for arg in (sys.argv[1:] if argv is None else argv)
                 if arg not in unmeasured]
    return (f"Written by `python3 -m {module}` "
            f"(`{' '.join(arguments)}`).")


def commit():
    """The checkout's commit (short, with -dirty when it has uncommitted
    changes), or '(unknown)' outside a git checkout."""
    found = subprocess.run(["git", "-C", str(paths.CHECKOUT), "describe",
                            "--always", "--dirty"],
                           capture_output=True, text=True).stdout.strip()
    return found or "(unknown)"


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
