"""``fightlog verify``: is the log intact?"""

from __future__ import annotations

from typing import TYPE_CHECKING

import click
import msgspec

from fightlog.cli.errors import EXIT_FINDINGS, reports_errors
from fightlog.cli.options import check_seed_fits, format_option, input_log_argument, seed_option
from fightlog.cli.output import echo_json
from fightlog.cli.terminal import warning_line
from fightlog.errors import TornTailError
from fightlog.events.integrity import PublishedHead, VerifyResult, verify_log
from fightlog.events.piped import is_stream
from fightlog.report.visible import one_line
from fightlog.report.wording import plural

if TYPE_CHECKING:
    from fightlog.audit.dice_verify import DiceVerdict
    from fightlog.dice.verify import RollFinding
    from fightlog.events.repair import RepairResult


def _published(ctx: click.Context, param: click.Parameter, value: str | None) -> PublishedHead | None:
    if value is None:
        return None
    try:
        return PublishedHead.parse(value)
    except ValueError as exc:
        raise click.BadParameter(str(exc)) from None


@click.command(
    epilog="""\b
Examples:
  fightlog fixtures                # once: copies the bundled files to fixtures/
  fightlog verify fixtures/roe7/sample-duel.jsonl   # prints the head SEQ:SHA256 to post
  fightlog verify fixtures/roe7/sample-duel.jsonl \\
      --head 64:535a4b4f82b4a6ccccd481b2b96f90e8d67086a592f8599e32b568918d64264f   # against a head posted earlier
  fightlog verify --dice fixtures/dice/seeded-rolls.jsonl           # and recompute every engine roll
  fightlog play start live.jsonl --ruleset roe7     # a live scene: its seed in live.jsonl.seed
  fightlog verify --seed "$(cat live.jsonl.seed)" live.jsonl        # with a seed revealed elsewhere
  fightlog verify --repair live.jsonl               # after a crash tore the last line
  cat fixtures/roe7/sample-duel.jsonl | fightlog verify -          # LOG "-": standard input

\b
Exit codes: 0 intact; 1 damaged (the first broken line is named); 2 unusable input
(missing file, a directory, not a fightlog log).
3 internal error (a bug: the error line names a crash report for the bug report)."""
)
@input_log_argument(passes=lambda given: 2 if given["check_dice"] or given["seed"] is not None else 1)
@click.option(
    "--head",
    "published",
    metavar="SEQ:SHA256",
    callback=_published,
    help="Also check that line SEQ still hashes to SHA256, as published earlier "
    "(catches edits to, or removal of, the last lines).",
)
@click.option(
    "--repair",
    is_flag=True,
    help="If the last line is torn or the last append unfinished, move it (the whole append) "
    "to LOG.torn-OFFSET (or add a complete last line's missing newline). No byte is ever deleted.",
)
@click.option(
    "--dice",
    "check_dice",
    is_flag=True,
    help="Also recompute every engine roll from the dice seed the log reveals (scene_ended, or "
    "scene_started in open mode) and check every roll's arithmetic and face ranges. Rolls are "
    "checked as recorded: GM rulings are not applied (fightlog audit checks amended rolls as ruled).",
)
@seed_option("Recompute engine rolls from this seed (implies --dice); it must match the scene's commitment.")
@format_option
@reports_errors
def verify(
    log: str,
    published: PublishedHead | None,
    repair: bool,
    check_dice: bool,
    seed: str | None,
    fmt: str,
) -> None:
    """Check that LOG is intact.

    Every line parses as a known event with valid fields, seq counts 1, 2, 3... with no gaps
    or repeats, every prev is the SHA-256 of the line before, and the last line is complete.
    Prints the chain head (SEQ:SHA256): publish it, and anyone can later prove the log up to
    there was not changed.
    """
    check_seed_fits(log, seed)
    wants_dice = check_dice or seed is not None
    if repair and (is_stream(log) or _system_path(log)):
        raise click.UsageError(f"--repair writes to LOG: {log} is not a file (give the log's file)")

    def check() -> tuple[VerifyResult, DiceVerdict | None]:
        if not wants_dice:
            return verify_log(log, published=published), None
        from fightlog.audit.dice_verify import verify_with_dice  # only when asked: keeps verify light

        return verify_with_dice(log, seed=seed, published=published)

    result, dice = check()
    repaired = None
    if repair and isinstance(result.problem, TornTailError):
        from fightlog.events.repair import repair_torn_tail  # only when asked: keeps start-up light

        repaired = repair_torn_tail(log)
        result, dice = check()
    # Dice are judged only on an intact log (``dice`` is None otherwise): past a break,
    # nothing can be trusted.
    findings = [] if dice is None else dice.findings
    if fmt == "json":
        echo_json(_as_json(result, repaired, dice, published))
    else:
        _echo_text(log, result, repaired, dice, published)
        if repair and repaired is None and result.problem is not None:
            where = f" (line {result.problem.line})" if result.problem.line is not None else ""
            warning_line(f"{log}: nothing repaired: --repair moves aside only a torn last append; this damage"
                         f"{where} is inside the log (restore the line from a copy: what it said is lost)")
    if not result.ok or findings:
        raise SystemExit(EXIT_FINDINGS)


