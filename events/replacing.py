"""A file written whole or not at all: a temporary file beside it, fsynced, renamed over it.

``replacing(path)`` hands out the temporary file to write; when the block ends normally the
file is fsynced, given the mode a plain ``open()`` would have made (``0o666`` under the
umask) and renamed over ``path``, so readers see the old file or the new one, never part of
it; when the block raises, the temporary file is removed and ``path`` is as it was. Used by
every command that writes a new log at once (``run``, ``dispute -o``, ``import``).
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from typing import BinaryIO

from fightlog.errors import SystemRefusedError


@contextmanager
def replacing(path: str) -> Iterator[BinaryIO]:
    """The temporary file to write ``path``'s new content to (see the module docstring);
    ``SystemRefusedError`` (an ``InputError``) when the directory cannot be written."""
    directory = os.path.dirname(os.path.abspath(path))
    try:
        fd, temp = tempfile.mkstemp(dir=directory, prefix=f".{os.path.basename(path)}.", suffix=".tmp")
    except OSError as exc:
        raise SystemRefusedError(f"cannot write in {directory}: {exc.strerror}", path=path) from None
    try:
        with os.fdopen(fd, "wb") as handle:
            yield handle
            handle.flush()
            os.fsync(handle.fileno())
        os.chmod(temp, 0o666 & ~_umask())
        os.replace(temp, path)
    except OSError as exc:
        _remove(temp)
        raise SystemRefusedError(f"cannot write: {exc.strerror}", path=path) from None
    except BaseException:
        _remove(temp)
        raise


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def _remove(path: str) -> None:
    try:
        os.unlink(path)
    except OSError:
        pass
