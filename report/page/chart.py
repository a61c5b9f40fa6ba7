"""The pools of every fighter over the fight: the chart's data (``charts``: one chart per
pool that changed, decimated on a long fight) and its inline SVG (``svg``).

The SVG is written here rather than by a charting library: it is a step line per fighter,
round lines and finding markers that link to their events, about a hundred lines; pygal
draws the lines, but has no marker that links to an event, and its defaults (a random id
per chart, a tooltip script fetched from the network) would each have to be switched off. Every text that reaches the SVG is escaped here (``markupsafe.escape``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Final

from fightlog.report.page.model import ChartView, FindingView, Marker, Series
from fightlog.report.page.timeline import Samples
from fightlog.report.pool_rows import track_members

MAX_CHARTS = 6
"""Pools charted at most (HP first, then those that changed most): a ruleset with many
pools (a wound track) keeps every value in the fighters' table."""

MAX_POINTS = 400
"""Points kept per line: past this, each stretch of the fight keeps its lowest and highest
value (the page's timeline keeps every event)."""

MAX_ROUND_LINES = 16
"""Round lines drawn at most: on a longer fight, every n-th round is labelled."""

MAX_MARKERS = 300
"""Finding markers drawn at most (the worst first), so a fight full of findings keeps a
readable, small chart; every finding is listed below it."""

WIDTH, HEIGHT = 800, 200
LEFT, RIGHT, TOP, BOTTOM = 44, 12, 10, 34
PALETTE = ("#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b", "#e377c2", "#17becf")
LEVEL_COLOURS = {"error": "#c62828", "warning": "#ef6c00", "info": "#1565c0", "ok": "#2e7d32"}


def tracks(samples: Samples, maxima: Mapping[str, Mapping[str, int]]) -> tuple[Samples, dict[str, dict[str, int]]]:
    """``samples`` and ``maxima`` with each track of numbered pools (``TRACK_MIN`` or more
    sharing a stem) replaced by its total, named ``w1..w20``."""
    out: Samples = dict(samples)
    ceilings = {pool: dict(by_actor) for pool, by_actor in maxima.items()}
    for pools in track_members(samples).values():
        name = f"{pools[0]}..{pools[-1]}"
        actors = sorted({actor for pool in pools for actor in samples[pool]})
        out[name] = {actor: _total(samples, pools, actor) for actor in actors}
        total_max: dict[str, int] = {}
        for pool in pools:
            out.pop(pool)
            for actor, ceiling in ceilings.pop(pool, {}).items():
                total_max[actor] = total_max.get(actor, 0) + ceiling
        ceilings[name] = total_max
    return out, ceilings


def _total(samples: Samples, pools: Sequence[str], actor: str) -> list[tuple[int, int]]:
    """The total of ``pools`` for ``actor`` each time one of them changed."""
    changes = sorted((seq, pool, value) for pool in pools for seq, value in samples[pool].get(actor, []))
    current: dict[str, int] = {}
    points: list[tuple[int, int]] = []
    for seq, pool, value in changes:
        current[pool] = value
        total = sum(current.values())
        if points and points[-1][0] == seq:
            points[-1] = (seq, total)
        elif not points or points[-1][1] != total:
            points.append((seq, total))
    return points


def charts(
    samples: Samples,
    maxima: Mapping[str, Mapping[str, int]],
    names: Mapping[str, str],
    starts: Sequence[tuple[int, int]],
    findings: Sequence[FindingView],
    last: int,
) -> list[ChartView]:
    """One chart per pool that changed during the fight (and HP whenever a fighter has it),
    one line per fighter; ``maxima``: pool -> actor -> its maximum. A track of numbered
    pools is one chart of their total (``tracks``)."""
    samples, maxima = tracks(samples, maxima)
    changed = {pool: sum(len(p) - 1 for p in lines.values()) for pool, lines in samples.items()}
    chosen = sorted((p for p, n in changed.items() if n > 0 or p == "hp"), key=lambda p: (p != "hp", -changed[p], p))
    first = min((pts[0][0] for lines in samples.values() for pts in lines.values()), default=1)
    rounds = _round_marks(starts)
    markers = _markers(findings)
    out = []
    for pool in chosen[:MAX_CHARTS]:
        lines = samples[pool]
        values = [v for pts in lines.values() for _, v in pts] + list(maxima.get(pool, {}).values())
        series = [
            Series(names.get(actor, actor), _decimated(pts, first, last))
            for actor, pts in sorted(lines.items(), key=lambda kv: (names.get(kv[0], kv[0]), kv[0]))
        ]
        out.append(ChartView(
            pool=pool, title="HP" if pool == "hp" else pool + (" (total)" if ".." in pool else ""), top=max(values + [1]), bottom=min(values + [0]),
            first=first, last=max(last, first + 1), series=series, rounds=rounds, markers=markers,
        ))
    return out


