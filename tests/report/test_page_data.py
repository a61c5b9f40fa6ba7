"""The report page as data and as HTML, without a browser: a snapshot of a fight's page,
every bundled fight of every installed ruleset, the timeline's parts, and the property that
no text in any field of a log makes markup."""

from __future__ import annotations

from html.parser import HTMLParser
from pathlib import Path

import msgspec
import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from fightlog.events.reader import ChainHead, read_log
from fightlog.report.page import chart as chart_module
from fightlog.report.page.build import page_data, pool_views
from fightlog.report.page.chart import charts, tracks
from fightlog.report.page.render import render_page
from fightlog.report.visible import reveal
from fightlog.testing.snapshot import FightSnapshotExtension
from tests.conftest import FIXTURES
from tests.report.hostile import CORPUS, hostile_events

BUNDLED = sorted(FIXTURES.glob("**/*.jsonl"))
DUEL = FIXTURES / "roe7" / "disputed-duel.jsonl"


def read(path: Path) -> tuple[list, ChainHead]:  # type: ignore[type-arg]
    head = ChainHead()
    return [event for _, event in read_log(path, head=head)], head


@pytest.fixture
def snapshot_json(snapshot):  # type: ignore[no-untyped-def]
    return snapshot.use_extension(FightSnapshotExtension)


def test_the_page_of_the_disputed_duel(snapshot_json) -> None:  # type: ignore[no-untyped-def]
    events, head = read(DUEL)
    assert msgspec.to_builtins(page_data(events, log="disputed-duel.jsonl", head=head)) == snapshot_json


@pytest.mark.parametrize("path", BUNDLED, ids=lambda p: str(p.relative_to(FIXTURES)))
def test_every_bundled_fight_renders(path: Path) -> None:
    """Every event has its place, every finding its link, whatever the ruleset."""
    events, head = read(path)
    page = page_data(events, log=path.name, head=head)
    html = render_page(page)
    told = [item.seq for r in page.rounds for item in r.items]
    assert told == [e.seq for e in events]
    for seq in told:
        assert f'id="e{seq}"' in html
    for finding in page.findings:
        assert f'href="#e{finding.seq}"' in html and f'id="f{finding.id}"' in html
    assert page.header.chain.level == "ok" and page.header.head == f"{head.seq}:{head.digest}"
    assert html.count("<svg") == len(page.charts) >= (1 if any(f.pools for f in page.fighters) else 0)
    assert html.count("<script") == 1  # the page's own, and nothing else


def test_the_disputed_duel_pins_findings_rulings_and_the_posting_order() -> None:
    events, head = read(DUEL)
    page = page_data(events, log="d", head=head)
    items = {item.seq: item for r in page.rounds for item in r.items}
    skipped = next(f for f in page.findings if f.code == "order.skipped")
    assert skipped.accepted and skipped.accepted_by == "Gemma" and skipped.id in items[skipped.seq].findings
    assert [(n.action, n.ruling) for n in items[42].ruled] == [("void", 59)]  # the bleed tick entered twice
    assert items[59].about == 42 and items[59].kind == "ruling_made"
    round2 = next(r for r in page.rounds if r.title == "Round 2")
    assert round2.order is not None and round2.order.skipped == ["Bob Kade (accepted by ruling)"]  # the GM accepted it: said so
    assert round2.order.settled == ["skipped"]  # shown settled, not red
    assert round2.order.order == ["Bob Kade", "Alice Vance", "Cara Moss"]
    roll = items[32].roll
    assert roll is not None and [d.face for d in roll.dice] == [13, 8] and roll.external
    assert [(m.source, m.value) for m in roll.modifiers] == [("Violent Upbringing", "+5")]
    post = items[11].post
    assert post is not None and post.text.startswith("Bob vaults") and "attack Alice Vance" in post.actions
    hp = page.charts[0]
    assert hp.pool == "hp" and [s.name for s in hp.series] == ["Alice Vance", "Bob Kade", "Cara Moss"]
    assert (42, 78) in hp.series[0].points and (59, 83) in hp.series[0].points  # the void gives the HP back
    assert [m.seq for m in hp.markers] == sorted(f.seq for f in page.findings)
    assert page.header.dice.level == "info" and "unverifiable" in page.header.dice.text


