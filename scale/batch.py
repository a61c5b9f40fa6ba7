"""The batch audit's work per log, pure (no Dask): ``audit_one(path)`` verifies the log's
chain, audits it, and gives one ``LogRow`` and a ``FindingRow`` per finding. A log that
cannot be read (not a log, damaged, missing) is a ``LogRow`` with its one-line reason and
no findings: it never stops a batch. ``find_logs`` turns the command's paths into the list
of logs, and ``head_of`` the key the incremental manifest compares (read by the worker that
would audit the log, so a large archive is not read twice by the client)."""

from __future__ import annotations

import glob
import hashlib
import os
import stat
from collections.abc import Iterable

from msgspec import Struct

from fightlog.errors import FightlogError, InputError, LogDamagedError
from fightlog.events.tail import tail_lines

LOG_SUFFIXES = (".jsonl",)
"""The files a walked directory contributes (a file named on its own is taken whatever its
name: if it is not a log, its row says so)."""


class LogRow(Struct, frozen=True, kw_only=True):
    """One log of the batch (the ``logs`` table)."""

    log: str
    head: str
    """``SEQ:SHA256`` of the verified chain's last line; empty when the chain breaks."""
    events: int
    ruleset: str
    format: int
    verdict: str
    """``clean``, ``findings`` (errors or warnings no ruling accepted), ``damaged`` (the
    chain breaks: not audited) or ``unusable`` (not a log, unreadable)."""
    chain: str
    """``intact`` or the one-line reason it is not."""
    dice: str
    errors: int = 0
    warnings: int = 0
    info: int = 0
    error: str = ""
    """Why the log could not be audited (``damaged``, ``unusable``)."""


class FindingRow(Struct, frozen=True, kw_only=True):
    """One finding of one log (the ``findings`` table)."""

    log: str
    head: str
    ruleset: str
    seq: int
    code: str
    severity: str
    actor: str
    section: str
    message: str
    accepted: bool


def audit_one(path: str) -> tuple[LogRow, list[FindingRow]]:
    """Verify and audit the log at ``path`` (see the module docstring)."""
    from fightlog.audit.auditor import audit_log
    from fightlog.events.integrity import verify_log

    if not _regular(path):  # a FIFO under an archive would wait forever
        return _unread(path, "not a regular file (a FIFO, a device or a socket): not read"), []
    try:
        result = verify_log(path, workers=1)
    except FightlogError as exc:
        return _unread(path, _reason(exc)), []
    except OSError as exc:
        return _unread(path, exc.strerror or str(exc)), []
    ruleset, version = _first_event(path)
    if result.problem is not None:
        reason = _reason(result.problem)
        return LogRow(log=path, head="", events=result.events, ruleset=ruleset, format=version, verdict="damaged",
                      chain=reason, dice="", error=reason), []
    head = f"{result.head.seq}:{result.head.digest}"
    try:
        report = audit_log(path, workers=1)
    except (InputError, LogDamagedError) as exc:
        return LogRow(log=path, head=head, events=result.events, ruleset=ruleset, format=version,
                      verdict="unusable", chain="intact", dice="", error=_reason(exc)), []
    summary = report.summary
    rows = [
        FindingRow(log=path, head=head, ruleset=ruleset, seq=f.seq, code=f.code, severity=f.severity,
                   actor=f.actor or "", section=f.rule, message=f.message, accepted=f.accepted is not None)
        for f in report.findings
    ]
    return LogRow(log=path, head=head, events=result.events, ruleset=ruleset, format=version,
                  verdict="findings" if summary.failed else "clean", chain="intact", dice=summary.dice,
                  errors=summary.errors, warnings=summary.warnings, info=summary.info), rows


def _regular(path: str) -> bool:
    """Whether ``path`` is a regular file (or cannot be looked at: the reader says why)."""
    try:
        return stat.S_ISREG(os.stat(path).st_mode)
    except OSError:
        return True


def _unread(path: str, reason: str) -> LogRow:
    return LogRow(log=path, head="", events=0, ruleset="", format=0, verdict="unusable", chain="unread", dice="",
                  error=reason)


