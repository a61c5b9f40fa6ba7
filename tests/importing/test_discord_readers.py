"""DiscordChatExporter's formats (``discord_json``, ``jsonsplit``, ``discord_csv``,
``discord_txt``), read as its writers write them (``fightlog.fixtures.discord_exports``)."""

from __future__ import annotations

import io
import json
import re
from datetime import datetime, timedelta, timezone
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fightlog.errors import InputError
from fightlog.fixtures import discord_exports as dx
from fightlog.importing import discord_csv, discord_json, discord_txt
from fightlog.importing.jsonsplit import Splitter
from fightlog.importing.message import Message
from fightlog.importing.source import MAX_MESSAGE_BYTES


def export() -> bytes:
    return "".join(dx.export_json(dx.dockside_rematch(), dx.USERS)).encode()


def read_json(data: bytes) -> list[Message]:
    return list(discord_json.read(io.BytesIO(data), "x.json", print))


def test_the_json_export_gives_ids_nicknames_proxies_edits_replies_and_embeds() -> None:
    found = read_json("".join(dx.export_json(dx.dockside(), dx.USERS)).encode())
    first, attack, proxy = found[0], found[2], found[3]
    assert (first.ref, first.speaker, first.name, first.attachments) == (
        "1218000000000000001", "2000", "Rook", ("https://cdn.discordapp.com/attachments/1100/1/docks.png",))
    assert first.at == datetime(2024, 3, 14, 20, 0, tzinfo=timezone.utc)
    assert attack.bot and attack.embeds[0].title == "Mara attacks with a Longsword!"
    assert attack.embeds[0].fields[0].value.startswith("**To Hit**: 1d20 (14) + 5 = `19`")
    assert (proxy.speaker, proxy.speaker_id, proxy.name) == ("Captain Vex", "9001", "Captain Vex")
    assert found[5].reply_to == "1218000000000000005"
    rematch = read_json(export())
    assert rematch[5].edited_at == datetime(2024, 3, 21, 20, 9, tzinfo=timezone(timedelta(hours=-7)))
    assert rematch[1].text.startswith("@Jonah  :game_die:\n**Result**")
    assert rematch[-1].kind == "system"


def test_an_export_re_saved_compact_reads_the_same() -> None:
    data = export()
    compact = json.dumps(json.loads(data), separators=(",", ":"), ensure_ascii=False).encode()
    assert read_json(compact) == read_json(data)


def _laid_out(doc: dict[str, Any], layout: str) -> bytes:
    """``doc`` as the exporter writes it (``indented``), re-saved compact, or with each message
    on a line of its own, four spaces in (``{ "id": ... },``: a layout that was cut at a later
    message's ``\n    }``, or said to end inside the first)."""
    if layout != "one per line":
        return json.dumps(doc, indent=2 if layout == "indented" else None, ensure_ascii=False).encode()
    lines = ",\n".join("    " + json.dumps(m, ensure_ascii=False) for m in doc["messages"])
    return (f'{{\n  "guild": {json.dumps(doc["guild"])},\n  "messages": [\n{lines}\n  ],\n'
            f'  "messageCount": {doc["messageCount"]}\n}}\n').encode()


@settings(max_examples=60, deadline=None)
@given(st.lists(st.text(max_size=30), max_size=6), st.sampled_from(["indented", "compact", "one per line"]),
       st.integers(1, 64), st.booleans())
def test_the_splitter_gives_each_element_whatever_the_chunks(texts: list[str], layout: str, chunk: int,
                                                              nested: bool) -> None:
    inner = {"a": "]", "b": {"c": [1, {"d": "}"}]}} if nested else {"a": "]"}
    doc = {"guild": {"name": "g{"}, "messages": [{"id": str(i), "content": t, "n": [inner]} for i, t in enumerate(texts)],
           "messageCount": len(texts)}
    data = _laid_out(doc, layout)

    class Slow(io.BytesIO):
        def read(self, size: int | None = -1) -> bytes:
            return super().read(chunk)

    splitter = Splitter(Slow(data), "x.json")
    splitter.header()
    assert [json.loads(part) for _, _, part in splitter] == doc["messages"]


@pytest.mark.parametrize("cut", [40, 800, 2000, -30])
def test_a_truncated_export_is_one_line_naming_the_message_and_offset(cut: int) -> None:
    data = export()[:cut]
    with pytest.raises(InputError) as caught:
        read_json(data)
    text = str(caught.value)
    assert re.match(r"x\.json:\d+: ", text) and "\n" not in text
    assert "truncated JSON" in text or "no \"messages\" array" in text


