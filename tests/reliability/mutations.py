"""Tampering with a log: the mutations the tampering test and ``bench/bench_tamper.py`` apply.

Each mutation takes a log's lines (without terminators) and a seeded ``random.Random``, and
returns the tampered file's bytes and whether ``verify`` without ``--head`` is documented to
see it (docs/events.md, "What verify can and cannot detect"). With the original head, every
mutation here is documented to be detected.

What is not a mutation here: appending new, correctly chained events after the last line
(that is what a log is for; ``verify --head`` vouches for the published prefix), and
changing ``\\n`` to ``\\r\\n`` (line endings are not part of the chain).
"""

from __future__ import annotations

import hashlib
import random
import re
from collections.abc import Callable

from fightlog.events.codec import DECODER

Lines = list[bytes]
Mutation = Callable[[Lines, random.Random], tuple[bytes, bool]]

_SEQ = re.compile(rb'"seq":\d+')
_PREV = re.compile(rb'"prev":"[0-9a-f]{64}"')


def _file(lines: Lines) -> bytes:
    return b"".join(line + b"\n" for line in lines)


def _valid_last(lines: Lines, original: Lines) -> bool:
    """True when the (edited) last line still decodes as an event with the original seq and
    prev: the one edit the chain cannot show without a head."""
    try:
        event = DECODER.decode(lines[-1])
    except Exception:
        return False
    before = DECODER.decode(original[-1])
    return event.seq == before.seq and event.prev == before.prev and len(lines) == len(original)


def edit_byte(lines: Lines, rng: random.Random) -> tuple[bytes, bool]:
    """One byte of one line replaced by another byte (never by a line terminator)."""
    out = list(lines)
    i = rng.randrange(len(out))
    line = bytearray(out[i])
    at = rng.randrange(len(line))
    choices = [b for b in range(256) if b not in (line[at], 0x0A, 0x0D)]
    line[at] = rng.choice(choices)
    out[i] = bytes(line)
    seen = not (i == len(out) - 1 and _valid_last(out, lines))
    return _file(out), seen


def edit_value(lines: Lines, rng: random.Random) -> tuple[bytes, bool]:
    """One digit of one line changed to another digit (a face, a total, a seq, a hash)."""
    out = list(lines)
    i = rng.randrange(len(out))
    line = bytearray(out[i])
    digits = [j for j, b in enumerate(line) if 0x30 <= b <= 0x39]
    at = rng.choice(digits)
    line[at] = rng.choice([b for b in b"0123456789" if b != line[at]])
    out[i] = bytes(line)
    seen = not (i == len(out) - 1 and _valid_last(out, lines))
    return _file(out), seen


def edit_last_line(lines: Lines, rng: random.Random) -> tuple[bytes, bool]:
    """A character of the last line, after its ``prev``, changed (a digit to another digit,
    else a letter to another): often still a valid event, which only the head shows."""
    out = list(lines)
    line = bytearray(out[-1])
    start = line.find(b'"prev":') + 72
    spots = [j for j in range(start, len(line)) if 0x30 <= line[j] <= 0x39] or [
        j for j in range(start, len(line)) if 0x61 <= line[j] <= 0x7A
    ]
    at = rng.choice(spots)
    pool = b"0123456789" if 0x30 <= line[at] <= 0x39 else b"abcdefghijklmnopqrstuvwxyz"
    line[at] = rng.choice([b for b in pool if b != line[at]])
    out[-1] = bytes(line)
    return _file(out), not _valid_last(out, lines)


def delete_line(lines: Lines, rng: random.Random) -> tuple[bytes, bool]:
    """A line removed from before the last (removing the last is ``truncate_lines``)."""
    i = rng.randrange(len(lines) - 1)
    return _file(lines[:i] + lines[i + 1 :]), True


def insert_line(lines: Lines, rng: random.Random) -> tuple[bytes, bool]:
    """A copy of one line, or a line of junk, put before a line of the log."""
    i = rng.randrange(len(lines))
    new = rng.choice([rng.choice(lines), b'{"kind":"dice_rolled"}', b"", b"garbage"])
    return _file(lines[:i] + [new] + lines[i:]), True


def swap_lines(lines: Lines, rng: random.Random) -> tuple[bytes, bool]:
    """Two different lines exchanged."""
    i, j = sorted(rng.sample(range(len(lines)), 2))
    out = list(lines)
    out[i], out[j] = out[j], out[i]
    return _file(out), True


def truncate_lines(lines: Lines, rng: random.Random) -> tuple[bytes, bool]:
    """The last lines cut off at a line boundary (at least line 1 kept)."""
    keep = rng.randrange(1, len(lines))
    return _file(lines[:keep]), False


def truncate_bytes(lines: Lines, rng: random.Random) -> tuple[bytes, bool]:
    """The file cut inside a line (a torn last line)."""
    data = _file(lines)
    ends = {len(_file(lines[:k])) for k in range(len(lines) + 1)}
    cut = rng.choice([n for n in range(1, len(data)) if n not in ends and data[n - 1] != 0x0A])
    return data[:cut], True


def _rechain(lines: Lines, start: int) -> Lines:
    """``lines`` with ``seq`` renumbered and ``prev`` recomputed from line ``start`` on."""
    out = list(lines[:start])
    prev = hashlib.sha256(out[-1]).hexdigest() if out else "0" * 64
    for n, line in enumerate(lines[start:], start=start + 1):
        line = _SEQ.sub(b'"seq":%d' % n, line, count=1)
        line = _PREV.sub(b'"prev":"' + prev.encode() + b'"', line, count=1)
        out.append(line)
        prev = hashlib.sha256(line).hexdigest()
    return out


def rechained(lines: Lines) -> bytes:
    """The file of ``lines`` with every ``seq`` and ``prev`` made right (a valid chain)."""
    return _file(_rechain(lines, 0))


def forge_rechained(lines: Lines, rng: random.Random) -> tuple[bytes, bool]:
    """A line after the first changed (a field added) and every later line re-chained: a
    forgery only the published head shows."""
    i = rng.randrange(1, len(lines))
    out = list(lines)
    out[i] = out[i][:-1] + b',"forged":%d}' % rng.randrange(1000)
    return _file(_rechain(out, i)), False


def delete_rechained(lines: Lines, rng: random.Random) -> tuple[bytes, bool]:
    """A line after the first removed, later lines renumbered and re-chained."""
    i = rng.randrange(1, len(lines))
    return _file(_rechain(lines[:i] + lines[i + 1 :], i)), False


MUTATIONS: dict[str, Mutation] = {
    "edit_byte": edit_byte,
    "edit_value": edit_value,
    "edit_last_line": edit_last_line,
    "delete_line": delete_line,
    "insert_line": insert_line,
    "swap_lines": swap_lines,
    "truncate_lines": truncate_lines,
    "truncate_bytes": truncate_bytes,
    "forge_rechained": forge_rechained,
    "delete_rechained": delete_rechained,
}
