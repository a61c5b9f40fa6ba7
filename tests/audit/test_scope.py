"""A log the audit cannot judge says so (fightlog.audit.scope): a scene under a ruleset this
fightlog does not have gets one warning naming it, the installed ones and the nearest, and
the summary says no rules were checked; the posting order and the dice still are."""

from __future__ import annotations

import pytest
from msgspec.structs import replace

from fightlog.audit.auditor import audit_events
from fightlog.events.model import SceneStarted
from fightlog.kit.ruleset import installed
from tests.audit.test_order import changed, duel
from tests.cli import run


def renamed(ruleset: str) -> list:  # type: ignore[type-arg]
    events = duel()
    first = events[0]
    assert isinstance(first, SceneStarted)
    events[0] = replace(first, ruleset=ruleset)
    return events


def rulesets() -> str:
    """The rulesets a warning lists: every installed one with rules (tests may register more)."""
    return ", ".join(name for name in installed() if name != "generic")


def test_installed_rulesets() -> None:
    # (a test may register a ruleset of its own)
    assert {"d20-evasion", "generic", "roe7"} <= set(installed()) and list(installed()) == sorted(installed())


def test_an_unknown_ruleset_is_a_warning_with_a_suggestion() -> None:
    report = audit_events(renamed("roe8"))
    assert [(f.code, f.seq, f.severity) for f in report.findings] == [("scene.unknown-ruleset", 1, "warning")]
    assert report.findings[0].message == (
        f"the scene's ruleset 'roe8' is not installed (installed: {rulesets()}; did you mean 'roe7'?): "
        "its rules were not checked, only the posting order and the dice"
    )
    assert report.summary.failed
    assert report.summary.ruleset == "no ruleset ('roe8' is not installed: posting order and dice checked, no rules)"


def test_no_suggestion_when_nothing_is_near() -> None:
    report = audit_events(renamed("warhammer"))
    assert "did you mean" not in report.findings[0].message
    assert f"'warhammer' is not installed (installed: {rulesets()}): its" in report.findings[0].message


def test_the_posting_order_is_still_checked() -> None:
    events = changed(renamed("d20-evasoin"), 39, actor="rook")
    codes = [(f.code, f.seq) for f in audit_events(events).findings]
    assert codes == [("scene.unknown-ruleset", 1), ("order.out-of-turn", 39)]
    assert "did you mean 'd20-evasion'?" in audit_events(events).findings[0].message


def test_known_rulesets_say_nothing() -> None:
    assert audit_events(duel()).summary.ruleset == "roe7"
    assert audit_events(renamed("generic")).findings == []


def test_the_cli_summary_says_so(tmp_path) -> None:  # type: ignore[no-untyped-def]
    from tests.cli import write_log

    log = write_log(tmp_path / "roe8.jsonl", [replace(e, seq=0, prev="") for e in renamed("roe8")])
    result = run("audit", str(log))
    assert result.exit_code == 1
    assert "warning  scene.unknown-ruleset" in result.stdout
    assert "checked under no ruleset ('roe8' is not installed: posting order and dice checked, no rules)" in result.stdout


# --------------------------------------------------------------------------- options refused

BAD_OPTIONS = {  # a bundled engine fight of each ruleset, and one option set to what it refuses
    "roe7": ("roe7/scenarios/alley-duel.jsonl", "ranged_damage_list", "heavy-1d50"),
    "d20-evasion": ("d20-evasion/scenarios/ashfall-duel.jsonl", "stat_step", 0),
    "traveller": ("traveller/scenarios/first-aid-on-the-ramp.jsonl", "prone_melee_dm", None),
    "en51": ("en51/scenarios/dry-magazine.jsonl", "die_succeeds", "never"),
    "bleeding-sun": ("bleeding-sun/scenarios/bleed-out.jsonl", "hit_face", 7),
}


def _with_option(ruleset: str) -> list:  # type: ignore[type-arg]
    from tests.conftest import FIXTURES
    from fightlog.events.codec import decode_line

    name, option, value = BAD_OPTIONS[ruleset]
    events = [decode_line(line) for line in (FIXTURES / name).read_bytes().splitlines()]
    first = events[0]
    assert isinstance(first, SceneStarted) and first.ruleset == ruleset and option in first.options
    events[0] = replace(first, options={**first.options, option: value})
    return events


def test_every_ruleset_is_in_the_options_table() -> None:
    assert set(BAD_OPTIONS) == set(installed()) - {"generic"}


@pytest.mark.parametrize("ruleset", sorted(BAD_OPTIONS))
def test_options_the_ruleset_refuses_are_an_error_and_the_rules_are_checked_under_the_defaults(ruleset: str) -> None:
    """A scene's options its ruleset refuses (as ``play start`` would) are one error at
    ``scene_started`` naming the option; the log still folds and audits (before, traveller's
    audit stopped with an ``<input>: ...`` error naming no file, and the others said nothing)."""
    from fightlog.audit.one_process import audit_events as audit_in_memory

    _, option, _ = BAD_OPTIONS[ruleset]
    clean = audit_in_memory(_events_of(ruleset))
    report = audit_in_memory(_with_option(ruleset))
    found = [(f.code, f.seq, f.severity) for f in report.findings]
    assert found[0] == ("scene.bad-options", 1, "error")
    assert found[1:] == [(f.code, f.seq, f.severity) for f in clean.findings]
    message = report.findings[0].message
    assert message.startswith(f"the scene's options do not read under {ruleset}: {ruleset} option '{option}': ")
    assert message.endswith("; its rules were checked under the default options")


def _events_of(ruleset: str) -> list:  # type: ignore[type-arg]
    from tests.conftest import FIXTURES
    from fightlog.events.codec import decode_line

    return [decode_line(line) for line in (FIXTURES / BAD_OPTIONS[ruleset][0]).read_bytes().splitlines()]


def test_options_refused_exit_1_at_the_cli(tmp_path) -> None:  # type: ignore[no-untyped-def]
    from tests.cli import write_log

    log = write_log(tmp_path / "bad-options.jsonl", [replace(e, seq=0, prev="") for e in _with_option("traveller")])
    result = run("audit", str(log))
    assert result.exit_code == 1, result.output
    assert "error    scene.bad-options" in result.stdout
    assert "traveller option 'prone_melee_dm'" in result.stdout
