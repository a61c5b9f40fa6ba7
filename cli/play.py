"""``fightlog play``: a fight played live, one command per move.

Every subcommand does the same four things: fold the log, ask the ruleset's table (through a
``Scribe``) what the move records, append those events with ``expect`` set to the seq the
decision was made at (so nothing lands after events it did not see), and print one narrated
line per event appended. A move the rules refuse prints ``fightlog: LOG: refused: why``
(exit 2) and writes nothing.

The dice seed of a committed scene is kept beside the log in ``LOG.seed`` (mode 0600) until
``play end`` reveals it in ``scene_ended`` and removes the file (public now, it has nothing
left to keep); an open scene (``--open``) carries it in ``scene_started``.
"""

from __future__ import annotations

import os
from typing import Any

import click
from msgspec.structs import replace

from fightlog.cli import play_params
from fightlog.cli.completion import complete_ruleset
from fightlog.cli.errors import reports_errors
from fightlog.cli.options import SEQ, format_option, house_option, log_argument, scene_options, seed_option
from fightlog.cli.play_moves import act, commit, lost_seed, open_scene, refusals, show
from fightlog.cli.seed_file import remove_seed, seed_path, write_seed
from fightlog.dice import commitment, dice_commitment, new_seed
from fightlog.errors import InputError, RefusedError
from fightlog.events.codec import DECODER
from fightlog.events.model import FORMAT_VERSION, Action, SceneStarted, kind_of
from fightlog.events.reader import open_log, raw_lines
from fightlog.kit.actions import a_or_an
from fightlog.events.seeds import DEFAULT_SCENE
from fightlog.kit.table import Entrant, Post, Scribe, Table, table_for
from fightlog.kit.table_base import require_open
from fightlog.reducers.state import EMPTY


# --------------------------------------------------------------------------- the group


@click.group(
    epilog="""\b
Examples:
  fightlog fixtures                # once: copies the bundled files to fixtures/
  fightlog play start gate.jsonl --ruleset roe7 --title "Gate skirmish" --gm Gemma --seed 5eed5eed5eed5eed5eed5eed5eed5eed5eed5eed5eed5eed5eed5eed5eed5eed
  fightlog play join gate.jsonl --roster fixtures/roe7/rosters/gate-skirmish.toml alice bob --at alice=0,0 --at bob=20,0
  fightlog play begin gate.jsonl
  fightlog play post gate.jsonl alice "Alice fires a burst." --do 'attack target=bob weapon=Rifle mode=auto'
  fightlog play end-turn gate.jsonl
  fightlog play end gate.jsonl --reason "Bob flees"

\b
Exit codes: 0 appended; 2 refused by the rules, bad input (a missing or damaged log, a
roster problem) or usage. A refusal writes nothing. Every command takes --format json: one
document, {log, appended (the events), narration, next, round} and what it says besides
(start: seed, or commitment and seed_file; end: seed, seed_file_note).
3 internal error (a bug: the error line names a crash report for the bug report).""",
)
def play() -> None:
    """Play a fight live: start, join, post, end turns, end the scene.

    Each command folds LOG, lets the ruleset decide what the move records (rolls, hits,
    damage, effects, turns), appends it and prints one line per event (--format json: one
    document for a bot). See docs/play.md.
    """


@play.command(
    epilog="""\b
Examples (the other play commands' examples go on from these):
  fightlog fixtures                # once: copies the bundled files to fixtures/
  fightlog play start gate.jsonl --ruleset roe7 --title "Gate skirmish" --gm Gemma --seed 5eed5eed5eed5eed5eed5eed5eed5eed5eed5eed5eed5eed5eed5eed5eed5eed
  fightlog play start duel.jsonl --ruleset roe7                    # a fresh secret seed, kept in duel.jsonl.seed
  fightlog play start open.jsonl --ruleset roe7 --open            # casual: seed public now
  fightlog play start house.jsonl --ruleset roe7 --options fixtures/roe7/house-rules.toml"""
)
@log_argument
@click.option("--ruleset", required=True, metavar="ID", help="The ruleset that plays the fight: an installed one (`fightlog rulesets` lists them).",
              shell_complete=complete_ruleset)