def test_a_huge_message_is_refused_before_it_is_held() -> None:
    data = export().replace(b"Mara swings", b"Mara " + b"a" * (MAX_MESSAGE_BYTES + 1) + b" swings")
    with pytest.raises(InputError, match=r"^x\.json:\d+: messages\[2\] \(byte \d+\): a message of more than"):
        read_json(data)


def test_a_message_the_exporter_never_writes_is_refused_by_index() -> None:
    data = export().replace(b'"id": "1220000000000000003"', b'"id": 3', 1)
    with pytest.raises(InputError, match=r"^x\.json:\d+: messages\[2\] \(byte \d+\): Expected `str`, got `int` - at `\$\.id`"):
        read_json(data)


def test_an_export_saved_again_in_another_encoding_is_refused_by_index() -> None:
    """Was an internal error: msgspec raises ``UnicodeDecodeError`` for a string that is not UTF-8."""
    data = export().replace(b"Mara swings", "Mara swings \u00f1".encode("cp1252"), 1)
    with pytest.raises(InputError, match=r"^x\.json:\d+: messages\[2\] \(byte \d+\): not UTF-8 \(byte 0xf1\); "
                                         r"DiscordChatExporter writes UTF-8: export the channel again$"):
        read_json(data)


@pytest.mark.parametrize(("key", "where"), [(b'"guild"', "before"), (b'"messageCount"', "after")])
def test_bytes_not_utf8_around_the_messages_array_are_named(key: bytes, where: str) -> None:
    """msgspec 0.23 says only "Invalid UTF-8 encoded string" (older ones raised
    ``UnicodeDecodeError`` with the byte): the byte is named either way."""
    data = export().replace(key, key[:2] + b"\xff" + key[2:], 1)
    at = data.index(b"\xff")
    line = data.count(b"\n", 0, at) + 1
    with pytest.raises(InputError) as caught:
        read_json(data)
    assert str(caught.value) == (f"x.json:{line}: not JSON {where} the messages array (byte {at}): not UTF-8 (byte "
                                 "0xff): the export is damaged")


@settings(max_examples=60, deadline=None)
@given(st.binary(max_size=40))
def test_any_bytes_in_a_message_s_text_give_messages_or_a_clean_error(data: bytes) -> None:
    try:
        read_json(export().replace(b"Mara swings", data, 1))
    except InputError:
        pass


@settings(max_examples=60, deadline=None)
@given(st.binary(max_size=300))
def test_any_bytes_give_messages_or_a_clean_error(data: bytes) -> None:
    try:
        read_json(b'{"messages": [' + data)
    except InputError:
        pass


def test_the_csv_export_with_quotes_newlines_and_crlf() -> None:
    channel = dx.dockside("dice-maiden")
    channel.posts[1] = dx.Post("1", channel.posts[1].at, dx.MARA, 'She says "run!"\nand runs.')
    data = dx.export_csv(channel, dx.USERS).replace("\n", "\r\n").encode()
    found = list(discord_csv.read(io.BytesIO(data), "x.csv", print))
    assert found[1].text == 'She says "run!"\nand runs.' and found[1].ref == "x.csv:3"
    assert found[2].ref == "x.csv:5" and found[2].name == "Dice Maiden#8137"
    assert found[2].text == "Mara Request: `[1d20+5]` Roll: `[14]` Result: `19`"


def test_a_csv_with_another_header_is_refused_at_line_1() -> None:
    with pytest.raises(InputError, match=r"^x\.csv:1: not a DiscordChatExporter CSV header"):
        list(discord_csv.read(io.BytesIO(b"a,b\n1,2\n"), "x.csv", print))


def test_the_text_export_gives_authors_content_blocks_and_lines() -> None:
    data = dx.export_txt(dx.dockside(), dx.USERS).encode()
    found = list(discord_txt.read(io.BytesIO(data), "x.txt", print))
    assert len(found) == len(dx.dockside().posts)
    first = found[0]
    assert (first.ref, first.name, first.text) == ("x.txt:6", "rook_gm", "**Round 1.** Posting order: Mara, then Captain Vex. Map attached.")
    assert first.attachments == ("https://cdn.discordapp.com/attachments/1100/1/docks.png",)
    assert first.at == datetime(2024, 3, 14, 20, 0)
    assert found[2].name == "Avrae#6877" and "**To Hit**: 1d20 (14) + 5 = `19`" in found[2].embeds[0].description
    assert found[5].text == "Mara presses the attack, driving Vex toward the water."


