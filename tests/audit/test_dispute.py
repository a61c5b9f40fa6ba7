"""``fightlog.audit.dispute``: a fight forked at one fact and re-derived.

The invariant first: a change that changes nothing re-derives every bundled engine fight
event for event, from any fact, which shows that the split into requests and the replay of
each are faithful. Then exact forks of the alley duel (``alley-duel.jsonl``: Vex against
Rook, a fixed seed): a roll that turns a hit into a miss, a critical undone, a declaration
with another weapon or target, a void, a withdrawn ruling (on a copy of the duel where the
GM voided the critical's damage), external rolls reused, and the inputs refused.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from functools import cache
from pathlib import Path
from typing import Any

import msgspec
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from fightlog.audit.dispute import Change, Dispute, Passed, dispute, requests_of
from fightlog.errors import InputError, RefusedError
from fightlog.events.model import (
    AnyEvent,
    AttackResolved,
    CombatantJoined,
    DamageApplied,
    DeclarationPosted,
    DiceRolled,
    InitiativeSet,
    RulingMade,
    SceneEnded,
    TurnEnded,
)
from fightlog.events.reader import read_log
from fightlog.events.store import MemoryStore
from fightlog.reducers.folder import Folder
from fightlog.reducers.state import SceneState
from fightlog.dice import ModifierLike, RollResult
from fightlog.kit.table import Post, Scribe, table_for
from tests.conftest import FIXTURES

SCENARIOS = FIXTURES / "roe7" / "scenarios"
ALLEY = SCENARIOS / "alley-duel.jsonl"
PISTOL = "S_s_Pistol_Class_(Permanent)"
HPISTOL = "S_s_HPistol_Class_(Permanent)"


@cache
def log(path: Path) -> tuple[AnyEvent, ...]:
    return tuple(event for _, event in read_log(path))


def plain(events: Iterable[AnyEvent]) -> list[dict[str, Any]]:
    out = []
    for event in events:
        data: dict[str, Any] = msgspec.to_builtins(event)
        data.pop("prev", None)
        out.append(data)
    return out


def fork(events: Sequence[AnyEvent], seq: int, *sets: tuple[str, Any], **mode: bool) -> Dispute:
    return dispute(events, Change(seq=seq, sets=sets, **mode), table_for=table_for, name="fight.jsonl")


def alley(seq: int, *sets: tuple[str, Any], **mode: bool) -> Dispute:
    return fork(log(ALLEY), seq, *sets, **mode)


def at(outcome: Dispute, seq: int) -> AnyEvent:
    return outcome.fork[seq - 1]


def hp(outcome: Dispute) -> dict[str, tuple[int | None, int | None]]:
    return {s.actor: s.pools["hp"] for s in outcome.ending.standings}


# --------------------------------------------------------------------------- the invariant


def _facts() -> list[tuple[str, int]]:
    return [
        (path.name, event.seq)
        for path in sorted(SCENARIOS.glob("*.jsonl"))
        for event in log(path)
        if type(event) in (DiceRolled, DeclarationPosted)
    ]


def _same_value(event: AnyEvent, choice: int) -> tuple[str, Any]:
    """A ``--set`` that gives ``event`` a field it already has."""
    if isinstance(event, DiceRolled):
        options: list[tuple[str, Any]] = [(f"dice[{i}].face", d.face) for i, d in enumerate(event.dice)]
        options += [(f"modifiers[{i}].value", m.value) for i, m in enumerate(event.modifiers)]
    else:
        assert isinstance(event, DeclarationPosted)
        options = [("text", event.text), ("actor", event.actor), ("actions", msgspec.to_builtins(event.actions))]
        options += [(f"actions[{i}].target", a.target) for i, a in enumerate(event.actions) if a.target]
        options += [(f"actions[{i}].weapon", a.weapon) for i, a in enumerate(event.actions) if a.weapon]
    return options[choice % len(options)]


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(_facts()), st.integers(min_value=0, max_value=20))
def test_a_change_that_changes_nothing_reproduces_the_fight_event_for_event(fact: tuple[str, int], choice: int) -> None:
    name, seq = fact
    events = log(SCENARIOS / name)
    path, value = _same_value(events[seq - 1], choice)
    outcome = fork(events, seq, (path, value))
    assert plain(outcome.fork) == plain(events)
    assert outcome.fields == () and outcome.difference is None and outcome.consequence is None
    assert outcome.dropped == () and outcome.passed == () and outcome.findings == ()
    assert not any(s.changed for s in outcome.ending.standings)


@pytest.mark.parametrize("path", sorted(SCENARIOS.glob("*.jsonl")), ids=lambda p: p.stem)
def test_every_bundled_fight_splits_into_requests_that_tile_it(path: Path) -> None:
    events = log(path)
    end = events[-1]
    assert isinstance(end, SceneEnded) and end.seed is not None
    requests = requests_of(events, end.seed, table=table_for("roe7"))
    assert requests[0].first == 0 and requests[-1].stop == len(events)
    assert all(a.stop == b.first for a, b in zip(requests, requests[1:]))
    kinds = [r.kind for r in requests]
    assert kinds[0] == "start" and kinds[-1] == "end" and kinds.count("begin") == 1
    posts = [events[r.first] for r in requests if r.kind == "post"]
    assert posts == [e for e in events if isinstance(e, DeclarationPosted)]


# --------------------------------------------------------------------------- a changed roll


def test_a_lower_attack_roll_turns_a_hit_into_a_miss_and_the_damage_goes() -> None:
    # Vex's second pistol shot (seq 18): 54 + 30 = 84 beat Rook's dodge of 78; 40 + 30 does not.
    outcome = alley(18, ("dice[0].face", 40))
    assert outcome.restart == 13  # the post the roll belongs to
    assert outcome.fields == (("dice[0].face", 54, 40), ("total", 84, 70))
    changed = at(outcome, 18)
    assert isinstance(changed, DiceRolled)
    assert (changed.generator, changed.index, changed.total) == ("engine", 4, 70)
    assert changed.origin is not None and (changed.origin.medium, changed.origin.ref) == ("dispute", "seq 18")
    assert outcome.difference is not None and outcome.difference.seq == 18
    consequence = outcome.consequence
    assert consequence is not None and consequence.seq == 19
    assert consequence.fields == (("hit", True, False), ("score", 84, 70), ("margin", 6, -8))
    resolved = at(outcome, 19)
    assert isinstance(resolved, AttackResolved) and (resolved.hit, resolved.score, resolved.against) == (False, 70, 78)
    # No damage roll, no damage: the rolls after it move up a seq but keep their index and face.
    assert not any(isinstance(e, DamageApplied) for e in outcome.fork[12:25])
    assert_unchanged_rolls_keep_their_faces(outcome)
    # Later rolls come one index earlier, so they differ: Rook hits Vex in this fork.
    assert hp(outcome) == {"vex": (70, 57), "rook": (-6, -4)}
    assert outcome.ending.winner == ("dockhands", "dockhands")
    assert outcome.dropped == () and outcome.passed == ()
    assert [(c.appeared, c.on_change, c.finding.code, c.finding.seq) for c in outcome.findings] == [
        (True, True, "dice.seed", 18),
    ]


def test_undoing_a_critical_keeps_rook_standing_and_no_one_wins() -> None:
    # Vex's natural 100 (seq 41) doubled the heavy pistol's damage: 56 of Rook's 58 HP.
    outcome = alley(41, ("dice[0].face", 10))
    assert outcome.fields == (("dice[0].face", 100, 10), ("total", 130, 40))
    assert outcome.consequence is not None and outcome.consequence.fields[:3] == (
        ("score", 130, 40), ("margin", 98, 8), ("critical", "success", None),
    )
    damage = at(outcome, 44)
    assert isinstance(damage, DamageApplied) and (damage.raw, damage.taken) == (33, 28)
    assert_unchanged_rolls_keep_their_faces(outcome, every=True)
    rook = next(s for s in outcome.ending.standings if s.actor == "rook")
    assert rook.pools == {"hp": (-6, 22)} and rook.lost == ("defeated", "wounded") and rook.gained == ()
    assert outcome.ending.winner == ("dockhands", None)
    assert outcome.ending.round == (5, 4) and outcome.ending.events == (88, 83)
    end = outcome.fork[-1]
    assert isinstance(end, SceneEnded) and end.winner is None and end.seed == outcome.seed


def test_a_changed_modifier_is_kept_and_the_total_recomputed() -> None:
    # Rook's dodge at seq 15: 63 + 10 (Acrobatics) + 5 (racial) = 78; with +40 Acrobatics the
    # second shot (84) misses too.
    outcome = alley(15, ("modifiers[0].value", 40))
    assert outcome.fields == (("total", 78, 108), ("modifiers[0].value", 10, 40))
    resolved = [e for e in outcome.fork[14:20] if isinstance(e, AttackResolved)]
    assert [(r.hit, r.against) for r in resolved] == [(False, 108), (False, 108)]


def test_a_changed_initiative_roll_reorders_the_fight_and_passes_a_turn() -> None:
    # Rook's initiative (seq 8) 99, not 1: Rook posts first, but the original's first post is
    # Vex's, so Rook's first turn passes; every post is still made, one round later for Rook.
    outcome = alley(8, ("dice[0].face", 99))
    assert outcome.restart == 6  # the begin request
    order = at(outcome, 10)
    assert isinstance(order, InitiativeSet) and order.order == ["rook", "vex"]
    assert outcome.passed == (Passed(actor="rook", round=1, before=13),)
    assert outcome.dropped == ()
    assert [p.text for p in outcome.fork if isinstance(p, DeclarationPosted)] == [
        p.text for p in outcome.original if isinstance(p, DeclarationPosted)
    ]
    passed = outcome.fork[11:14]
    assert [type(e).__name__ for e in passed] == ["TurnStarted", "ResourceSpent", "TurnEnded"]


def assert_unchanged_rolls_keep_their_faces(outcome: Dispute, *, every: bool = False) -> None:
    """Every engine roll of the fork but the changed one that rolls the same dice as the
    original's roll of the same index has the same faces (``every``: and there is one)."""
    rolled = {e.index: e.dice for e in outcome.original if isinstance(e, DiceRolled)}
    changed = outcome.change.seq
    rolls = [e for e in outcome.fork if isinstance(e, DiceRolled) and e.seq != changed]
    same = [r for r in rolls if [d.sides for d in rolled.get(r.index, [])] == [d.sides for d in r.dice]]
    assert same and (not every or same == rolls)
    for roll in same:
        assert roll.dice == rolled[roll.index], roll