@click.option("--scene", metavar="ID", callback=play_params.scene_id, help="The scene id, mixed into the dice (default: scene, never the file's name).")
@click.option("--title", help="The scene's title.")
@click.option("--gm", metavar="NAME", help="Who runs the scene.")
@seed_option("The scene's secret dice seed (default: a fresh random one).")
@click.option(
    "--open",
    "open_mode",
    is_flag=True,
    help="Put the seed in scene_started at once (anyone can recompute rolls as they happen) "
    "instead of keeping it in LOG.seed until the end.",
)
@house_option
@format_option
@reports_errors
def start(
    log: str,
    ruleset: str,
    scene: str | None,
    title: str | None,
    gm: str | None,
    seed: str | None,
    open_mode: bool,
    house: str | None,
    fmt: str,
) -> None:
    """Start a new scene in LOG (ruleset, options, dice commitment).

    Unless --open, the secret seed is written to LOG.seed (readable by you only): keep it
    until `fightlog play end` reveals it, and never share it before.
    """
    if os.path.isdir(log):
        raise InputError("is a directory, not a log file: start the new scene in a new file", path=log)
    if os.path.exists(log) and not os.path.isfile(log):
        raise InputError("is not a regular file (a device or a pipe): start the new scene in a new file", path=log)
    if os.path.exists(log) and os.path.getsize(log) > 0:
        from fightlog.cli.options import starts_a_log

        what = "already holds a log" if starts_a_log(log) else "is not empty and is not a fightlog log"
        raise InputError(f"{what}: start the new scene in a new file", path=log)
    try:
        table = table_for(ruleset)
    except RefusedError as exc:
        raise click.BadParameter(exc.message, param_hint="'--ruleset'") from None
    options = scene_options(table, ruleset, house)
    seed = seed or new_seed()
    event = SceneStarted(
        scene=scene or DEFAULT_SCENE,
        ruleset=ruleset,
        format=FORMAT_VERSION,
        options=options,
        dice=dice_commitment(seed, open_mode=open_mode),
        title=title,
        gm=gm,
    )
    _begin_log(log, event, seed, keep_seed=not open_mode, fmt=fmt)


def _begin_log(log: str, event: SceneStarted, seed: str, *, keep_seed: bool, fmt: str) -> None:
    """Write ``scene_started`` to LOG (the seed to ``LOG.seed`` first when ``keep_seed``: it
    is removed again if the log cannot be written), and say where the seed is."""
    secret = write_seed(log, seed) if keep_seed else None
    scribe = Scribe(EMPTY, seed)
    scribe.emit(event)
    try:
        appended = commit(log, EMPTY, scribe)
    except BaseException:
        if secret is not None:
            os.unlink(secret)
        raise
    if secret is None:
        show(log, appended, fmt, said={"seed": seed}, notes=[f"dice seed (open): {seed}"])
    else:
        said = {"commitment": commitment(seed), "seed_file": secret}
        show(log, appended, fmt, said=said,
             notes=[f"dice commitment: {said['commitment']}; the seed is in {secret} until `fightlog play end`"])


@play.command(
    epilog="""\b
Examples (continuing those of `fightlog play start --help`, in order):
  fightlog play join gate.jsonl --roster fixtures/roe7/rosters/gate-skirmish.toml alice bob --at alice=0,0 --at bob=20,0
  fightlog play join gate.jsonl --roster fixtures/roe7/rosters/gate-skirmish.toml kestrel --reserve  # waits for a com call
  fightlog play join duel.jsonl --roster fixtures/roe7/rosters/gate-skirmish.toml                    # everyone not in yet
  fightlog play join house.jsonl --roster fixtures/roe7/rosters/gate-skirmish.toml bob --salt 9f3a61 # bob's player salts the dice
  fightlog play join house.jsonl --roster fixtures/roe7/rosters/gate-skirmish.toml alice
  fightlog play join house.jsonl --roster fixtures/roe7/rosters/gate-skirmish.toml mira --arrival --after alice   # takes a slot next round"""
)
@log_argument
@click.option("--roster", required=True, metavar="ROSTER.toml", help="The roster file the combatants come from.")
@click.argument("ids", nargs=-1, metavar="[ID]...")
@click.option("--at", "at", multiple=True, metavar="ID=X,Y", callback=play_params.positions,
              help="Where ID stands, in whole metres (repeatable).")
