"""Runs every command the README and docs/ show, as written, from the top of
a checkout, so that the docs cannot drift from the tools.

Commands are the lines of ```sh blocks (a trailing backslash continues a
line; comments and blank lines are skipped). They run in order, in one
scratch copy of the checkout (its top-level entries linked, the build
linked as build/, ../shared beside it), so a command may read what an
earlier one wrote. `utils/setup.sh && ` in front of a command is the
set-up, done before the tests run, and is left out; the command that runs
the tests themselves is not run again. A block after a line
`<!-- slow: ... -->` takes minutes: its programs and the files it reads
are checked to exist, and it is not run. Commands that name ../shared are
skipped when it is not there.

The pages: README.md and docs/*.md.

usage: run-commands.py SOURCE_ROOT BUILD_DIR SHARED_DIR
"""

import os
import glob
import re
import shlex
import subprocess
import sys
import tempfile

FENCE = re.compile(r"^(\s*)```(\S*)\s*$")
SLOW = re.compile(r"^\s*<!-- slow:.*-->\s*$")


def blocks(path):
    """(line number, fence language, slow, lines) of every fenced block."""
    lines = open(path).read().split("\n")
    found, i = [], 0
    while i < len(lines):
        match = FENCE.match(lines[i])
        if not match:
            i += 1
            continue
        indent, language = match.groups()
        previous = next((l for l in reversed(lines[:i]) if l.strip()), "")
        body, i = [], i + 1
        while i < len(lines) and not FENCE.match(lines[i]):
            body.append(lines[i][len(indent):])
            i += 1
        found.append((i - len(body), language, bool(SLOW.match(previous)),
                      body))
        i += 1
    return found


def commands(body):
    """The block's commands, continuation lines joined."""
    joined, current = [], ""
    for line in body:
        if not current and (not line.strip() or line.lstrip().startswith("#")):
            continue
        if line.endswith("\\"):
            current += line[:-1] + " "
            continue
        joined.append((current + line).strip())
        current = ""
    return joined


def named_paths(command):
    """The relative paths a command names (in arguments or option values)."""
    paths = []
    for token in shlex.split(command):
        for part in re.split(r"[=\s]", token):
            if "/" in part and not part.startswith(("-", "/")):
                paths.append(part)
    return paths


def main():
    source, build, shared = sys.argv[1:4]
    scratch = tempfile.mkdtemp(prefix="marlmap-docs-")
    checkout = os.path.join(scratch, "checkout")
    os.mkdir(checkout)
    for entry in os.listdir(source):
        if entry not in ("build", ".git"):
            os.symlink(os.path.join(source, entry),
                       os.path.join(checkout, entry))
    os.symlink(build, os.path.join(checkout, "build"))
    has_shared = os.path.isdir(shared)
    if has_shared:
        os.symlink(shared, os.path.join(scratch, "shared"))

    ran = checked = skipped = 0
    failures = []
    pages = [os.path.join(source, "README.md")] + sorted(
        glob.glob(os.path.join(source, "docs", "*.md")))
    for path in pages:
        name = os.path.relpath(path, source)
        for line, language, slow, body in blocks(path):
            if language != "sh":
                continue
            for command in commands(body):
                where = f"{name}:{line}"
                command = re.sub(r"^utils/setup\.sh && ", "", command)
                if "--target check-marlmap" in command:
                    continue
                if "../shared" in command and not has_shared:
                    skipped += 1
                    continue
                if slow:
                    checked += 1
                    program = shlex.split(command)[0]
                    missing = [p for p in named_paths(command)
                               if not os.path.exists(os.path.join(checkout, p))]
                    if "/" not in program and not any(
                            os.access(os.path.join(d, program), os.X_OK)
                            for d in os.environ["PATH"].split(os.pathsep)):
                        missing.append(program)
                    if missing:
                        failures.append(f"{where}: {command}\n  missing: "
                                        + ", ".join(missing))
                    continue
                ran += 1
                run = subprocess.run(command, shell=True, cwd=checkout,
                                     executable="/bin/bash", text=True,
                                     stdout=subprocess.PIPE,
                                     stderr=subprocess.STDOUT)
                if run.returncode != 0:
                    tail = "\n  ".join(run.stdout.strip().split("\n")[-8:])
                    failures.append(f"{where}: {command}\n  exit "
                                    f"{run.returncode}:\n  {tail}")
    for failure in failures:
        print(failure)
    print(f"{ran} commands ran, {checked} slow ones checked, {skipped} "
          f"skipped without ../shared, {len(failures)} failed")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