def test_a_header_whose_date_does_not_read_is_a_warning_at_its_line() -> None:
    """It is kept as the text of the message before (the exporter wrote no such date): a
    message merged into another was read without a word, and its roll cited at the other's line."""
    lines = dx.export_txt(dx.dockside(), dx.USERS).splitlines(keepends=True)
    at = next(i for i, line in enumerate(lines) if i > 6 and line.startswith("[") and "] " in line)
    stamp = lines[at][1:lines[at].index("]")]
    lines[at] = lines[at].replace(stamp, "13/45/2024 8:04 PM", 1)
    said: list[str] = []
    found = list(discord_txt.read(io.BytesIO("".join(lines).encode()), "x.txt", said.append))
    assert len(found) == len(dx.dockside().posts) - 1
    assert [s for s in said if "looks like" in s] == [
        f"x.txt:{at + 1}: '[13/45/2024 8:04 PM]' looks like a message's date, which does not read: the line is kept as "
        f"text of the message at line {found[0].line}"]  # the second message's header, kept as the first's text


def test_the_bundled_discord_transcripts_are_what_the_script_writes(tmp_path) -> None:  # type: ignore[no-untyped-def]
    from tests.conftest import FIXTURES

    dx.write(str(tmp_path))
    for made in sorted(tmp_path.iterdir()):
        assert made.read_bytes() == (FIXTURES / "import" / "discord" / made.name).read_bytes(), made.name


def test_a_message_id_repeated_or_going_back_is_a_warning_once() -> None:
    """Discord's ids grow with time and the exporter writes them in order: a repeat is a
    message copied, or two exports joined (it was read without a word)."""
    def warnings(doc: dict[str, object]) -> list[str]:
        said: list[str] = []
        list(discord_json.read(io.BytesIO(json.dumps(doc).encode()), "x.json", said.append))
        return [s for s in said if "messageCount" not in s]

    doc = json.loads(export())
    assert warnings(doc) == []
    messages = doc["messages"]
    messages.insert(3, messages[2])
    messages.insert(6, messages[0])
    assert warnings(doc) == [f"x.json:1: messages[3]: its id {messages[3]['id']} repeats the id of the message "
                             "before it: a message repeated, or exports joined or edited by hand"]


def test_a_first_header_whose_date_does_not_read_is_a_warning_too() -> None:
    """Before the first message there is no message to keep it in: it stays a line of its own,
    said (it was read without a word, the GM's round call with it)."""
    lines = dx.export_txt(dx.dockside(), dx.USERS).splitlines(keepends=True)
    at = next(i for i, line in enumerate(lines) if line.startswith("[") and "] " in line)
    stamp = lines[at][1:lines[at].index("]")]
    lines[at] = lines[at].replace(stamp, "13/45/2024 8:00 PM", 1)
    said: list[str] = []
    list(discord_txt.read(io.BytesIO("".join(lines).encode()), "x.txt", said.append))
    assert [s for s in said if "looks like" in s] == [
        f"x.txt:{at + 1}: '[13/45/2024 8:00 PM]' looks like a message's date, which does not read: the line is kept as "
        "a line of text before the first message"]


def test_ids_that_are_not_discord_ids_and_a_count_that_is_not_one_are_warnings() -> None:
    doc = json.loads(export())
    doc["messages"][3]["id"], doc["messages"][5]["id"], doc["messageCount"] = "abc", "-5", "x"
    said: list[str] = []
    list(discord_json.read(io.BytesIO(json.dumps(doc).encode()), "x.json", said.append))
    assert said == ["x.json:1: messages[3]: its id 'abc' is not a Discord id (digits): the export was edited by hand",
                    'x.json:1: messageCount "x" is not a count of messages: the export was edited by hand']