@click.option("--arrival", is_flag=True, help="Arriving in a fight in progress (takes a slot next round).")
@click.option("--after", metavar="ID", help="With --arrival: the slot claimed is right after ID's.")
@click.option("--reserve", is_flag=True, help="Join off the posting order, until a com call (roe7) or a summon (a d20-evasion minion) brings them in.")
@click.option("--salt", metavar="HEX", callback=play_params.salt, help="The joining player's dice salt, mixed into later rolls.")
@format_option
@reports_errors
def join(
    log: str,
    roster: str,
    ids: tuple[str, ...],
    at: dict[str, tuple[int, int]],
    arrival: bool,
    after: str | None,
    reserve: bool,
    salt: str | None,
    fmt: str,
) -> None:
    """Bring roster combatants into the scene.

    Names the IDs to join (default: every combatant of the roster not in the scene yet).
    """
    if after is not None and not arrival:
        raise click.UsageError("--after goes with --arrival")
    if arrival and reserve:
        raise click.UsageError("--arrival and --reserve exclude each other")
    state, table, seed = open_scene(log)
    with refusals(log):
        require_open(state)  # before the roster: "everyone has joined already" of an ended scene misleads
    entrants = {e.actor: e for e in table.roster(roster)}
    for actor in ids:
        if actor not in entrants:
            raise InputError(f"{actor!r} is not in the roster ({', '.join(entrants)})", path=roster)
    chosen = list(dict.fromkeys(ids)) or [a for a in entrants if a not in state.combatants]
    if not chosen:
        raise InputError("everyone in the roster has joined already", path=roster)
    if salt is not None and len(chosen) > 1:
        raise click.UsageError("--salt is one player's: name one ID")
    for actor in at:
        if actor not in chosen:
            raise click.UsageError(f"--at {actor}: {actor} is not joining here")
    scribe = Scribe(state, seed)
    with refusals(log, state):
        for actor in chosen:
            entrant = entrants[actor]
            if actor in at:
                entrant = _placed(entrant, at[actor])
            table.join(scribe, entrant, arrival=arrival, after=after, salt=salt, reserve=reserve)
    show(log, commit(log, state, scribe), fmt)


def _placed(entrant: Entrant, position: tuple[int, int]) -> Entrant:
    return replace(entrant, position=position)


@play.command(epilog="""\b
Examples (continuing those of `fightlog play start --help`, in order):
  fightlog play begin gate.jsonl""")
@log_argument
@format_option
@reports_errors
def begin(log: str, fmt: str) -> None:
    """Open the fight: the posting order, round 1, the first turn."""
    act(log, lambda table, scribe: table.begin(scribe), fmt)


@play.command(
    epilog="""\b
Examples (continuing those of `fightlog play start --help`, in order):
  fightlog play post gate.jsonl alice "Alice fires a burst at Bob." --do 'attack target=bob weapon=Rifle mode=auto'
  fightlog play end-turn gate.jsonl
  fightlog play post gate.jsonl bob "Bob runs." --do flee
  fightlog play post gate.jsonl alice --do 'interrupt weapon=HPistol'   # during Bob's turn: answers his flee
  fightlog play post gate.jsonl kestrel "((back in ten minutes))" --ooc

\b
--do takes TYPE [key=value ...], quoted like a shell line: keys target, targets (a,b),
weapon, mode, range, distance (metres; hexes in bleeding-sun), item; any other key
is a parameter (gm=-3, m=8); what each action reads is the ruleset's (docs/rulesets/), and
a key it does not read is refused. See docs/play.md."""
)
@log_argument
@click.argument("actor", metavar="ACTOR")
@click.argument("text", required=False, default="", metavar="[TEXT]")
@click.option("--do", "actions", multiple=True, metavar="'ACTION'", callback=play_params.actions,
              help="One action of the post, e.g. 'attack target=bob weapon=Rifle' (repeatable).")
