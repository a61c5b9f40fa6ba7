"""A run's distributions as an SVG chart (no plotting library): for each run (two with
``--compare``), win rates by side with their 95% intervals, and fights by length in rounds.
Plain text, the same bytes for the same reports."""

from __future__ import annotations

from html import escape
from typing import Any

WIDTH, ROW, BAR, LEFT = 720, 22, 360, 180
"""The chart's width holds the longest interval label (``0.580 [0.442, 0.700]``) right of the bars."""


def svg(runs: list[tuple[str, dict[str, Any]]], title: str) -> str:
    """The chart of ``(label, tally.report)`` pairs, one section each, top to bottom."""
    parts = [f'<text x="10" y="24" font-size="16">{escape(title)}</text>']
    y = 40
    for label, report in runs:
        y = _section(parts, y, label, report) + 24
    return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{y}" viewBox="0 0 {WIDTH} {y}" '
            f'style="max-width:100%;height:auto" font-family="sans-serif">\n'
            f'<rect width="100%" height="100%" fill="#fff"/>\n' + "\n".join(parts) + "\n</svg>\n")


def _section(parts: list[str], y: int, label: str, report: dict[str, Any]) -> int:
    parts.append(f'<text x="10" y="{y + 14}" font-size="14">{escape(label)}: {report["fights"]} fights</text>')
    parts.append(f'<text x="10" y="{y + 34}" font-size="12">win rate by side (bar), 95% Wilson interval (line)</text>')
    y += 44
    for side, row in report["wins"].items():
        width = round(BAR * row["rate"])
        low, high = round(BAR * row["low"]), round(BAR * row["high"])
        parts.append(f'<text x="10" y="{y + 15}" font-size="12">{escape(side)}</text>')
        parts.append(f'<rect x="{LEFT}" y="{y + 4}" width="{width}" height="14" fill="#4a7ab5"/>')
        parts.append(f'<line x1="{LEFT + low}" y1="{y + 11}" x2="{LEFT + high}" y2="{y + 11}" stroke="#000" '
                     f'stroke-width="2"/>')
        parts.append(f'<text x="{LEFT + 10 + BAR}" y="{y + 15}" font-size="12">{row["rate"]:.3f} '
                     f'[{row["low"]:.3f}, {row["high"]:.3f}]</text>')
        y += ROW
    rounds = report["rounds"]
    parts.append(f'<text x="10" y="{y + 20}" font-size="12">fights by length in rounds '
                 f'(mean {rounds["mean"]:.2f})</text>')
    histogram = {int(k): v for k, v in rounds["histogram"].items()}
    tallest = max(histogram.values(), default=1)
    longest = max(histogram, default=1)
    step = max(1, (WIDTH - LEFT - 20) // longest)
    base = y + 130
    for length, count in sorted(histogram.items()):
        height = max(1, round(100 * count / tallest))
        parts.append(f'<rect x="{LEFT + (length - 1) * step}" y="{base - height}" width="{max(step - 1, 1)}" '
                     f'height="{height}" fill="#b5744a"><title>{length} rounds: {count} fights</title></rect>')
    parts.append(f'<line x1="{LEFT}" y1="{base}" x2="{LEFT + longest * step}" y2="{base}" stroke="#000"/>')
    parts.append(f'<text x="{LEFT}" y="{base + 14}" font-size="11">1</text>')
    parts.append(f'<text x="{LEFT + (longest - 1) * step}" y="{base + 14}" font-size="11">{longest}</text>')
    parts.append(f'<text x="10" y="{base}" font-size="11">{tallest} fights</text>')
    return base + 14
