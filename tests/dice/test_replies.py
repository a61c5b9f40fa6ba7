"""Reading bot replies: the corpus of real-format replies, read-backs of engine rolls
rendered the way each bot prints them, and text that is no reply."""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from fightlog.dice import FairGenerator, roll
from fightlog.dice.dialects import DIALECTS
from fightlog.dice.external import check_reply
from fightlog.dice.replies import BOTS, bot_named, read_replies, read_reply

CORPUS: list[dict[str, Any]] = tomllib.loads(
    (Path(__file__).parent / "data" / "replies.toml").read_text(encoding="utf-8")
)["reply"]


def _id(entry: dict[str, Any]) -> str:
    return f"{entry['bot']}: {entry['text'].splitlines()[-1][:40]}"


@pytest.mark.parametrize("entry", CORPUS, ids=[_id(e) for e in CORPUS])
def test_the_corpus_reads_as_expected(entry: dict[str, Any]) -> None:
    read = read_reply(entry["text"], bot=entry["bot"])
    assert read is not None
    assert read.bot == entry["bot"]
    assert read.dialect == BOTS[entry["bot"]].dialect
    assert read.raw == entry["text"]
    for field in ("notation", "total", "roller", "label", "purpose"):
        if field in entry:
            assert getattr(read, field) == entry[field], field
    if "faces" in entry:
        assert [d.face for d in read.dice] == entry["faces"]
    if "dropped" in entry:
        assert [d.face for d in read.dice if not d.kept] == entry["dropped"]
    assert bool(read.problems) == entry.get("problems", False), read.problems
    assert bool(read.notes) == entry.get("notes", False), read.notes
    if "rolls" in entry:
        assert len(read_replies(entry["text"])) == entry["rolls"]


@pytest.mark.parametrize("entry", CORPUS, ids=[_id(e) for e in CORPUS])
def test_each_reply_is_recognised_without_naming_the_bot(entry: dict[str, Any]) -> None:
    read = read_reply(entry["text"])
    assert read is not None and read.bot == entry["bot"]


CHECKED = [e for e in CORPUS if "codes" in e]


@pytest.mark.parametrize("entry", CHECKED, ids=[_id(e) for e in CHECKED])
def test_the_corpus_adds_up_under_each_dialect(entry: dict[str, Any]) -> None:
    read = read_reply(entry["text"], bot=entry["bot"])
    assert read is not None
    if read.dialect not in DIALECTS:
        pytest.skip(f"dialect {read.dialect} not built yet")
    assert [d.code for d in check_reply(read)] == entry["codes"]


def test_the_event_carries_what_was_read() -> None:
    read = read_reply(CORPUS[2]["text"], roller="alice")
    assert read is not None
    event = read.event(purpose="skill", ref="msg-1")
    assert (event.generator, event.tool, event.dialect, event.roller) == ("external", "Avrae", "avrae", "alice")
    assert event.notation == "4d6kh3" and event.total == 14 and event.purpose == "skill"
    assert [(d.face, d.kept) for d in event.dice] == [(6, True), (5, True), (2, False), (3, True)]
    assert event.origin is not None
    assert (event.origin.medium, event.origin.ref, event.origin.raw) == ("discord", "msg-1", CORPUS[2]["text"])


def test_an_attack_embed_holds_to_hit_and_damage() -> None:
    text = next(e["text"] for e in CORPUS if "Longsword" in e["text"])
    hit, damage = read_replies(text)
    assert (hit.purpose, damage.purpose) == ("attack", "damage")
    assert (damage.notation, damage.total, damage.label) == ("1d8 + 3 [slashing]", 9, "Damage")
    assert hit.roller == damage.roller == "Alice"


def test_sl_modifiers_and_speaker() -> None:
    read = read_reply("[14:25] Combat HUD: Alice Vance rolled 1d100 (57) + [10 scope] - [5 cover] = 62")
    assert read is not None and read.bot == "SL HUD" and read.medium == "sl-chat"
    assert [(m.value, m.source) for m in read.modifiers] == [(10, "scope"), (-5, "cover")]
    assert read.author == "Combat HUD"
    event = read.event()
    assert event.origin is not None and event.origin.author == "Combat HUD"
    assert check_reply(read) == []