def test_each_round_says_who_was_skipped_posted_out_of_turn_or_twice() -> None:
    events, head = read(FIXTURES / "roe7" / "audit" / "out-of-turn.jsonl")
    page = page_data(events, log="o", head=head)
    orders = {r.title: r.order for r in page.rounds if r.order is not None}
    assert orders["Round 2"].out_of_turn == ["Jonna Reyes"]  # type: ignore[union-attr]
    assert orders["Round 2"].posted == ["Marek Hale", "Jonna Reyes", "Silt", "Jonna Reyes", "Pike"]  # type: ignore[union-attr]
    assert orders["Round 3"].twice == ["Marek Hale"]  # type: ignore[union-attr]
    assert orders["Round 4"].skipped == ["Silt"]  # type: ignore[union-attr]
    assert orders["Round 4"].order == ["Marek Hale", "Silt", "Jonna Reyes", "Pike"]  # type: ignore[union-attr]
    marked = {item.seq: item.level for r in page.rounds for item in r.items if item.level}
    assert marked[72] == marked[107] == marked[162] == "error" and marked[14] == "info"
    assert [r.findings for r in page.rounds if r.title in ("Round 2", "Round 3", "Round 4")] == [1, 2, 1]  # round 3: and rook, not in the fight


def test_at_shows_the_fight_as_it_stood() -> None:
    events, head = read(DUEL)
    page = page_data(events, log="d", head=head, at=50)
    assert [item.seq for r in page.rounds for item in r.items][-1] == 50
    assert not any(note.ruling > 50 for r in page.rounds for item in r.items for note in item.ruled)
    assert "up to seq 50" in page.header.notes[-1].text and page.header.events == 50
    assert not page.header.ended


def test_an_out_of_turn_post_and_an_unknown_ruleset_are_said() -> None:
    page = page_data(hostile_events("Zed"), log="h")
    assert page.header.ruleset_known is False
    assert any("not installed" in n.text for n in page.header.notes)
    rounds = [r for r in page.rounds if r.order is not None]
    assert rounds[0].order is not None and rounds[0].order.twice == ["Zed"]
    assert any(item.level == "error" for item in rounds[0].items)
    voided = next(item for item in rounds[0].items if item.seq == 10)
    assert voided.ruled[0].action == "void"


