"""``fightlog read-roll``: read one pasted bot reply, and say whether it adds up."""

from __future__ import annotations

import sys

import click
from msgspec import to_builtins

from fightlog.cli.errors import EXIT_FINDINGS, reports_errors
from fightlog.cli.options import format_option
from fightlog.cli.output import echo_json
from fightlog.errors import DiceError, InputError
from fightlog.events.model import DiceRolled, Die

BOT_NAMES = ("avrae", "dice-maiden", "rpg-sage", "sl-hud")
"""``--bot`` choices: the bots of ``fightlog.dice.replies.BOTS``, as typed."""


def _faces(dice: list[Die]) -> str:
    """Faces as ``fightlog roll`` marks them: ``[2]`` dropped, ``1->5`` rerolled, ``+4`` added
    by an explosion."""
    shown: list[str] = []
    for die in dice:
        text = "->".join(str(f) for f in (*die.rerolled, die.face))
        if die.exploded:
            text = "+" + text
        shown.append(text if die.kept else f"[{text}]")
    return ", ".join(shown)


def _dice_line(event: DiceRolled) -> str:
    """The roll's dice as ``fightlog roll`` breaks them down (``1d20 (14) + 5``): the
    notation with each term's faces after it; the notation then all faces when the dialect
    cannot rebuild the roll."""
    from fightlog.dice.roll_events import read_roll as rebuilt
    from fightlog.dice.render import breakdown, tail
    from fightlog.dice.replies.dialect import compile_in

    try:
        result = rebuilt(event, compile_in(event.notation, event.dialect))
        line = breakdown(result)
        end = tail(result.modifiers, result.total - result.value, result.total, result.label)
    except (DiceError, AssertionError, TypeError, ValueError):
        return f"{event.notation} ({_faces(event.dice)})"
    return line[: len(line) - len(end)] if line.endswith(end) else f"{event.notation} ({_faces(event.dice)})"


@click.command(
    "read-roll",
    epilog="""\b
Examples:
  fightlog read-roll 'Alice Vance rolled 1d100 (57) + [10 scope] = 67'
  fightlog read-roll --bot avrae '1d20 (**20**) + 5 = `25`'
  fightlog read-roll --roller bob --format json 'Bob rolls 1d100 and gets 43'
  printf 'Alice Request: `[4d6]` Roll: `[6, 5, 3, 2]` Result: `16`' | fightlog read-roll -

\b
Bots: Avrae (!r replies, !a To Hit and Damage), Dice Maiden, RPG Sage, the common SL HUD
phrasings; see docs/dice.md, "Reading bot replies".

Exit codes: 0 read whole and adds up; 1 something does not add up or could not be read
(each named); 2 not a reply any bot prints, or bad usage.
3 internal error (a bug: the error line names a crash report for the bug report).""",
)
@click.argument("text", nargs=-1)
@click.option("--bot", type=click.Choice(BOT_NAMES, case_sensitive=False),
              help="The bot that printed it (default: the first that reads it).")
@click.option("--roller", metavar="NAME", help="Who rolled (default: the name the reply shows).")
@format_option
@reports_errors
def read_roll(text: tuple[str, ...], bot: str | None, roller: str | None, fmt: str) -> None:
    """Read a dice bot's reply (TEXT, or - or nothing for standard input): its dice, total
    and dialect as a dice_rolled event, re-evaluated under the bot's dialect.

    Every roll the reply holds is read (an Avrae attack: To Hit and Damage); anything that
    does not add up (a face off its die, dice kept that the notation drops, a reroll the
    notation does not make, a total the dice do not give) is named.
    """
    from fightlog.dice.external import check_reply
    from fightlog.dice.replies import BOTS, read_replies

    where = "<stdin>" if not text or text == ("-",) else "TEXT"
    if where == "<stdin>" and sys.stdin.isatty():  # else it looks hung: say what it waits for
        click.echo("fightlog: paste the bot's reply, then Ctrl-D", err=True)
    reply = sys.stdin.read().removesuffix("\n").removesuffix("\r") if where == "<stdin>" else " ".join(text)
    if roller is not None and not roller.strip():
        raise click.BadParameter("give a name, or leave --roller out (the reply's own)", param_hint="'--roller'")
    rolls = read_replies(reply, bot=bot, roller=roller)
    if not rolls:
        tried = bot or f"any bot read ({', '.join(BOTS)})"
        raise InputError(f"not a roll reply of {tried}", path=where)
    docs: list[dict[str, object]] = []
    lines: list[str] = []
    bad = False
    for read in rolls:
        event = read.event()
        found = check_reply(read, f"{read.bot} reply")
        bad = bad or bool(found) or bool(read.problems)
        docs.append({
            "bot": read.bot,
            "dialect": read.dialect,
            "event": to_builtins(event),
            "problems": list(read.problems),
            "notes": list(read.notes),
            "discrepancies": [{"code": d.code, "message": d.message} for d in found],
        })
        who = f" by {event.roller}" if read.roller or roller else ""
        label = f" # {read.label}" if read.label else ""
        total = "?" if read.total is None else str(read.total)
        mods = "".join(f" {'-' if m.value < 0 else '+'} {abs(m.value)} [{m.source}]" for m in read.modifiers)
        outcome = f" ({read.outcome})" if read.outcome else ""
        lines.append(f"{read.bot}{who}: {_dice_line(event)}{mods} = {total}{outcome}"
                     f"{label} [dialect {read.dialect}]")
        lines += [f"  unread: {p}" for p in read.problems]
        lines += [f"  note: {n}" for n in read.notes]
        lines += [f"  {d.code}: {d.message}" for d in found]
    if fmt == "json":
        echo_json({"clean": not bad, "rolls": docs})
    else:
        click.echo("\n".join(lines))
    if bad:
        raise SystemExit(EXIT_FINDINGS)
