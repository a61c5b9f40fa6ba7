"""Second Life chat logs as the viewers write them (``fightlog.importing.sl``)."""

from __future__ import annotations

import io
from datetime import date, datetime, timedelta, timezone
from zoneinfo import ZoneInfo

import pytest

from fightlog.errors import InputError
from fightlog.importing import sl
from fightlog.importing.message import Message
from fightlog.importing.source import MAX_MESSAGE_BYTES


def read(text: str | bytes, **kw: object) -> tuple[list[Message], list[str]]:
    warnings: list[str] = []
    data = text.encode("utf-8") if isinstance(text, str) else text
    found = list(sl.read(io.BytesIO(data), "chat.txt", warnings.append, **kw))  # type: ignore[arg-type]
    return found, warnings


def test_full_stamps_display_and_user_names() -> None:
    (m,), _ = read("[2024/06/12 20:02]  Bob Kade (bob.resident): Bob vaults the fence.\n")
    assert (m.ref, m.line, m.speaker, m.name, m.text, m.kind) == (
        "chat.txt:1", 1, "bob.resident", "Bob Kade", "Bob vaults the fence.", "say")
    assert m.at == datetime(2024, 6, 12, 20, 2)
    assert m.raw == "[2024/06/12 20:02]  Bob Kade (bob.resident): Bob vaults the fence."


@pytest.mark.parametrize(
    ("stamp", "expected"),
    [
        ("[2024/06/12 20:02:13]", datetime(2024, 6, 12, 20, 2, 13)),
        ("[2024/06/12 08:02 PM]", datetime(2024, 6, 12, 20, 2)),
        ("[2024/06/12 12:05 AM]", datetime(2024, 6, 12, 0, 5)),
        ("[20:02]", datetime(2024, 6, 12, 20, 2)),
        ("[8:02 PM]", datetime(2024, 6, 12, 20, 2)),
        ("[20:02:13]", datetime(2024, 6, 12, 20, 2, 13)),
    ],
)
def test_every_stamp_the_viewers_write(stamp: str, expected: datetime) -> None:
    (m,), _ = read(f"{stamp}  Bob Kade: hi\n", day=date(2024, 6, 12))
    assert m.at == expected and m.name == "Bob Kade" and m.text == "hi"


def test_time_only_stamps_roll_over_midnight_and_days_and_take_the_file_date() -> None:
    text = "[23:58]  A: one\n[23:59]  A: two\n[00:01]  A: three\n[12:00]  A: four\n[01:00]  A: five\n"
    found = list(sl.read(io.BytesIO(text.encode()), "chat-2024-06-12.txt", print))
    assert [m.at for m in found] == [
        datetime(2024, 6, 12, 23, 58), datetime(2024, 6, 12, 23, 59), datetime(2024, 6, 13, 0, 1),
        datetime(2024, 6, 13, 12, 0), datetime(2024, 6, 14, 1, 0),
    ]


def test_a_time_going_back_is_kept_and_warned_with_its_line() -> None:
    found, warnings = read("[2024/06/12 20:05]  A: one\n[2024/06/12 20:03]  A: two\n")
    assert [m.at for m in found] == [datetime(2024, 6, 12, 20, 5), datetime(2024, 6, 12, 20, 3)]
    assert warnings == ["chat.txt:2: the time goes back from 20:05:00 to 20:03:00"]


def test_emotes_shouts_whispers_and_escaped_colons() -> None:
    found, _ = read(
        "[20:01]  Bob Kade: /me grins.\n"
        "[20:02]  Bob Kade shouts: Over here!\n"
        "[20:03]  Bob Kade: shouts: Over there!\n"
        "[20:04]  Bob Kade whispers: psst\n"
        "[20:05]  Dr%3A Who (who.resident): a name with a colon\n"
        "[20:06]  Bob Kade grins again, old style.\n",
        day=date(2024, 6, 12),
    )
    assert [(m.kind, m.name, m.text) for m in found] == [
        ("emote", "Bob Kade", "Bob Kade grins."),
        ("shout", "Bob Kade", "Over here!"),
        ("shout", "Bob Kade", "Over there!"),
        ("whisper", "Bob Kade", "psst"),
        ("say", "Dr: Who", "a name with a colon"),
        ("emote", "Bob Kade", "Bob Kade grins again, old style."),
    ]