@pytest.mark.parametrize(("where", "says"), [
    ("message", "x.json:1: messages[3] (byte {at}): nested too deeply (a message of DiscordChatExporter's nests a few "
                "levels): the export is damaged"),
    ("before", "x.json:{line}: not a DiscordChatExporter JSON export: nested too deeply before the messages array "
               "(more than 100 levels, from byte {at})"),
    ("after", "x.json:{line}: not a DiscordChatExporter JSON export: nested too deeply after the messages array "
              "(more than 100 levels, from byte {at})"),
])
def test_json_nested_past_the_interpreters_depth_is_bad_input_not_a_crash(where: str, says: str) -> None:
    doc = json.loads(export())
    deep = "[" * 5000 + "]" * 5000
    if where == "message":
        text = json.dumps(doc).replace(f'"id": "{doc["messages"][3]["id"]}"', f'"deep": {deep}, "id": "{doc["messages"][3]["id"]}"', 1)
    else:  # the deep part on a line of its own, a few lines in (before the array, or after it)
        text = json.dumps(doc, indent=1)
        key = '"guild": {' if where == "before" else '"messageCount"'
        text = text.replace(key, f'"deep":\n{deep},\n {key}', 1)
    # around the array: the run's 100th bracket, the 101st level (the export's own object is the first)
    at = text.index('"deep"') - 1 if where == "message" else text.index("[" * 100) + 99
    line = 1 if where == "message" else text.count("\n", 0, at) + 1
    assert where == "message" or line > 1
    with pytest.raises(InputError) as caught:
        list(discord_json.read(io.BytesIO(text.encode()), "x.json", lambda _: None))
    assert str(caught.value) == says.format(at=at, line=line)


def test_a_second_messages_array_is_refused_not_dropped() -> None:
    """JSON keeps a repeated key's last value: an export whose first "messages" array was
    empty imported nothing, with no word but the count's."""
    text = json.dumps(json.loads(export())).replace('"messages": [', '"messages": [], "messages": [', 1)
    with pytest.raises(InputError, match=r'^x\.json:1: a second "messages" key after the messages array'):
        list(discord_json.read(io.BytesIO(text.encode()), "x.json", lambda _: None))


@pytest.mark.parametrize(
    ("stamp", "expected"),
    [
        ("4/12/2024 11:59 PM", datetime(2024, 4, 12, 23, 59)),  # en-US: month first, 12-hour
        ("12/04/2024 23:59", datetime(2024, 4, 12, 23, 59)),  # en-GB, fr-FR: day first, 24-hour
        ("13/04/2024 00:01", datetime(2024, 4, 13, 0, 1)),
        ("3/14/2024 21:15", datetime(2024, 3, 14, 21, 15)),  # 24-hour, the second number no month
        ("2024-04-12 23:59", datetime(2024, 4, 12, 23, 59)),
        ("12.04.2024 23:59", datetime(2024, 4, 12, 23, 59)),
        ("2024/04/12 23:59", datetime(2024, 4, 12, 23, 59)),  # ja-JP
        ("2024/4/12 23:59", datetime(2024, 4, 12, 23, 59)),  # zh-CN
        ("2024-04-12 오후 11:59", datetime(2024, 4, 12, 23, 59)),  # ko-KR: the designator first
        ("2024-04-12 오전 9:05", datetime(2024, 4, 12, 9, 5)),
        ("12-4-2024 23:59", datetime(2024, 4, 12, 23, 59)),  # nl-NL
        ("5/08/2024 9:00 pm", datetime(2024, 8, 5, 21, 0)),  # en-AU: day first, the month padded, 12-hour
        ("13/4/2024 9:00 PM", datetime(2024, 4, 13, 21, 0)),  # 12-hour, the first number no month
        ("8/5/2024 9:00 PM", datetime(2024, 8, 5, 21, 0)),  # en-US never pads the month: month first
    ],
)
def test_a_text_exports_date_reads_one_way_whatever_the_day(stamp: str, expected: datetime) -> None:
    """The exporter writes its culture's short date (``FormatDate(instant, "g")``): a slashed
    date on a 24-hour clock is day first (en-GB), so the 12th of April is not the 4th of
    December beside the 13th of April."""
    assert discord_txt.parse_date(stamp) == expected


