"""Which byte of some text is not UTF-8, for the readers' messages: msgspec up to 0.22
raised ``UnicodeDecodeError`` (with the byte), 0.23 a ``DecodeError`` saying only "Invalid
UTF-8 encoded string"; the readers name the byte either way."""

from __future__ import annotations


def not_utf8(data: bytes | bytearray | memoryview) -> UnicodeDecodeError | None:
    """The error decoding ``data`` as UTF-8 (its ``start`` the first bad byte), or ``None``."""
    try:
        bytes(data).decode("utf-8")
    except UnicodeDecodeError as exc:
        return exc
    return None