def test_an_old_style_emote_by_a_name_never_seen_is_a_system_line_unless_the_cast_names_it() -> None:
    line = "[2024/06/12 20:06]  Cara Moss waves.\n"
    assert read(line)[0][0].kind == "system"
    (m,), _ = read(line, names=["Cara Moss"])
    assert (m.kind, m.speaker, m.text) == ("emote", "Cara Moss", "Cara Moss waves.")


def test_a_speakers_coming_and_going_is_a_system_line() -> None:
    """``Katar Ivercourt is Offline`` after Katar spoke was read as his old-style emote."""
    found, _ = read("[2024/08/02 21:00]  Katar Ivercourt (katar.resident): I attack.\n"
                    "[2024/08/02 21:01]  Katar Ivercourt is Offline\n[2024/08/02 21:02]  Katar Ivercourt is Online\n"
                    "[2024/08/02 21:03]  Katar Ivercourt has left this region.\n"
                    "[2024/08/02 21:04]  Katar Ivercourt grins.\n")
    assert [m.kind for m in found] == ["say", "system", "system", "system", "emote"]


def test_continuation_lines_system_lines_crlf_and_a_bom() -> None:
    data = (b"\xef\xbb\xbf[2024/06/12 20:02]  Bob Kade: first line\r\n second line\r\n"
            b"[2024/06/12 20:03]  Second Life: Teleport completed\r\n-- no stamp --\r\n")
    found, _ = read(data)
    assert [(m.kind, m.text, m.line) for m in found] == [
        ("say", "first line\nsecond line", 1),
        ("system", "Second Life: Teleport completed", 3),
        ("system", "-- no stamp --", 4),
    ]
    assert found[0].raw == "[2024/06/12 20:02]  Bob Kade: first line\n second line"


def test_windows_1252_is_decoded_and_warned_once_with_its_line() -> None:
    data = "[2024/06/12 20:02]  Zoë: ok\n[2024/06/12 20:03]  Zoë: “quoted”\n".encode("cp1252")
    found, warnings = read(b"[2024/06/12 20:01]  A: plain\n" + data)
    assert [m.name for m in found] == ["A", "Zoë", "Zoë"] and found[2].text == "“quoted”"
    assert warnings == ["chat.txt:2: not UTF-8: read as Windows-1252 (cp1252) from here on where needed"]


def test_the_zone_is_attached() -> None:
    zone = timezone(timedelta(hours=-7))
    (m,), _ = read("[2024/06/12 20:02]  A: hi\n", tz=zone)
    assert m.at == datetime(2024, 6, 12, 20, 2, tzinfo=zone)


def test_the_hour_a_fall_change_repeats_reads_twice_round_as_fixed_offsets() -> None:
    zone = ZoneInfo("America/Los_Angeles")
    found, warnings = read("[2024/11/03 01:50]  A: first\n[2024/11/03 01:05]  B: after the change\n"
                           "[2024/11/03 01:10]  A: again\n", tz=zone)
    pdt, pst = timezone(timedelta(hours=-7)), timezone(timedelta(hours=-8))
    assert [m.at for m in found] == [datetime(2024, 11, 3, 1, 50, tzinfo=pdt), datetime(2024, 11, 3, 1, 5, tzinfo=pst),
                                     datetime(2024, 11, 3, 1, 10, tzinfo=pst)]
    assert warnings == []
    for m in found:  # a zone's own tzinfo in a repeated hour equals no other reading of the instant
        assert m.at is not None and m.at.tzinfo in (pdt, pst)


def test_a_time_in_the_hour_a_spring_change_skips_is_kept_with_a_warning() -> None:
    (m,), warnings = read("[2024/03/10 02:30]  A: hm\n", tz=ZoneInfo("America/Los_Angeles"))
    assert m.at == datetime(2024, 3, 10, 2, 30, tzinfo=timezone(timedelta(hours=-8)))
    assert warnings == ["chat.txt:1: no such time 2024-03-10 02:30:00 in America/Los_Angeles: the clocks skip that "
                        "hour; read as 2024-03-10T02:30:00-08:00"]