def test_sl_log_lines_pasted_whole_name_the_roller() -> None:
    """A HUD's emote (``/me``) and a roller's name holding a colon: `read-roll` named the
    rollers "/me Alice Vance" and "Ronin"."""
    for text, author, roller in (
        ("[20:01:33]  RoE combat HUD (alice.resident): /me Alice Vance rolls 1d100 for attack: 64",
         "RoE combat HUD (alice.resident)", "Alice Vance"),
        ("[2024/06/13 20:01]  RoE combat HUD (kaito): Kaito: Ronin rolls 1d100 for attack: 57",
         "RoE combat HUD (kaito)", "Kaito: Ronin"),
        ("[2024/06/13 20:01]  Kaito Ronin rolls 1d100 for attack: 57", None, "Kaito Ronin"),
    ):
        read = read_reply(text)
        assert read is not None and read.problems == () and (read.author, read.roller) == (author, roller), text


def test_sl_purposes_and_unnamed_brackets() -> None:
    """`read-roll` could not read the HUD wording the importer reads (`rolls 1d100 for
    attack: 73`: only the importer took `for PURPOSE` off), nor a bracket without a name."""
    for text, purpose, faces, total in (
        ("RoE combat HUD (bob): Bob Kade rolls 1d100 for attack: 73", "attack", [73], 73),
        ("Bob Kade rolls 2d10 for damage: 8 + 3 = 11", "damage", [8, 3], 11),
        ("Bob Kade rolls 1d20 for the to hit and gets 15", "attack", [15], 15),
        ("Ana Prado rolled 1d100 (100) + [5] - [2 cover] = 103", None, [100], 103),
    ):
        read = read_reply(text)
        assert read is not None and read.problems == () and read.purpose == purpose, text
        assert ([d.face for d in read.dice], read.total) == (faces, total)
        assert check_reply(read) == []
    unnamed = read_reply("Ana Prado rolled 1d100 (100) + [5] - [2 cover] = 103")
    assert unnamed is not None and [(m.value, m.source) for m in unnamed.modifiers] == [(5, "unnamed"), (-2, "cover")]


def test_bot_names_and_no_reply() -> None:
    assert bot_named("dice-maiden") is BOTS["Dice Maiden"]
    assert bot_named("AVRAE") is BOTS["Avrae"]
    assert bot_named("nobody") is None
    with pytest.raises(KeyError):
        read_reply("1d20", bot="nobody")
    assert read_reply("Alice swings her sword at Bob.") is None
    assert read_reply("") is None
    assert read_reply(CORPUS[0]["text"], bot="Dice Maiden") is None


# --------------------------------------------------------------------------- renderers


def _avrae(notation: str, faces: list[tuple[int, bool, int]], const: int, total: int) -> str:
    shown = []
    for face, kept, sides in faces:
        text = f"**{face}**" if face in (1, sides) else str(face)
        shown.append(text if kept else f"~~{text}~~")
    tail = f" + {const}" if const else ""
    return f"<@42>  :game_die:\n**Result**: {notation} ({', '.join(shown)}){tail}\n**Total**: {total}"


def _sl(notation: str, faces: list[tuple[int, bool, int]], const: int, total: int) -> str:
    mods = f" + [{const} scope]" if const else ""
    return f"Alice rolled {notation} ({', '.join(str(f) for f, _, _ in faces)}){mods} = {total}"


def _maiden(notation: str, faces: list[tuple[int, bool, int]], const: int, total: int) -> str:
    tally = ", ".join(str(f) for f, _, _ in sorted(faces, reverse=True))
    tail = f"+{const}" if const else ""
    return f"Alice Request: `[{notation}{tail}]` Roll: `[{tally}]` Result: `{total}`"


def _sage(notation: str, faces: list[tuple[int, bool, int]], const: int, total: int) -> str:
    shown = ", ".join(str(f) for f, _, _ in sorted(faces))
    tail = f" + {const}" if const else ""
    return f":game_die: ***{total}*** `check` \u27f5 [{shown}]{notation}{tail}"


