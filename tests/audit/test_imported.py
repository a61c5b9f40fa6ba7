"""The checks of an imported fight (``fightlog.audit.imported``): rolls and the posts they
belong to, on logs whose ``scene_started`` names a transcript, and only on those."""

from __future__ import annotations

from datetime import datetime, timezone

from msgspec.structs import replace

from fightlog.audit.auditor import audit_events
from fightlog.events.model import (
    FORMAT_VERSION,
    Action,
    AnyEvent,
    CombatantJoined,
    DeclarationPosted,
    DiceRolled,
    Die,
    InitiativeSet,
    Origin,
    RoundStarted,
    SceneStarted,
    Transcript,
    TurnEnded,
    TurnStarted,
)

SOURCE = Transcript(format="sl", file="chat.txt", sha256="0" * 64, importer="1")


def fight(*body: AnyEvent, imported: bool = True) -> list[AnyEvent]:
    opening: list[AnyEvent] = [
        SceneStarted(scene="s", ruleset="generic", format=FORMAT_VERSION, transcript=SOURCE if imported else None),
        *(CombatantJoined(actor=a, name=a) for a in ("alice", "bob", "cara")),
        InitiativeSet(order=["alice", "bob", "cara"]),
        RoundStarted(round=1),
    ]
    return [replace(e, seq=i) for i, e in enumerate([*opening, *body], 1)]


def post(actor: str, *actions: Action, line: int = 1) -> DeclarationPosted:
    return DeclarationPosted(actor=actor, text="...", actions=list(actions), origin=Origin(medium="sl-chat", ref=f"chat.txt:{line}"))


def roll(roller: str, purpose: str = "other", line: int = 2, edited: datetime | None = None) -> DiceRolled:
    return DiceRolled(roller=roller, notation="1d100", dice=[Die(sides=100, face=50)], total=50, purpose=purpose,
                      generator="external", tool="HUD", origin=Origin(medium="hud", ref=f"chat.txt:{line}", edited=edited))


def codes(events: list[AnyEvent]) -> list[tuple[str, int, str | None]]:
    return [(f.code, f.seq, f.ref) for f in audit_events(events).findings if f.code.startswith("import.")]


def test_a_roll_answering_the_post_is_paired() -> None:
    attack = Action(type="attack", target="bob")
    assert codes(fight(TurnStarted(actor="alice", round=1), post("alice", attack), roll("alice", "attack"),
                       roll("bob", "other"), roll("cara", "dodge"), TurnEnded(actor="alice", round=1))) == []
    # a post whose actions could not be read: any roll may answer it
    assert codes(fight(TurnStarted(actor="alice", round=1), post("alice"), roll("cara"))) == []


def test_a_roll_before_its_post_or_by_a_bystander() -> None:
    attack = Action(type="attack", target="bob")
    found = codes(fight(TurnStarted(actor="alice", round=1), roll("alice", "attack", line=3), post("alice", attack, line=4),
                        roll("alice", line=5), roll("cara", line=6), roll("bob", "initiative", line=7)))
    assert found == [("import.roll-undeclared", 8, "chat.txt:3"), ("import.roll-undeclared", 11, "chat.txt:6")]


def test_the_targets_own_attack_in_the_attackers_turn_answers_nothing() -> None:
    # bob is alice's target: his save answers her post, his own attack and damage do not
    attack = Action(type="attack", target="bob")
    events = fight(TurnStarted(actor="alice", round=1), post("alice", attack), roll("alice", "attack"),
                   roll("bob", "other", line=3), roll("bob", "attack", line=4), roll("bob", "damage", line=5))
    assert codes(events) == [("import.roll-undeclared", 11, "chat.txt:4"), ("import.roll-undeclared", 12, "chat.txt:5")]
    said = [f.message for f in audit_events(events).findings if f.code == "import.roll-undeclared"]
    assert said[0] == ("bob rolled 1d100 (attack) with no declaration it belongs to: in alice's turn, whose post targets "
                       "bob: an attack or damage roll is no answer to it")


def test_a_declared_attack_never_rolled_at_the_turns_end_and_the_logs() -> None:
    attack = Action(type="attack", target="bob")
    found = codes(fight(TurnStarted(actor="alice", round=1), post("alice", attack, line=8), TurnEnded(actor="alice", round=1),
                        TurnStarted(actor="bob", round=1), post("bob", Action(type="flee"), line=9)))
    assert found == [("import.unrolled", 8, "chat.txt:8"), ("import.unrolled", 11, "chat.txt:9")]


def test_an_edited_roll_is_a_warning() -> None:
    edited = datetime(2024, 1, 1, tzinfo=timezone.utc)
    report = audit_events(fight(TurnStarted(actor="alice", round=1), post("alice"), roll("alice", edited=edited)))
    (finding,) = [f for f in report.findings if f.code == "import.roll-edited"]
    assert (finding.severity, finding.actor, finding.ref, finding.rule) == ("warning", "alice", "chat.txt:2",
                                                                           "fightlog import (docs/import.md)")


def test_a_log_not_imported_gets_none_of_these() -> None:
    events = fight(TurnStarted(actor="alice", round=1), roll("cara"), post("alice", Action(type="attack", target="bob")),
                   imported=False)
    assert codes(events) == []
