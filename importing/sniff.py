"""Which transcript format a file looks like, from its first bytes: to say so when a file
is imported as another format than it is."""

from __future__ import annotations

import re
from typing import Final

from fightlog.importing.discord_csv import HEADER as CSV_HEADER
from fightlog.importing.discord_txt import RULE
from fightlog.importing.sl import STAMP

FORMATS: Final = ("sl", "discord-json", "discord-csv", "discord-txt")
_LOG: Final = re.compile(rb'\{"kind":"scene_started"')
_UNSTAMPED: Final = re.compile(r"[^\s:\[{\"][^:]{0,63}: \S")


def looks_like(head: bytes) -> str | None:
    """The format ``head`` (a file's first few KiB) looks like, or ``None``; a fightlog
    log is ``fightlog-log``."""
    text = head.lstrip(b"\xef\xbb\xbf \t\r\n")
    if _LOG.match(text):
        return "fightlog-log"
    if text.startswith(b"{"):
        return "discord-json" if b'"messages"' in text or b'"guild"' in text else None
    first = text.split(b"\n", 1)[0].rstrip(b"\r").decode("utf-8", "replace")
    if first.replace('"', "") == ",".join(CSV_HEADER):
        return "discord-csv"
    if first == RULE:
        return "discord-txt"
    lines = [line.decode("utf-8", "replace") for line in text.split(b"\n")[:20]]
    if any(STAMP.match(line) for line in lines):
        return "sl"
    said = [line for line in lines if line.strip()]
    if said and sum(1 for line in said if _UNSTAMPED.match(line)) * 2 > len(said):
        return "sl"  # a log written without stamps: mostly "Name: text"
    return None
