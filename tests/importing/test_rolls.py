"""Rolls read out of dice bots' and HUDs' messages (``fightlog.importing.rolls``)."""

from __future__ import annotations

from fightlog.events.model import Die
from fightlog.importing.message import Embed, EmbedField, Message
from fightlog.importing.rolls import read_rolls


def said(text: str, *embeds: Embed) -> Message:
    return Message(ref="1", text=text, embeds=embeds)


def test_avrae_roll_reply_raw_and_as_exported() -> None:
    for text, who in (("<@2001>  :game_die:\n**Result**: 1d20 (**20**) + 5\n**Total**: 25", "2001"),
                      ("@Mara  :game_die:\nResult: 2d20kh1 (**18**, ~~4~~) + 1\nTotal: 19", "Mara")):
        (roll,) = read_rolls(said(text), "avrae")
        assert roll.who == who and roll.dialect == "avrae"
    assert roll.notation == "2d20kh1+1" and roll.total == 19
    assert roll.dice == (Die(sides=20, face=18), Die(sides=20, face=4, kept=False))


def test_avrae_attack_embed_to_hit_and_damage() -> None:
    embed = Embed(title="Mara attacks with a Longsword!",
                  fields=(EmbedField(name="Meta", value="**To Hit**: 1d20 (14) + 5 = `19`\n**Damage**: 1d8 (6) + 3 = `9`"),))
    hit, damage = read_rolls(said("", embed), "avrae")
    assert (hit.who, hit.label, hit.purpose, hit.notation, hit.total) == ("Mara", "To Hit", "attack", "1d20+5", 19)
    assert (damage.purpose, damage.notation, damage.dice, damage.total) == ("damage", "1d8+3", (Die(sides=8, face=6),), 9)


def test_dice_maiden_with_and_without_code_marks() -> None:
    for text in ("`Mara` Request: `[3d6+2]` Roll: `[1, 5, 6]` Result: `14`", "Mara Request: [3d6+2] Roll: [1, 5, 6] Result: 14"):
        (roll,) = read_rolls(said(text), "dice-maiden")
        assert (roll.who, roll.notation, [d.face for d in roll.dice], roll.total) == ("Mara", "3d6+2", [1, 5, 6], 14)


def test_sl_hud_phrasings_and_a_total_kept_as_printed() -> None:
    (a,) = read_rolls(said("Alice Vance rolls 1d100 for attack: 64"), "sl-hud")
    (b,) = read_rolls(said("Alice Vance rolled 2d10 for damage: 8 + 3 = 12"), "sl-hud")
    assert (a.who, a.purpose, a.total) == ("Alice Vance", "attack", 64)
    assert (b.notation, [d.face for d in b.dice], b.total) == ("2d10", [8, 3], 12)


def test_chatter_from_a_bot_is_no_roll() -> None:
    assert read_rolls(said("Avrae is restarting, back soon"), "avrae") == []
    assert read_rolls(said("HUD attached. Welcome!"), "sl-hud") == []