def test_the_skipped_hour_is_judged_on_the_day_a_time_only_stamp_rolls_over_to() -> None:
    """It was judged before the midnight roll-over: 23:50 then 02:30 on the night of the
    change was read into the skipped hour unwarned, and the night before warned falsely."""
    zone = ZoneInfo("America/Los_Angeles")
    (_, into), warned = read("[23:50]  A: late\n[02:30]  A: later\n", tz=zone, day=date(2024, 3, 9))
    assert into.at == datetime(2024, 3, 10, 2, 30, tzinfo=timezone(timedelta(hours=-8)))
    assert warned == ["chat.txt:2: no such time 2024-03-10 02:30:00 in America/Los_Angeles: the clocks skip that "
                      "hour; read as 2024-03-10T02:30:00-08:00"]
    (_, after), warned = read("[23:50]  A: late\n[02:30]  A: later\n", tz=zone, day=date(2024, 3, 10))
    assert after.at == datetime(2024, 3, 11, 2, 30, tzinfo=timezone(timedelta(hours=-7))) and warned == []


def test_dates_a_time_cannot_hold_or_a_log_cannot_write_are_kept_or_read_in_utc() -> None:
    """A fuzzer: past 9999-12-31 the import crashed (exit 3); in 1850 Los Angeles keeps local
    mean time, an offset in seconds that reads back as none (a message blaming floats)."""
    zone = ZoneInfo("America/Los_Angeles")
    found, warned = read("[9999/12/31 23:50]  A: late\n[00:10]  A: later\n")  # the next day is past the last
    assert [m.at for m in found] == [datetime(9999, 12, 31, 23, 50), None]
    assert warned == ["chat.txt:2: [00:10]: a date out of the range a time can hold (years 1 to 9999): kept without a "
                      "time"]
    (old,), _ = read("[1850/06/13 23:50]  A: long ago\n", tz=zone)
    assert old.at is not None and old.at.utcoffset() == timedelta(0)
    assert old.at == datetime(1850, 6, 13, 23, 50, tzinfo=zone).astimezone(timezone.utc)


def test_the_time_going_back_across_a_change_is_said_with_its_offsets() -> None:
    (_, _, _), warned = read("[2024/03/10 01:59]  A: a\n[2024/03/10 02:30]  A: b\n[03:01]  A: c\n",
                             tz=ZoneInfo("America/Los_Angeles"))
    assert warned[-1] == "chat.txt:3: the time goes back from 2024-03-10T02:30:00-0800 to 2024-03-10T03:01:00-0700"


def test_an_older_viewers_emote_with_a_colon_in_its_text_is_the_emote() -> None:
    """It was chatter of a speaker called "Kaito Ronin fires at Zoe and yells"."""
    found, _ = read('[20:00]  Kaito Ronin fires at Zoe and yells: "Down!"\n[20:01]  Kaito Ronin Jr: hi\n'
                    "[20:02]  Kaito Ronin's HUD: Kaito rolls 1d100: 5\n[20:03]  Kaito Ronin HUD: ready\n",
                    names=("Kaito Ronin",), day=date(2024, 6, 12))
    assert [(m.kind, m.name, m.text) for m in found] == [
        ("emote", "Kaito Ronin", 'Kaito Ronin fires at Zoe and yells: "Down!"'),
        ("say", "Kaito Ronin Jr", "hi"),
        ("say", "Kaito Ronin's HUD", "Kaito rolls 1d100: 5"),
        ("say", "Kaito Ronin HUD", "ready"),
    ]


def test_a_huge_line_is_refused_at_its_line() -> None:
    with pytest.raises(InputError) as caught:
        read(b"[20:01]  A: hi\n" + b"x" * (MAX_MESSAGE_BYTES + 10) + b"\n")
    assert str(caught.value).startswith("chat.txt:2: a message of more than")


def test_a_log_written_without_stamps() -> None:
    found, _ = read("Bob Kade: hi\n continued\nKatar Ivercourt is Offline\nBob Kade: /me waves.\n")
    assert [(m.kind, m.name, m.text, m.at) for m in found] == [
        ("say", "Bob Kade", "hi\ncontinued", None),
        ("system", "", "Katar Ivercourt is Offline", None),
        ("emote", "Bob Kade", "Bob Kade waves.", None),
    ]


