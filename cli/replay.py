"""``fightlog replay``: the fight told event by event, with the state changes each caused."""

from __future__ import annotations

from collections.abc import Iterable, Iterator

import click
import msgspec

from fightlog.cli.errors import reports_errors
from fightlog.cli.output import echo_json
from fightlog.cli.narrate import Line, kind_of, narrate, one_line
from fightlog.cli.options import SEQ, format_option, input_log_argument
from fightlog.errors import InputError
from fightlog.events.model import AnyEvent
from fightlog.events.reader import ChainHead, read_log
from fightlog.history import events_at, replay as replay_steps
from fightlog.reducers.diff import changes
from fightlog.reducers.fold import Step


@click.command(
    epilog="""\b
Examples:
  fightlog fixtures                # once: copies the bundled files to fixtures/
  fightlog replay fixtures/roe7/disputed-duel.jsonl
  fightlog replay fixtures/roe7/disputed-duel.jsonl --from 38 --to 60   # round 2 and its rulings
  fightlog replay fixtures/roe7/disputed-duel.jsonl --format json       # for bots
  cat fixtures/roe7/disputed-duel.jsonl | fightlog replay - --to 20   # LOG "-": standard input
  fightlog replay fixtures/dice/seeded-rolls.jsonl --markdown           # dropped dice ~~4~~, for Discord

\b
Exit codes: 0 shown; 2 bad input (a missing or damaged log, --from/--to outside it, a
ruling the log cannot honour) or usage.
3 internal error (a bug: the error line names a crash report for the bug report)."""
)
@input_log_argument(passes=2)
@click.option("--from", "start", type=SEQ, metavar="SEQ", help="First event to show (default: 1).")
@click.option("--to", "upto", type=SEQ, metavar="SEQ", help="Last event to show (default: the last).")
@click.option("--markdown", is_flag=True, help="Rolls in Markdown, for pasting to Discord: dropped dice "
              "struck through (~~4~~) instead of bracketed ([4]).")
@format_option
@reports_errors
def replay(log: str, start: int | None, upto: int | None, markdown: bool, fmt: str) -> None:
    """Tell the fight in LOG event by event.

    Each event is one line (posts, rolls with their breakdown, hits and misses, damage,
    effects, statuses, GM rulings), under its round and turn; the state changes it caused
    follow, indented (HP, effects' turns left, statuses, the posting order...). A GM ruling
    changes history from the moment it is made: its line shows what it changed.
    """
    if start is not None and upto is not None and start > upto:
        raise InputError(f"--from {start} is after --to {upto}", path=log)
    steps = _Shown(replay_steps(log, start or 1, upto))
    # Everything is rendered before anything is printed: a range past the end of the log,
    # or damage found on the way, leaves one error line and no partial replay.
    if fmt == "json":
        doc = [_step_json(step) for step in steps]
        _check_range(log, start, upto, steps.last)
        echo_json(doc)
        return
    lines: list[Line] = []
    for step in steps:
        lines += narrate(step, lambda seq: _event_at(log, seq), markdown=markdown)
    _check_range(log, start, upto, steps.last)
    for text in render(lines):
        click.echo(text)


class _Shown:
    """The replay's steps, remembering the ``seq`` of the last one taken (0: none yet)."""

    def __init__(self, steps: Iterable[Step]) -> None:
        self.steps = steps
        self.last = 0

    def __iter__(self) -> Iterator[Step]:
        for step in self.steps:
            self.last = step.event.seq
            yield step


def render(lines: list[Line]) -> list[str]:
    """Event lines prefixed by their seq (right-aligned), change lines indented under them."""
    width = len(str(max((line.seq for line in lines if line.seq is not None), default=0)))
    return [
        f"{'' if line.seq is None else line.seq:>{width}}  {'  ' * line.depth}{one_line(line.text)}".rstrip()
        for line in lines
    ]


def _step_json(step: Step) -> dict[str, object]:
    return {
        "seq": step.event.seq,
        "kind": kind_of(step.event),
        "event": msgspec.to_builtins(step.event),
        "changes": msgspec.to_builtins(changes(step.before, step.after)),
    }


def _check_range(log: str, start: int | None, upto: int | None, last: int) -> None:
    """Refuse a --from or --to beyond the end of the log (``last``: the last seq shown)."""
    if start is not None and last == 0:
        raise InputError(f"--from {start}: the log ends at seq {_last_seq(log)}", path=log)
    if upto is not None and last < upto:
        raise InputError(f"--to {upto}: the log ends at seq {last}", path=log)


def _last_seq(log: str) -> int:
    head = ChainHead()
    for _ in read_log(log, head=head):
        pass
    return head.seq


def _event_at(log: str, seq: int) -> AnyEvent | None:
    """The event at ``seq``, to say what a ruling is about (the replay has read it already)."""
    return events_at(log, {seq}).get(seq)
