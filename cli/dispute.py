"""``fightlog dispute``: fork a fight at one recorded fact, re-derive the rest, show what
changes (the core is ``fightlog.audit.dispute``)."""

from __future__ import annotations

import os
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import click
import msgspec

from fightlog.cli.errors import reports_errors
from fightlog.cli.options import SEQ, check_new_log, check_new_page, format_option, input_log_argument, seed_option
from fightlog.cli.output import echo_json
from fightlog.report.wording import plural
from fightlog.errors import InputError

if TYPE_CHECKING:
    from fightlog.audit.dispute import Dispute, Dropped, Ending, FindingChange
    from fightlog.events.compare import Difference
    from fightlog.events.model import AnyEvent


def _assignments(ctx: click.Context, param: click.Parameter, value: Sequence[str]) -> tuple[tuple[str, Any], ...]:
    from fightlog.events.paths import parse_assignment

    out: list[tuple[str, Any]] = []
    for text in value:
        try:
            _, parsed = parse_assignment(text)
        except InputError as exc:
            raise click.BadParameter(exc.message) from None
        out.append((text.partition("=")[0].strip(), parsed))
    return tuple(out)


@click.command(
    epilog="""\b
Examples:
  fightlog fixtures                # once: copies the bundled files to fixtures/
  cp fixtures/roe7/scenarios/alley-duel.jsonl fight.jsonl                # a bundled fight
  fightlog dispute fight.jsonl --at 41 --set 'dice[0].face=10'            # a die
  fightlog dispute fixtures/roe7/disputed-duel.jsonl --at 32 --set 'dice[0].face=20'  # hand-run: HUD rolls kept
  fightlog dispute fight.jsonl --at 15 --set 'modifiers[1].value=10'      # a modifier
  fightlog dispute fight.jsonl --at 39 --set 'actions[0].weapon=Pistol'   # another weapon
  fightlog dispute fight.jsonl --at 57 --void                             # the post never made
  fightlog dispute fight.jsonl --at 41 --set 'dice[0].face=10' -o fork.jsonl && fightlog verify fork.jsonl
  fightlog dispute fight.jsonl --at 41 --set 'dice[0].face=10' --format json   # for bots
  fightlog dispute fight.jsonl --at 41 --set 'dice[0].face=10' --report fork.html   # side by side, as a page
  fightlog rule fight.jsonl void 57 --by Gemma --reason "posted twice"    # a ruling, at seq 89
  fightlog dispute fight.jsonl --at 89 --withdraw                         # the ruling never made

\b
Exit codes: 0 shown (and FORK written); 2 bad input (a missing or damaged log, SEQ outside
it, an event that is not a roll, a declaration or a ruling, a bad PATH or VALUE, a seed not
revealed, a fork the rules refuse at its first request, FORK or PAGE exists without
--force) or usage. Errors are one line; FORK and PAGE are written only on success.
3 internal error (a bug: the error line names a crash report for the bug report)."""
)
@input_log_argument(passes=1)
@click.option("--at", "at", required=True, type=SEQ, metavar="SEQ",
              help="The event to change: a roll (dice_rolled), a declaration or a GM ruling.")
@click.option(
    "--set",
    "sets",
    multiple=True,
    metavar="PATH=VALUE",
    callback=_assignments,
    help="Change a field of SEQ (repeatable): dice[0].face=55, modifiers[1].value=10, "
    "actions[0].target=bob, actions[0].weapon=Pistol. VALUE is JSON if it parses, else text.",
)
@click.option("--void", is_flag=True, help="Treat SEQ as not having happened (a declaration: the post is not made).")
@click.option("--withdraw", is_flag=True, help="SEQ is a ruling: the fight as if it had not been made.")
@seed_option("The scene's dice seed, when the log does not reveal it (checked against the commitment).")
@click.option("-o", "--output", "output", metavar="FORK",
              help="Write the fork as a log of its own (chained; fightlog verify passes).")
@click.option("--report", "page", metavar="PAGE",
              help="Also write the original and the fork side by side, from the first difference, as one "
              "HTML page (fightlog report's page; needs fightlog[report]).")
