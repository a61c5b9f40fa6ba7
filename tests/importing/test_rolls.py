"""Rolls read out of dice bots' and HUDs' messages (``fightlog.importing.rolls``, over the
bot-reply readers of ``fightlog.dice.replies``)."""

from __future__ import annotations

from fightlog.importing.message import Embed, EmbedField, Message
from fightlog.importing.rolls import bot_name, read_rolls


def said(text: str, *embeds: Embed) -> Message:
    return Message(ref="1", text=text, embeds=embeds)


def test_cast_bot_names() -> None:
    assert [bot_name(n) for n in ("avrae", "dice-maiden", "sl-hud", "RPG Sage", "hud")] == [
        "Avrae", "Dice Maiden", "SL HUD", "RPG Sage", None]


def test_avrae_reply_as_exported() -> None:
    ((roll, purpose),) = read_rolls(said("@Mara  :game_die:\n**Result**: 1d20 (**20**) + 5\n**Total**: 25"), "Avrae")
    assert (roll.roller, roll.notation, roll.total, purpose) == ("Mara", "1d20 + 5", 25, None)


def test_avrae_attack_embed_title_and_fields() -> None:
    embed = Embed(title="Mara attacks with a Longsword!",
                  fields=(EmbedField(name="Meta", value="**To Hit**: 1d20 (14) + 5 = `19`\n**Damage**: 1d8 (6) + 3 = `9`"),))
    (hit, _), (damage, _) = read_rolls(said("", embed), "Avrae")
    assert (hit.roller, hit.purpose, hit.total) == ("Mara", "attack", 19)
    assert (damage.purpose, [d.face for d in damage.dice], damage.total) == ("damage", [6], 9)
    field = Embed(title="Mara attacks with a Longsword!", fields=(EmbedField(name="To Hit", value="1d20 (3) + 5 = `8`"),))
    ((miss, _),) = read_rolls(said("", field), "Avrae")
    assert (miss.purpose, miss.total) == ("attack", 8)


def test_sl_hud_lines_say_what_the_roll_is_for() -> None:
    ((a, why),) = read_rolls(said("Alice Vance rolls 1d100 for attack: 64"), "SL HUD")
    ((b, none),) = read_rolls(said("Alice Vance rolled 2d10: 8 + 3 = 12"), "SL HUD")
    assert (a.roller, why, a.total) == ("Alice Vance", "attack", 64)
    assert (none, [d.face for d in b.dice], b.total) == (None, [8, 3], 12)


def test_chatter_from_a_bot_is_no_roll() -> None:
    assert read_rolls(said("Avrae is restarting, back soon"), "Avrae") == []
    assert read_rolls(said("HUD attached. Welcome!"), "SL HUD") == []


def test_a_hud_emote_names_the_roller_after_the_objects_own_name() -> None:
    """A HUD's ``/me Alice Vance rolls ...`` shows as ``RoE combat HUD Alice Vance rolls ...``:
    Alice rolled, not someone called "RoE combat HUD Alice Vance"; a HUD said to roll itself
    keeps its name."""
    emote = Message(ref="1", speaker="alice", name="RoE combat HUD", kind="emote",
                    text="RoE combat HUD Alice Vance rolls 1d100 for dodge: 35")
    ((roll, why),) = read_rolls(emote, "SL HUD")
    assert (roll.roller, why, roll.total) == ("Alice Vance", "dodge", 35)
    itself = Message(ref="1", speaker="hud", name="RoE combat HUD", kind="emote", text="RoE combat HUD rolls 1d100: 35")
    ((roll, _),) = read_rolls(itself, "SL HUD")
    assert roll.roller == "RoE combat HUD"
