"""The finding catalogue: every code documented, severities and the summary's counts."""

from __future__ import annotations

from pathlib import Path

from fightlog.audit.findings import Acceptance, Finding, known_codes, ordered, severity_of, summarize

DOC = Path(__file__).resolve().parents[2] / "docs" / "audit.md"


def test_every_code_is_in_the_docs_with_its_severity() -> None:
    text = DOC.read_text()
    for code, (severity, _) in known_codes().items():
        assert f"| `{code}` | {severity} |" in text, code


def make(code: str, seq: int, accepted: bool = False) -> Finding:
    return Finding(
        code=code, severity=severity_of(code), seq=seq, line=seq, message="m", rule="r",
        accepted=Acceptance(ruling=99, by="G") if accepted else None,
    )


def test_summary_counts_and_failure() -> None:
    found = [make("order.out-of-turn", 5), make("dice.unverified", 1), make("dice.unverifiable", 2),
             make("rules.reload", 7, accepted=True)]
    summary = summarize(found, events=10, ruleset="roe7", dice="")
    assert (summary.errors, summary.warnings, summary.info, summary.accepted) == (1, 1, 1, 1)
    assert summary.failed
    assert not summarize([make("dice.unverifiable", 2), make("rules.reload", 7, True)], events=1,
                         ruleset="x", dice="").failed
    assert [f.seq for f in ordered(found)] == [1, 2, 5, 7]
    assert [f.counts for f in found] == [True, True, False, False]


def test_an_unregistered_code_is_an_error() -> None:
    assert severity_of("rules.something-new") == "error"


def test_what_the_audit_could_not_judge_rests_on_the_audit_s_own_section_under_every_ruleset() -> None:
    """``scene.*`` says what the audit could not check (an unknown ruleset, options or a sheet
    the rules refuse): no rulebook section covers that. ``scene.bad-sheet`` fell back to each
    ruleset's whole rulebook when it was added (a review, 2026-11-28)."""
    from fightlog.kit.ruleset import installed, rules_for_scene
    from fightlog.kit.sections import AUDIT_SECTION

    scene_codes = [code for code in known_codes() if code.startswith("scene.")]
    assert {"scene.unknown-ruleset", "scene.bad-options", "scene.bad-sheet"} <= set(scene_codes)
    for ruleset in installed():
        rules = rules_for_scene(ruleset, {})
        assert {code: rules.rule_section(code) for code in scene_codes} == dict.fromkeys(scene_codes, AUDIT_SECTION)