@click.option("--force", is_flag=True, help="Replace FORK (and PAGE) if it exists and is not empty.")
@format_option
@reports_errors
def dispute(
    log: str,
    at: int,
    sets: tuple[tuple[str, Any], ...],
    void: bool,
    withdraw: bool,
    seed: str | None,
    output: str | None,
    page: str | None,
    force: bool,
    fmt: str,
) -> None:
    """Fork the fight in LOG at event SEQ, change that one fact, and show what follows.

    The change is one of: --set on a roll's dice or modifiers (the total is recomputed), a
    declaration's actions, text or actor, a ruling's fields; --void (a declaration or a
    ruling); --withdraw (a ruling). Everything after it is re-derived by the ruleset with the
    scene's seed (revealed in the log, or --seed): unchanged rolls at unchanged roll numbers
    keep their faces; recorded external rolls (a HUD's, a dice bot's) are reused. Hand-run
    fights are disputed too, compared with the original as the rules re-derive it. Shown: the
    change, the first event that differs and the first consequence, the requests the fork no
    longer allows (dropped), where the recorded history stops fitting the fork, the turns that
    pass, each combatant's pools and statuses at the end and the winner (original -> fork),
    and the audit findings that appear or disappear. See docs/dispute.md.
    """
    from fightlog.audit.dispute import Change, dispute as fork_at
    from fightlog.events.reader import read_log
    from fightlog.events.store import MemoryStore
    from fightlog.kit.table import table_for  # the table lookup, given to the dispute

    if sum((bool(sets), void, withdraw)) != 1:
        raise click.UsageError("give exactly one change: --set PATH=VALUE (repeatable), --void or --withdraw")
    if force and output is None and page is None:
        raise click.UsageError("--force goes with -o FORK or --report PAGE")
    if output is not None:
        check_new_log(output, force, {"the log under dispute": log})
    if page is not None:
        from fightlog.report.page.render import require_jinja

        require_jinja()
        if output is not None and os.path.realpath(page) == os.path.realpath(output):
            raise click.UsageError("--report and -o name the same file: the page would replace the fork")
        check_new_page(page, force, {"the log under dispute": log})
    events = [event for _, event in read_log(log)]
    change = Change(seq=at, sets=sets, void=void, withdraw=withdraw)
    outcome = fork_at(events, change, table_for=table_for, seed=seed, name=log)
    if output is not None:
        from fightlog.cli.run import write_atomically

        store = MemoryStore(output)
        store.append(outcome.fork)
        write_atomically(output, store.to_bytes())
    if page is not None:
        write_dispute_page(page, log, outcome, output)
    if fmt == "json":
        echo_json(as_json(outcome, output))
        return
    for line in human(outcome, output):
        click.echo(line)
    if page is not None:
        click.echo(f"wrote {page}: the original and the fork side by side (open it in a browser)")


def write_dispute_page(page: str, log: str, outcome: Dispute, output: str | None) -> None:
    """The original and the fork side by side, as one HTML page (written whole)."""
    from fightlog.cli.run import write_atomically
    from fightlog.report.page.dispute_page import dispute_page
    from fightlog.report.page.render import render_dispute

    data = dispute_page(outcome, log=log, summary=human(outcome, output))
    write_atomically(page, render_dispute(data).encode("utf-8"))


# --------------------------------------------------------------------------- human


def human(outcome: Dispute, output: str | None) -> list[str]:
    """The dispute as text: the change, where the fights part, what was dropped or passed,
    the end, the findings."""
    names = {s.actor: s.name for s in outcome.ending.standings}

    def name(actor: str | None) -> str:
        return "someone" if actor is None else names.get(actor, actor)

    lines = [f"change: {_change_text(outcome, name)}"]
    count = outcome.ending.events
    dice = "with the scene's seed" if outcome.seed is not None else "with the recorded rolls (the log has no seed)"
    lines.append(f"re-derived from seq {outcome.restart} {dice}: {plural(count[0], 'event')} -> {count[1]}")
    lines.extend(baseline_lines(outcome))
    gone = outcome.change.void or outcome.change.withdraw
    if gone and outcome.difference is not None and outcome.difference.seq == outcome.change.seq:
        kind = "withdrawn" if outcome.change.withdraw else "voided"
        lines.append(f"first difference: seq {outcome.change.seq} itself, {kind}: the fork goes on without it (what "
                     "follows sits a seq earlier, so it is not compared event for event; see the end and the findings)")
    else:
        lines.append("first difference: " + _difference_text(outcome.difference))
    if outcome.consequence is not None:
        lines.append("first consequence: " + _difference_text(outcome.consequence))
    elif outcome.fields and outcome.difference is not None and outcome.difference.seq == outcome.change.seq:
        lines.append("first consequence: none: nothing after the changed event differs")
    dropped_now = [d for d in outcome.dropped if not d.unchanged]
    lines.append("dropped (the fork no longer allows them):" if dropped_now else "dropped: none")
    for dropped in dropped_now:
        lines.append(f"  seq {dropped.seq} {_dropped_text(dropped.request, dropped.actor, name)}: "
                     + _dropped_reason(dropped, name))
    lines.extend(divergence_lines(outcome))
    passed_now = [p for p in outcome.passed if not p.unchanged]
    if passed_now:
        lines.append("turns passed (ended without a post):")
        for passed in passed_now:
            lines.append(f"  {name(passed.actor)}'s turn in round {passed.round}, "
                         f"before the post at seq {passed.before}")
    lines.extend(_ending_lines(outcome.ending, name))
    lines.extend(_finding_lines(outcome.findings, name))
    if output is not None:
        lines.append(f"wrote {output}: {plural(count[1], 'event')} (verify --dice names the changed roll, if any)")
    return lines