# --------------------------------------------------------------------------- a changed declaration


def test_another_weapon_is_another_attack() -> None:
    # Round 2 (seq 39): Vex fires the light pistol instead of the heavy revolver.
    outcome = alley(39, ("actions[0].weapon", "Pistol"))
    assert outcome.fields == (("actions[0].weapon", "HPistol", "Pistol"),)
    posted = at(outcome, 39)
    assert isinstance(posted, DeclarationPosted) and posted.actions[0].weapon == "Pistol"
    assert posted.origin is not None and posted.origin.medium == "dispute"
    resolved = next(e for e in outcome.fork[39:] if isinstance(e, AttackResolved))
    assert resolved.weapon == PISTOL and resolved.declaration == 39
    damage = next(e for e in outcome.fork[39:50] if isinstance(e, DiceRolled) and e.purpose == "damage")
    assert damage.notation.startswith("1d10")  # the pistol's die, not the revolver's 1d40
    assert outcome.difference is not None and outcome.difference.seq == 39


def test_another_target_is_refused_when_the_rules_refuse_it() -> None:
    with pytest.raises(RefusedError) as caught:
        alley(39, ("actions[0].target", "vex"))
    assert caught.value.line == 39
    assert "the fork is refused at its first request (post by vex at seq 39)" in caught.value.message