def _reason(exc: FightlogError) -> str:
    """The one-line reason, without the log's path (the row names it): ``line 3: ...``."""
    line = getattr(exc, "line", None)
    message = exc.message.splitlines() or [type(exc).__name__]
    return f"line {line}: {message[0]}" if line else message[0]


def _first_event(path: str) -> tuple[str, int]:
    """The ruleset and format version the log's first line names (``("", 0)`` if none)."""
    import msgspec

    from fightlog.events.model import SceneStarted
    from fightlog.events.codec import DECODER

    try:
        with open(path, "rb") as handle:
            line = handle.readline(1 << 20)
        event = DECODER.decode(line.rstrip(b"\r\n"))
    except (OSError, msgspec.DecodeError, UnicodeDecodeError, RecursionError):
        return "", 0
    return (event.ruleset or "", event.format) if isinstance(event, SceneStarted) else ("", 0)


class Chunk(Struct, frozen=True, kw_only=True):
    """What one task of the batch gives back: the rows of the logs it audited, the key of
    each (``head_of``), and the logs it found unchanged since the manifest (not audited)."""

    logs: list[LogRow]
    findings: list[FindingRow]
    keys: dict[str, str]
    unchanged: list[str]


def audit_chunk(paths: list[str], known: dict[str, str]) -> Chunk:
    """What one Dask task does: each path's key (read on the worker, beside the log), and
    ``audit_one`` for those whose key is not the one ``known`` (the manifest) holds."""
    logs: list[LogRow] = []
    findings: list[FindingRow] = []
    keys: dict[str, str] = {}
    unchanged: list[str] = []
    for path in paths:
        key = head_of(path)
        if key and known.get(path) == key:
            unchanged.append(path)
            continue
        keys[path] = key
        row, found = audit_one(path)
        logs.append(row)
        findings.extend(found)
    return Chunk(logs=logs, findings=findings, keys=keys, unchanged=unchanged)


def head_of(path: str) -> str:
    """What the manifest keeps of a log: its size and the SHA-256 of its last line (the chain
    head, without reading the log); empty when the file cannot be read."""
    try:
        info = os.stat(path)
    except OSError:
        return ""
    if not stat.S_ISREG(info.st_mode):  # a FIFO would block: not read (``audit_one`` says why)
        return ""
    size = info.st_size
    lines = tail_lines(path)  # the last 64 KiB: a longer last line keys on the size alone
    last = lines[0].rstrip(b"\r") if lines else b""
    return f"{size}:{hashlib.sha256(last).hexdigest()}"


def find_logs(paths: Iterable[str]) -> list[str]:
    """The logs under ``paths``: a directory is walked for ``*.jsonl``; a pattern with
    ``*``, ``?`` or ``[`` is a glob (``**`` recursive); any other path is taken as it is (a
    missing one is an ``InputError``). Sorted, each once, however the paths spell it (``a//b``,
    ``./a/b``, ``../x/a/b``: the same file once, as the first spelling met names it)."""
    found: set[str] = set()
    spelled: dict[str, str] = {}

    def add(name: str) -> None:
        real = os.path.realpath(name)
        if real not in spelled:
            tidy = os.path.normpath(name)  # a//b, ./a/b: a/b, unless a link's .. makes it another file
            spelled[real] = tidy if os.path.realpath(tidy) == real else name
            found.add(spelled[real])

    for path in paths:
        if any(c in path for c in "*?[") and not os.path.exists(path):
            matches = glob.glob(path, recursive=True)
            if not matches:
                raise InputError("no file matches this pattern", path=path)
            for match in sorted(matches):
                if os.path.isfile(match):
                    add(match)
        elif os.path.isdir(path):
            for root, dirs, files in os.walk(path):
                dirs.sort()
                for name in sorted(files):
                    if name.endswith(LOG_SUFFIXES):
                        add(os.path.join(root, name))
        elif os.path.exists(path):
            add(path)
        else:
            raise InputError("no such file or directory", path=path)
    return sorted(found)
