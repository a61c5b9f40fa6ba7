"""A dice bot's command left in the channel (Avrae deletes ``!r 1d20+7`` only when it may)
is out of character: it opens no turn and takes no roll from the post it was typed for."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest

from fightlog.events.codec import DECODER
from fightlog.events.model import DeclarationPosted, TurnStarted
from fightlog.fixtures.discord_exports import Channel, Post, User, export_json
from fightlog.importing.names import in_character_text
from tests.importing.test_import_cli import run

GM = User("3000", "selene_gm", "Selene")
ILSE = User("3001", "thorn.writes", "Ilse")
BRANDT = User("3002", "brandt_k", "Brandt")
AVRAE = User("261302296103747584", "Avrae", "Avrae", bot=True)

CAST = """\
order = ["ilse", "brandt"]
[[combatants]]
id = "ilse"
side = "a"
speakers = ["3001"]
[[combatants]]
id = "brandt"
side = "b"
speakers = ["3002"]
[gm]
name = "Selene"
speakers = ["3000"]
[[dice]]
speakers = ["261302296103747584"]
bot = "avrae"
[hints.d20-evasion]
attack = ['\\b(attacks?|lunges?|swings?)\\b']
"""


@pytest.mark.parametrize("text", ["!r 1d20+7 to hit", "!roll 1d20", "!attack rapier -t Brandt", "/roll 1d20+3",
                                  "/r 2d6", "  !R 1d8+4 damage"])
def test_a_bot_command_is_out_of_character(text: str) -> None:
    assert in_character_text(text) is None


@pytest.mark.parametrize("text", ["/me swings at Brandt", "!!! Ilse lunges", "Ilse rolls with it", "/rolls away",
                                  "!Nooo, she cries", "!rollicking laughter"])
def test_an_emote_or_a_shout_stays_in_character(text: str) -> None:
    assert in_character_text(text) == text


def avrae(n: int, who: str, label: str, die: str, face: int, bonus: int) -> str:
    return f"<@{who}>  :game_die:\n**{label}**: {die} ({face}) + {bonus}\n**Total**: {face + bonus}"


def test_commands_between_the_posts_leave_the_turns_as_played(tmp_path: Path) -> None:
    start = datetime(2024, 8, 31, 21, 0, tzinfo=timezone(timedelta(hours=2)))
    said = [
        (GM, "Round 1. Ilse, then Brandt."),
        (ILSE, "Ilse lunges at Brandt with her rapier."),
        (ILSE, "!r 1d20+7 to hit"),
        (AVRAE, avrae(4, "3001", "to hit", "1d20", 15, 7)),
        (BRANDT, "!r 1d20+3 evasion"),  # in Ilse's turn: no turn of Brandt's
        (AVRAE, avrae(6, "3002", "evasion", "1d20", 8, 3)),
        (ILSE, "!r 1d8+4 damage"),  # after Brandt's command: no new round
        (AVRAE, avrae(8, "3001", "damage", "1d8", 6, 4)),
        (BRANDT, "Brandt staggers, then swings his axe at Ilse."),
        (BRANDT, "!r 1d20+5"),
        (AVRAE, avrae(11, "3002", "Result", "1d20", 12, 5)),
    ]
    posts = [Post(id=str(1279000000000000001 + i), at=start + timedelta(seconds=20 * i), author=who, content=text)
             for i, (who, text) in enumerate(said)]
    users = {u.id: u for u in (GM, ILSE, BRANDT, AVRAE)}
    transcript = tmp_path / "fight.json"
    transcript.write_text("".join(export_json(Channel("Guild", "arena", "RP", posts), users)))
    (tmp_path / "cast.toml").write_text(CAST)
    out = tmp_path / "fight.jsonl"
    code, _, stderr = run("import", "discord-json", str(transcript), "-o", str(out), "--ruleset", "d20-evasion",
                          "--cast", str(tmp_path / "cast.toml"))
    assert code == 0, stderr
    events = [DECODER.decode(line) for line in out.read_bytes().splitlines()]
    assert [(e.actor, e.round) for e in events if isinstance(e, TurnStarted)] == [("ilse", 1), ("brandt", 1)]
    commands = [e for e in events if isinstance(e, DeclarationPosted) and e.text.lstrip().startswith("!")]
    assert len(commands) == 4 and all(e.ooc for e in commands)
    code, stdout, _ = run("audit", str(out))
    assert code == 0, stdout
    assert "import.unrolled" not in stdout