def test_a_target_change_in_a_crowd_moves_the_damage() -> None:
    events = log(SCENARIOS / "gate-ambush.jsonl")
    posted = next(e for e in events if isinstance(e, DeclarationPosted) and any(a.type == "attack" for a in e.actions))
    action = next(i for i, a in enumerate(posted.actions) if a.type == "attack")
    old = posted.actions[action].target
    assert old is not None
    joined = [e.actor for e in events if isinstance(e, CombatantJoined)]
    others = [actor for actor in joined if actor not in (old, posted.actor)]
    for new in others:
        try:
            outcome = fork(events, posted.seq, (f"actions[{action}].target", new))
        except RefusedError:
            continue
        resolved = next(e for e in outcome.fork[posted.seq:] if isinstance(e, AttackResolved))
        assert resolved.target == new and resolved.attacker == posted.actor
        assert outcome.fields == ((f"actions[{action}].target", old, new),)
        return
    pytest.fail("no other target the rules allow")


# --------------------------------------------------------------------------- void and rulings


def test_a_voided_post_passes_the_turn() -> None:
    # Round 3, Vex's "Another round from the revolver" (seq 57) is never posted: his turn ends.
    outcome = alley(57, void=True)
    assert outcome.amended is None and outcome.fields == ()
    assert outcome.restart == 57
    ended = at(outcome, 57)
    assert isinstance(ended, TurnEnded) and ended.actor == "vex" and ended.round == 3
    assert outcome.difference is not None and outcome.difference.seq == 57
    texts = [e.text for e in outcome.fork if isinstance(e, DeclarationPosted)]
    assert "Another round from the revolver." not in texts
    assert outcome.dropped == () and outcome.passed == ()


