"""The report in a real browser: Debian's Chromium driven by Playwright for Python.

Bundled fights' pages show their timeline, chart and findings, linked (a click on a finding
unfolds its round and scrolls its event into view); a screenshot is a real PNG; and an XSS
corpus in every free-text field of a log runs nothing (no dialog, no console error, no
request), while the page stays readable on a phone. One browser for the module.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from fightlog.events.reader import ChainHead, read_log
from fightlog.report.page.build import page_data
from fightlog.report.page.render import render_page
from tests.conftest import FIXTURES
from tests.report.hostile import CORPUS, hostile_events

CHROMIUM = Path("/usr/bin/chromium")
ARGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
]
"""Without the background-networking flags, Chromium's own connections fail on a closed
network and slow every start."""

pytestmark = pytest.mark.skipif(
    not CHROMIUM.exists(), reason="no Chromium at /usr/bin/chromium (apt-get install chromium; .ci/run installs it)"
)
sync_api = pytest.importorskip("playwright.sync_api", reason="Playwright for Python is not installed (the test extra)")

PHONE = {"width": 390, "height": 844}


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with sync_api.sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        yield launched
        launched.close()


class Watched:
    """A browser page and what it did that a report must never do."""

    def __init__(self, page: Any) -> None:
        self.page = page
        self.problems: list[str] = []
        page.on("console", lambda m: self.problems.append(f"console {m.type}: {m.text}") if m.type == "error" else None)
        page.on("pageerror", lambda e: self.problems.append(f"page error: {e}"))
        page.on("dialog", lambda d: (self.problems.append(f"dialog: {d.message}"), d.dismiss()))
        page.on("request", lambda r: None if r.url.startswith("file://") else self.problems.append(f"request: {r.url}"))

    def open(self, html: str, path: Path) -> Any:
        path.write_text(html, encoding="utf-8")
        self.page.goto(path.as_uri())
        return self.page


@pytest.fixture
def watched(browser: Any) -> Iterator[Watched]:
    context = browser.new_context(viewport=PHONE)
    try:
        yield Watched(context.new_page())
    finally:
        context.close()


def _report(path: Path) -> str:
    head = ChainHead()
    events = [event for _, event in read_log(path, head=head)]
    return render_page(page_data(events, log=path.name, head=head))


def _in_view(page: Any, selector: str) -> bool:
    return bool(page.evaluate(
        """(sel) => { const r = document.querySelector(sel).getBoundingClientRect();
                      return r.height > 0 && r.top >= 0 && r.bottom <= window.innerHeight; }""",
        selector,
    ))


def _fits(page: Any) -> bool:
    """Nothing wider than the screen: no sideways scrolling of the page."""
    return bool(page.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1"))


@pytest.mark.parametrize("fight", [
    "roe7/disputed-duel.jsonl", "traveller/audit/the-forgotten-parry.jsonl", "en51/audit/the-wrong-die.jsonl",
])
def test_a_bundled_fight_in_the_browser(watched: Watched, tmp_path: Path, fight: str) -> None:
    path = FIXTURES / fight
    page = watched.open(_report(path), tmp_path / "fight.html")
    lines = sum(1 for _ in path.open("rb"))
    assert page.locator("#timeline li.ev").count() == lines
    assert page.locator("#charts svg.chart path[stroke]").count() >= 1
    findings = page.locator("#findings a.goto")
    assert findings.count() >= 1
    page.click("button[data-fold=close]")  # every round folded: the click must unfold the event's
    assert page.locator("details.round[open]").count() == 0
    link = findings.last
    target = "#" + link.get_attribute("href")[1:]
    link.click()
    assert page.locator(target).is_visible() and _in_view(page, target)
    assert "hit" in (page.locator(target).get_attribute("class") or "")
    shot = tmp_path / "fight.png"
    page.screenshot(path=str(shot), full_page=False)
    data = shot.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and len(data) > 5000
    assert _fits(page)
    assert watched.problems == []


def test_back_after_a_finding_link_returns_to_the_page(watched: Watched, tmp_path: Path) -> None:
    """A tester tapped a finding, then Back, and left the page (``about:blank``): the link
    replaced the history entry. Back now stays on the page, and a pool's counted dice keep
    their mark when a link marks its event (both use a class the script clears)."""
    page = watched.open(_report(FIXTURES / "roe7" / "disputed-duel.jsonl"), tmp_path / "fight.html")
    page.locator("#findings a.goto").last.click()
    assert "#" in page.url
    page.go_back()
    assert page.url.endswith("fight.html") and page.locator("#findings").count() == 1
    pools = watched.open(_report(FIXTURES / "bleeding-sun" / "audit" / "the-bleed-that-stopped.jsonl"),
                         tmp_path / "pool.html")
    counted = pools.locator(".die.counted").count()
    assert counted > 0
    pools.locator("#findings a.goto").first.click()
    assert pools.locator(".die.counted").count() == counted
    assert watched.problems == []


def test_the_chart_is_readable_and_its_markers_tappable_on_a_phone(watched: Watched, tmp_path: Path) -> None:
    """The chart scaled to a 390 px screen drew its labels 5 - 6 px tall and its finding
    markers 4.5 px wide (a tester): it keeps a readable width and scrolls in its own box,
    and the page itself still does not scroll sideways."""
    page = watched.open(_report(FIXTURES / "roe7" / "audit" / "out-of-turn.jsonl"), tmp_path / "fight.html")
    sizes = page.evaluate("""() => {
        const chart = document.querySelector("svg.chart");
        const scale = chart.getBoundingClientRect().width / chart.viewBox.baseVal.width;
        const tick = document.querySelector("svg.chart .tick");
        const marker = document.querySelector("svg.chart a.marker path").getBoundingClientRect();
        return [parseFloat(getComputedStyle(tick).fontSize) * scale, marker.width]; }""")
    # the label's font as drawn (its box is taller than its letters: 8.8 px passed as 10.6)
    assert sizes[0] >= 9 and sizes[1] >= 12, sizes
    assert _fits(page)
    assert watched.problems == []


def test_a_chart_marker_leads_to_its_event(watched: Watched, tmp_path: Path) -> None:
    page = watched.open(_report(FIXTURES / "roe7" / "audit" / "out-of-turn.jsonl"), tmp_path / "fight.html")
    page.click("button[data-fold=close]")
    marker = page.locator("svg.chart a.marker").first
    target = "#" + marker.get_attribute("href")[1:]
    marker.click()
    assert _in_view(page, target)
    assert watched.problems == []


@pytest.mark.parametrize("text", CORPUS, ids=[f"corpus{i}" for i in range(len(CORPUS))])
def test_hostile_text_runs_nothing_and_the_page_stays_readable(watched: Watched, tmp_path: Path, text: str) -> None:
    html = render_page(page_data(hostile_events(text, "Bo" + text[::-1]), log="hostile.jsonl"))
    page = watched.open(html, tmp_path / "hostile.html")
    page.locator("#findings a.goto").first.click()
    assert page.evaluate("typeof window.__xss") == "undefined"
    assert page.locator("img, iframe, object, embed, form, input").count() == 0
    assert page.locator("script").count() == 1
    assert _fits(page)
    quote = page.locator("blockquote").first.inner_text()
    assert text.replace("\u202e", "").replace("\u202c", "").replace("\u2067", "")[:40] in quote.replace("\u27e6U+202E\u27e7", "").replace("\u27e6U+202C\u27e7", "").replace("\u27e6U+2067\u27e7", "")
    assert watched.problems == []


def test_a_long_name_wraps_in_the_fighters_table_on_a_phone(watched: Watched, tmp_path: Path) -> None:
    """docs/report.md: a long word wraps. A 32-letter display name without a space (a usual
    one on Discord or in SL) made the Fighters table 553 px wide on a phone: HP and statuses
    were off the screen, reached only by scrolling the table (a tester)."""
    html = render_page(page_data(hostile_events("xXx_DarkLordOfTheShadowRealm_xXx"), log="long.jsonl"))
    page = watched.open(html, tmp_path / "long.html")
    sizes = page.evaluate("() => { const t = document.querySelector('#fighters table'); "
                          "return [t.scrollWidth, t.clientWidth]; }")
    assert sizes[0] <= sizes[1] + 1, sizes
    assert watched.problems == []


def test_the_fold_buttons_show_only_where_the_script_runs(browser: Any, tmp_path: Path) -> None:
    """Without JavaScript the rounds fold natively (details), and the two buttons that fold
    them all did nothing: they are shown by the script that works them."""
    path = tmp_path / "duel.html"
    path.write_text(_report(FIXTURES / "roe7" / "disputed-duel.jsonl"), encoding="utf-8")
    for scripted in (True, False):
        context = browser.new_context(viewport=PHONE, java_script_enabled=scripted)
        try:
            page = context.new_page()
            page.goto(path.as_uri())
            assert page.locator("button[data-fold=open]").is_visible() is scripted
        finally:
            context.close()


def test_a_sim_page_fits_a_phone_and_shows_its_interval_labels_whole(watched: Watched, tmp_path: Path) -> None:
    """The chart was 640 wide with no viewBox: its interval labels were cut at the right edge,
    and on a phone the page scrolled sideways."""
    from fightlog.report.page.render import render_sim
    from fightlog.scale.chart import WIDTH, svg

    row = {"rate": 0.58, "low": 0.442, "high": 0.7}
    report = {"fights": 50, "wins": {"dockhands": row, "syndicate": row},
              "rounds": {"mean": 4.0, "histogram": {"3": 20, "5": 30}}}
    chart = svg([("A: base.toml", report), ("B: bleed.toml", report)], "melee-brawl")
    page = watched.open(render_sim("melee-brawl", ["A: 50 fights"], chart), tmp_path / "sim.html")
    assert _fits(page)
    widths = page.evaluate("""() => [...document.querySelectorAll('svg text')]
        .filter(t => t.textContent.includes('[')).map(t => t.getBBox().x + t.getBBox().width)""")
    assert widths and max(widths) <= WIDTH
    scale = page.evaluate("""() => { const svg = document.querySelector("svg");
        return svg.getBoundingClientRect().width / svg.viewBox.baseVal.width; }""")
    assert scale >= 1, scale  # drawn at its own size, scrolling in its box: shrunk to the screen, its text was 5.6 px
    assert watched.problems == []