def _echo_text(log: str, result: VerifyResult, repaired: RepairResult | None, dice: DiceVerdict | None,
               published: PublishedHead | None = None) -> None:
    """The verdict as text: the repair made, the chain's verdict, the dice findings and summary;
    each a line, whatever the log's name holds (``one_line``)."""
    if repaired is not None:
        if repaired.action == "added_newline":
            click.echo(one_line(f"{log}:{repaired.line}: repaired: added the missing newline"))
        else:
            click.echo(one_line(
                f"{log}:{repaired.line}: repaired: moved {plural(repaired.moved, 'torn byte')} "
                f"to {repaired.side_file}"
            ))
    click.echo(one_line(_as_text(result, published)))
    if dice is not None:
        for finding in dice.findings:
            click.echo(one_line(f"{log}:{finding.line}: {finding.message}"))
        click.echo(dice.summary.describe())


def _finding_json(finding: RollFinding) -> dict[str, object]:
    return {"line": finding.line, "seq": finding.seq, "code": finding.code, "message": finding.message}


def _as_text(result: VerifyResult, published: PublishedHead | None = None) -> str:
    if result.problem is not None:
        return str(result.problem)
    head = result.head
    matched = "" if published is None else f"; line {published.seq} matches the published head"
    return f"{result.path}: intact: {plural(head.seq, 'event')}; head {head.seq}:{head.digest}{matched}"


def _as_json(result: VerifyResult, repaired: msgspec.Struct | None, dice: DiceVerdict | None,
             published: PublishedHead | None = None) -> dict[str, object]:
    """``ok``: the verdict as the exit status gives it (the chain intact and, with ``--dice``,
    no dice finding); ``intact``: the chain's alone."""
    out: dict[str, object] = {
        "path": result.path,
        "ok": result.ok and (dice is None or not dice.findings),
        "intact": result.ok,
        "events": result.events if result.problem else result.head.seq,
    }
    if result.ok:
        out["head"] = {"seq": result.head.seq, "sha256": result.head.digest}
        if published is not None:
            out["published"] = {"seq": published.seq, "sha256": published.digest, "matches": True}
    else:
        problem = result.problem
        assert problem is not None
        out["problem"] = {
            "line": problem.line,
            "message": problem.message,
            "torn": isinstance(problem, TornTailError),
        }
    if repaired is not None:
        out["repaired"] = msgspec.structs.asdict(repaired)
    if dice is not None:
        out["dice"] = {
            "summary": dice.summary.describe(),
            "findings": [_finding_json(f) for f in dice.findings],
        }
    return out


def _system_path(log: str) -> bool:
    """``/dev/stdin``, ``/dev/fd/N``, ``/proc/self/fd/N``: names of a descriptor, not of the
    log's file, even when they lead to one (``verify --repair /dev/stdin < fight.jsonl`` must
    not write beside ``/dev/stdin``)."""
    import os

    parent = os.path.realpath(os.path.dirname(os.path.abspath(log)))
    return parent == "/dev" or parent.startswith(("/dev/", "/proc/"))
