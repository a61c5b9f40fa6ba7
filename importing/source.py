"""Opening a transcript: its SHA-256, its lines read with a length limit, decoded.

Every reader takes its input from here, so the limits and the decoding are the same for all
formats: a line (or, for JSON, one message) longer than ``MAX_MESSAGE_BYTES`` is refused in
one line naming where it starts, since its raw text could not fit in a log line (1 MiB); a
line that is not UTF-8 is decoded as Windows-1252 (what SL users' editors re-save logs as)
and the first such line is named in a warning.
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Callable, Iterator
from typing import BinaryIO, Final

from fightlog.errors import InputError

MAX_MESSAGE_BYTES: Final = 256 * 1024
"""Longest message read (bytes): its text and raw text both go into one log line, which is
at most 1 MiB."""

Warn = Callable[[str], None]
"""Where a reader says what it had to guess (``FILE:LINE: message``)."""


def open_transcript(path: str) -> BinaryIO:
    """The transcript opened for reading; a one-line ``InputError`` when it cannot be."""
    try:
        if os.path.isdir(path):
            raise InputError("is a directory, not a transcript", path=path)
        return open(path, "rb")
    except FileNotFoundError:
        raise InputError("no such file", path=path) from None
    except PermissionError:
        raise InputError("permission denied", path=path) from None
    except (OSError, ValueError) as exc:
        raise InputError(f"cannot open: {getattr(exc, 'strerror', None) or exc}", path=path) from None


def sha256_of(path: str) -> str:
    """The hex SHA-256 of the transcript's bytes (recorded in ``scene_started``)."""
    digest = hashlib.sha256()
    with open_transcript(path) as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def too_long(name: str, line: int, size: int | None = None) -> InputError:
    what = f"{size} bytes" if size is not None else f"more than {MAX_MESSAGE_BYTES} bytes"
    return InputError(
        f"a message of {what}: longer than the importer's limit of {MAX_MESSAGE_BYTES} bytes "
        "(its raw text must fit in one log line)", path=name, line=line,
    )


class Decoder:
    """Bytes to text, UTF-8 first, Windows-1252 for a line that is not UTF-8 (warned once)."""

    def __init__(self, name: str, warn: Warn) -> None:
        self.name = name
        self.warn = warn
        self.fallback = False

    def __call__(self, data: bytes, line: int) -> str:
        try:
            return data.decode("utf-8")
        except UnicodeDecodeError:
            pass
        if not self.fallback:
            self.fallback = True
            self.warn(f"{self.name}:{line}: not UTF-8: read as Windows-1252 (cp1252) from here on where needed")
        return data.decode("cp1252", errors="replace")


def empty_file(name: str, blank_lines: bool = False) -> InputError:
    """The refusal of a file with nothing in it (or only blank lines): no transcript."""
    what = "holds only blank lines" if blank_lines else "is empty"
    return InputError(f"the file {what}: not a chat transcript, nothing to import", path=name, line=1)


UTF8_BOM: Final = b"\xef\xbb\xbf"
UTF16_BOMS: Final = (b"\xff\xfe", b"\xfe\xff")


def utf16_file(name: str) -> InputError:
    """The refusal of a file in UTF-16 (it starts with ``UTF16_BOMS``)."""
    return InputError("UTF-16 text (it starts with a UTF-16 byte order mark): not a transcript as the viewer "
                      "or the exporter writes it; save it again as UTF-8", path=name, line=1)


def text_lines(handle: BinaryIO, name: str, warn: Warn) -> Iterator[tuple[int, str]]:
    """``(line number, text)`` for each line, without its line ending (LF or CRLF).

    A file that is not text is refused at its line: UTF-16 (its byte order mark), a NUL
    byte (no chat line holds one: a binary file); so is a file with nothing but blank lines
    (``empty_file``), once it has been read."""
    decode = Decoder(name, warn)
    number = 0
    blank = True
    while True:
        data = handle.readline(MAX_MESSAGE_BYTES + 1)
        if not data:
            if blank:
                raise empty_file(name, number > 0)
            return
        number += 1
        if len(data) > MAX_MESSAGE_BYTES:
            raise too_long(name, number)
        if number == 1 and data.startswith(UTF16_BOMS):
            raise utf16_file(name)
        nul = data.find(b"\0")
        if nul >= 0:
            raise InputError(f"a NUL byte (0x00) at byte {nul + 1} of the line: a binary file "
                             "(or UTF-16 text), not a chat transcript", path=name, line=number)
        if number == 1:
            data = data.removeprefix(UTF8_BOM)
        if blank and data.strip():
            blank = False
        if data.endswith(b"\n"):
            data = data[:-1]
        if data.endswith(b"\r"):
            data = data[:-1]
        yield number, decode(data, number)
