"""A run's distributions as an SVG chart (no plotting library): win rates by side with their
95% intervals, and fights by length in rounds. Plain text, the same bytes for the same
report."""

from __future__ import annotations

from html import escape
from typing import Any

WIDTH, ROW, BAR = 640, 22, 360


def svg(report: dict[str, Any], title: str) -> str:
    """The chart of a ``tally.report``."""
    parts: list[str] = []
    y = 40
    parts.append(f'<text x="10" y="24" font-size="16">{escape(title)}: {report["fights"]} fights</text>')
    parts.append(f'<text x="10" y="{y + 14}" font-size="13">win rate by side (95% interval)</text>')
    y += 24
    for side, row in report["wins"].items():
        width = round(BAR * row["rate"])
        low, high = round(BAR * row["low"]), round(BAR * row["high"])
        parts.append(f'<text x="10" y="{y + 15}" font-size="12">{escape(side)}</text>')
        parts.append(f'<rect x="180" y="{y + 4}" width="{width}" height="14" fill="#4a7ab5"/>')
        parts.append(f'<line x1="{180 + low}" y1="{y + 11}" x2="{180 + high}" y2="{y + 11}" stroke="#000"/>')
        parts.append(f'<text x="{190 + BAR}" y="{y + 15}" font-size="12">{row["rate"]:.3f} '
                     f'[{row["low"]:.3f}, {row["high"]:.3f}]</text>')
        y += ROW
    y += 16
    parts.append(f'<text x="10" y="{y}" font-size="13">fights by length (rounds)</text>')
    y += 10
    histogram = {int(k): v for k, v in report["rounds"]["histogram"].items()}
    tallest = max(histogram.values(), default=1)
    columns = max(histogram, default=0)
    step = max(1, (WIDTH - 200) // max(columns, 1))
    base = y + 120
    for rounds, count in sorted(histogram.items()):
        height = round(110 * count / tallest)
        x = 180 + (rounds - 1) * step
        parts.append(f'<rect x="{x}" y="{base - height}" width="{max(step - 1, 1)}" height="{height}" '
                     f'fill="#b5744a"><title>{rounds} rounds: {count}</title></rect>')
    parts.append(f'<text x="180" y="{base + 14}" font-size="11">1</text>')
    parts.append(f'<text x="{180 + (columns - 1) * step}" y="{base + 14}" font-size="11">{columns}</text>')
    height = base + 30
    body = "\n".join(parts)
    return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{height}" '
            f'font-family="sans-serif">\n<rect width="100%" height="100%" fill="#fff"/>\n{body}\n</svg>\n')
