"""What the reliability tests share: running the appender child and reading what it acknowledged."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from fightlog.events.codec import DECODER
from fightlog.events.model import FORMAT_VERSION, DeclarationPosted, SceneStarted
from fightlog.events.store import FileStore

APPENDER = Path(__file__).with_name("appender.py")


def start_log(path: Path) -> None:
    FileStore(path, fsync=False).append([SceneStarted(scene="crash", ruleset="roe7", format=FORMAT_VERSION)])


def appender(log: Path, acks: Path, writer: str, count: int, seed: int, *flags: str) -> subprocess.Popen[bytes]:
    """Start the appender child (``appender.py``)."""
    args = [sys.executable, str(APPENDER), str(log), str(acks), writer, str(count), str(seed), *flags]
    return subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)


def acknowledged(acks: Path) -> dict[int, str]:
    """``seq -> id`` of every event an appender acknowledged (complete lines only)."""
    out: dict[int, str] = {}
    if not acks.exists():
        return out
    for line in acks.read_text().splitlines(keepends=True):
        if line.endswith("\n"):
            seq, ident = line.rstrip("\n").split("\t")
            out[int(seq)] = ident
    return out


def ids_in(data: bytes) -> dict[int, str]:
    """``seq -> id`` of the declarations in the log bytes ``data`` (complete lines)."""
    out: dict[int, str] = {}
    for line in data.split(b"\n")[:-1]:
        event = DECODER.decode(line)
        out[event.seq] = event.text.split(" ")[0] if isinstance(event, DeclarationPosted) else ""
    return out
