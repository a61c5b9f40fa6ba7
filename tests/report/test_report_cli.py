"""``fightlog report`` and ``fightlog dispute --report``: the page written whole, and every
bad input refused in one line with exit 2 (a damaged log: the page, and exit 1)."""

from __future__ import annotations

import os
import sys
import json
from pathlib import Path

import pytest

from fightlog.report.page import build
from tests.cli import DISPUTED, SCENARIO_LOGS, assert_one_line_error, assert_usage_error, damaged_log, run
from tests.report.hostile import hostile_events, log_bytes
from tests.conftest import FIXTURES


def report(*args: str, code: int = 0) -> str:
    result = run("report", *args)
    assert result.exit_code == code, result.output
    assert "Traceback" not in result.output
    return result.stdout


def test_the_page_is_written_and_said_in_one_line(tmp_path: Path) -> None:
    page = tmp_path / "duel.html"
    out = report(str(DISPUTED), "-o", str(page))
    # the audit's verdict and counts as ``fightlog audit`` ends: what the page's findings list holds
    assert out == f"wrote {page}: 128 events; audit: clean: 0 errors, 0 warnings, 3 info, 2 accepted by ruling\n"
    html = page.read_text(encoding="utf-8")
    assert "Findings (5)" in html
    audit = run("audit", str(DISPUTED)).stdout.splitlines()
    assert "audit: clean: 0 errors, 0 warnings, 3 info, 2 accepted by ruling;" in audit[-2]
    assert html.startswith("<!DOCTYPE html>") and html.rstrip().endswith("</html>")
    assert "Trouble at the pump house" in html and 'id="e128"' in html
    assert "http://" not in html.replace('xmlns="http://www.w3.org/2000/svg"', "") and "https://" not in html
    assert [p.name for p in tmp_path.iterdir()] == ["duel.html"]  # no temporary file left


def test_at_cuts_the_fight(tmp_path: Path) -> None:
    page = tmp_path / "round2.html"
    assert "60 events" in report(str(DISPUTED), "-o", str(page), "--at", "60")
    html = page.read_text(encoding="utf-8")
    assert 'id="e60"' in html and 'id="e61"' not in html and "up to seq 60" in html


def test_an_existing_page_is_kept_without_force(tmp_path: Path) -> None:
    """``--force`` replaces a page fightlog wrote, and nothing else: a file of the user's,
    or another fight's log named by mistake, stays as it was."""
    page = tmp_path / "duel.html"
    report(str(DISPUTED), "-o", str(page))
    written = page.read_bytes()
    assert_one_line_error(run("report", str(DISPUTED), "-o", str(page)), str(page),
                          "exists and is not empty (--force replaces it)")
    assert page.read_bytes() == written
    report(str(DISPUTED), "-o", str(page), "--force", "--at", "60")
    assert page.read_bytes() != written and page.read_text(encoding="utf-8").startswith("<!DOCTYPE html>")
    for name, mine in (("notes.html", "<!DOCTYPE html><p>mine</p>"), ("other-fight.jsonl", DISPUTED.read_text())):
        (tmp_path / name).write_text(mine)
        assert_one_line_error(run("report", str(DISPUTED), "-o", str(tmp_path / name), "--force"),
                              str(tmp_path / name), "is not a page fightlog wrote: --force replaces only such a page")
        assert (tmp_path / name).read_text() == mine


def test_the_log_itself_is_never_overwritten(tmp_path: Path) -> None:
    log = tmp_path / "fight.jsonl"
    log.write_bytes(DISPUTED.read_bytes())
    result = run("report", str(log), "-o", str(log), "--force")
    assert_one_line_error(result, str(log), "is the log, which this command reads: write the new page to another file")
    assert log.read_bytes() == DISPUTED.read_bytes()


def test_bad_inputs_are_one_line_and_exit_2(tmp_path: Path) -> None:
    page = str(tmp_path / "p.html")
    assert_one_line_error(run("report", str(tmp_path / "none.jsonl"), "-o", page), str(tmp_path / "none.jsonl"), "no such file")
    assert_one_line_error(run("report", str(DISPUTED), "-o", page, "--at", "129"), str(DISPUTED), "--at 129: the log ends at seq 128")
    assert_one_line_error(run("report", str(DISPUTED), "-o", str(tmp_path)), str(tmp_path), "is a directory")
    assert_usage_error(run("report", str(DISPUTED)), "-o")
    assert_usage_error(run("report", str(DISPUTED), "-o", page, "--at", "0"), "--at")
    assert not os.path.exists(page)


