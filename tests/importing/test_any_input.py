"""Whatever a transcript holds, the import gives a log or one clean line naming the file and
the line: never a traceback, never a partial log; and bytes that are no export are refused."""

from __future__ import annotations

import io
import re
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from fightlog.cli.main import cli
from fightlog.errors import InputError
from fightlog.importing import discord_csv, discord_json, discord_txt, sl
from fightlog.importing.build import Builder
from fightlog.importing.cast import load_cast
from tests.conftest import FIXTURES

READERS = {"sl": sl.read, "discord-csv": discord_csv.read, "discord-txt": discord_txt.read,
           "discord-json": discord_json.read}
EXPORTS = ("discord-csv", "discord-txt", "discord-json")
"""The formats with a structure of their own (a header; for text and JSON an end too): bytes
without it are refused. An SL log has none: any text of ``Name: text`` lines is one."""
LINES = st.lists(
    st.one_of(
        st.sampled_from(["[2024/06/12 20:02]  Bob Kade (bob.resident): hi", " more", "[20:01]  A: /me x",
                         '"1","a","2024-01-01T00:00:00+00:00","x","",""', "AuthorID,Author,Date,Content,Attachments,Reactions",
                         "=" * 62, "[3/14/2024 8:02 PM] mara.k", "{Embed}", "RoE combat HUD (bob): Bob Kade rolls 1d100: 7"]),
        st.text(max_size=40),
    ),
    max_size=12,
).map(lambda lines: "\n".join(lines).encode("utf-8", "surrogatepass"))


@pytest.mark.parametrize("fmt", sorted(READERS))
@settings(max_examples=40, deadline=None)
@given(data=st.one_of(LINES, st.binary(max_size=200)))
def test_any_bytes_give_messages_or_a_clean_error(fmt: str, data: bytes) -> None:
    cast = load_cast(FIXTURES / "import/sl/midnight-brawl.cast.toml", "roe7")
    builder = Builder(cast, medium="sl-chat")
    try:
        for message in READERS[fmt](io.BytesIO(data), "t.txt", lambda _: None):
            assert builder.feed(message)
    except InputError as exc:
        assert "\n" not in str(exc) and re.match(r"t\.txt:\d+: \S", str(exc)), str(exc)


@pytest.mark.parametrize("fmt", EXPORTS)
@settings(max_examples=60, deadline=None)
@given(data=st.one_of(st.binary(max_size=200), st.text(max_size=60).map(lambda t: t.encode("utf-16"))))
def test_bytes_that_are_no_export_are_refused(fmt: str, data: bytes) -> None:
    """Random bytes and UTF-16 were read as a text export of no messages (exit 0); now
    refused at a line. (Not ``LINES``: those can make a real CSV export, its header alone.)"""
    with pytest.raises(InputError, match=r"^t\.txt:\d+: \S"):
        list(READERS[fmt](io.BytesIO(data), "t.txt", lambda _: None))


@pytest.mark.parametrize("fmt", sorted(READERS))
@settings(max_examples=20, deadline=None)
@given(data=st.binary(max_size=200).map(lambda b: b + b"\x00"))
def test_a_nul_byte_is_refused_by_every_reader(fmt: str, data: bytes) -> None:
    with pytest.raises(InputError, match=r"^t\.txt:\d+: "):
        list(READERS[fmt](io.BytesIO(data), "t.txt", lambda _: None))


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=LINES, fmt=st.sampled_from(["sl", "discord-csv", "discord-txt", "discord-json"]))
def test_the_command_writes_a_log_or_says_why_in_one_line(tmp_path: Path, data: bytes, fmt: str) -> None:
    source, out = tmp_path / "t.txt", tmp_path / "out.jsonl"
    source.write_bytes(data)
    out.unlink(missing_ok=True)
    result = CliRunner().invoke(cli, ["import", fmt, str(source), "-o", str(out), "--ruleset", "roe7",
                                      "--cast", str(FIXTURES / "import/sl/midnight-brawl.cast.toml")])
    assert result.exit_code in (0, 2), result.output
    assert "Traceback" not in result.output
    if result.exit_code == 2:
        assert result.stderr.count("\n") == 1 and not out.exists()
        assert result.stderr.startswith(f"fightlog: {source}:"), result.stderr
        assert re.match(r"\d+: \S", result.stderr[len(f"fightlog: {source}:"):]), result.stderr
    else:
        assert CliRunner().invoke(cli, ["verify", str(out)]).exit_code == 0
