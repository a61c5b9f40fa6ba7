"""What the audit reports: findings, their stable codes and severities, and the summary.

A finding is pinned to one event (its ``seq``, which is also its line in the log), names the
actor it concerns, says in one sentence what is wrong in words a player would accept, and
names the rulebook section it rests on. Codes are stable: bots and GM rulings
(``ruling_made`` with ``action: accept`` and ``finding: CODE``) refer to them.

``CODES`` holds the shared codes: the posting order, the dice, what the audit can judge,
imported fights, and the refusals the ruleset kit words for every ruleset. A ruleset declares
its own codes (``Ruleset.findings``, ``fightlog.kit.sections``); ``severity_of`` asks the
scene's ruleset for them, and ``known_codes`` lists them all.

Severities: ``error`` (the rules or the posting order were broken), ``warning`` (something
cannot be trusted or checked, such as a seed never revealed), ``info`` (worth knowing, not
wrong: external rolls whose honesty cannot be checked). Errors and warnings that no ruling
accepted make ``fightlog audit`` exit 1; info never does.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from msgspec import Struct

from fightlog.kit.ruleset import Ruleset, installed, ruleset_for
from fightlog.kit.sections import Severity

SEVERITIES: tuple[Severity, ...] = ("error", "warning", "info")

CODES: Mapping[str, tuple[Severity, str]] = {
    # posting order (fightlog.audit.order, with the ruleset's questions)
    "order.not-in-fight": ("error", "a post by someone who is not in the fight"),
    "order.out-of-turn": ("error", "a post out of turn"),
    "order.double-post": ("error", "two posts by one actor within a round"),
    "order.listed-twice": ("error", "a posting order naming one combatant twice"),
    "order.skipped": ("error", "a combatant skipped in the posting order"),
    "order.cannot-act": ("error", "an action by someone who cannot act"),
    "order.arrival-acted": ("error", "an arrival acting in their arrival post"),
    "order.round-not-ended": ("error", "a round started before the one before it ended"),
    "order.round-number": ("error", "a round number repeated, skipped or counted back"),
    # the refusals the ruleset kit words for every ruleset (fightlog.kit.declared, fightlog.kit.fighters)
    "rules.unknown-action": ("error", "an action type the ruleset does not have"),
    "rules.target": ("error", "a target not in the fight, or one that cannot be targeted"),
    "rules.refused": ("error", "a declaration the rules refuse"),
    "rules.pool": ("error", "damage or healing to a pool its target does not have, or to someone not in the fight"),
    # what a log's facts must agree on, under any ruleset (fightlog.audit.answers)
    "outcome.undeclared": ("error", "the poster's attack resolved on a target its declaration did not name"),
    "outcome.winner": ("error", "a scene's end naming a winner the fighters' statuses do not give"),
    "outcome.damage": ("error", "an attack's damage on another than its target, or applied twice to one pool; a "
                                "damage citing nothing in a scene the engine played"),
    "outcome.reference": ("error", "an event naming as what it follows from a seq that is not an earlier event"),
    "outcome.voided-cause": ("warning", "an event standing on one a ruling voided (its damage, its resolution, its rolls)"),
    # what the audit can judge (fightlog.audit.scope)
    "scene.unknown-ruleset": ("warning", "a ruleset this fightlog does not have: its rules not checked"),
    "scene.bad-options": ("error", "options the scene's ruleset refuses: its rules checked under the default options"),
    "scene.after-end": ("error", "events written after the scene ended (only a GM's ruling may follow it)"),
    "scene.joined-pools": ("error", "a combatant joining with more in a pool than their sheet gives (more HP, a "
                                    "Wound of the sheet left unmarked)"),
    "scene.bad-sheet": ("error", "a sheet the scene's ruleset cannot read: the checks that read it not made"),
    # dice (fightlog.audit.dice_checks, over fightlog.dice.verify)
    "dice.face": ("error", "an impossible die face"),
    "dice.arithmetic": ("error", "a roll total that does not add up"),
    "dice.notation": ("error", "dice that do not fit the notation"),
    "dice.kept": ("error", "an external roll keeping dice its dialect would drop"),
    "dice.reroll": ("error", "an external roll's rerolls or explosions its dialect would not make"),
    "dice.claim": ("error", "a bot reply claiming what its own dice do not give (a forced face, a pass/fail, a set total, botches)"),
    "dice.limit": ("error", "an external roll's expression over the dice limits"),
    "dice.seed": ("error", "an engine roll the seed does not give"),
    "dice.index": ("error", "engine rolls out of order"),
    "dice.ruled": ("error", "a roll a ruling amended that the dice checks refuse"),
    "dice.foreseeable": ("error", "engine rolls after the scene's end had revealed their seed"),
    "dice.commitment": ("warning", "engine rolls without a dice commitment"),
    "dice.unverified": ("warning", "engine rolls that cannot be recomputed"),
    "dice.unverifiable": ("info", "external rolls: ranges and arithmetic checked, honesty not"),
    "dice.partial": ("info", "an external roll read only in part from its bot's reply: not checked"),
    # imported fights (fightlog.audit.imported)
    "import.roll-undeclared": ("warning", "a roll with no declaration it belongs to (before its post, out of turn)"),
    "import.unrolled": ("warning", "a declared attack, throw, cast or flee with no roll for it"),
    "import.rerolled": ("info", "the same dice rolled again for one post, past one an action that rolls and a "
                        "target (an attack rolled until it hit, or a fire mode or damage the transcript does not "
                        "tell apart)"),
    "import.roll-edited": ("warning", "a dice bot's or HUD's message edited after it was sent"),
    "import.post-edited": ("info", "a post edited after it was sent"),
}
"""Every shared finding code -> its severity and what it means (``docs/audit.md`` lists
them, and each ruleset's own codes)."""


class Acceptance(Struct, frozen=True, kw_only=True):
    """A GM ruling that lets a finding stand (``ruling_made`` with ``action: accept``)."""

    ruling: int
    by: str
    reason: str = ""


class Finding(Struct, frozen=True, kw_only=True, omit_defaults=True):
    """One problem, pinned to an event (see the module docstring)."""

    code: str
    severity: Severity
    seq: int
    line: int
    message: str
    rule: str
    actor: str | None = None
    accepted: Acceptance | None = None
    ref: str | None = None
    """Where the event came from (its ``origin.ref``: a transcript's ``FILE:LINE`` or message id)."""

    @property
    def counts(self) -> bool:
        """Whether this finding makes the audit fail (an unaccepted error or warning)."""
        return self.accepted is None and self.severity != "info"


def severity_of(code: str, rules: Ruleset | None = None) -> Severity:
    """The severity of a code: a shared one's, else the one ``rules`` (the scene's ruleset)
    declares; ``error`` for a code nobody declares."""
    known = CODES.get(code)
    if known is not None:
        return known[0]
    own = None if rules is None else rules.findings().get(code)
    return "error" if own is None else own.severity


def known_codes() -> dict[str, tuple[Severity, str]]:
    """Every finding code this fightlog knows -> its severity and meaning: the shared ones,
    and those of every installed ruleset (loading each ruleset's light module)."""
    known = dict(CODES)
    for ruleset_id in installed():
        for code, declared in ruleset_for(ruleset_id).findings().items():
            known.setdefault(code, (declared.severity, declared.meaning))
    return known


class Summary(Struct, frozen=True, kw_only=True):
    """Counts for the audit's closing line: findings by severity (accepted ones apart),
    events audited, and what the dice check could do."""

    events: int
    voided: int = 0
    """Events a GM ruling in force voided (not audited, not in ``events``)."""
    errors: int = 0
    warnings: int = 0
    info: int = 0
    accepted: int = 0
    ruleset: str = "generic"
    dice: str = ""

    @property
    def failed(self) -> bool:
        return bool(self.errors or self.warnings)


def summarize(findings: Iterable[Finding], *, events: int, ruleset: str, dice: str, voided: int = 0) -> Summary:
    counts = {"error": 0, "warning": 0, "info": 0}
    accepted = 0
    for finding in findings:
        if finding.accepted is not None:
            accepted += 1
        else:
            counts[finding.severity] += 1
    return Summary(
        events=events,
        voided=voided,
        errors=counts["error"],
        warnings=counts["warning"],
        info=counts["info"],
        accepted=accepted,
        ruleset=ruleset,
        dice=dice,
    )


def ordered(findings: Iterable[Finding]) -> list[Finding]:
    """Findings in log order (then by code), the order every report uses."""
    return sorted(findings, key=lambda f: (f.seq, f.code, f.actor or "", f.message))