@pytest.mark.skipif(os.geteuid() == 0, reason="root writes in any directory")
def test_an_unwritable_directory(tmp_path: Path) -> None:
    locked = tmp_path / "locked"
    locked.mkdir(mode=0o500)
    assert_one_line_error(run("report", str(DISPUTED), "-o", str(locked / "p.html")), str(locked / "p.html"), "cannot write")


def test_a_missing_directory_is_one_line(tmp_path: Path) -> None:
    page = tmp_path / "no" / "p.html"
    assert_one_line_error(run("report", str(DISPUTED), "-o", str(page)), str(page), "cannot write in")


def test_a_damaged_log_is_shown_up_to_the_break_and_exits_1(tmp_path: Path) -> None:
    """Line 16 edited (Bob takes 1, not 19): line 17's ``prev`` no longer matches. The page
    showed line 16 as it stood, the edit as genuine (a tester): a broken link puts the line
    before it in doubt, so the page stops before that line, and says why."""
    log = damaged_log(tmp_path / "damaged.jsonl")
    page = tmp_path / "p.html"
    out = report(str(log), "-o", str(page), code=1)
    assert out.startswith(f"wrote {page}: 15 events; audit: ")
    assert out.endswith("; damaged at line 17, shown up to seq 15\n")
    html = page.read_text(encoding="utf-8")
    assert ("This log is damaged at line 17 (prev does not match line 16 (edited, removed or reordered?)): the fight "
            "is shown up to line 15: line 16 does not match the hash line 17 records, so it may be the edited one "
            "(not shown).") in html
    assert 'id="e15"' in html and 'id="e16"' not in html


def test_an_unfinished_append_is_not_shown(tmp_path: Path) -> None:
    """A log cut inside an append: the page showed the append's complete lines though the
    line said "damaged at line 6, shown up to the line before" (all or nothing: none of it); a
    torn line puts no line before it in doubt."""
    log = tmp_path / "f.jsonl"
    roster = str(FIXTURES / "roe7" / "rosters" / "gate-skirmish.toml")
    for args in (("start", str(log), "--ruleset", "roe7", "--seed", "1"),
                 ("join", str(log), "--roster", roster, "alice", "bob", "--at", "alice=0,0", "--at", "bob=20,0"),
                 ("begin", str(log))):
        assert run("play", *args).exit_code == 0
    torn = tmp_path / "t.jsonl"
    torn.write_bytes(log.read_bytes()[:-40])  # inside the last line of begin's append (lines 6..8)
    page = tmp_path / "p.html"
    out = report(str(torn), "-o", str(page), code=1)
    assert out.startswith(f"wrote {page}: 5 events; ") and out.endswith("; damaged at line 6, shown up to seq 5\n")
    html = page.read_text(encoding="utf-8")
    assert 'id="e5"' in html and 'id="e6"' not in html and 'id="e7"' not in html


def test_an_imported_fights_findings_cite_the_transcript(tmp_path: Path) -> None:
    """As ``audit`` prints them: the page's findings listed none (a new user's report)."""
    log = tmp_path / "brawl.jsonl"
    sl = FIXTURES / "import" / "sl"
    assert run("import", "sl", str(sl / "midnight-brawl.txt"), "-o", str(log), "--ruleset", "roe7",
               "--cast", str(sl / "midnight-brawl.cast.toml")).exit_code == 0
    page = tmp_path / "p.html"
    report(str(log), "-o", str(page))
    assert "(transcript <bdi>midnight-brawl.txt:3</bdi>)" in page.read_text(encoding="utf-8")


def test_an_unknown_ruleset_gets_the_generic_view(tmp_path: Path) -> None:
    log = tmp_path / "house.jsonl"
    log.write_bytes(log_bytes(hostile_events("Zed")))
    page = tmp_path / "p.html"
    report(str(log), "-o", str(page))
    assert "is not installed here: the generic view" in page.read_text(encoding="utf-8")


