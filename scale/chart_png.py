"""A run's distributions as a PNG picture, for where an SVG does not show (a Discord
channel, a forum post): the same two panels as ``chart.svg`` for each run (two with
``--compare``), win rates by side with their 95% Wilson intervals and fights by length in
rounds, drawn by matplotlib (the ``scale`` extra) on its Agg canvas, with no clock or
version written into the file, so the same reports give the same bytes on one install."""

from __future__ import annotations

import io
from typing import Any

from fightlog.errors import InputError

DPI = 100
WIDTH_IN, RUN_HEIGHT_IN = 9.6, 3.4
WIN, LENGTH = "#4a7ab5", "#b5744a"


def require(path: str) -> None:
    """``InputError`` on ``path`` (the chart to write) naming the extra when matplotlib is
    not installed (checked before any fight is played)."""
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        raise InputError("a PNG chart needs matplotlib, which is not installed: install fightlog's scale extra "
                         "(python -m pip install '.[scale]' in its checkout), or write FILE.svg", path=path) from None


def png(runs: list[tuple[str, dict[str, Any]]], title: str) -> bytes:
    """The picture of ``(label, tally.report)`` pairs, a row of two panels each."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    figure = Figure(figsize=(WIDTH_IN, 0.5 + RUN_HEIGHT_IN * len(runs)), dpi=DPI, layout="constrained")
    FigureCanvasAgg(figure)
    figure.suptitle(title, fontsize=12)
    rows = figure.subplots(len(runs), 2, squeeze=False)
    for (label, report), (wins, lengths) in zip(runs, rows):
        _wins(wins, label, report)
        _lengths(lengths, report)
    out = io.BytesIO()
    figure.savefig(out, format="png", dpi=DPI, metadata={"Software": None})
    return out.getvalue()


def _wins(axes: Any, label: str, report: dict[str, Any]) -> None:
    sides = list(report["wins"])
    rows = [report["wins"][side] for side in sides]
    rates = [row["rate"] for row in rows]
    below = [row["rate"] - row["low"] for row in rows]
    above = [row["high"] - row["rate"] for row in rows]
    places = list(range(len(sides)))
    axes.barh(places, rates, xerr=[below, above], color=WIN, ecolor="#000", capsize=3)
    axes.set_yticks(places, labels=[f"{side}\n{row['rate']:.3f} [{row['low']:.3f}, {row['high']:.3f}]"
                                    for side, row in zip(sides, rows)], fontsize=8)
    axes.invert_yaxis()
    axes.set_xlim(0, 1)
    axes.set_xlabel("win rate (bar), 95% Wilson interval (line)")
    axes.set_title(f"{label}: {report['fights']} fights", fontsize=10, loc="left")


def _lengths(axes: Any, report: dict[str, Any]) -> None:
    rounds = report["rounds"]
    histogram = sorted((int(k), v) for k, v in rounds["histogram"].items())
    axes.bar([k for k, _ in histogram], [v for _, v in histogram], width=0.9, color=LENGTH)
    axes.set_xlabel(f"fight length in rounds (mean {rounds['mean']:.2f})")
    axes.set_ylabel("fights")
    axes.xaxis.get_major_locator().set_params(integer=True)
