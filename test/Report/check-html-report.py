"""Opens an HTML report in headless Chromium and checks what a reader sees:
the page loads without a console message (no script error), every network
total it shows equals the JSON report's, every op has its row, and a
screenshot can be taken (left beside the page as a test artifact).

usage: check-html-report.py CHROMIUM PAGE.html REPORT.json SCREENSHOT.png
"""

import html.parser
import json
import os
import subprocess
import sys
import tempfile

chromium, page, report, screenshot = sys.argv[1:5]
expected = json.load(open(report))


def run(*mode):
    with tempfile.TemporaryDirectory() as profile:
        return subprocess.run(
            [chromium, "--headless", "--no-sandbox", "--disable-gpu",
             "--enable-logging=stderr", "--v=0", f"--user-data-dir={profile}",
             "--window-size=1400,1800", *mode, "file://" +
             os.path.abspath(page)],
            capture_output=True, text=True, timeout=120)


class Cells(html.parser.HTMLParser):
    """The text of every element with an id, and the ops table's rows."""

    def __init__(self):
        super().__init__()
        self.text, self.open, self.rows, self.in_ops = {}, [], 0, False

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if attrs.get("id") == "ops":
            self.in_ops = True
        if self.in_ops and tag == "tr":
            self.rows += 1
        if "id" in attrs:
            self.open.append(attrs["id"])
            self.text[attrs["id"]] = ""

    def handle_endtag(self, tag):
        if tag == "table":
            self.in_ops = False
        if tag == "td" and self.open:
            self.open.pop()

    def handle_data(self, data):
        for name in self.open:
            self.text[name] += data


dom = run("--dump-dom")
console = [l for l in dom.stderr.splitlines() if ":CONSOLE" in l]
errors = [f"console: {l}" for l in console]
cells = Cells()
cells.feed(dom.stdout)
totals = expected["totals"]
for field, key in [("energy", "energy_pJ"), ("cycles", "cycles"),
                   ("edp", "edp"), ("latency", "latency_s"),
                   ("macs", "macs"), ("ops-mapped", "ops_mapped"),
                   ("ops-not-mapped", "ops_not_mapped"),
                   ("distinct", "distinct_problems"),
                   ("searched", "searched"), ("samples", "samples")]:
    shown = cells.text.get(f"total-{field}-0")
    if shown is None:
        errors.append(f"total {field} is not shown")
    elif abs(float(shown) - totals[key]) > 5e-4 * abs(totals[key]):
        errors.append(f"total {field}: shows {shown}, the JSON has "
                      f"{totals[key]}")
# A header row, then one per op.
if cells.rows != 1 + len(expected["ops"]) + len(expected["not_mapped"]):
    errors.append(f"{cells.rows - 1} op rows for "
                  f"{len(expected['ops']) + len(expected['not_mapped'])} ops")
shot = run(f"--screenshot={screenshot}")
if shot.returncode != 0 or not os.path.getsize(screenshot):
    errors.append("no screenshot")
for error in errors:
    print(error)
print(f"{len(errors)} problems; {cells.rows - 1} op rows")
sys.exit(1 if errors else 0)