@cache
def ruled_duel() -> tuple[AnyEvent, ...]:
    """The alley duel with a GM ruling at seq 48 voiding the critical's damage (seq 44), the
    rest of the fight played on through the table with the same seed from there."""
    events = log(ALLEY)
    end = events[-1]
    assert isinstance(end, SceneEnded) and end.seed is not None
    ruling = RulingMade(seq=48, by="Gemma", action="void", target=44, reason="the crit was called on a re-roll")
    kept = [*events[:47], ruling]
    state = Folder(lambda seq: iter(kept[seq - 1 :])).run()
    table, scribe = table_for("roe7"), Scribe(state, end.seed)
    for posted in (e for e in events[47:] if isinstance(e, DeclarationPosted)):
        table.post(scribe, Post(actor=posted.actor, text=posted.text, actions=tuple(posted.actions)))
        table.end_turn(scribe)
    table.end(scribe, reveal=end.seed)
    return (*kept, *scribe.events)


@pytest.mark.parametrize("mode", ["withdraw", "void"])
def test_a_withdrawn_ruling_gives_back_the_fight_without_it(mode: str) -> None:
    outcome = fork(ruled_duel(), 48, **{mode: True})
    assert outcome.restart == 48
    assert plain(outcome.fork) == plain(log(ALLEY))  # exactly the duel as first played
    assert hp(outcome) == {"vex": (70, 70), "rook": (50, -6)}
    assert outcome.ending.winner == (None, "dockhands")
    assert outcome.difference is not None and outcome.difference.seq == 48


def test_a_changed_ruling_amends_instead() -> None:
    outcome = fork(ruled_duel(), 48, ("action", "amend"), ("changes", {"taken": 10}))
    assert hp(outcome) == {"vex": (70, 70), "rook": (50, 40)}
    ruling = at(outcome, 48)
    assert isinstance(ruling, RulingMade) and ruling.action == "amend" and ruling.changes == {"taken": 10}


@pytest.mark.parametrize(("sets", "says"), [
    ((("changes", {"taken": 10}),), "changes are for an amend ruling (this one is void)"),
    ((("action", "amend"), ("changes", {"bogus": 3})), "--set changes: bogus: bad PATH: a damage_applied event has no field"),
    ((("action", "amend"), ("changes", {"taken": -10})), "--set changes: bad VALUE"),
    ((("action", "amend"),), "an amend ruling changes at least one field"),
    ((("finding", "order.skipped"),), "a finding is for an accept ruling (this one is void)"),
    ((("action", "withdraw"),), "a withdraw takes a ruling (seq 44 is damage_applied)"),
    ((("by", " "),), "--set by: give it in words, not blank"),
    ((("reason", ""),), "--set reason: give it in words, not blank"),
])
def test_a_changed_ruling_is_held_to_what_rule_records(sets: tuple[tuple[str, Any], ...], says: str) -> None:
    """A void given `changes`, or an amend of a field the ruled event lacks, was forked as
    given (`fightlog rule` refuses both): it changed nothing, or amended nothing."""
    with pytest.raises(InputError) as refused:
        fork(ruled_duel(), 48, *sets)
    assert says in refused.value.message and refused.value.line == 48