def baseline_lines(outcome: Dispute) -> list[str]:
    """What the fork is compared with, when the recorded log departs from the rules."""
    departures = outcome.departures
    if not departures:
        return []
    first = departures[0]
    more = f" (and at {plural(len(departures) - 1, 'more place')})" if len(departures) > 1 else ""
    lines = [f"the recorded log departs from the rules at seq {first.seq}: {first.text}{more}"]
    after = next((d for d in departures if d.seq >= outcome.restart), None)
    if after is not None and after is not first:
        lines.append(f"  from the fork point on, first at seq {after.seq}: {after.text}")
    if outcome.baseline is None:
        lines.append("compared: the recorded log -> the fork (the rules give it back from the fork point)")
    else:
        lines.append(f"compared: the original as the rules re-derive it from seq {outcome.restart} -> the fork "
                     "(what the change alone does; seqs from here are theirs)")
    return lines


def _dropped_reason(dropped: Dropped, name: Any) -> str:
    if dropped.since is None or not dropped.statuses:
        return dropped.reason
    who = name(dropped.actor)
    return (f"from seq {dropped.seq} {who} posts, but in the fork {who} is {', '.join(dropped.statuses)} "
            f"since seq {dropped.since} ({dropped.reason})")


def divergence_lines(outcome: Dispute) -> list[str]:
    """Where the recorded history stops fitting the fork (beyond what is dropped), and how
    much of it does not fit the rules with or without the change."""
    now = [d for d in outcome.divergences if not d.unchanged]
    lines: list[str] = []
    if now:
        lines.append("the recorded history stops fitting the fork:")
        lines += [f"  seq {d.seq} ({d.kind}): {d.text}" for d in now]
    also = sum(f.unchanged for f in outcome.dropped) + sum(f.unchanged for f in outcome.divergences) + sum(
        f.unchanged for f in outcome.passed
    )
    if also:
        lines.append(f"also without the change: {also} place{'s' if also != 1 else ''} where the recorded "
                     "history does not fit the rules (dropped, kept as recorded, turns passed; --format json lists "
                     "them, each with \"unchanged\": true)")
    return lines


def _dropped_text(request: str, actor: str | None, name: Any) -> str:
    if request == "end_turn":
        return f"end of {name(actor)}'s turn" if actor else "end of turn"
    if request == "ruling":
        return f"ruling by {actor}" if actor else "ruling"
    what = {"join": "arrival of", "post": "post by"}.get(request)
    return f"{what} {name(actor)}" if what and actor else request.replace("_", " ")


def _change_text(outcome: Dispute, name: Any) -> str:
    from fightlog.events.model import DeclarationPosted, DiceRolled, RulingMade

    target = outcome.target
    what = f"seq {target.seq} ({outcome.kind}"
    if isinstance(target, DiceRolled):
        what += f": {name(target.roller)}'s {target.purpose} roll"
    elif isinstance(target, DeclarationPosted):
        what += f" by {name(target.actor)}"
    elif isinstance(target, RulingMade):
        what += f": {target.action} of seq {target.target} by {target.by}"
    what += ")"
    change = outcome.change
    if change.void:
        return f"{what} voided: as if it had not happened"
    if change.withdraw:
        return f"{what} withdrawn: as if it had not been made"
    if not outcome.fields:
        return f"{what}: {change.text()} leaves it as recorded"
    return f"{what}: " + ", ".join(f"{path} {_plain(a)} -> {_plain(b)}" for path, a, b in outcome.fields)


def _difference_text(diff: Difference | None) -> str:
    from fightlog.events.compare import describe

    return "none: the fork is the same fight, event for event" if diff is None else describe(diff)