@click.option("--responds-to", type=SEQ, metavar="SEQ",
              help="The seq of the post this one answers (an interrupt, a defence).")
@click.option("--ooc", is_flag=True, help="An out-of-character post (no actions).")
@format_option
@reports_errors
def post(
    log: str, actor: str, text: str, actions: tuple[Action, ...], responds_to: int | None, ooc: bool, fmt: str
) -> None:
    """Post for ACTOR: the text and the actions.

    TEXT is the post as written; each --do is one action the rules resolve (rolls, hits,
    damage, effects), in order. A post the rules refuse writes nothing.
    """
    declared = Post(actor=actor, text=text, actions=actions, responds_to=responds_to, ooc=ooc)

    def move(table: Table, scribe: Scribe) -> None:
        if responds_to is not None and responds_to > scribe.state.seq:
            raise click.BadParameter(
                f"{responds_to}: no such event in {log} (it ends at seq {scribe.state.seq}); give the seq of the post "
                "answered",
                param_hint="'--responds-to'",
            )
        if responds_to is not None:
            kind = _kind_at(log, responds_to)
            if kind != "declaration_posted":
                raise click.BadParameter(f"{responds_to}: seq {responds_to} is {a_or_an(kind)}, not a post; give "
                                         "the seq of the post answered", param_hint="'--responds-to'")
        if not text.strip() and not actions:
            raise click.UsageError("a post says or does something: give its TEXT, or an action with --do "
                                   "(to pass the turn: fightlog play end-turn LOG)")
        table.post(scribe, declared)

    act(log, move, fmt)


def _kind_at(log: str, seq: int) -> str:
    """The kind of the event at ``seq`` of the log (read and checked whole already)."""
    with open_log(log) as stream:
        for line, raw in enumerate(raw_lines(stream), start=1):
            if line == seq:
                return kind_of(DECODER.decode(raw))
    raise InputError(f"no event at seq {seq}", path=log)


@play.command("end-turn", epilog="""\b
Examples (continuing those of `fightlog play start --help`, in order):
  fightlog play end-turn gate.jsonl""")
@log_argument
@format_option
@reports_errors
def end_turn(log: str, fmt: str) -> None:
    """Close the open turn and open the next.

    End-of-turn effects count down, pending flees and com calls resolve, and the next
    combatant's start-of-turn effects take hold (as the ruleset says).
    """
    act(log, lambda table, scribe: table.end_turn(scribe), fmt)


@play.command(epilog="""\b
Examples (continuing those of `fightlog play start --help`, in order):
  fightlog play end gate.jsonl --reason "Bob flees"     # reveals the seed, removes gate.jsonl.seed
  fightlog verify --dice gate.jsonl      # then anyone can recompute every roll""")
@log_argument
@click.option("--reason", help="Why the scene ends.")
@format_option
@reports_errors
def end(log: str, reason: str | None, fmt: str) -> None:
    """End the scene and reveal the dice seed.

    The seed (from LOG.seed, or scene_started for an open scene) goes into scene_ended, so
    anyone can recompute every roll with `fightlog verify --dice LOG`; LOG.seed, public now,
    is removed.
    """
    state, table, seed = open_scene(log)
    info = state.scene
    assert info is not None
    if seed is None and info.commitment is not None:
        raise InputError(lost_seed("and ending the scene reveals it"), path=seed_path(log))
    scribe = Scribe(state, seed)
    with refusals(log, state):
        table.end(scribe, reveal=seed, reason=reason)
    appended = commit(log, state, scribe)
    said = "dice seed (public from the start)" if info.seed is not None else "dice seed revealed"
    notes = [] if seed is None else [f"{said}: {seed}; check every roll with `fightlog verify --dice {log}`"]
    removed = remove_seed(log) if info.commitment is not None and info.seed is None else None
    if removed is not None:
        notes.append(removed)
    show(log, appended, fmt, said={"seed": seed, "seed_file_note": removed}, notes=notes)
