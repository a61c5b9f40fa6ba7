"""The audit on two processes, for a large log (``PARALLEL_MIN_BYTES`` or more, and two
cores: ``fightlog.audit.auditor`` chooses).

This process decodes, folds and checks (``fightlog.audit.one_pass``); a forked child reads
the log again (``checked``, in ``fightlog.audit.reading``), checks the chain (as ``fightlog
verify`` does), recomputes the dice and runs the ruleset's checks that need no folded state
(``Ruleset.audit_record_checks``, ``RecordChecks`` in ``fightlog.audit.recorded``). Both
verdicts together are the sequential audit's. The child also runs the ruleset's ``Clear``
tests and sends what they clear as it goes (``Inbox``); a check here skips the part a test
cleared (``AuditView.cleared``) and does it itself for an event the child has not reached, so
the report does not depend on which process is ahead. This process does not look for rulings
first: it audits the log as holding none, and if a ``ruling_made`` turns up, it collects the
rulings (``rulings_scanned``) and audits again with them, every check here (the child's
verdict on the chain and the dice as recorded stands; rolls a ruling amends are checked again
here, as ruled, as on one process). Whenever anything goes wrong (a damaged log, a fold
error, a child that fails), ``audit_parallel`` returns ``None`` and the log is audited again
sequentially (``fightlog.audit.one_process``), which raises exactly what the sequential audit
raises; so the parallel path only ever returns a report the sequential one would have
returned, and a damaged large log costs one more pass. Tests hold the two paths equal
(``tests/audit/test_audit_parallel.py``, ``test_audit_clearing.py``).
"""

from __future__ import annotations

from functools import partial
from typing import TYPE_CHECKING

from fightlog.audit.dice_checks import DiceFinding, DiceReport, FastDice
from fightlog.audit.one_pass import Auditor, Report, RulingFound
from fightlog.audit.one_process import dice_events, or_exact
from fightlog.audit.reading import LINE_LIMIT, checked
from fightlog.audit.recorded import RecordChecks
from fightlog.errors import LogDamagedError
from fightlog.events.codec import DECODER
from fightlog.events.model import RulingMade
from fightlog.events.reader import open_log
from fightlog.events.tail import revealed_seed

if TYPE_CHECKING:
    from multiprocessing.connection import Connection

_SCAN_BYTES = 1 << 20


def audit_parallel(name: str, seed: str | None) -> Report | None:
    """The audit on two processes, or ``None`` when anything went wrong (see the module
    docstring: the caller then audits sequentially)."""
    import multiprocessing

    context = multiprocessing.get_context("fork")
    try:
        hint = revealed_seed(name)
        receive, send = context.Pipe(duplex=False)
    except Exception:
        return None
    child = context.Process(target=_check_and_roll, args=(send, name, seed, hint), daemon=True)
    child.start()
    send.close()
    inbox = Inbox(receive)
    done = False
    try:
        try:
            # most logs hold no ruling: no scan for them; the child runs the checks of the
            # events as recorded, and the ``Clear`` tests
            auditor = Auditor(seed=seed, unruled=True, recorded_elsewhere=True, cleared=inbox.cleared)
            fold_checked(name, auditor)
        except RulingFound:  # the rulings govern events already checked: again, with them
            auditor = Auditor(rulings_scanned(name), seed=seed)  # every check here: as ruled
            fold_checked(name, auditor)
        sent = inbox.result()
        done = True
    except Exception:
        return None
    finally:
        receive.close()
        if not done:
            child.terminate()
        child.join()
    if not isinstance(sent, tuple) or len(sent) != 2 or not isinstance(sent[0], DiceReport):
        return None
    dice, recorded = sent
    return auditor.finish(dice, recorded if auditor._elsewhere else (), again=lambda: dice_events(name))


_POLL_EVERY = 1024
"""Events between two looks for the child's news, while it is behind."""


