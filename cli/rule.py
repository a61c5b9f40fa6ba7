"""``fightlog rule``: record a GM ruling on an earlier event (the event stays in the log)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

import click
import msgspec

from fightlog.cli.errors import reports_errors
from fightlog.cli.options import SEQ, format_option, log_argument
from fightlog.cli.output import echo_json
from fightlog.errors import InputError
from fightlog.kit.unseen import says_nothing

ACTIONS = ("void", "amend", "accept", "withdraw")


def _reason(ctx: click.Context, param: click.Parameter, value: str) -> str:
    """``--reason``: words the players will read, so not empty or blank."""
    if says_nothing(value):
        raise click.BadParameter("give the reason in words (it is recorded with the ruling)", ctx, param)
    return value


def _by(ctx: click.Context, param: click.Parameter, value: str | None) -> str | None:
    """``--by``: a name, when given (blank was recorded as the GM, or fell back to the scene's)."""
    if value is not None and says_nothing(value):
        raise click.BadParameter("give a name (leave --by out for the scene's GM)", ctx, param)
    return value


@click.command(
    epilog="""\b
Examples:
  fightlog fixtures                # once: copies the bundled files to fixtures/
  cp fixtures/roe7/audit/tampered-hud-dice.jsonl hud.jsonl   # a ruling is appended: rule on a copy
  fightlog rule hud.jsonl amend 24 --set total=50 --by Gemma --reason "the HUD added 40 + 10 wrong"
  fightlog rule hud.jsonl amend 80 --set 'dice[0].face=100' --set total=100 --by Gemma \\
      --reason "the HUD shows a d100's 100 as 0"
  fightlog rule hud.jsonl withdraw 136 --by Gemma --reason "Juno rolled again at the table"
  cp fixtures/roe7/audit/out-of-turn.jsonl posts.jsonl
  fightlog rule posts.jsonl void 138 --by Gemma --reason "Rook's player posted in the wrong scene"
  cp fixtures/roe7/audit/the-tie-that-hit.jsonl tie.jsonl
  fightlog rule tie.jsonl accept 27 --finding rules.tie-to-attacker --by Gemma \\
      --reason "tie went to the attacker by agreement"
  cp fixtures/roe7/audit/the-tie-that-hit.jsonl miss.jsonl
  fightlog rule miss.jsonl void 27 --with-consequences --by Gemma --reason "the tie goes to the defender"

\b
What a ruling may change: an amendment is checked as hard as the event it changes, and a
ruling is written only if the log as ruled still folds and audits (findings are fine: they
are the audit's to report). Refused, with the field and what is allowed:
  - a path the event does not have, or kind/seq/prev;
  - where the fight's rules and dice came from: a scene's ruleset, format, scene id and
    dice commitment, the seed scene_ended reveals, a combatant's salt, a roll's generator
    and index;
  - a value of the wrong type for the event (total="abc", actor=5, dice=[]);
  - options the scene's ruleset refuses; a sheet its rules cannot read (if they could);
  - a face off its die, dice that do not fit the notation, a total that does not add up
    (a roll's total is recomputed when you change its dice or modifiers and not the total);
  - voiding scene_started, a scene_ended that revealed the seed, or, in a fight in
    progress, the turn_started of the open turn (end the turn, or amend its actor), the
    round_started of the round under way or the initiative_set of the only order (amend
    it), or amending them to the same effect; a join, so that someone in the posting order
    is not in the fight; a ruling the log as ruled cannot fold or
    audit;
  - an empty or blank --reason or --by;
  - a void or amend of a ruling (withdraw it), a withdraw of a ruling not in force, an
    accept of a finding already accepted.
A void undoes that event only: what stands on it (a voided post's rolls and resolution, a
voided hit's damage) still counts, and the audit names each (outcome.voided-cause);
--with-consequences voids them with it, one ruling each, written together or not at all.
The audit checks amended rolls as ruled: an engine roll amended to faces the seed does not
give is the finding dice.ruled (fightlog verify --dice checks the log as recorded).

\b
Exit codes: 0 recorded; 2 bad input (a missing or damaged log, SEQ not an earlier event, a
change refused as above, no such finding to accept, a withdraw of something that is not a
ruling in force) or usage. Nothing is written unless the ruling is valid.
3 internal error (a bug: the error line names a crash report for the bug report)."""
)
@log_argument
@click.argument("action", type=click.Choice(ACTIONS), metavar="ACTION")
@click.argument("target", type=SEQ, metavar="SEQ")
@click.option("--by", "by", metavar="NAME", callback=_by, help="Who rules (default: the scene's GM).")
@click.option("--reason", required=True, metavar="TEXT", callback=_reason, help="Why, in words the players will read.")
@click.option(
    "--set",
    "assignments",
    multiple=True,
    metavar="PATH=VALUE",
    help="amend: a field of the event as ruled (repeatable): total=54, dice[0].face=55, "
    "actions[0].target=carol. VALUE is JSON if it parses, else text.",
)
@click.option("--finding", metavar="CODE", help="accept: the finding code let stand (default: every finding at SEQ).")
@click.option("--with-consequences", "whole", is_flag=True,
              help="void: void too every event that stands on SEQ (its rolls, its resolution, the damage that "
                   "followed: what the audit names outcome.voided-cause), one ruling each, all or none.")
@format_option
@reports_errors
def rule(
    log: str, action: str, target: int, by: str | None, reason: str, assignments: tuple[str, ...], finding: str | None,
    whole: bool, fmt: str,
) -> None:
    """Record a GM ruling on event SEQ of LOG: ACTION is void (treat it as not having
    happened), amend (treat it as if --set fields were recorded), accept (let an audit finding
    at SEQ stand) or withdraw (SEQ is an earlier ruling, which stops applying).

    The log is append-only: the ruling is a new event and SEQ stays as recorded. State,
    replay and audit honour rulings from then on (fightlog state --at shows the fight as it
    stood before one).
    """
    from fightlog.audit.ruling_checks import audit_ruled, refuse_stalling
    from fightlog.events.model import RulingMade
    from fightlog.events.reader import read_log
    from fightlog.events.store import FileStore

    events = [event for _, event in read_log(log)]
    head = events[-1].seq
    if target > head:
        raise InputError(f"SEQ {target}: the log ends at seq {head}", path=log)
    event = events[target - 1]
    gm = getattr(events[0], "gm", None)
    who = by or gm
    if not who:
        raise InputError("the scene names no GM: give --by NAME", path=log)
    if assignments and action != "amend":
        raise click.UsageError("--set is for amend")
    if finding is not None and action != "accept":
        raise click.UsageError("--finding is for accept")
    if whole and action != "void":
        raise click.UsageError("--with-consequences is for void")
    changes = _changes(log, target, event, events, assignments) if action == "amend" else {}
    _check_target(log, action, target, event, events[0])
    ruling = RulingMade(
        seq=head + 1, by=who, action=action, target=target, reason=reason, changes=changes, finding=finding  # type: ignore[arg-type]
    )
    refuse_stalling(events, ruling, name=log)
    rulings = [e for e in events if isinstance(e, RulingMade)]
    _check_rulings(log, action, target, finding, rulings)
    written = [ruling, *(_consequences(log, events, ruling, rulings) if whole else ())]
    report = audit_ruled([*events, *written[:-1]], written[-1], name=log)  # folds and audits as ruled, or nothing written
    if action == "accept":
        _check_finding(log, target, finding, {f.code for f in report.findings if f.seq == target})
    sealed = FileStore(log).append(written, expect=head)
    said = [_describe(r, events[r.target - 1]) for r in written]
    if fmt == "json":
        echo_json({"log": log, "appended": sealed, "ruling": said[0], "consequences": said[1:]})
    else:
        for done, text in zip(sealed, said):
            click.echo(f"seq {done.seq}: {who} rules: {text}")


def _consequences(log: str, events: Sequence[Any], ruling: Any, rulings: list[Any]) -> list[Any]:
    """``--with-consequences``: a void of each event that stands on the one ``ruling`` voids
    (``fightlog.audit.voided.consequences``), after it, with its reason and what it follows
    from; each refused as a void of it alone would be."""
    from fightlog.audit.ruling_checks import refuse_stalling
    from fightlog.audit.voided import consequences
    from fightlog.events.model import RulingMade
    from fightlog.reducers.fold import plan_of

    out = []
    for number, seq in enumerate(consequences(events, ruling.target, plan_of(rulings)), start=1):
        void = RulingMade(seq=ruling.seq + number, by=ruling.by, action="void", target=seq,
                          reason=f"{ruling.reason} (follows from seq {ruling.target})")
        _check_target(log, "void", seq, events[seq - 1], events[0])
        refuse_stalling(events, void, name=log)
        out.append(void)
    return out


def _changes(log: str, target: int, event: Any, events: Sequence[Any], assignments: tuple[str, ...]) -> dict[str, Any]:
    """What ``amend`` changes: each field ``--set`` changes, with its value as amended;
    refused as ``fightlog.audit.amendment`` refuses it, or when nothing changes."""
    from fightlog.audit.amendment import amend, changed_fields, parse_sets, ruling_reach
    from fightlog.kit.table import table_for  # the table lookup, given to the amendment

    if not assignments:
        raise click.UsageError("amend needs at least one --set PATH=VALUE")
    try:
        sets = parse_sets(assignments)
    except InputError as exc:
        raise click.BadParameter(exc.message, param_hint="'--set'") from None
    amended = amend(event, sets, ruling_reach(type(event)), scene=events[0], name=log, table_for=table_for,
                    events=events)
    changes = changed_fields(event, amended)
    if not changes:
        raise InputError(f"--set {sets[0][0]}: seq {target} records that already: nothing to amend",
                         path=log, line=target)
    return changes


def _check_target(log: str, action: str, target: int, event: Any, first: Any) -> None:
    """``void`` takes anything but the scene's start, and its end once that revealed the dice
    seed (unless the scene was open, its seed public from ``first``, its start); ``withdraw``
    takes a ruling."""
    from fightlog.events.seals import opened, seals_the_dice
    from fightlog.events.model import RulingMade, SceneStarted, kind_of
    from fightlog.kit.actions import a_or_an

    if action == "void" and isinstance(event, SceneStarted):
        raise InputError("the scene_started event cannot be voided: the whole log is its scene "
                         "(amend its title, gm or options instead)", path=log, line=target)
    if action == "void" and seals_the_dice(event, opened(first)):
        raise InputError("the scene_ended event cannot be voided: it revealed the dice seed, so every roll "
                         "after it would be known in advance (amend its winner or reason instead, or start "
                         "a new scene to fight on)", path=log, line=target)
    if action == "withdraw" and not isinstance(event, RulingMade):
        raise InputError(f"seq {target} is {a_or_an(kind_of(event))} event, not a ruling: only a ruling can be "
                         "withdrawn", path=log, line=target)
    if action in ("void", "amend") and isinstance(event, RulingMade):
        raise InputError(f"seq {target} is a ruling: a ruling is withdrawn, not {action}ed (fightlog rule LOG "
                         f"withdraw {target} --reason ...; then rule again)", path=log, line=target)


def _check_rulings(log: str, action: str, target: int, finding: str | None, rulings: list[Any]) -> None:
    """No second amend or void in force on one event, no second accept of what an accept in
    force accepts; a withdraw of a ruling in force."""
    from fightlog.reducers.fold import in_force

    if action in ("amend", "void"):
        _refuse_a_second_ruling(log, target, in_force(rulings))
    if action == "accept":
        _refuse_a_second_accept(log, target, finding, in_force(rulings))
    aimed = next((r for r in rulings if r.seq == target), None)
    if action == "withdraw" and aimed is not None and aimed.action == "withdraw":
        raise InputError(f"the ruling at seq {target} is itself a withdrawal (of seq {aimed.target}): a withdrawal "
                         f"is not withdrawn; to bring back seq {aimed.target}'s ruling, rule it again",
                         path=log, line=target)
    if action == "withdraw" and target not in {r.seq for r in in_force(rulings)}:
        raise InputError(f"the ruling at seq {target} is not in force (withdrawn or voided already)", path=log,
                         line=target)


def _refuse_a_second_accept(log: str, target: int, finding: str | None, standing: Iterable[Any]) -> None:
    """An accept of what an accept in force at ``target`` already accepts (the same code,
    or every finding there) would only be written twice."""
    for earlier in standing:
        if earlier.target == target and earlier.action == "accept" and earlier.finding in (None, finding):
            what = "every finding" if earlier.finding is None else earlier.finding
            raise InputError(f"{what} at seq {target} is already accepted by the ruling at seq {earlier.seq}, in force",
                             path=log, line=target)


def _refuse_a_second_ruling(log: str, target: int, standing: Iterable[Any]) -> None:
    """One amend or void in force per event: a second would replace the first as a whole (the
    fold applies the latest), silently undoing changes the GM made before."""
    from fightlog.reducers.fold import changing

    earlier = changing(target, standing)
    if earlier is not None:
        raise InputError(
            f"seq {target} is already {'amended' if earlier.action == 'amend' else 'voided'} by the "
            f"ruling at seq {earlier.seq}, in force: withdraw it first (fightlog rule LOG withdraw "
            f"{earlier.seq} --reason ...), then rule again with every change",
            path=log, line=target,
        )


def _check_finding(log: str, target: int, finding: str | None, here: set[str]) -> None:
    """An accept must name a finding the audit reports at ``target``."""
    if finding is None and here:
        return
    if finding in here:
        return
    found = ", ".join(sorted(here)) or "none"
    what = f"no {finding} finding" if finding else "no finding"
    raise InputError(f"{what} at seq {target} to accept (the audit reports there: {found})", path=log, line=target)


def _describe(ruling: object, event: Any) -> str:
    from fightlog.events.model import RulingMade, kind_of

    assert isinstance(ruling, RulingMade)
    what = f"seq {ruling.target} ({kind_of(event)})"
    if ruling.action == "amend":
        fields = ", ".join(f"{k} = {msgspec.json.encode(v).decode()}" for k, v in sorted(ruling.changes.items()))
        return f"amend {what}: {fields}; {ruling.reason}"
    if ruling.action == "accept":
        code = ruling.finding or "every finding"
        return f"accept {code} at {what}; {ruling.reason}"
    return f"{ruling.action} {what}; {ruling.reason}"