def _ending_lines(ending: Ending, name: Any) -> list[str]:
    from fightlog.report.narration import pool_name
    from fightlog.report.state_text import align

    rows: list[list[str]] = []
    for standing in ending.standings:
        if standing.present == (True, False):
            rows.append([standing.name, "not in the fork"])
            continue
        if standing.present == (False, True):
            rows.append([standing.name, "only in the fork"])
            continue
        pools = ", ".join(
            f"{pool_name(p)} {_plain(a)}" if a == b else f"{pool_name(p)} {_plain(a)} -> {_plain(b)}"
            for p, (a, b) in standing.pools.items()
        )
        moves = (("gains", standing.gained), ("loses", standing.lost))
        statuses = [f"{verb} {', '.join(found)}" for verb, found in moves if found]
        rows.append([standing.name, "; ".join([pools or "no pools", *statuses]), "" if standing.changed else "(same)"])
    lines = ["at the end (original -> fork):"]
    lines += align(rows, "  ")
    winner = [name(w) if w else "none" for w in ending.winner]
    ended = ["" if e else " (scene not ended)" for e in ending.ended]
    if ending.winner[0] == ending.winner[1]:
        lines.append(f"  winner: {winner[0]}{ended[0]} (same)" if ending.ended[0] == ending.ended[1]
                     else f"  winner: {winner[0]}{ended[0]} -> {winner[1]}{ended[1]}")
    else:
        lines.append(f"  winner: {winner[0]}{ended[0]} -> {winner[1]}{ended[1]}")
    if ending.round[0] != ending.round[1]:
        lines.append(f"  round reached: {ending.round[0]} -> {ending.round[1]}")
    return lines


def _finding_lines(findings: Sequence[FindingChange], name: Any) -> list[str]:
    if not findings:
        return ["audit findings: the same in both"]
    lines = ["audit findings (+ only in the fork, - only in the original):"]
    for change in findings:
        f = change.finding
        who = f" ({name(f.actor)})" if f.actor else ""
        note = " [the changed fact]" if change.on_change else ""
        if f.accepted is not None:
            note += f" [accepted by the ruling at seq {f.accepted.ruling}]"
        lines.append(f"  {'+' if change.appeared else '-'} {f.code} at seq {f.seq}{who}: {f.message}{note}")
    return lines


def _plain(value: Any) -> str:
    if value is None:
        return "-"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, str)):
        return str(value)
    return msgspec.json.encode(value).decode()


# --------------------------------------------------------------------------- json


def as_json(outcome: Dispute, output: str | None) -> dict[str, Any]:
    """The dispute as plain data (the fork's events themselves are written with -o)."""
    change = outcome.change
    mode = "void" if change.void else "withdraw" if change.withdraw else "set"
    return {
        "change": {
            "seq": change.seq,
            "kind": outcome.kind,
            "mode": mode,
            "set": [{"path": p, "value": v} for p, v in change.sets],
            "fields": [{"path": p, "original": a, "fork": b} for p, a, b in outcome.fields],
        },
        "restart": outcome.restart,
        "events": {"original": len(outcome.original), "fork": len(outcome.fork)},
        "difference": _difference_json(outcome.difference),
        "consequence": _difference_json(outcome.consequence),
        "dropped": msgspec.to_builtins(outcome.dropped),
        "passed": msgspec.to_builtins(outcome.passed),
        "divergences": msgspec.to_builtins(outcome.divergences),
        "departures": msgspec.to_builtins(outcome.departures),
        "baseline": "recorded" if outcome.baseline is None else "re-derived",
        "seeded": outcome.seed is not None,
        "ending": msgspec.to_builtins(outcome.ending),
        "findings": {
            "appeared": [_finding_json(c) for c in outcome.findings if c.appeared],
            "disappeared": [_finding_json(c) for c in outcome.findings if not c.appeared],
        },
        "written": output,
    }


def _difference_json(diff: Difference | None) -> dict[str, Any] | None:
    if diff is None:
        return None
    from fightlog.events.compare import describe

    return {
        "seq": diff.seq,
        "original": _kind(diff.expected),
        "fork": _kind(diff.actual),
        "fields": [{"path": p, "original": a, "fork": b} for p, a, b in diff.fields],
        "text": describe(diff),
    }


def _finding_json(change: FindingChange) -> dict[str, Any]:
    data: dict[str, Any] = msgspec.to_builtins(change.finding)
    data["on_change"] = change.on_change
    return data


def _kind(event: AnyEvent | None) -> str | None:
    return None if event is None else str(type(event).__struct_config__.tag)