class Inbox:
    """The child's messages (``_check_and_roll``): what its ``Clear`` tests cleared as they
    come (``("clear", upto, unclear)``, see ``RecordChecks``), then its result
    (``("done", result)``). ``cleared`` is ``AuditView.cleared``: it reads what has arrived,
    never waits for more, and looks again only every ``_POLL_EVERY`` events while the child
    is behind."""

    def __init__(self, receive: Connection) -> None:
        self._receive = receive
        self._upto = 0
        self._unclear: set[int] = set()
        self._look_at = 0
        self._done = False
        self._result: object = None

    def cleared(self, seq: int) -> bool:
        if seq > self._upto:
            if seq < self._look_at or self._done:
                return False
            self._look_at = seq + _POLL_EVERY
            receive = self._receive
            if receive.poll():  # news: forget what nobody will ask again (asked: seq on)
                self._unclear = {s for s in self._unclear if s >= seq}
                while not self._done and receive.poll():
                    self._take(receive.recv())
            if seq > self._upto:
                return False
        return seq not in self._unclear

    def result(self) -> object:
        """The child's result, once everything before it has been read."""
        while not self._done:
            self._take(self._receive.recv())
        return self._result

    def _take(self, message: object) -> None:
        if not isinstance(message, tuple) or not message:
            raise ValueError("not a message from the audit's child")
        if message[0] == "clear":
            _, upto, unclear = message
            self._unclear.update(unclear)
            self._upto = upto
        else:
            self._done = True
            self._result = message[1]


def fold_checked(name: str, auditor: Auditor) -> None:
    """Fold the log at ``name`` with ``auditor`` checking (the chain unchecked: the child
    checks it)."""
    with open_log(name) as stream:
        lines = iter(partial(stream.readline, LINE_LIMIT), b"")
        auditor.fold(map(DECODER.decode, lines))


def _check_and_roll(send: Connection, name: str, seed: str | None, hint: str | None) -> None:
    """The child: check the chain and the dice of the whole log, run the ruleset's checks
    of the events as recorded and its ``Clear`` tests (``RecordChecks``, which sends what
    the tests clear as it goes); send ``("done", result)``: the dice report and those
    findings, or ``None`` if the log is damaged (or anything else failed)."""
    result: tuple[DiceReport, list[DiceFinding]] | None = None
    try:
        try:
            dice = FastDice(seed, hint=hint)
            record = RecordChecks(dice.feed, send.send)
            with open_log(name) as stream:
                for _ in checked(stream, name, None, record.feeds, links=True):
                    pass
            record.finish()
            result = (or_exact(dice, seed, lambda: dice_events(name)), record.findings)
        except Exception:
            result = None
        send.send(("done", result))
    except Exception:
        pass  # the parent gave up (and closed its end): nobody to tell
    finally:
        send.close()


def rulings_scanned(path: str) -> list[RulingMade]:
    """``one_process.read_rulings`` by searching the file a block at a time for
    ``"ruling_made"``: a log without rulings costs one fast scan. The same list as
    ``read_rulings`` for an intact log, the only kind the parallel path reports on (a line
    too long for a log stops the scan)."""
    found: list[RulingMade] = []
    needle = b'"ruling_made"'
    buffer = bytearray(_SCAN_BYTES + LINE_LIMIT)  # a block, after the last block's cut line
    view = memoryview(buffer)
    kept = 0
    with open(path, "rb", buffering=0) as stream:  # blocks straight from the file
        while True:
            got = stream.readinto(view[kept : kept + _SCAN_BYTES])
            filled = kept + got
            end = filled if not got else buffer.rfind(b"\n", 0, filled) + 1  # complete lines only
            at = buffer.find(needle, 0, end)
            while at >= 0:
                start = buffer.rfind(b"\n", 0, at) + 1
                stop = buffer.find(b"\n", at, end)
                stop = end if stop < 0 else stop + 1
                try:
                    event = DECODER.decode(view[start:stop])
                except Exception:
                    event = None  # the child's checked read names it
                if type(event) is RulingMade:
                    found.append(event)
                at = buffer.find(needle, stop, end)
            if not got:
                return found
            kept = filled - end
            if kept > LINE_LIMIT:
                raise LogDamagedError("a line is too long for a log", path=path)
            buffer[:kept] = buffer[end:filled]
