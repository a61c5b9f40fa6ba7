"""The log read for an audit: every line checked as ``read_log`` checks it, in one loop.

``checked`` is the audit's reader (the one-process audit's, and the child's on two
processes): the usual line is judged here, inline, and the first unusual one is handed to
``check_lines`` (``fightlog.events.reader``), so every error is the reader's own.
"""

from __future__ import annotations

import hashlib
import itertools
from collections.abc import Callable, Iterator, Mapping
from typing import BinaryIO

import msgspec

from fightlog.audit.dice_checks import FED
from fightlog.events.batches import CLOSED
from fightlog.events.codec import DECODER, MAX_LINE_BYTES, link_decoder
from fightlog.events.depth import NESTED_KINDS, too_deep
from fightlog.events.model import FORMAT_VERSION, GENESIS, AnyEvent, SceneStarted
from fightlog.events.reader import ChainHead, check_lines, raw_lines

LINE_LIMIT = MAX_LINE_BYTES + 2
"""The most ``readline`` is asked for: a log line at its longest, its ``\\n`` and one byte
more (so a line too long is seen to be)."""


def checked(
    stream: BinaryIO,
    path: str,
    feed: Callable[[AnyEvent], None] | None,
    feeds: Mapping[type, Callable[[AnyEvent], None]] | None = None,
    *,
    links: bool = False,
) -> Iterator[AnyEvent]:
    """The events of the log open in ``stream``, checked exactly as ``read_log`` checks
    them (the same events, the same first error), each passed before it is yielded to
    ``feed`` if of a dice kind (``FED``), or to what ``feeds`` maps its kind to when
    ``feeds`` is given (read as the loop goes).

    The usual line (``\\n``-terminated, decodes, the next ``seq``, ``prev`` the hash of the
    line before, ``scene_started`` first and only first) is checked here in one loop; at the
    first other line, ``check_lines`` takes over from there (continuing the chain checked so
    far), so every unusual case is judged, and worded, by the reader itself.

    ``links``: after the first line, only the kinds ``feeds`` reads are decoded in full, the
    others as their ``seq`` and ``prev`` (``link_decoder``), for a caller that decodes every
    line in full elsewhere (what is yielded is then not an event for those kinds).
    """
    # Long on purpose: the audit's hot loop, every check of a usual line inline (a call per
    # line costs more than the checks); the hand-over to ``check_lines`` ends it.
    if feeds is None:
        feeds = {} if feed is None else dict.fromkeys(FED, feed)
    reader_of = feeds.get
    decode = DECODER.decode
    sha256 = hashlib.sha256
    readline = stream.readline
    expected = GENESIS
    lineno = 0
    offset = 0
    want = size = opened = opened_at = 0  # an append still open (fightlog.events.batches)
    while True:
        raw = readline(LINE_LIMIT)
        if not raw:
            if lineno and not want:
                return
            break
        if raw[-1] != 10 or (len(raw) > 1 and raw[-2] == 13):  # "\n"-terminated, not "\r\n"
            break
        try:
            event = decode(raw)
            if not raw.isascii():  # an unknown field's bytes, which msgspec skips unread: UTF-8 too
                raw.decode("utf-8")
        except (msgspec.DecodeError, UnicodeDecodeError, RecursionError):
            break
        kind = type(event)
        if kind in NESTED_KINDS and too_deep(raw):
            break
        if (kind is SceneStarted) is not (lineno == 0) or event.seq != lineno + 1 or event.prev != expected:
            break
        if not lineno and event.format > FORMAT_VERSION:  # type: ignore[union-attr]
            break  # refused by the reader (a newer writer's log)
        mark = event.batch
        if mark is not None or want:  # the open append's next event, or one that opens one
            if want and mark is not None and mark[0] == want and mark[1] == size:
                want = 0 if want == size else want + 1
            elif not want and mark is not None and mark[0] == 1 and mark[1] >= 2:
                want, size, opened, opened_at = 2, mark[1], lineno + 1, offset
            else:
                break  # the reader words it
        expected = sha256(raw[:-1]).hexdigest()
        lineno += 1
        offset += len(raw)
        reader = reader_of(kind)
        if reader is not None:
            reader(event)
            if links and kind is SceneStarted:  # the scene's feeds are known now
                decode = link_decoder(frozenset(feeds)).decode
        yield event
    batch = (want, size, opened, opened_at) if want else CLOSED
    after = ChainHead(seq=lineno, digest=expected, batch=batch) if lineno else None
    lines = itertools.chain((raw,) if raw else (), raw_lines(stream))
    for _, event in check_lines(lines, path, after=after, offset=offset):
        reader = reader_of(type(event))
        if reader is not None:
            reader(event)
        yield event
