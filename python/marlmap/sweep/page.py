"""sweep.html: network latency against energy for every accelerator, the
Pareto front marked, per network and over all networks (their sums), then
each accelerator's figures. One self-contained page: inline SVG, no
script, no file beside it."""

import html
import math

WIDTH, HEIGHT, MARGIN = 720, 380, 70


def pareto(points):
    """The points no other beats on both latency and energy (lower is
    better), by latency."""
    front, least = [], math.inf
    for point in sorted(points, key=lambda p: (p["latency_s"],
                                               p["energy_pJ"])):
        if point["energy_pJ"] < least:
            front.append(point)
            least = point["energy_pJ"]
    return front


def _scale(values, size):
    """Log scale over the values' range onto [MARGIN, size - MARGIN]."""
    low, high = math.log10(min(values)), math.log10(max(values))
    span = (high - low) or 1.0
    return lambda v: MARGIN + (math.log10(v) - low) / span * (size -
                                                                2 * MARGIN)


def _plot(title, points):
    """An SVG scatter of `points` (dicts with name, latency_s, energy_pJ),
    the Pareto front joined and labelled."""
    usable = [p for p in points if p["latency_s"] > 0 and p["energy_pJ"] > 0]
    if not usable:
        return f"<h2>{html.escape(title)}</h2><p>Nothing was mapped.</p>"
    x = _scale([p["latency_s"] for p in usable], WIDTH)
    y_up = _scale([p["energy_pJ"] for p in usable], HEIGHT)

    def y(value):
        return HEIGHT - y_up(value)

    front = pareto(usable)
    on_front = {id(p) for p in front}
    parts = [f'<svg width="{WIDTH}" height="{HEIGHT}" '
             'xmlns="http://www.w3.org/2000/svg" font-size="11">',
             f'<text x="{WIDTH / 2}" y="{HEIGHT - 8}" text-anchor="middle">'
             'latency (s, log)</text>',
             f'<text x="12" y="{HEIGHT / 2}" transform="rotate(-90 12 '
             f'{HEIGHT / 2})" text-anchor="middle">energy (pJ, log)</text>']
    # The axes, each with its range.
    lows = min(p["latency_s"] for p in usable), min(p["energy_pJ"]
                                                    for p in usable)
    highs = max(p["latency_s"] for p in usable), max(p["energy_pJ"]
                                                     for p in usable)
    parts.append(f'<path d="M{MARGIN - 10},{MARGIN - 10} V{HEIGHT - MARGIN + 10}'
                 f' H{WIDTH - MARGIN + 10}" fill="none" stroke="#999"/>')
    for value in sorted(set([lows[0], highs[0]])):
        parts.append(f'<text x="{x(value):.1f}" y="{HEIGHT - MARGIN + 24}" '
                     f'text-anchor="middle">{value:.3g}</text>')
    for value in sorted(set([lows[1], highs[1]])):
        parts.append(f'<text x="{MARGIN - 14}" y="{y(value) + 4:.1f}" '
                     f'text-anchor="end">{value:.3g}</text>')
    path = " ".join(f"{x(p['latency_s']):.1f},{y(p['energy_pJ']):.1f}"
                    for p in front)
    parts.append(f'<polyline points="{path}" fill="none" stroke="#c33"/>')
    # The front last, so that a point it shares with another shows.
    for p in sorted(usable, key=lambda p: id(p) in on_front):
        colour = "#c33" if id(p) in on_front else "#669"
        name = html.escape(p["name"])
        parts.append(f'<circle cx="{x(p["latency_s"]):.1f}" '
                     f'cy="{y(p["energy_pJ"]):.1f}" r="4" fill="{colour}">'
                     f'<title>{name}: {p["latency_s"]:.4g} s, '
                     f'{p["energy_pJ"]:.4g} pJ</title></circle>')
        if id(p) in on_front:
            parts.append(f'<text x="{x(p["latency_s"]) + 6:.1f}" '
                         f'y="{y(p["energy_pJ"]) - 6:.1f}">{name}</text>')
    parts.append("</svg>")
    names = ", ".join(html.escape(p["name"]) for p in front)
    return (f"<h2>{html.escape(title)}</h2>" + "".join(parts) +
            f"<p>Pareto front: {names}.</p>")


def _table(rows, settings):
    columns = ["network", "accelerator", *settings, "energy_pJ", "cycles",
               "latency_s", "edp"]
    head = "".join(f"<th>{html.escape(c)}</th>" for c in columns)
    body = []
    for row in rows:
        cells = []
        for column in columns:
            value = row.get(column)
            text = ("" if value is None else f"{value:.4g}"
                    if isinstance(value, float) else str(value))
            cells.append(f"<td>{html.escape(text)}</td>")
        body.append("<tr>" + "".join(cells) + "</tr>")
    return f"<table><tr>{head}</tr>{''.join(body)}</table>"


def render(rows, networks, accelerators, settings):
    """The page for the sweep's rows (flat dicts as sweep.json has them)."""
    sections = []
    for network in networks:
        points = [{"name": r["accelerator"], "latency_s": r["latency_s"],
                   "energy_pJ": r["energy_pJ"]}
                  for r in rows if r["network"] == network]
        sections.append(_plot(network, points))
    if len(networks) > 1:
        overall = []
        for name in accelerators:
            mine = [r for r in rows if r["accelerator"] == name]
            if len(mine) == len(networks):
                overall.append({"name": name,
                                "latency_s": sum(r["latency_s"]
                                                 for r in mine),
                                "energy_pJ": sum(r["energy_pJ"]
                                                 for r in mine)})
        sections.append(_plot("every network (sums)", overall))
    style = ("body{font-family:sans-serif;margin:2em}"
             "table{border-collapse:collapse}"
             "td,th{border:1px solid #ccc;padding:2px 6px;text-align:right}")
    return ("<!DOCTYPE html><html><head><meta charset=\"utf-8\">"
            f"<title>marlmap sweep</title><style>{style}</style></head><body>"
            "<h1>marlmap sweep</h1>" + "".join(sections) +
            "<h2>Every accelerator</h2>" + _table(rows, settings) +
            "</body></html>\n")