@pytest.mark.parametrize(("target", "kind"), [(1, "scene_started"), (-1, "scene_ended")])
def test_a_ruling_changed_to_void_the_scene_is_refused_as_rule_refuses_it(target: int, kind: str) -> None:
    """A tester voided the scene's end through a dispute: the fork read "in progress", its
    seed already public (`fightlog rule` refuses that void)."""
    played = list(log(ALLEY))
    ruling = RulingMade(seq=len(played) + 1, by="Gemma", action="void", target=44, reason="bins")
    aim = target if target > 0 else len(played)
    with pytest.raises(InputError) as refused:
        fork([*played, ruling], ruling.seq, ("target", aim))
    assert f"seq {aim} is the {kind}, which cannot be voided" in refused.value.message


def test_a_changed_amend_records_what_rule_would(tmp_path: Path) -> None:
    """An amend of a roll's dice records its total recomputed, as `rule amend` writes it: the
    fork's ruling left the total at the old dice's."""
    events = ruled_duel()
    roll = next(e for e in events if isinstance(e, DiceRolled) and e.purpose == "attack" and e.dice[0].sides == 100)
    face = 1 if roll.dice[0].face != 1 else 2
    outcome = fork(events, 48, ("action", "amend"), ("target", roll.seq),
                   ("changes", {"dice": [{"sides": 100, "face": face}]}))
    ruling = at(outcome, 48)
    assert isinstance(ruling, RulingMade) and ruling.changes["total"] == roll.total - roll.dice[0].face + face


def test_a_ruling_in_force_again_in_the_fork_drops_a_second_void_of_its_target() -> None:
    """Void, withdraw it, void again; the withdrawal withdrawn in a dispute: two voids of one
    event stood in the fork, "dropped: none" (`fightlog rule` refuses the second)."""
    events = list(ruled_duel())
    at_end = len(events)
    withdraw = RulingMade(seq=at_end + 1, by="Gemma", action="withdraw", target=48, reason="back")
    again = RulingMade(seq=at_end + 2, by="Gemma", action="void", target=44, reason="again")
    outcome = fork([*events, withdraw, again], withdraw.seq, withdraw=True)
    assert [(d.request, d.reason) for d in outcome.dropped] == [
        ("ruling", "seq 44 is already voided by the ruling at seq 48 in the fork, in force")]


def test_a_ruling_on_a_ruling_changed_to_a_void_is_refused_as_rule_refuses_it() -> None:
    """The disputed duel's seq 86 withdraws the ruling at 37: `--set action=void` was forked
    as given (`fightlog rule` refuses a void of a ruling: it is withdrawn)."""
    with pytest.raises(InputError) as refused:
        fork(log(FIXTURES / "roe7" / "disputed-duel.jsonl"), 86, ("action", "void"))
    assert "seq 37 is a ruling: a ruling is withdrawn, not voided" in refused.value.message


def test_a_ruling_after_the_change_follows_its_target_or_is_dropped() -> None:
    # Rook's dodge (seq 40) a little higher: the critical still lands, seq 44 is still its
    # damage, and the GM's void still takes it back.
    kept = fork(ruled_duel(), 40, ("dice[0].face", 20))
    moved = at(kept, 48)
    assert isinstance(moved, RulingMade) and moved.target == 44 and kept.dropped == ()
    assert hp(kept) == {"vex": (70, 70), "rook": (50, 50)}
    # A natural 100 dodge stops the critical: no damage to void, so the ruling goes.
    dropped = fork(ruled_duel(), 40, ("dice[0].face", 100))
    assert [(d.seq, d.request, d.reason) for d in dropped.dropped] == [
        (48, "ruling", "its target (seq 44, damage_applied) is not in the fork"),
    ]
    assert not any(isinstance(e, RulingMade) for e in dropped.fork)