@pytest.mark.parametrize(("later", "first", "second"), [
    ("03/13/2024 00:01", datetime(2024, 3, 12, 23, 58), datetime(2024, 3, 13, 0, 1)),  # invariant: month first
    ("13/03/2024 00:01", datetime(2024, 12, 3, 23, 58), datetime(2024, 3, 13, 0, 1)),  # en-GB: day first
    ("03/11/2024 00:01", datetime(2024, 12, 3, 23, 58), datetime(2024, 11, 3, 0, 1)),  # nothing decides: day first
])
def test_a_text_export_reads_its_slashed_24_hour_dates_one_way_for_the_whole_file(
        later: str, first: datetime, second: datetime) -> None:
    """An export run with no --locale on a system with none writes .NET's invariant culture
    (MM/dd/yyyy HH:mm): 03/12 23:58 was read as 3 December and 03/13 00:01 as 13 March, in one
    file, and a --from/--to window kept one message of three (a tester)."""
    text = "".join([
        "=" * 62, "\nGuild: g\nChannel: c\n", "=" * 62, "\n\n",
        "[03/12/2024 23:58] rook_gm\nRound 1\n\n\n", f"[{later}] mara.k\nMara lunges.\n\n\n",
        "=" * 62, "\nExported 2 message(s)\n", "=" * 62, "\n",
    ])
    found = list(discord_txt.read(io.BytesIO(text.encode()), "x.txt", lambda _: None))
    assert [m.at for m in found] == [first, second]


class _Stream(io.BytesIO):
    """Standard input: read once, never sought."""

    def seekable(self) -> bool:
        return False


def _export_of(stamps: list[str]) -> bytes:
    body = "".join(f"[{stamp}] mara.k\nline {n}\n\n\n" for n, stamp in enumerate(stamps))
    return ("=" * 62 + "\nGuild: g\nChannel: c\n" + "=" * 62 + "\n\n" + body + "=" * 62 +
            f"\nExported {len(stamps)} message(s)\n" + "=" * 62 + "\n").encode()


@pytest.mark.parametrize("stamp", ["3/{day}/2024 8:{minute:02d} PM", "{day:02d}/03/2024 20:{minute:02d}"])
def test_deciding_the_date_order_of_a_stream_reads_ahead_a_few_lines_not_the_whole(stamp: str) -> None:
    """The look-ahead for a month-first file read a whole en-US export (its dates never
    decide) before the first message: 126 MB for 15 MB (a review). From a stream it stops at a
    date of another form, or after LOOK_AHEAD lines, saying so."""
    data = _export_of([stamp.format(day=1 + n // 1000 % 28, minute=n % 60) for n in range(30_000)])
    handle, said = _Stream(data), []
    first = next(discord_txt.read(handle, "x.txt", said.append))
    assert first.text == "line 0" and handle.tell() < len(data) // 4
    assert bool(said) is stamp.startswith("{day")  # the day-first file: undecided within the bound, said


def test_a_file_is_scanned_whole_for_its_date_order_and_read_again() -> None:
    """Past the look-ahead, a month-first file read its first 20,000 lines day first (the 1st
    of March as 3 January) and the rest month first (a review): a file (not a stream) is
    scanned for its dates first, keeping nothing, then read from its start."""
    stamps = [f"03/{1 + n * 12 // 7000:02d}/2024 {n % 24:02d}:{n % 60:02d}" for n in range(7000)] + ["03/13/2024 00:01"]
    found = list(discord_txt.read(io.BytesIO(_export_of(stamps)), "x.txt", lambda _: None))
    assert (found[0].at, found[-2].at, found[-1].at) == (
        datetime(2024, 3, 1, 0, 0), datetime(2024, 3, 12, 15, 39), datetime(2024, 3, 13, 0, 1))


def test_an_export_whose_dates_do_not_read_is_refused_not_an_empty_fight() -> None:
    """An export in a culture not read imported as lines of text before the first message,
    not one post, exit 0: the audit then called the fight clean."""
    rule = "=" * 62
    text = f"{rule}\nGuild: G\nChannel: C\n{rule}\n\n[31 aug 2024 21h00] gm\nRound 1\n\n{rule}\nExported 1 message(s)\n{rule}\n"
    with pytest.raises(InputError, match=r"^x\.txt:6: '\[31 aug 2024 21h00\]' looks like a message's date, in a form "
                                         r"the importer does not read, and no message's date reads"):
        list(discord_txt.read(io.BytesIO(text.encode()), "x.txt", lambda _: None))


def test_a_slash_commands_reply_is_spoken() -> None:
    """The exporter writes a kind its enum lacks as its number (a slash command's reply:
    ``20``): said by its author, not a system line."""
    data = json.loads(export())
    data["messages"][0]["type"] = "20"
    found = read_json(json.dumps(data).encode())
    assert found[0].kind != "system"
