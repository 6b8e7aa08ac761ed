"""Figures derived from a study report (search_study's REPORT.md).

docs/Search.md quotes these: per budget, on how many layer x preset cases
each learning searcher's median beats the best classical searcher, which of
marl and its two ablations is lowest, on how many marl beats each
single-agent baseline (sarl, sarl-factorised); the range of best-found over
lower bound; each searcher's worst gap to the best found and on how many
cases it is within 1.5x; the samples each single-agent baseline needs to
reach its own final cost.

    PYTHONPATH=build/python /usr/bin/python3 -m marlmap.studies.study_summary \\
        docs/study/REPORT.md
"""

import re

from . import cli
from .search_study import CLASSICAL, SARLS

MARLS = ("marl", "marl-per-decision", "marl-random-clusters")


def rows(table):
    """Cells of each body row of a markdown table."""
    lines = [l for l in table.split("\n") if l.startswith("| ")]
    head = [c.strip() for c in lines[0].strip("|").split("|")]
    return head, [[c.strip() for c in l.strip("|").split("|")]
                  for l in lines[1:]]


def median_of(cell):
    return float(cell.split()[0]) if cell != "-" else float("inf")


def main():
    parser = cli.parser(__doc__)
    parser.add_argument("report")
    text = open(parser.parse_args().report).read()
    best = {}   # (preset, layer, samples, searcher) -> median
    gaps = {}   # (preset, layer) -> {column: cell}
    to_final = {}  # single-agent baseline -> its samples to its final cost
    for section in re.split(r"^## ", text, flags=re.M)[1:]:
        preset = section.split("\n")[0].strip()
        for table in re.split(r"^### ", section, flags=re.M)[1:]:
            title = table.split("\n")[0]
            head, body = rows(table)
            budget = re.match(r"Best \S+ after (\d+) samples", title)
            for cells in body:
                if budget:
                    for name, cell in zip(head[1:], cells[1:]):
                        best[(preset, cells[0], int(budget.group(1)),
                              name)] = median_of(cell)
                elif title.startswith("Gaps"):
                    gaps[(preset, cells[0])] = dict(zip(head, cells))
                elif title.startswith("Samples to reach"):
                    if cells[1] != "-":
                        to_final.setdefault(head[1], []).append(
                            median_of(cells[1]))
    cases = sorted({(p, l) for p, l, _, _ in best})
    budgets = sorted({b for _, _, b, _ in best})
    sarls = [q for q in SARLS if any(n == q for _, _, _, n in best)]
    for budget in budgets:
        at = {key[:2] + key[3:]: v for key, v in best.items()
              if key[2] == budget}
        wins = {}
        for name in sarls + list(MARLS):
            wins[name] = sum(at[(p, l, name)] < min(at[(p, l, c)]
                                                    for c in CLASSICAL)
                             for p, l in cases)
        lowest = {name: sum(at[(p, l, name)] == min(at[(p, l, m)]
                                                     for m in MARLS)
                            for p, l in cases) for name in MARLS}
        over_sarl = {q: sum(at[(p, l, "marl")] < at[(p, l, q)]
                            for p, l in cases) for q in sarls}
        print(f"after {budget} samples, of {len(cases)} cases:")
        print("  below the best classical: " +
              ", ".join(f"{n} {w}" for n, w in wins.items()))
        print("  lowest of the marl variants (ties count for each): " +
              ", ".join(f"{n} {w}" for n, w in lowest.items()))
        print("  marl below: " +
              ", ".join(f"{q} {n}" for q, n in over_sarl.items()))
    ratios = [float(g["best / bound"]) for g in gaps.values()]
    print(f"best found / lower bound: {min(ratios):.2f} to {max(ratios):.2f}")
    for name in sarls + ["marl"]:
        gap = {key: float(g[name]) for key, g in gaps.items()}
        worst = max(gap, key=gap.get)
        print(f"{name}: worst median {gap[worst]:.2f}x the best found "
              f"({worst[1]} on {worst[0]}), within 1.5x on "
              f"{sum(v <= 1.5 for v in gap.values())} of {len(gap)}")
    for sarl, counts in to_final.items():
        print(f"{sarl}'s samples to its own final cost (medians per case): "
              f"{min(counts):.3g} to {max(counts):.3g}; sorted: " +
              ", ".join(f"{c:.3g}" for c in sorted(counts)))


if __name__ == "__main__":
    main()