def test_a_log_the_rules_do_not_re_derive_is_disputed_against_their_re_derivation() -> None:
    events = list(log(ALLEY))
    damage = events[43]
    assert isinstance(damage, DamageApplied)
    events[43] = msgspec.structs.replace(damage, taken=50)  # edited by hand, re-chained
    store = MemoryStore()
    store.append(events)
    edited = [e for _, e in store.read()]
    outcome = fork(edited, 41, ("dice[0].face", 10))
    first = outcome.departures[0]
    assert (first.seq, first.text) == (44, "damage_applied: recorded -> re-derived: taken 50 -> 56")
    # Compared with the rules' own re-derivation (the 56 put back), the fork is the one the
    # unedited duel gives.
    assert outcome.baseline is not None and plain(outcome.baseline) == plain(log(ALLEY))
    assert plain(outcome.fork) == plain(alley(41, ("dice[0].face", 10)).fork)
    # A fork from after the edit keeps it as recorded.
    later = fork(edited, 57, void=True)
    assert later.fork[43] == edited[43] and later.restart == 57


# --------------------------------------------------------------------------- the seed


def unfinished() -> list[AnyEvent]:
    """The duel before its scene_ended: the seed not revealed yet."""
    return list(log(ALLEY)[:-1])


def test_an_unrevealed_seed_must_be_given_and_match() -> None:
    end = log(ALLEY)[-1]
    assert isinstance(end, SceneEnded) and end.seed is not None
    with pytest.raises(InputError, match="no dice seed: the scene has not revealed it yet; give it with --seed HEX"):
        fork(unfinished(), 41, ("dice[0].face", 10))
    with pytest.raises(InputError, match="--seed does not match the dice commitment"):
        dispute(unfinished(), Change(seq=41, sets=(("dice[0].face", 10),)), table_for=table_for, seed="ab" * 32)
    outcome = dispute(unfinished(), Change(seq=41, sets=(("dice[0].face", 10),)), table_for=table_for, seed=end.seed)
    assert plain(outcome.fork[:40]) == plain(unfinished()[:40])
    assert not any(isinstance(e, SceneEnded) for e in outcome.fork)


# --------------------------------------------------------------------------- external rolls


class _Hud(Scribe):
    """Damage rolled on a HUD: external rolls with the engine's faces (no roll index)."""

    def roll(self, notation: str, *, roller: str, purpose: str, modifiers: Iterable[ModifierLike] = (),
             for_seq: int | None = None, label: str | None = None) -> tuple[RollResult, int]:
        if purpose != "damage":
            return super().roll(notation, roller=roller, purpose=purpose, modifiers=modifiers,
                                for_seq=for_seq, label=label)
        info = self.state.scene
        assert info is not None
        result = self.draw(notation, modifiers, info, what="damage")
        event = DiceRolled(roller=roller, purpose=purpose, notation=result.notation, dice=result.dice,
                           modifiers=list(result.modifiers), total=result.total, generator="external",
                           tool="HUD", for_seq=for_seq, label=label if label is not None else result.label)
        return result, self.emit(event)


@cache
def hud_duel() -> tuple[AnyEvent, ...]:
    """The alley duel played again from its first post with damage rolled on a HUD."""
    events = log(ALLEY)
    end = events[-1]
    assert isinstance(end, SceneEnded) and end.seed is not None
    start = events[:12]
    state: SceneState = Folder(lambda seq: iter(start[seq - 1 :])).run()
    table, scribe = table_for("roe7"), _Hud(state, end.seed)
    for posted in (e for e in events if isinstance(e, DeclarationPosted)):
        table.post(scribe, Post(actor=posted.actor, text=posted.text, actions=tuple(posted.actions)))
        table.end_turn(scribe)
    table.end(scribe, reveal=end.seed)
    return (*start, *scribe.events)


def test_external_rolls_are_reused_where_the_notation_matches() -> None:
    events = hud_duel()
    found: list[tuple[DiceRolled, DeclarationPosted]] = []
    last: DeclarationPosted | None = None
    for event in events:
        last = event if isinstance(event, DeclarationPosted) else last
        if isinstance(event, DiceRolled) and event.generator == "external" and last is not None:
            found.append((event, last))
    damage, posted = next((d, p) for d, p in found if any(a.weapon == "HPistol" for a in p.actions))
    attack = next(i for i, a in enumerate(posted.actions) if a.weapon == "HPistol")
    same = fork(events, posted.seq, ("text", posted.text))
    assert plain(same.fork) == plain(events)
    # Rook's dodge a point higher: the hit stands, the HUD's damage roll is reused as recorded.
    dodge = next(e for e in events[posted.seq :] if isinstance(e, DiceRolled))
    assert dodge.purpose == "dodge"
    higher = fork(events, dodge.seq, ("dice[0].face", dodge.dice[0].face + 1))
    reused = higher.fork[damage.seq - 1]
    assert isinstance(reused, DiceRolled)
    assert (reused.generator, reused.tool, reused.index, reused.dice) == ("external", "HUD", None, damage.dice)
    # The pistol rolls 1d10, not the revolver's 1d40: drawn from the seed instead.
    other = fork(events, posted.seq, (f"actions[{attack}].weapon", "Pistol"))
    drawn = next(e for e in other.fork[posted.seq :] if isinstance(e, DiceRolled) and e.purpose == "damage")
    assert drawn.seq == damage.seq and drawn.notation != damage.notation
    assert drawn.generator == "engine" and drawn.index is not None


