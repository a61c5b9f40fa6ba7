"""How every command writes ``--format json``: one style, one encoder (docs/cli.md).

One JSON document per command, on one line: compact (no spaces), keys sorted, UTF-8, then a
newline. Keys are snake_case. A failure under ``--format json`` is ``{"error": {...}}`` on
stdout as well as the one line on stderr (``fightlog.cli.errors``).
"""

from __future__ import annotations

import json
import sys

import click
import msgspec

from fightlog.cli.terminal import raw


def json_text(doc: object) -> str:
    """``doc`` (plain data or msgspec structs) as one line of compact JSON, keys sorted. A
    string holding a byte that was not UTF-8 (a file name's, kept by Python as a lone
    surrogate) is written as its escape (``\\udcff``), which a JSON reader gives back."""
    try:
        return msgspec.json.encode(doc, order="sorted").decode()
    except UnicodeEncodeError:
        plain = msgspec.to_builtins(doc, order="sorted")
        return json.dumps(plain, separators=(",", ":"), sort_keys=True, ensure_ascii=False,
                          default=str).encode("utf-8", "backslashreplace").decode("utf-8")


def echo_json(doc: object) -> None:
    """Print ``doc`` as the command's JSON document (data: as it is, ``terminal.raw``)."""
    click.echo(json_text(doc), file=raw(sys.stdout))