def test_without_jinja2_the_extra_is_named(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "jinja2", None)  # import jinja2 fails as if not installed
    from fightlog.report.page import render

    render._environment.cache_clear()
    try:
        result = run("report", str(DISPUTED), "-o", str(tmp_path / "p.html"))
    finally:
        render._environment.cache_clear()
    assert result.exit_code == 2 and result.stdout == ""
    assert result.stderr == "fightlog: the HTML report needs Jinja2, which is not installed: install fightlog's report extra (python -m pip install '.[report]' in its checkout)\n"
    assert not (tmp_path / "p.html").exists()


def test_a_log_too_long_for_a_page_is_refused(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Refused from the log's last line when it can be read first, else once the limit is
    passed (a pipe); --at shows the start."""
    from click.testing import CliRunner

    from fightlog.cli.main import cli

    monkeypatch.setattr(build, "MAX_EVENTS", 100)
    page = tmp_path / "p.html"
    assert_one_line_error(run("report", str(DISPUTED), "-o", str(page)), str(DISPUTED),
                          "128 events: a page shows at most 100 (--at SEQ")
    piped = CliRunner().invoke(cli, ["report", "-", "-o", str(page)], input=DISPUTED.read_bytes())
    assert_one_line_error(piped, "<stdin>", "more than 100 events: a page shows at most 100")
    assert "100 events" in report(str(DISPUTED), "-o", str(page), "--at", "100")
    # --at past the limit said "(--at SEQ shows the fight up to an event ...)" to one who had given it
    assert_one_line_error(run("report", str(DISPUTED), "-o", str(tmp_path / "q.html"), "--at", "120"), str(DISPUTED),
                          "--at 120: a page shows at most 100 events: give --at 100 or less")


def test_a_large_page_is_said_to_be_large(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A 12.5 MB page was written without a word (a phone may not open it)."""
    from fightlog.cli import report as report_cli

    monkeypatch.setattr(report_cli, "LARGE_PAGE", 1000)
    page = tmp_path / "p.html"
    result = run("report", str(DISPUTED), "-o", str(page))
    assert result.exit_code == 0
    size = page.stat().st_size / 1e6
    assert result.stderr == (f"fightlog: warning: {page}: {size:.1f} MB, large for a phone's browser (--at SEQ shows "
                             "less of the fight)\n")


def test_a_piped_log(tmp_path: Path) -> None:
    from click.testing import CliRunner

    from fightlog.cli.main import cli

    page = tmp_path / "p.html"
    result = CliRunner().invoke(cli, ["report", "-", "-o", str(page)], input=DISPUTED.read_bytes())
    assert result.exit_code == 0, result.output
    assert 'id="e128"' in page.read_text(encoding="utf-8")


def test_dispute_writes_both_fights_side_by_side(tmp_path: Path) -> None:
    page = tmp_path / "fork.html"
    result = run("dispute", str(SCENARIO_LOGS / "alley-duel.jsonl"), "--at", "41", "--set", "dice[0].face=10",
                 "--report", str(page))
    assert result.exit_code == 0, result.output
    html = page.read_text(encoding="utf-8")
    assert "Dispute: the original and the fork" in html and "Both fights from seq 41" in html
    assert 'id="oe41"' in html and 'id="ke41"' in html and 'id="oe40"' not in html
    assert "dice[0].face 100 -&gt; 10" in html  # the dispute's own summary, escaped
    again = run("dispute", str(SCENARIO_LOGS / "alley-duel.jsonl"), "--at", "41", "--set", "dice[0].face=10",
                "--report", str(page))
    assert_one_line_error(again, str(page), "exists and is not empty (--force replaces it)")


def test_the_dispute_s_page_never_replaces_its_fork(tmp_path: Path) -> None:
    """``dispute -o F --report F`` wrote the fork, said so, then wrote the page over it."""
    fork = tmp_path / "fork.jsonl"
    args = ("dispute", str(SCENARIO_LOGS / "alley-duel.jsonl"), "--at", "41", "--set", "dice[0].face=10")
    assert_usage_error(run(*args, "-o", str(fork), "--report", str(fork)), "--report and -o name the same file")
    assert not fork.exists()
    log = tmp_path / "duel.jsonl"
    log.write_bytes((SCENARIO_LOGS / "alley-duel.jsonl").read_bytes())
    result = run("dispute", str(log), "--at", "41", "--set", "dice[0].face=10", "--report", str(log), "--force")
    assert_one_line_error(result, str(log), "is the log under dispute, which this command reads")
    assert log.read_bytes() == (SCENARIO_LOGS / "alley-duel.jsonl").read_bytes()


def test_a_page_at_a_seq_says_where_the_log_ends(tmp_path: Path) -> None:
    """``--at 50`` of a 128-event log said "the log goes on to seq 50" (the events shown)."""
    page = tmp_path / "p.html"
    report(str(DISPUTED), "-o", str(page), "--at", "50")
    last = DISPUTED.read_bytes().rstrip(b"\n").rsplit(b"\n", 1)[-1]
    end = json.loads(last)["seq"]
    assert f"The fight up to seq 50, as it stood then (the log goes on to seq {end})." in page.read_text()


def test_dice_a_ruling_mended_are_said_as_the_audit_says_them(tmp_path: Path) -> None:
    """Two forged HUD rolls amended by the GM: the audit says "2 problems (2 mended by
    rulings)"; the page said "2 problems" in red, as if they still stood."""
    import shutil

    log = tmp_path / "hud.jsonl"
    shutil.copy(FIXTURES / "roe7" / "audit" / "tampered-hud-dice.jsonl", log)
    for args in (("24", "--set", "total=50"), ("80", "--set", "dice[0].face=100", "--set", "total=100")):
        assert run("rule", str(log), "amend", *args, "--by", "Gemma", "--reason", "x").exit_code == 0
    page = tmp_path / "p.html"
    report(str(log), "-o", str(page), code=0)
    html = page.read_text()
    assert ('<dt>Dice</dt><dd><span class="lv-warning">35 external rolls checked for arithmetic and ranges '
            "(honesty unverifiable); 2 problems (2 mended by rulings)</span></dd>") in html


def test_house_rules_are_the_options_that_differ_from_the_defaults(tmp_path: Path) -> None:
    """The page listed all 47 of a d20 scene's options (every one recorded in scene_started),
    filling a phone's first screen; the one house rule was among them."""
    page = tmp_path / "p.html"
    report(str(FIXTURES / "d20-evasion" / "scenarios" / "ford-ambush.jsonl"), "-o", str(page), code=0)
    assert "<dt>House rules</dt><dd><code>ambush</code> bandits</dd>" in page.read_text()
    report(str(DISPUTED), "-o", str(page), "--force", code=0)
    assert "<dt>House rules</dt><dd>none (the ruleset's defaults)</dd>" in page.read_text()


def test_a_pools_counted_dice_are_marked_and_a_rolls_label_shown(tmp_path: Path) -> None:
    """``7d6>=5: 5 6 3 5 3 6 3 = 4`` read as wrong arithmetic to a player, and what each roll
    was for (``shot 1``, ``damage: DV 10``) was nowhere on the page (a tester)."""
    page = tmp_path / "p.html"
    report(str(FIXTURES / "bleeding-sun" / "audit" / "the-bleed-that-stopped.jsonl"), "-o", str(page), code=0)
    html = page.read_text()
    assert ('<span class="die counted" title="d6, counts">5</span><span class="die counted" title="d6, counts">6</span>'
            '<span class="die" title="d6">3</span>') in html
    assert '<span class="roll-for"><bdi>sequence: savvy 3 + agility 4</bdi></span>' in html
    assert 'class="badge lv-warning"' not in html  # an external roll is information, not a warning


def test_a_voided_post_is_not_in_its_rounds_summary(tmp_path: Path) -> None:
    """A post the GM voided still listed in the round's "Posted:" (a tester)."""
    import shutil

    log = tmp_path / "posts.jsonl"
    shutil.copy(FIXTURES / "roe7" / "audit" / "out-of-turn.jsonl", log)
    assert run("rule", str(log), "void", "138", "--by", "G", "--reason", "x").exit_code == 0
    page = tmp_path / "p.html"
    report(str(log), "-o", str(page), code=0)
    assert "Posted: <bdi>Marek Hale, Marek Hale, Silt, Jonna Reyes, Pike</bdi>" in page.read_text()


def test_statuses_read_as_words(tmp_path: Path) -> None:
    """``mortally_wounded`` was cut to "mortally_wounde" in a phone's fighters table: words wrap."""
    page = tmp_path / "p.html"
    report(str(FIXTURES / "d20-evasion" / "scenarios" / "ford-ambush.jsonl"), "-o", str(page), code=0)
    html = page.read_text()
    assert "mortally wounded" in html and "<td>mortally_wounded" not in html