def _round_marks(starts: Sequence[tuple[int, int]]) -> list[tuple[int, str]]:
    step = max(1, -(-len(starts) // MAX_ROUND_LINES))
    return [(seq, f"R{number}") for i, (seq, number) in enumerate(starts) if i % step == 0]


_RANK: Final = {"error": 0, "warning": 1, "info": 2, "ok": 3}


def _clustered(markers: Sequence[Marker], x: Callable[[int], float]) -> list[list[Marker]]:
    """Markers closer than one marker's width drawn as one (the worst colour; the first's
    link; every finding in its title), so none covers another's tap target."""
    groups: list[list[Marker]] = []
    for marker in markers:
        if groups and x(marker.seq) - x(groups[-1][0].seq) < MARKER_WIDTH:
            groups[-1].append(marker)
        else:
            groups.append([marker])
    return groups


MARKER_WIDTH: Final = 20
"""A finding marker's width in the chart's units (a tap target on a phone)."""


def _markers(findings: Sequence[FindingView]) -> list[Marker]:
    shown = [f for f in findings if not f.accepted] + [f for f in findings if f.accepted]
    shown = sorted(shown, key=lambda f: (f.accepted, _RANK[f.level], f.seq))[:MAX_MARKERS]
    return [
        Marker(f.seq, "ok" if f.accepted else f.level, f"seq {f.seq}: {f.code}" + (" (accepted)" if f.accepted else ""))
        for f in sorted(shown, key=lambda f: (f.seq, f.id))
    ]


def _decimated(points: list[tuple[int, int]], first: int, last: int) -> list[tuple[int, int]]:
    """``points``, or past ``MAX_POINTS`` the first and last, and each bucket's lowest and
    highest point in order."""
    if len(points) <= MAX_POINTS:
        return points
    buckets = MAX_POINTS // 2 - 1
    width = max(1, (last - first + 1) / buckets)
    kept: dict[int, list[tuple[int, int]]] = {}
    for point in points[1:-1]:
        kept.setdefault(int((point[0] - first) / width), []).append(point)
    out = [points[0]]
    for _, bucket in sorted(kept.items()):
        low = min(bucket, key=lambda p: p[1])
        high = max(bucket, key=lambda p: p[1])
        out += sorted({low, high})
    return out + [points[-1]]


# --------------------------------------------------------------------------- SVG


def colour(index: int) -> str:
    """The line colour of the ``index``-th series (the legend uses the same)."""
    return PALETTE[index % len(PALETTE)]


def svg(chart: ChartView) -> str:
    """The chart as an inline ``<svg>`` element (every text escaped)."""
    from markupsafe import escape

    plot_w, plot_h = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM
    span = max(1, chart.last - chart.first)
    low, high = chart.bottom, max(chart.top, chart.bottom + 1)

    def x(seq: int) -> float:
        return round(LEFT + (seq - chart.first) / span * plot_w, 1)

    def y(value: int) -> float:
        return round(TOP + (high - value) / (high - low) * plot_h, 1)

    parts = [
        f'<svg class="chart" viewBox="0 0 {WIDTH} {HEIGHT}" role="img" '
        f'aria-label="{escape(chart.title)} of each fighter over the fight" xmlns="http://www.w3.org/2000/svg">',
        f'<rect x="{LEFT}" y="{TOP}" width="{plot_w}" height="{plot_h}" class="plot"/>',
    ]
    for value in sorted({low, (low + high) // 2, high}):
        parts.append(f'<text x="{LEFT - 4}" y="{y(value) + 4}" class="tick" text-anchor="end">{short(value)}</text>')
        parts.append(f'<line x1="{LEFT}" x2="{LEFT + plot_w}" y1="{y(value)}" y2="{y(value)}" class="grid"/>')
    for seq, label in chart.rounds:
        parts.append(f'<line x1="{x(seq)}" x2="{x(seq)}" y1="{TOP}" y2="{TOP + plot_h}" class="round"/>')
        parts.append(f'<text x="{x(seq) + 2}" y="{TOP + plot_h + 12}" class="tick">{escape(label)}</text>')
    for index, series in enumerate(chart.series):
        path = _step_path(series.points, chart.last, x, y)
        parts.append(f'<path d="{path}" fill="none" stroke="{colour(index)}" stroke-width="2">'
                     f"<title>{escape(series.name)}</title></path>")
    base = TOP + plot_h + 16
    for group in _clustered(chart.markers, x):
        first, mx = group[0], x(group[0].seq)
        worst = min(group, key=lambda m: _RANK[m.level]).level
        label = "; ".join(m.label for m in group)
        parts.append(
            f'<a href="#e{first.seq}" class="marker"><title>{escape(label)}</title>'
            f'<path d="M{mx} {base} l-10 17 h20 z" fill="{LEVEL_COLOURS[worst]}"/></a>'
        )
    parts.append("</svg>")
    return "".join(parts)


def short(value: int) -> str:
    """An axis label that fits its margin: ``950``, ``12k``, ``3.5M``, ``1G``."""
    for size, suffix in ((10**9, "G"), (10**6, "M"), (10**4, "k")):
        if abs(value) >= size:
            return f"{value / size:.3g}{suffix}" if size != 10**4 else f"{value // 1000}k"
    return str(value)


def _step_path(
    points: Sequence[tuple[int, int]], last: int, x: Callable[[int], float], y: Callable[[int], float]
) -> str:
    """A step line: each value held until the next change, the last one to ``last``."""
    if not points:
        return ""
    seq, value = points[0]
    out = [f"M{x(seq)} {y(value)}"]
    for seq, value in points[1:]:
        out.append(f"H{x(seq)}V{y(value)}")
    out.append(f"H{x(last)}")
    return "".join(out)