RENDERERS = {"Avrae": _avrae, "SL HUD": _sl, "Dice Maiden": _maiden, "RPG Sage": _sage}


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    bot=st.sampled_from(sorted(RENDERERS)),
    count=st.integers(1, 6),
    sides=st.sampled_from([4, 6, 8, 10, 12, 20, 100]),
    keep=st.integers(0, 5),
    const=st.integers(0, 12),
    index=st.integers(0, 10_000),
)
def test_engine_rolls_rendered_as_a_bot_read_back(bot: str, count: int, sides: int, keep: int,
                                                  const: int, index: int) -> None:
    keeps = bot == "Avrae" and 0 < keep < count
    notation = f"{count}d{sides}" + (f"kh{keep}" if keeps else "")
    if bot == "SL HUD":
        notation = f"1d{sides}"
    rolled = roll(notation, FairGenerator(bytes(32), "hyp"), index)
    faces = [(d.face, d.kept, d.sides) for d in rolled.dice]
    total = rolled.total + const
    text = RENDERERS[bot](notation, faces, const, total)
    read = read_reply(text)
    assert read is not None and read.bot == bot and not read.problems
    expected = [f for f, _, _ in faces]
    got = [d.face for d in read.dice]
    unordered = bot in ("Dice Maiden", "RPG Sage")
    assert (sorted(got) if unordered else got) == (sorted(expected) if unordered else expected)
    assert read.total == total
    if bot == "Avrae":
        assert [d.kept for d in read.dice] == [k for _, k, _ in faces]
    if read.dialect in DIALECTS:
        assert check_reply(read) == []


@settings(max_examples=150, deadline=None)
@given(st.text(max_size=200) | st.sampled_from([e["text"] for e in CORPUS]).flatmap(
    lambda t: st.tuples(st.integers(0, len(t)), st.integers(0, len(t)), st.text(max_size=8)).map(
        lambda cut: t[: cut[0]] + cut[2] + t[max(cut[0], cut[1]):])))
def test_any_text_reads_without_raising(text: str) -> None:
    for name in BOTS:
        for read in read_replies(text, bot=name):
            check_reply(read)  # a discrepancy or none, never an exception
            read.event()


@pytest.mark.parametrize("entry", CORPUS[:11], ids=[_id(e) for e in CORPUS[:11]])
def test_a_cut_reply_reads_as_far_as_it_goes(entry: dict[str, Any]) -> None:
    text = entry["text"]
    cut = text[: text.rindex("(") + 3] if "(" in text else text[: len(text) // 2]
    reads = read_replies(cut, bot=entry["bot"])
    if reads:  # the roll that was cut (the last) says so
        assert reads[-1].problems or check_reply(reads[-1]), reads[-1]


@pytest.mark.parametrize(
    "text",
    [
        "Alice Vance rolled 1d1\u06600: 57",
        "1d20 (\u0661\u0664) + 5 = `19`",
        "Alice Request: `[1d20]` Roll: `[\u0661\u0664]` Result: `14`",
        "<i><b>\u0663</b></i> \u27f5 [\u0663]1d20",
    ],
)
def test_non_ascii_digits_are_never_read_as_numbers(text: str) -> None:
    rolls = read_replies(text)
    assert all(r.problems for r in rolls)  # read as far as it goes and flagged, or not a reply


def test_the_dice_read_per_reply_are_capped_at_the_engine_limit() -> None:
    read = read_reply("Alice rolled 5000d6: " + ", ".join(["3"] * 5000))
    assert read is not None and len(read.dice) == 1000
    assert read.problems[-1] == "5000 dice shown, over the 1000 the dice engine rolls: only the first 1000 are read"


def test_wording_of_a_face_count() -> None:
    read = read_reply("Alice rolled 2d100: 5")
    assert read is not None and read.problems == ("2d100 shows 1 face",)


def test_a_hidden_creatures_check_names_no_roller() -> None:
    """Avrae's ``-h`` check titles the embed ``An unknown creature makes ... check!``: no one
    to credit, so the importer asks the cast (a mention, the message replied to)."""
    read = read_replies("An unknown creature makes a Stealth check!\n1d20 (3) + 5 = `8`", bot="Avrae")
    assert [(r.roller, r.total) for r in read] == [(None, 8)]
