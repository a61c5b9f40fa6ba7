"""Benchmark of the audit (``fightlog audit``), as same-run ratios.

    python bench/bench_audit.py [--events 1000000] [--rounds 5] [--stages]

1. ``audit_log`` in-process on a 1M-event engine fight (``bench/long_fight.py``) vs bare
   msgspec decoding of the same lines, interleaved round by round (target >= 0.3x on the
   compiled build, 0.25x pure); the report must have no finding (a clean engine fight);
2. the same with the second core busy: a busy loop pinned (``os.sched_setaffinity``) to the
   last CPU for all the rounds, the baseline measured beside it too (target >= 0.2x);
3. peak memory of auditing that fight vs auditing a 1k-event one, each read from the child
   alone (reported, no target).

``--stages`` also times the audit's parts on their own, each as a ratio to bare decoding:
what the forked child does (the chain, then the dice too), what the main process does (the
fold, then the fold's audit hooks and window of recent events, the posting-order checks and
the RoE checks), the whole audit without the RoE checks, and the whole audit in one process
(``workers=1``).
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from baselines import bare_decode  # noqa: E402
from long_fight import OUT, fight_path, write_fight  # noqa: E402
from figures import events_label, figure, peak_figure, rate  # noqa: E402
from load import busy_core  # noqa: E402
from measure import build_kind, build_measured, interleaved  # noqa: E402

from fightlog.audit.auditor import Report, audit_log  # noqa: E402
from fightlog.audit.one_pass import Auditor  # noqa: E402
from fightlog.audit.two_process import Inbox, fold_checked  # noqa: E402
from fightlog.audit import order  # noqa: E402
from fightlog.kit.checks import RecordSplit  # noqa: E402
from fightlog.audit.dice_checks import FastDice  # noqa: E402
from fightlog.audit.reading import checked  # noqa: E402
from fightlog.audit.recorded import RecordChecks  # noqa: E402
from fightlog.events.codec import DECODER  # noqa: E402
from fightlog.events.tail import revealed_seed  # noqa: E402
from fightlog.events.reader import open_log  # noqa: E402
from fightlog.reducers.fold import fold  # noqa: E402
from fightlog.rules.roe7.ruleset import Roe7Rules  # noqa: E402


class Replayed:
    """A connection that hands out messages already sent (the child's, as if it were ahead)."""

    def __init__(self, messages: list[object]) -> None:
        self._messages = iter(messages)
        self._next: object = next(self._messages, None)

    def poll(self) -> bool:
        return self._next is not None

    def recv(self) -> object:
        message, self._next = self._next, next(self._messages, None)
        return message


def check_clean(report: Report, events: int) -> None:
    if report.findings or report.summary.events != events:
        for finding in report.findings[:10]:
            print(f"  {finding.seq}: {finding.code}: {finding.message}", file=sys.stderr)
        raise SystemExit(f"the fight did not audit clean: {len(report.findings)} findings, {report.summary}")


def stages(path: str, repeat: int, count: int) -> None:
    """Each part of the audit on its own (us per event, and as a ratio to bare decoding)."""

    def chain() -> None:
        with open_log(path) as stream:
            for _ in checked(stream, path, lambda event: None):
                pass

    sent: list[object] = []  # the child's messages, for the main process's stages (as if it were ahead)

    def child() -> None:  # what the forked child does: the chain, the dice, the checks as recorded
        sent.clear()
        dice = FastDice(None, hint=revealed_seed(path))
        record = RecordChecks(dice.feed, sent.append)
        with open_log(path) as stream:
            for _ in checked(stream, path, None, record.feeds, links=True):
                pass
        record.finish()
        if dice.report() is None:
            raise SystemExit("the dice check could not vouch for the fight")

    def main_process(checks: bool = True) -> Callable[[], None]:
        def run() -> None:  # what the main process does: decode, fold, check
            inbox = Inbox(Replayed([*sent, ("done", None)]))
            auditor = Auditor(unruled=True, recorded_elsewhere=True, cleared=inbox.cleared)  # as ``audit_log``'s
            fold_checked(path, auditor)

        if checks:
            return run

        def without_checks() -> None:  # the window of recent events and the hooks only
            real_order, real_roe, real_split = order.Posting.checks, Roe7Rules.audit_checks, Roe7Rules.audit_record_checks
            order.Posting.checks = lambda self: {}  # type: ignore[method-assign]
            Roe7Rules.audit_checks = lambda self: {}  # type: ignore[method-assign]
            Roe7Rules.audit_record_checks = lambda self: RecordSplit({}, {}, frozenset(), {})  # type: ignore[method-assign]
            try:
                run()
            finally:
                order.Posting.checks = real_order  # type: ignore[method-assign]
                Roe7Rules.audit_checks = real_roe  # type: ignore[method-assign]
                Roe7Rules.audit_record_checks = real_split  # type: ignore[method-assign]

        return without_checks

    def only_order(run: Callable[[], None]) -> Callable[[], None]:
        def without_ruleset_checks() -> None:
            real, real_split = Roe7Rules.audit_checks, Roe7Rules.audit_record_checks
            Roe7Rules.audit_checks = lambda self: {}  # type: ignore[method-assign]
            Roe7Rules.audit_record_checks = lambda self: RecordSplit({}, {}, frozenset(), {})  # type: ignore[method-assign]
            try:
                run()
            finally:
                Roe7Rules.audit_checks = real  # type: ignore[method-assign]
                Roe7Rules.audit_record_checks = real_split  # type: ignore[method-assign]

        return without_ruleset_checks

    def plain_fold() -> None:
        with open(path, "rb", buffering=1 << 20) as f:
            fold(map(DECODER.decode, f))

    parts = [
        ("child: decode + chain", chain),
        ("child: + dice, checks as recorded", child),
        ("main: decode + fold", plain_fold),
        ("main: + hooks, window, no checks", main_process(checks=False)),
        ("main: + posting-order checks", only_order(main_process())),
        ("main: + RoE checks", main_process()),
        ("audit_log, no RoE checks", only_order(lambda: audit_log(path))),
        ("audit_log, one process", lambda: audit_log(path, workers=1)),
    ]
    rounds = interleaved({"bare decoding": lambda: bare_decode(path), **dict(parts)}, repeat)
    print(f"stages, median of {repeat} interleaved rounds ({rounds.load}):")
    for name, _ in parts:
        took = rounds.median(name)
        ratio = rounds.ratio("bare decoding", name)
        print(f"  {name:34s} {count / took:>10,.0f}/s  {took / count * 1e6:5.2f} us/event  {ratio}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--events", type=int, default=1_000_000)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--stages", action="store_true", help="also time the audit's parts on their own")
    parser.add_argument("--child-audit", metavar="PATH", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child_audit:
        audit_log(args.child_audit)
        return 0
    print(f"build: {build_measured()}")
    os.makedirs(OUT, exist_ok=True)
    n, size = args.events, events_label(args.events)
    big = write_fight(fight_path(n), n)
    small = write_fight(fight_path(1000), 1000)

    report = audit_log(big)
    check_clean(report, n)
    print(f"audit of {n} events: no findings ({report.summary.dice})")

    target = ">= 0.3" if build_kind() == "compiled" else ">= 0.25"
    runs = {"decode": lambda: bare_decode(big), "audit": lambda: audit_log(big)}
    bare = interleaved(runs, args.rounds)
    figure(
        f"`audit_log` throughput, {size}-event engine fight", f"bare decoding, {rate(n, bare.median('decode'))}",
        rate(n, bare.median("audit")), bare.ratio("decode", "audit"), target, bare.load, args.rounds,
    )
    allowed = sorted(os.sched_getaffinity(0))
    if len(allowed) < 2:
        print("one CPU: no figure with the second core busy")
    else:
        busy = interleaved(runs, args.rounds, during=busy_core())
        figure(
            f"the same with a busy loop pinned to CPU {allowed[-1]}",
            f"bare decoding, the same loop running, {rate(n, busy.median('decode'))}",
            rate(n, busy.median("audit")), busy.ratio("decode", "audit"), ">= 0.2", busy.load, args.rounds,
        )
    if args.stages:
        stages(big, args.rounds, n)

    me = [sys.executable, os.path.abspath(__file__), "--child-audit"]
    peak_figure(f"peak RSS of the audit, {size} vs 1k events", "the same audit of 1k events", [*me, big], [*me, small], "")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