def test_a_long_fight_folds_its_rounds_and_decimates_the_chart(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(chart_module, "MAX_POINTS", 10)
    samples = {"hp": {"a": [(seq, 100 - seq % 7) for seq in range(1, 200)]}}
    [chart] = charts(samples, {"hp": {"a": 100}}, {"a": "Ann"}, [(s, s) for s in range(1, 200, 3)], [], 200)
    points = chart.series[0].points
    assert len(points) <= 12 and points[0] == (1, 99) and points[-1] == (199, 100 - 199 % 7)
    assert len(chart.rounds) <= chart_module.MAX_ROUND_LINES


def test_axis_labels_fit_their_margin() -> None:
    assert [chart_module.short(v) for v in (0, 950, 12_345, 3_500_000, 1_000_000_000, -20)] == [
        "0", "950", "12k", "3.5M", "1G", "-20"]


def test_a_track_of_numbered_pools_is_charted_and_listed_as_its_total() -> None:
    samples = {f"w{i}": {"a": [(1, 1)]} for i in range(1, 21)}
    samples["w7"]["a"].append((5, 0))
    samples["hp"] = {"a": [(1, 10)]}
    merged, maxima = tracks(samples, {f"w{i}": {"a": 1} for i in range(1, 21)})
    assert set(merged) == {"hp", "w1..w20"} and merged["w1..w20"]["a"] == [(1, 20), (5, 19)]
    assert maxima["w1..w20"] == {"a": 20}
    views = pool_views({"hp": 3, **{f"w{i}": 1 for i in range(1, 21)}, "w7": 0}, {f"w{i}": 1 for i in range(1, 21)})
    assert [(v.name, v.value, v.max, v.note) for v in views] == [("hp", 3, None, ""), ("w1..w20", 19, 20, "w7 0")]


def test_the_state_and_the_replay_show_a_wound_track_as_one_in_number_order() -> None:
    """en5.1's twenty wound circles were listed one by one in text order (w1, w10, w11 ... w2),
    in ``state``, the replay and ``dispute``'s end state: which circles were marked was lost."""
    from fightlog.reducers.state import pool_order
    from fightlog.report.narration import pools_text

    maxima = {f"w{i}": 1 for i in range(1, 21)}
    pools = {**maxima, "w7": 0, "w12": 0, "armour": 4}
    assert pools_text(pools, {**maxima, "armour": 5}) == "armour 4/5, w1..w20 18/20 (w7 0, w12 0)"
    assert pools_text({"w1": 1, "w10": 0}, {}) == "w1 1, w10 0"  # two are no track
    assert sorted(["w10", "w2", "hp", "armour", "w1"], key=pool_order) == ["hp", "armour", "w1", "w2", "w10"]


def test_bidirectional_controls_are_shown_not_obeyed() -> None:
    assert reveal("a\u202eb\u2067c") == "a\u27e6U+202E\u27e7b\u27e6U+2067\u27e7c"


def test_characters_of_no_width_are_shown_and_joiners_kept() -> None:
    """A tester's roster id "v\u200bex": "'vex' is not in the roster (v\u200bex, rook)" read as a
    contradiction. An emoji's joiners are left alone."""
    from fightlog.report.visible import reveal_for_terminal

    for shown in (reveal, reveal_for_terminal):
        assert shown("v\u200bex \u2060\ufeff\u180e") == "v\u27e6U+200B\u27e7ex \u27e6U+2060\u27e7\u27e6U+FEFF\u27e7\u27e6U+180E\u27e7"
        assert shown("\U0001f468\u200d\U0001f469 \u0915\u094d\u200c\u0937") == \
            "\U0001f468\u200d\U0001f469 \u0915\u094d\u200c\u0937"


def test_control_characters_are_shown_on_a_page_and_white_space_kept() -> None:
    """A bell, an escape or a NUL in a GM's line went into the page raw (a NUL is an HTML
    parse error); tab, newline, form feed and return are the page's white space."""
    assert reveal("a\x07b\x1b[31mc\x00d\x85") == (
        "a\u27e6U+0007\u27e7b\u27e6U+001B\u27e7[31mc\u27e6U+0000\u27e7d\u27e6U+0085\u27e7")
    assert reveal("a\tb\nc\x0cd\re") == "a\tb\nc\x0cd\re"


class _Tags(HTMLParser):
    """Every tag and attribute of a page."""

    def __init__(self) -> None:
        super().__init__()
        self.tags: set[str] = set()
        self.attributes: list[tuple[str, str | None]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.add(tag)
        self.attributes += attrs


PAGE_TAGS = {
    "html", "head", "meta", "title", "style", "body", "header", "h1", "h2", "h3", "p", "dl", "dt", "dd", "span",
    "b", "i", "code", "nav", "a", "section", "table", "thead", "tbody", "tr", "th", "td", "bdi", "svg", "rect",
    "text", "line", "path", "div", "ol", "ul", "li", "details", "summary", "blockquote", "button", "footer",
    "script", "br",
}


def _markup_of(html: str) -> _Tags:
    parser = _Tags()
    parser.feed(html)
    return parser


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.text(min_size=1, max_size=60) | st.sampled_from(CORPUS[:-1]))
def test_any_text_in_any_field_renders_as_text(text: str) -> None:
    """A player's text never becomes a tag, an attribute, a link or a script."""
    html = render_page(page_data(hostile_events(text, text[::-1] or "x"), log=text))
    markup = _markup_of(html)
    assert markup.tags <= PAGE_TAGS
    assert html.count("<script") == 1
    for name, value in markup.attributes:
        assert not name.startswith("on"), (name, value)
        if name == "href":
            assert value is not None and value.startswith("#"), value


def test_a_dispute_page_holds_both_fights_from_the_first_difference() -> None:
    from fightlog.audit.dispute import Change, dispute
    from fightlog.kit.table import table_for
    from fightlog.report.page.dispute_page import dispute_page

    events, _ = read(FIXTURES / "roe7" / "scenarios" / "alley-duel.jsonl")
    outcome = dispute(events, Change(seq=41, sets=(("dice[0].face", 10),)), table_for=table_for, name="alley")
    page = dispute_page(outcome, log="alley", summary=["change: a natural 100 made a 10"])
    assert page.start == 41 and page.summary == ["change: a natural 100 made a 10"]
    assert [side.title for side in (page.left, page.right)] == ["original", "fork"]
    for side in (page.left, page.right):
        assert side.rounds[0].items[0].seq == 41 and side.rounds[0].first == 41
    assert page.left.events == 88 and page.right.events == 83
    assert page.left.winner == "dockhands" and page.right.winner is None
    assert "dice.seed" in [f.code for f in page.right.findings if f.seq == 41]
    assert "dice.seed" not in [f.code for f in page.left.findings]


def test_the_audit_in_a_forked_child_gives_the_same_page() -> None:
    events, head = read(FIXTURES / "roe7" / "audit" / "out-of-turn.jsonl")
    forked = page_data(events, log="o", head=head, fork=True)
    assert forked == page_data(events, log="o", head=head) and forked.findings


def test_a_fold_error_is_the_same_with_the_audit_forked() -> None:
    from fightlog.errors import FoldError

    events, head = read(FIXTURES / "roe7" / "sample-duel.jsonl")
    broken = [*events[:10], *events[11:]]  # seq 11 missing: the fold refuses seq 12
    errors = []
    for fork in (False, True):
        with pytest.raises(FoldError) as caught:
            page_data(broken, log="s", head=head, fork=fork)
        errors.append(str(caught.value))
    assert errors[0] == errors[1]
