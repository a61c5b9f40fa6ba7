"""Answers in another's turn: an imported post whose actions include one of the ruleset's
answers (a Traveller dive, an en5.1 counter, a Bleeding Sun dodge, a d20 duel's defensive
response) answers the open turn's post (``responds_to``) instead of opening its poster's
turn, so the audit does not call it out of turn; ``--options`` gives the scene's house rules
(a d20 duel)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from fightlog.events.codec import DECODER
from fightlog.events.model import AnyEvent, DeclarationPosted, TurnStarted
from tests.conftest import FIXTURES
from tests.importing.test_import_cli import run

_VANCE = {"id": "3001", "name": "vance_p", "nickname": "Vance", "isBot": False}
_DORN = {"id": "3002", "name": "dorn_r", "nickname": "Dorn", "isBot": False}
_AVRAE = {"id": "261302296103747584", "name": "Avrae", "discriminator": "6877", "isBot": True}


def events_of(path: Path) -> list[AnyEvent]:
    return [DECODER.decode(line) for line in path.read_bytes().splitlines()]


def _message(n: int, author: dict[str, Any], content: str, **more: Any) -> dict[str, Any]:
    return {"id": f"900{n}", "type": "Reply" if "reference" in more else "Default",
            "timestamp": f"2026-11-20T21:{n:02d}:00+00:00", "content": content, "author": author, **more}


def _rolled(n: int, who: dict[str, Any], faces: str, total: int) -> dict[str, Any]:
    return _message(n, _AVRAE, f"@{who['nickname']}  :game_die:\n**Result**: 2d6 ({faces})\n**Total**: {total}",
                    mentions=[who])


def _export(path: Path, messages: list[dict[str, Any]]) -> Path:
    path.write_text(json.dumps({"guild": {"id": "1", "name": "g"}, "channel": {"id": "2", "name": "c"},
                                "messages": messages, "messageCount": len(messages)}), encoding="utf-8")
    return path


def _cast(path: Path, ruleset: str, answer: str) -> Path:
    path.write_text(f"""order = ["vance", "dorn"]
