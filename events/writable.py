"""The writer's side of the reader's rules: a line is written only if the reader takes it back.

``encode_checked`` encodes one sealed event and refuses (``StoreError``, before anything is
written) what the reader would refuse or read differently: a line over ``MAX_LINE_BYTES``,
nested deeper than ``MAX_DEPTH``, text that is not valid UTF-8 (lone surrogates), a field the
model rejects (an empty id, a too-long one), or a value that would not read back equal (a
float that is not finite, a non-string map key). NUL characters are escaped by the encoder
(``\\u0000``), so a line never holds a NUL byte.
"""

from __future__ import annotations

import msgspec

from fightlog.errors import StoreError
from fightlog.events.codec import DECODER, ENCODER
from fightlog.events.depth import too_deep
from fightlog.events.limits import MAX_DEPTH, MAX_LINE_BYTES
from fightlog.events.model import AnyEvent

def encode_checked(event: AnyEvent, name: str, index: int, count: int) -> bytes:
    """The line for sealed ``event`` (event ``index`` of ``count`` in one append to ``name``),
    or ``StoreError`` naming what the reader would refuse."""
    kind = type(event).__struct_config__.tag
    where = f"{name}: event {index} of {count} ({kind})" if count > 1 else f"{name}: the {kind} event"
    try:
        line = ENCODER.encode(event)
    except (UnicodeEncodeError, TypeError, ValueError, OverflowError, RecursionError) as exc:
        reason = "text that is not valid UTF-8 (a lone surrogate)" if isinstance(exc, UnicodeEncodeError) else str(exc)
        raise StoreError(f"{where}: cannot be written: {reason}; nothing written") from None
    if len(line) > MAX_LINE_BYTES:
        raise StoreError(
            f"{where}: its line would be {len(line)} bytes, over the {MAX_LINE_BYTES}-byte limit "
            "every reader holds to; nothing written"
        )
    if too_deep(line):
        raise StoreError(
            f"{where}: its line would nest more than {MAX_DEPTH} levels deep, the limit "
            "every reader holds to; nothing written"
        )
    try:
        back = DECODER.decode(line)
    except (msgspec.DecodeError, RecursionError) as exc:
        raise StoreError(f"{where}: the reader would refuse it ({exc}); nothing written") from None
    if back != event:
        raise StoreError(
            f"{where}: it would not read back as written (a float that is not finite, a "
            "map key that is not text?); nothing written"
        )
    return line