# --------------------------------------------------------------------------- bad input


@pytest.mark.parametrize(
    ("seq", "sets", "mode", "message"),
    [
        (42, (), {"void": True}, "seq 42 is attack_resolved, which the rules derive: change the roll or the "
                                 "declaration that produced it (declaration_posted at seq 39, dice_rolled at seq 40, "
                                 "dice_rolled at seq 41)"),
        (1, (), {"void": True}, "seq 1 is scene_started, not a fact a dispute can change"),
        (41, (), {"void": True}, "a roll cannot be voided"),
        (39, (), {"withdraw": True}, "--withdraw takes a ruling (seq 39 is declaration_posted)"),
        (41, (("dice[0].facee", 3),), {}, "--set dice[0].facee: bad PATH: dice[0] has no facee"),
        (41, (("dice[2].face", 3),), {}, "--set dice[2].face: bad PATH: dice has 1 item"),
        (41, (("notation", "1d20"),), {}, "--set notation: bad PATH: a dice_rolled's notation is not a fact to change"),
        (41, (("seq", 3),), {}, "--set seq: bad PATH"),
        (41, (("dice[0].face", "high"),), {}, "--set: bad VALUE for dice[0].face: Expected `int`, got `str`"),
        (41, (("dice[0].face", 101),), {}, "--set: bad VALUE: dice[0] shows 101 on a d100, which has faces 1 to 100"),
        (39, (("actions[0].tagret", "rook"),), {}, "--set actions[0].tagret: bad PATH: actions[0] has no tagret"),
        (39, (("actions", 5),), {}, "--set: bad VALUE for actions: Expected `array`, got `int`"),
        (41, (), {}, "give exactly one change"),
        (99, (), {"void": True}, "--at 99: the log has seq 1 to 88"),
    ],
)
def test_bad_changes_are_input_errors(
    seq: int, sets: tuple[tuple[str, Any], ...], mode: dict[str, bool], message: str
) -> None:
    with pytest.raises(InputError) as caught:
        fork(log(ALLEY), seq, *sets, **mode)
    assert message in caught.value.message
    assert caught.value.path == "fight.jsonl"


@pytest.mark.parametrize("face", [10, 50])
def test_a_fork_disputed_again_at_its_changed_roll_fits_it(face: int) -> None:
    """Disputing the fork's changed roll again (a no-op, or another value) said the recorded
    roll stopped fitting: "the fork makes no such roll" (a tester)."""
    first = alley(41, ("dice[0].face", 10))
    again = fork(list(first.fork), 41, ("dice[0].face", face))
    assert [d.text for d in again.divergences] == []
    assert (again.fork == first.fork) is (face == 10)


def test_a_fork_disputed_again_keeps_its_first_change() -> None:
    """A tester's two-roll "what if": the fork's changed engine roll was drawn again from the
    seed in the second dispute, undoing the first change without a word."""
    first = alley(41, ("dice[0].face", 10))
    changed = at(first, 41)
    assert isinstance(changed, DiceRolled) and changed.dice[0].face == 10
    later = next(e for e in first.fork[41:] if isinstance(e, DiceRolled) and e.generator == "engine")
    second = fork(list(first.fork), later.seq, ("dice[0].face", 1))
    kept = at(second, 41)
    assert isinstance(kept, DiceRolled) and kept.dice[0].face == 10 and kept.origin == changed.origin
    assert second.departures == ()  # the first fork re-derives as it stands, the first change included