def test_firestorm_12_hour_stamps_with_seconds() -> None:
    (m,), _ = read("[2024/06/12 8:02:13 PM]  Bob Kade: hi\n")
    assert m.at == datetime(2024, 6, 12, 20, 2, 13)


def test_objects_the_cast_names_speak_as_objects() -> None:
    found, _ = read("[20:01]  RoE combat HUD (alice): Alice Vance rolls 1d100: 58\n[20:02]  Alice Vance: hi\n",
                    objects=lambda m: m.name == "RoE combat HUD")
    assert [(m.kind, m.name, m.speaker) for m in found] == [("object", "RoE combat HUD", "alice"), ("say", "Alice Vance", "Alice Vance")]


def test_firestorm_ims_shown_in_nearby_chat_are_no_ones_post() -> None:
    """Firestorm logs an IM it shows in nearby chat as ``IM: `` + the sender, the colon
    escaped (``fsfloaternearbychat.cpp``, ``lllogchat.cpp``): kept under the sender, a system
    line, so it never opens anyone's turn."""
    found, _ = read(
        "[21:00:30]  IM%3A Alice Vance (alice.resident): you there? I fire at Kaito when it is my turn\n"
        "[21:00:31]  IM: Bob Kade: on my way\n"
        "[21:00:32]  IMogen Kat: a name that starts with IM\n",
        day=date(2024, 6, 13),
    )
    assert [(m.kind, m.speaker, m.name, m.text) for m in found] == [
        ("system", "alice.resident", "Alice Vance", "you there? I fire at Kaito when it is my turn"),
        ("system", "Bob Kade", "Bob Kade", "on my way"),
        ("say", "IMogen Kat", "IMogen Kat", "a name that starts with IM"),
    ]


def test_lines_ending_in_a_carriage_return_alone_are_refused() -> None:
    """A tester's transcript with old Mac line ends imported as one message, exit 0, with only
    a warning that nobody posted (a log with them is refused, the line ends named)."""
    with pytest.raises(InputError) as caught:
        read(b"[20:01]  A B: hi\r[20:02]  A B: there\r")
    assert str(caught.value) == ("chat.txt:1: its lines end in a carriage return alone (\\r), not \\n: convert the "
                                 "line endings (tr '\\r' '\\n' < FILE > FIXED)")
    assert len(read(b"[20:01]  A B: hi\r\n[20:02]  A B: there\r\n")[0]) == 2  # CRLF: as ever
    assert len(read(b"[20:01]  A B: hi\r\r\n[20:02]  A B: there\r\r\n")[0]) == 2  # CRLF converted twice (a reviewer)
    assert len(read(b"[20:01]  A B: hi\rthere\n[20:02]  A B: yes\n")[0]) == 2  # a stray CR in a line


def test_a_last_line_cut_off_is_warned() -> None:
    """`head -c 300` of a transcript, cut in a line: imported, exit 0, its last line a system post."""
    found, warnings = read(b"[20:01]  A B: hi\n[20:02]  Ro", day=date(2024, 6, 12))
    assert found[-1].kind == "system"
    assert warnings == ["chat.txt:2: the last line has no line end and reads as no one's ('[20:02]  Ro'): the "
                        "transcript may be cut off there"]
    assert read(b"[20:01]  A B: hi\n[20:02]  A B: there", day=date(2024, 6, 12))[1] == []  # as written


def test_a_blank_line_is_no_message() -> None:
    """A note saved above the log and a gap under it: the gap was an empty system message."""
    found, _ = read("Fight at the pump, saved by Gemma\n\n[2024/06/12 20:01]  A B: hi\n\n[2024/06/12 20:02]  A B: x\n")
    assert [(m.kind, m.line, m.text) for m in found] == [("system", 1, "Fight at the pump, saved by Gemma"),
                                                         ("say", 3, "hi"), ("say", 5, "x")]


def test_times_with_no_date_are_warned_once() -> None:
    """They were kept without times, and --from and --to then kept everything, unsaid."""
    found, warnings = read(b"[20:01]  A B: hi\n[20:02]  A B: there\n")
    assert [m.at for m in found] == [None, None]
    assert warnings == ["chat.txt:1: a time with no date (none in an earlier stamp, the cast's date or a YYYY-MM-DD "
                        "in the file name): the messages are kept without times"]
