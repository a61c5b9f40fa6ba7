"""The cast file: one-line errors at the file's line (``fightlog.importing.cast``)."""

from __future__ import annotations

from pathlib import Path

import pytest

from fightlog.errors import InputError
from fightlog.importing.cast import load_cast
from fightlog.importing.message import Message

GOOD = """\
order = ["alice", "bob"]

[[combatants]]
id = "alice"
speakers = ["alice.resident"]

[[combatants]]
id = "bob"
speakers = ["bob.resident", "Bob*"]

[[dice]]
speakers = ["RoE combat HUD (*)", "RoE combat HUD"]
bot = "sl-hud"

[hints.roe7]
attack = ['\\bfires\\b']

[[status]]
pattern = '(?P<who>\\w+) is down'
status = "defeated"
"""


def cast_at(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "cast.toml"
    path.write_text(text)
    return path


def test_roles_by_name_glob_and_sl_object_name(tmp_path: Path) -> None:
    cast = load_cast(cast_at(tmp_path, GOOD), "roe7")
    assert cast.role(Message(ref="1", speaker="alice.resident", name="Alice")).actor == "alice"
    assert cast.role(Message(ref="1", speaker="Bobby", name="Bobby")).actor == "bob"
    hud = cast.role(Message(ref="1", speaker="alice", name="RoE combat HUD"))
    assert (hud.kind, hud.bot, hud.tool) == ("dice", "SL HUD", "RoE combat HUD")
    assert cast.role(Message(ref="1", speaker="x", name="x")).kind == "other"
    owned = cast.role(Message(ref="1", speaker="alice.resident", name="RoE combat HUD"))  # named for its owner
    assert (owned.kind, owned.bot) == ("dice", "SL HUD")
    assert list(cast.hints) == ["attack"] and load_cast(cast_at(tmp_path, GOOD), "d20-evasion").hints == {}


@pytest.mark.parametrize("name", ["[RoE] Combat HUD", "Gallowglass ⚔ [GM]", "Who? HUD", "Star*Dice"])
def test_a_name_with_glob_characters_is_its_own_name_first(tmp_path: Path, name: str) -> None:
    """`--suggest-cast` writes "[RoE] Combat HUD" as the transcript shows it: as a glob
    alone, its brackets were a character class and it never matched itself (no rolls read)."""
    text = GOOD.replace('"RoE combat HUD (*)", "RoE combat HUD"', f'"{name}"')
    cast = load_cast(cast_at(tmp_path, text), "roe7")
    found = cast.role(Message(ref="1", speaker=name, name=name))
    assert (found.kind, found.bot) == ("dice", "SL HUD")
    assert cast.role(Message(ref="1", speaker="Bystander", name="Bystander")).kind == "other"


@pytest.mark.parametrize(
    ("change", "expected"),
    [
        (('"Bob*"', '"alice.resident"'), "cast.toml:9: combatants[1].speakers: speaker 'alice.resident' is named twice (also at combatants[0].speakers)"),
        (('order = ["alice", "bob"]', 'order = ["alice", "carol"]'), "cast.toml:1: order[1]: unknown actor 'carol': not one of the cast's combatants (alice, bob)"),
        (('order = ["alice", "bob"]', 'order = ["alice", "bob", "alice"]'), "cast.toml:1: order[2]: 'alice' is in the order twice (at 0 too): a posting order names each combatant once"),
        (('bot = "sl-hud"', 'bot = "hud"'), "cast.toml:13: dice[0].bot: no reader for 'hud' (bots: avrae, dice-maiden, rpg-sage, sl-hud)"),
        (("fires", "("), "cast.toml:16: hints.roe7.attack[0]: not a regular expression: '\\\\b(\\\\b': missing ), "
                         "unterminated subpattern at position 2"),
        (("(?P<who>\\w+) is", "(?P<who>\\w+ is"), "cast.toml:19: status[0].pattern: not a regular expression: "
                                                 "'(?P<who>\\\\w+ is down': missing ), unterminated subpattern at position 0"),
        (('id = "bob"', 'id = "alice"'), "cast.toml:8: combatants[1].id: combatant 'alice' is named twice"),
        (('order =', 'ordre ='), "cast.toml:1: ordre: unknown field (did you mean 'order'?)"),
        (('order = ["alice", "bob"]', 'timezone = ""\norder = ["alice", "bob"]'),
         "cast.toml:1: timezone: must not be empty"),  # it was read as the default zone, unsaid (a fuzzer)
        (("(?P<who>\\w+) is", "\\w+ is"), "cast.toml:19: status[0].pattern: '\\\\w+ is down' has no (?P<who>...) group "
                                          "(the combatant whose status changes, e.g. '(?P<who>\\w+) is down')"),
        (("(?P<who>\\w+) is", "(\\w+) is"), "cast.toml:19: status[0].pattern: '(\\\\w+) is down' has no (?P<who>...) group "
                                            "(the combatant whose status changes, e.g. '(?P<who>\\w+) is down')"),
        (("(?P<who>\\w+) is", "(?P<name>\\w+) is"), "cast.toml:19: status[0].pattern: '(?P<name>\\\\w+) is down' has no "
                                                    "(?P<who>...) group (the combatant whose status changes, "
                                                    "e.g. '(?P<who>\\w+) is down')"),
    ],
)
def test_a_bad_cast_is_one_line_at_its_line(tmp_path: Path, change: tuple[str, str], expected: str) -> None:
    assert change[0] in GOOD
    path = cast_at(tmp_path, GOOD.replace(*change))
    with pytest.raises(InputError) as caught:
        load_cast(path, "roe7")
    assert str(caught.value) == str(tmp_path / expected)


def test_a_cast_naming_an_actor_the_roster_lacks(tmp_path: Path) -> None:
    cast = load_cast(cast_at(tmp_path, GOOD), "roe7")
    with pytest.raises(InputError, match=r"cast.toml:8: combatants\[1\].id: unknown actor 'bob': not in the roster r.toml \(alice, mira\)"):
        cast.check_actors({"alice", "mira"}, "r.toml")


def test_a_status_pattern_needs_who_in_every_entry_and_says_which(tmp_path: Path) -> None:
    second = GOOD + '\n[[status]]\npattern = \'\\w+ gets up\'\nstatus = "defeated"\non = false\n'
    with pytest.raises(InputError) as caught:
        load_cast(cast_at(tmp_path, second), "roe7")
    assert str(caught.value).startswith(f"{tmp_path / 'cast.toml'}:23: status[1].pattern: '\\\\w+ gets up' has no (?P<who>...) group")


def test_status_and_hint_patterns_are_checked_for_their_ruleset_only(tmp_path: Path) -> None:
    """A hint needs no group (and may have any: each is searched on its own); the status
    patterns are checked whatever the ruleset, the hints only for the one imported."""
    text = GOOD.replace("attack = ['\\bfires\\b']", "attack = ['(?P<x>fires)', '(?P<x>shoots)']\nflee = ['(r)\\1uns']")
    cast = load_cast(cast_at(tmp_path, text), "roe7")
    assert sorted(cast.hints) == ["attack", "flee"] and [h.status for _, h in cast.status] == ["defeated"]
    with pytest.raises(InputError, match="status"):
        load_cast(cast_at(tmp_path, text.replace("(?P<who>\\w+) is", "\\w+ is")), "d20-evasion")


def test_a_repeat_too_large_for_re_is_a_bad_pattern_at_its_line(tmp_path: Path) -> None:
    """`{99999999999}` crashed the import (re raises OverflowError, not re.error)."""
    with pytest.raises(InputError) as bad:
        load_cast(cast_at(tmp_path, GOOD.replace("fires", "fires{99999999999}")), "roe7")
    assert bad.value.line == 16 and bad.value.message.startswith("hints.roe7.attack[0]: not a regular expression: ")
    assert bad.value.message.endswith("the repetition number is too large")
