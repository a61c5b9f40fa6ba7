"""``fightlog sim --chart FILE.html``: the run's chart and summary as one page, every text
escaped (a side or a fighter may be named anything)."""

from __future__ import annotations

from fightlog.report.page.render import render_sim
from fightlog.scale.chart import svg

HOSTILE = '"><img src=x onerror=alert(1)><script>alert(2)</script>'


def _run(side: str) -> dict[str, object]:
    return {"fights": 10, "wins": {side: {"rate": 0.5, "low": 0.2, "high": 0.8}},
            "rounds": {"mean": 3.0, "histogram": {"2": 4, "4": 6}}}


def test_every_text_of_the_page_is_escaped() -> None:
    html = render_sim(f"roster {HOSTILE}.toml", [f"  {HOSTILE}  0.500 [0.200, 0.800]"], svg([(HOSTILE, _run(HOSTILE))], HOSTILE))
    assert "<script>alert" not in html and "<img src=x" not in html
    assert "&lt;script&gt;alert(2)&lt;/script&gt;" in html
    assert html.count("<script>") == 1  # the page's own, allowed by its hash
    assert "0.500 [0.200, 0.800]" in html and "<svg" in html


def test_the_page_is_the_same_for_the_same_run() -> None:
    args = ("alley.toml", ["line one", "line two"], svg([("A", _run("gate"))], "alley.toml"))
    assert render_sim(*args) == render_sim(*args)