[[combatants]]
id = "vance"
side = "crew"
speakers = ["3001"]
[[combatants]]
id = "dorn"
side = "raiders"
speakers = ["3002"]
[[dice]]
speakers = ["Avrae"]
bot = "avrae"
[hints.{ruleset}]
attack = ['\\b(fires?|throws?)\\b']
{answer} = ['\\b(dives?|ducks?)\\b']
""", encoding="utf-8")
    return path


def _imported(tmp_path: Path, fight: list[dict[str, Any]], ruleset: str, answer: str) -> tuple[Path, dict[str, Any]]:
    """``fight`` exported and imported under ``ruleset`` (the answer's hint ``answer``): the
    log and its posts by message id."""
    log = tmp_path / "t.jsonl"
    code, _, stderr = run("import", "discord-json", str(_export(tmp_path / "t.json", fight)), "-o", str(log),
                          "--ruleset", ruleset, "--cast", str(_cast(tmp_path / "cast.toml", ruleset, answer)))
    assert code == 0, stderr
    return log, {e.origin.ref: e for e in events_of(log) if isinstance(e, DeclarationPosted) and e.origin is not None}


_FIGHT = [
    _message(1, _VANCE, "Vance fires at Dorn."),
    _rolled(2, _VANCE, "4, 5", 9),
    _message(3, _DORN, "Dorn dives behind the crates!"),
    _rolled(4, _DORN, "3, 3", 6),
    _message(5, _DORN, "Dorn throws a stone at Vance."),
    _rolled(6, _DORN, "2, 5", 7),
    _message(7, _VANCE, "Vance ducks."),
    _message(8, _VANCE, "Vance fires again at Dorn."),
    _rolled(9, _VANCE, "6, 5", 11),
]


@pytest.mark.parametrize(("ruleset", "answer"), [("traveller", "dive"), ("en51", "take"), ("bleeding-sun", "dodge")])
def test_an_answer_posted_in_the_attackers_turn_answers_it_and_audits_clean(
        tmp_path: Path, ruleset: str, answer: str) -> None:
    """Before, Dorn's dive opened Dorn's turn (Traveller: `rules.reaction`, nobody attacked
    him; Bleeding Sun: `rules.answer`) and Vance's duck opened round 2. (en5.1's answer here
    is a take: a counterattack would be Dorn's action of the round, his stone then one too many.)"""
    log, posts = _imported(tmp_path, _FIGHT, ruleset, answer)
    events = events_of(log)
    assert posts["9003"].responds_to == posts["9001"].seq
    assert posts["9007"].responds_to == posts["9005"].seq
    assert [(e.actor, e.round) for e in events if isinstance(e, TurnStarted)] == [("vance", 1), ("dorn", 1), ("vance", 2)]
    code, out, _ = run("audit", str(log), "--format", "json")
    assert code == 0 and [f["code"] for f in json.loads(out)["findings"] if f["severity"] != "info"] == []


def test_an_answer_replying_on_discord_answers_the_post_it_replies_to(tmp_path: Path) -> None:
    """Two attacks on Dorn in Vance's turn: the dive replying to the first answers it; one
    replying to nothing answers the latest that targets the answerer."""
    fight = [
        _message(1, _VANCE, "Vance fires at Dorn."),
        _message(2, _VANCE, "Vance fires at Dorn again."),
        _message(3, _DORN, "Dorn dives!", reference={"messageId": "9001"}),
        _message(4, _DORN, "Dorn dives again."),
    ]
    _, posts = _imported(tmp_path, fight, "traveller", "dive")
    assert (posts["9003"].responds_to, posts["9004"].responds_to) == (posts["9001"].seq, posts["9002"].seq)


def test_a_post_without_an_answer_in_another_turn_still_opens_its_posters_turn(tmp_path: Path) -> None:
    """roe7 has no answers: a dodge there is a roll, and a post out of order is recorded as
    it came, for the audit."""
    fight = [_message(1, _VANCE, "Vance fires at Dorn."), _message(2, _DORN, "Dorn ducks and fires back.")]
    log = tmp_path / "t.jsonl"
    cast = _cast(tmp_path / "cast.toml", "roe7", "flee").read_text().replace("flee = ['\\b(dives?|ducks?)\\b']\n", "")
    (tmp_path / "cast.toml").write_text(cast, encoding="utf-8")
    code, _, stderr = run("import", "discord-json", str(_export(tmp_path / "t.json", fight)), "-o", str(log),
                          "--ruleset", "roe7", "--cast", str(tmp_path / "cast.toml"))
    assert code == 0, stderr
    events = events_of(log)
    assert [e.actor for e in events if isinstance(e, TurnStarted)] == ["vance", "dorn"]
    assert all(e.responds_to is None for e in events if isinstance(e, DeclarationPosted))


_DUEL = """[2024/07/02 21:12]  Zoe Fass (zoe.fass): /me fires at Kaito.
[2024/07/02 21:12]  Evasion d20 HUD: Zoe Fass rolled 1d20 (17) + [2 firearms] = 19
[2024/07/02 21:13]  Kaito Ronin (kaito.ronin): /me dodges to the left.
[2024/07/02 21:13]  Evasion d20 HUD: Kaito Ronin rolled 1d20 (8) + [1 dex] = 9
"""

_DUEL_CAST = """order = ["zoe", "kaito"]
[[combatants]]
id = "zoe"
name = "Zoe Fass"
side = "zoe"
speakers = ["zoe.fass"]
[[combatants]]
id = "kaito"
name = "Kaito Ronin"
side = "kaito"
speakers = ["kaito.ronin"]
[[dice]]
speakers = ["Evasion d20 HUD"]
bot = "sl-hud"
[hints.d20-evasion]
attack = ['\\bfires?\\b']
dodge = ['\\bdodges?\\b']
"""


@pytest.mark.parametrize(("mode", "found"), [
    ("duel", []),
    ("quest", ["order.out-of-turn"]),  # no defensive turns in a quest: the answer answers nothing waiting
])
def test_a_d20_duels_defensive_turn_imported_with_the_duel_option(tmp_path: Path, mode: str, found: list[str]) -> None:
    """A cast cannot say a fight is a duel: ``--options`` gives the house rules, as for ``play
    start``. Before, the dodge opened Kaito's turn (`rules.refused`: a defensive response
    without answering an attack)."""
    (tmp_path / "duel.txt").write_text(_DUEL, encoding="utf-8")
    (tmp_path / "cast.toml").write_text(_DUEL_CAST, encoding="utf-8")
    (tmp_path / "house.toml").write_text(f'ruleset = "d20-evasion"\nmode = "{mode}"\n', encoding="utf-8")
    log = tmp_path / "d.jsonl"
    code, _, stderr = run("import", "sl", str(tmp_path / "duel.txt"), "-o", str(log), "--ruleset", "d20-evasion",
                          "--cast", str(tmp_path / "cast.toml"), "--options", str(tmp_path / "house.toml"))
    assert code == 0, stderr
    assert events_of(log)[0].options["mode"] == mode  # type: ignore[attr-defined]
    _, out, _ = run("audit", str(log), "--format", "json")
    assert [f["code"] for f in json.loads(out)["findings"] if f["severity"] != "info"] == found


def test_import_options_refused_as_play_start_refuses_them(tmp_path: Path) -> None:
    (tmp_path / "duel.txt").write_text(_DUEL, encoding="utf-8")
    (tmp_path / "cast.toml").write_text(_DUEL_CAST, encoding="utf-8")
    (tmp_path / "house.toml").write_text('ruleset = "d20-evasion"\nmode = "brawl"\n', encoding="utf-8")
    log = tmp_path / "d.jsonl"
    base = ("import", "sl", str(tmp_path / "duel.txt"), "--cast", str(tmp_path / "cast.toml"),
            "--options", str(tmp_path / "house.toml"))
    code, _, stderr = run(*base, "-o", str(log), "--ruleset", "d20-evasion")
    assert code == 2 and stderr.startswith(f"fightlog: {tmp_path / 'house.toml'}:2: ") and "mode" in stderr
    assert not log.exists()
    code, _, stderr = run(*base, "-o", str(log), "--ruleset", "ironclaw")
    assert code == 2 and "--options: ruleset 'ironclaw' has no options fightlog knows" in stderr
    code, _, stderr = run(*base, "--suggest-cast", "--ruleset", "d20-evasion")
    assert code == 2 and "leave out -o, --force and --options" in stderr


def test_rolls_before_round_1_are_initiative_not_undeclared(tmp_path: Path) -> None:
    """A HUD that does not say "for initiative": rolls before the first post were each
    `import.roll-undeclared ... no turn was open`."""
    duel = ("[2024/07/02 21:10]  Evasion d20 HUD: Zoe Fass rolled 1d20 (12) + [3 init] = 15\n"
            "[2024/07/02 21:10]  Evasion d20 HUD: Kaito Ronin rolled 1d20 (9) + [1 init] = 10\n" + _DUEL)
    (tmp_path / "duel.txt").write_text(duel, encoding="utf-8")
    (tmp_path / "cast.toml").write_text(_DUEL_CAST, encoding="utf-8")
    (tmp_path / "house.toml").write_text('ruleset = "d20-evasion"\nmode = "duel"\n', encoding="utf-8")
    log = tmp_path / "d.jsonl"
    code, _, stderr = run("import", "sl", str(tmp_path / "duel.txt"), "-o", str(log), "--ruleset", "d20-evasion",
                          "--cast", str(tmp_path / "cast.toml"), "--options", str(tmp_path / "house.toml"))
    assert code == 0, stderr
    code, out, _ = run("audit", str(log), "--format", "json")
    assert code == 0 and [f["code"] for f in json.loads(out)["findings"] if f["severity"] != "info"] == []
    fishing = ("[2024/07/02 21:10]  Evasion d20 HUD: Zoe Fass rolls 1d20 for attack: 20\n" + _DUEL)
    (tmp_path / "duel.txt").write_text(fishing, encoding="utf-8")
    code, _, stderr = run("import", "sl", str(tmp_path / "duel.txt"), "-o", str(log), "--force", "--ruleset",
                          "d20-evasion", "--cast", str(tmp_path / "cast.toml"), "--options", str(tmp_path / "house.toml"))
    _, out, _ = run("audit", str(log), "--format", "json")
    assert [f["code"] for f in json.loads(out)["findings"] if f["severity"] != "info"] == ["import.roll-undeclared"]


def test_an_attack_rolled_again_until_it_hit_is_said_at_the_second_roll(tmp_path: Path) -> None:
    """The usual Discord dice dispute: Vance posts one attack, rolls 4, rolls again, 11. Every
    ruleset audited it without a word of it; it is said, as info (automatic fire, or a damage
    roll of the same dice, look the same in a transcript); a second attack takes a second roll."""
    messages = [_message(1, _VANCE, "Vance fires at Dorn."), _rolled(2, _VANCE, "1, 3", 4),
                _rolled(3, _VANCE, "5, 6", 11), _message(4, _DORN, "Dorn fires at Vance."),
                _rolled(5, _DORN, "2, 2", 4)]
    log = tmp_path / "v.jsonl"
    for ruleset in ("traveller", "roe7"):
        source = _export(tmp_path / "v.json", messages)
        code, _, stderr = run("import", "discord-json", str(source), "-o", str(log), "--force", "--ruleset", ruleset,
                              "--cast", str(_cast(tmp_path / "c.toml", ruleset, "dodge" if ruleset == "traveller" else "flee")))
        assert code == 0, stderr
        _, out, _ = run("audit", str(log), "--format", "json")
        found = [f for f in json.loads(out)["findings"] if f["code"] == "import.rerolled"]
        assert [(f["actor"], f["ref"], f["message"]) for f in found] == [
            ("vance", "9003", "vance rolled 2d6 again for their post at seq "
             f"{found[0]['seq'] - 2}: 4 at seq {found[0]['seq'] - 1}, now 11, 2 rolls for a post of 1 (a roll made again "
             "until it suited, or a fire mode or damage of the same dice the transcript does not tell apart)")]
        assert found[0]["severity"] == "info"
    twice = [_message(1, _VANCE, "Vance fires at Dorn and fires at Dorn again."), *messages[1:]]
    source = _export(tmp_path / "v.json", twice)
    code, _, stderr = run("import", "discord-json", str(source), "-o", str(log), "--force", "--ruleset", "traveller",
                          "--cast", str(_cast(tmp_path / "c.toml", "traveller", "dodge")))
    assert code == 0, stderr
    _, out, _ = run("audit", str(log), "--format", "json")
    assert [f for f in json.loads(out)["findings"] if f["code"] == "import.rerolled"] == []
    assert [len(e.actions) for e in events_of(log) if isinstance(e, DeclarationPosted) and e.actor == "vance"] == [2]
    answered = [twice[0], twice[1], twice[2], _message(4, _DORN, "Dorn ducks, then ducks again."),
                _rolled(5, _DORN, "2, 2", 4), _rolled(6, _DORN, "3, 5", 8)]
    source = _export(tmp_path / "v.json", answered)
    code, _, stderr = run("import", "discord-json", str(source), "-o", str(log), "--force", "--ruleset", "traveller",
                          "--cast", str(_cast(tmp_path / "c.toml", "traveller", "dodge")))
    assert code == 0, stderr
    _, out, _ = run("audit", str(log), "--format", "json")
    assert [f for f in json.loads(out)["findings"] if f["code"] == "import.rerolled"] == []  # a dodge an attack


def test_answers_not_replying_go_to_the_attacks_not_answered_yet(tmp_path: Path) -> None:
    """A d20 duel in a CSV or TXT export (no replies): both answers went to the second
    attack, a false `order.double-post`."""
    fight = [
        _message(1, _VANCE, "Vance fires at Dorn."),
        _message(2, _VANCE, "Vance fires at Dorn again."),
        _message(3, _DORN, "Dorn ducks the first."),
        _message(4, _DORN, "Dorn ducks the second."),
    ]
    _, posts = _imported(tmp_path, fight, "traveller", "dodge")
    assert (posts["9003"].responds_to, posts["9004"].responds_to) == (posts["9002"].seq, posts["9001"].seq)


def test_a_late_answer_replying_to_an_attack_of_an_ended_turn_answers_that_attack(tmp_path: Path) -> None:
    """It was moved onto the open turn's attack (the log said what the transcript did not);
    it answers the attack it replies to, which the audit finds no longer waiting."""
    fight = [
        _message(1, _VANCE, "Vance fires at Dorn."),
        _message(2, _DORN, "Dorn throws a stone at Vance."),
        _message(3, _VANCE, "Vance fires at Dorn again."),
        _message(4, _DORN, "Dorn dives from the first shot!", reference={"messageId": "9001"}),
    ]
    log, posts = _imported(tmp_path, fight, "traveller", "dive")
    assert posts["9004"].responds_to == posts["9001"].seq
    _, out, _ = run("audit", str(log), "--format", "json")
    assert [(f["code"], f["ref"]) for f in json.loads(out)["findings"] if f["severity"] == "error"] == [
        ("rules.reaction", "9004")]


@pytest.mark.parametrize(("ruleset", "code", "says"), [
    ("traveller", "rules.reaction", "dorn has reacted to the attack at seq 7 already"),
    ("bleeding-sun", "rules.answer", "dorn has answered the attack of the post at seq 7 already"),
])
def test_a_second_answer_to_one_attack_is_found(tmp_path: Path, ruleset: str, code: str, says: str) -> None:
    """An imported second reaction (Traveller) or answer (Bleeding Sun) to one attack audited
    clean: the engine refuses it, the audit of a log the table did not play now does too."""
    fight = [_message(1, _VANCE, "Vance fires at Dorn."), _rolled(2, _VANCE, "4, 5", 9),
             _message(3, _DORN, "Dorn ducks."), _message(4, _DORN, "Dorn ducks again.")]
    log, _ = _imported(tmp_path, fight, ruleset, "dodge")
    _, out, _ = run("audit", str(log), "--format", "json")
    assert [(f["code"], f["ref"], says in f["message"]) for f in json.loads(out)["findings"]
            if f["severity"] == "error"] == [(code, "9004", True)]


def test_a_reply_to_a_post_that_does_not_attack_the_answerer_is_no_pointer(tmp_path: Path) -> None:
    """A dive replying to the answerer's own dive (or an ally's post) was made to answer it:
    a false `rules.reaction` (the review). Only a post attacking the answerer is taken."""
    fight = [
        _message(1, _VANCE, "Vance fires at Dorn."),
        _message(2, _DORN, "Dorn dives!"),
        _message(3, _VANCE, "Vance fires at Dorn again."),
        _message(4, _DORN, "And dives again.", reference={"messageId": "9002"}),
    ]
    log, posts = _imported(tmp_path, fight, "traveller", "dive")
    assert (posts["9002"].responds_to, posts["9004"].responds_to) == (posts["9001"].seq, posts["9003"].seq)
    _, out, _ = run("audit", str(log), "--format", "json")
    assert [(f["code"], f["ref"]) for f in json.loads(out)["findings"] if f["severity"] == "error"] == [
        ("rules.allowance", "9003")]  # Vance's second attack in a turn; no reaction refused


@pytest.mark.parametrize("ruleset", ["traveller", "bleeding-sun"])
def test_a_refused_answer_does_not_spend_the_answer(tmp_path: Path, ruleset: str) -> None:
    """"Dorn ducks and fires back" is refused (an answer is one action); the plain "Dorn
    ducks." after it was refused too, as a second answer (the review)."""
    fight = [_message(1, _VANCE, "Vance fires at Dorn."), _rolled(2, _VANCE, "4, 5", 9),
             _message(3, _DORN, "Dorn ducks and fires back at Vance!"), _message(4, _DORN, "Dorn ducks.")]
    log, _ = _imported(tmp_path, fight, ruleset, "dodge")
    _, out, _ = run("audit", str(log), "--format", "json")
    assert [f["ref"] for f in json.loads(out)["findings"] if f["severity"] == "error"] == ["9003"]


def test_the_suggested_counter_hint_reads_counter_attacks_as_a_counter_alone() -> None:
    import re

    from fightlog.importing.suggest import HINTS

    def read(text: str) -> list[str]:
        return [action for action, patterns in HINTS.items() if any(re.search(p, text) for p in patterns)]

    assert read("Dorn counter-attacks Vance!") == ["counter"]
    assert read("Dorn counterattacks.") == ["counter"] and read("Dorn counters.") == ["counter"]
    assert read("Dorn attacks Vance.") == ["attack"]


_DUEL_ROSTER = """ruleset = "d20-evasion"
[[combatants]]
id = "zoe"
name = "Zoe Fass"
side = "zoe"
controller = "GM"
[combatants.sheet]
race = "human"
level = 1
hp = 40
stats = { strength = 20, dexterity = 20, perception = 20, willpower = 10 }
weapons = [{ name = "Pistol", kind = "ranged", damage = 5, ranges = ["close", "medium"] }]
[[combatants]]
id = "kaito"
name = "Kaito Ronin"
side = "kaito"
controller = "GM"
[combatants.sheet]
race = "human"
level = 1
hp = 40
stats = { strength = 20, dexterity = 20, perception = 20, willpower = 10 }
weapons = [{ name = "Knife", kind = "melee", damage = 5, ranges = ["touch", "close"] }]
"""


def test_an_imported_duels_rolls_are_disputed_the_attack_rolled_with_its_answer(tmp_path: Path) -> None:
    """A d20 duel rolls an attack when it is answered: the attack roll the HUD showed after
    the attack's post had no use there ("the rules make no such roll"), the answer's roll
    could not be played (the table found no attack waiting in a log it did not play), and a
    roll that says no purpose was never reused for the one the rules asked. Now the turn's
    unused rolls wait for its later posts, and a roll saying no purpose is reused for the
    rules' (the purpose they roll it for written on it)."""
    (tmp_path / "duel.txt").write_text(_DUEL, encoding="utf-8")
    cast = _DUEL_CAST.replace('speakers = ["zoe.fass"]', 'speakers = ["zoe.fass"]\nrange = "close"\nweapon = "Pistol"')
    (tmp_path / "cast.toml").write_text(cast.replace('speakers = ["kaito.ronin"]', 'speakers = ["kaito.ronin"]\nrange = "close"'),
                                        encoding="utf-8")
    (tmp_path / "house.toml").write_text('ruleset = "d20-evasion"\nmode = "duel"\n', encoding="utf-8")
    (tmp_path / "roster.toml").write_text(_DUEL_ROSTER, encoding="utf-8")
    log = tmp_path / "d.jsonl"
    code, _, stderr = run("import", "sl", str(tmp_path / "duel.txt"), "-o", str(log), "--ruleset", "d20-evasion",
                          "--cast", str(tmp_path / "cast.toml"), "--options", str(tmp_path / "house.toml"),
                          "--roster", str(tmp_path / "roster.toml"))
    assert code == 0, stderr
    rolls = [e.seq for e in events_of(log) if type(e).__name__ == "DiceRolled"]
    code, out, stderr = run("dispute", str(log), "--at", str(rolls[0]), "--set", "dice[0].face=2")
    assert code == 0, stderr
    assert "first consequence: seq 11 (attack_resolved): hit true -> false, score 18 -> 3" in out
    code, out, stderr = run("dispute", str(log), "--at", str(rolls[0]), "--set", "modifiers[0].value=9")
    assert code == 0, stderr  # the HUD's +2 made +9: +7 on the rules' modifiers, as the unchanged roll gets them
    assert "total 18 -> 25, modifiers[1:] [] -> [{\"value\":7,\"source\":\"the dispute's change\"}]" in out
    code, out, stderr = run("dispute", str(log), "--at", str(rolls[1]), "--set", "dice[0].face=19")
    assert code == 0, stderr
    assert 'notes[1] "dodge 10" -> "dodge 21"' in out and "audit findings: the same in both" in out, out


def test_an_imported_traveller_attack_roll_is_disputed_through_the_dive_that_answered_it(tmp_path: Path) -> None:
    log = tmp_path / "t.jsonl"
    _export(tmp_path / "t.json", _FIGHT)
    cast = _cast(tmp_path / "cast.toml", "traveller", "dive")
    cast.write_text(cast.read_text().replace('speakers = ["3001"]', 'speakers = ["3001"]\nweapon = "Gauss Rifle"\ndistance = 8')
                    .replace('speakers = ["3002"]', 'speakers = ["3002"]\nweapon = "Stone"\ndistance = 8'), encoding="utf-8")
    code, _, stderr = run("import", "discord-json", str(tmp_path / "t.json"), "-o", str(log), "--ruleset", "traveller",
                          "--cast", str(cast), "--roster", str(FIXTURES / "traveller" / "rosters" / "crew.toml"))
    assert code == 0, stderr
    first = next(e.seq for e in events_of(log) if type(e).__name__ == "DiceRolled")
    code, out, stderr = run("dispute", str(log), "--at", str(first), "--set", "dice[0].face=1")
    assert code == 0, stderr
    assert "dice[0].face 4 -> 1, total 12 -> 9;" in out  # the rules' modifiers on the changed faces, as on the recorded
    # the log ends in Vance's second turn, his attack rolled but not answered nor ended: a
    # change to that roll has nothing the log records to follow from it, and says why
    last = max(e.seq for e in events_of(log) if type(e).__name__ == "DiceRolled")
    before = log.read_bytes()
    code, out, stderr = run("dispute", str(log), "--at", str(last), "--set", "dice[0].face=1")
    assert code == 2 and out == ""
    assert stderr.count("\n") == 1 and f"t.jsonl:{last}: " in stderr
    assert "the log ends with its turn open (an answer or the turn's end, not recorded, may roll it)" in stderr
    assert log.read_bytes() == before
