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
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import click
from msgspec.structs import replace

from fightlog.cli.completion import complete_ruleset
from fightlog.cli.errors import reports_errors
from fightlog.cli.narrate import narrate
from fightlog.cli.options import MAX_OPTION_INT, SEQ, house_option, log_argument, seed_option
from fightlog.cli.replay import render
from fightlog.errors import DiceSeedError, InputError, RefusedError
from fightlog.events.model import FORMAT_VERSION, Action, SceneStarted
from fightlog.events.store import FileStore
from fightlog.history.states import state_at
from fightlog.reducers.fold import Step, reduce
from fightlog.reducers.state import EMPTY, SceneState
from fightlog.dice import SEED_BYTES, commitment, dice_commitment, new_seed, seed_bytes
from fightlog.kit.table import Entrant, Post, Scribe, Table, table_for
from fightlog.events.seeds import DEFAULT_SCENE

def _actions(ctx: click.Context, param: click.Parameter, value: Sequence[str]) -> tuple[Action, ...]:
    from fightlog.kit.actions import parse_action

    actions = []
    for text in value:
        try:
            actions.append(parse_action(text))
        except InputError as exc:
            raise click.BadParameter(f"{text!r}: {exc.message}") from None
    return tuple(actions)


def _positions(ctx: click.Context, param: click.Parameter, value: Sequence[str]) -> dict[str, tuple[int, int]]:
    placed: dict[str, tuple[int, int]] = {}
    for text in value:
        actor, eq, where = text.partition("=")
        xy = where.split(",")
        if not eq or not actor or len(xy) != 2 or not all(_is_int(n) for n in xy):
            raise click.BadParameter(f"expected ID=X,Y in whole metres (alice=0,15), got {text!r}")
        if any(abs(int(n)) > MAX_OPTION_INT for n in xy):
            raise click.BadParameter(f"{text!r}: a coordinate is at most {MAX_OPTION_INT} metres either way")
        if actor in placed:
            raise click.BadParameter(f"{actor!r} placed twice")
        placed[actor] = (int(xy[0]), int(xy[1]))
    return placed


def _is_int(text: str) -> bool:
    digits = text.strip().removeprefix("-")
    return digits.isascii() and digits.isdigit()


def _scene_id(ctx: click.Context, param: click.Parameter, value: str | None) -> str | None:
    if value is not None and not 1 <= len(value) <= 200:
        raise click.BadParameter("a scene id has 1 to 200 characters")
    return value


def _salt(ctx: click.Context, param: click.Parameter, value: str | None) -> str | None:
    if value is None:
        return None
    try:
        return seed_bytes(value, what="the salt").hex()
    except DiceSeedError as exc:
        raise click.BadParameter(exc.message) from None


# --------------------------------------------------------------------------- the group


@click.group(
    epilog="""\b
Examples:
  fightlog fixtures                # once: copies the bundled files to fixtures/
  fightlog play start gate.jsonl --ruleset roe7 --title "Gate skirmish" --gm Gemma
  fightlog play join gate.jsonl --roster fixtures/roe7/rosters/gate-skirmish.toml alice bob --at alice=0,0 --at bob=20,0
  fightlog play begin gate.jsonl
  fightlog play post gate.jsonl alice "Alice fires a burst." --do 'attack target=bob weapon=Rifle mode=auto'
  fightlog play end-turn gate.jsonl
  fightlog play end gate.jsonl --reason "Bob flees"

\b
Exit codes: 0 appended; 2 refused by the rules, bad input (a missing or damaged log, a
roster problem) or usage. A refusal writes nothing.
3 internal error (a bug: the error line names a crash report for the bug report).""",
)
def play() -> None:
    """Play a fight live: start, join, post, end turns, end the scene.

    Each command folds LOG, lets the ruleset decide what the move records (rolls, hits,
    damage, effects, turns), appends it and prints one line per event. See docs/play.md.
    """


@play.command(
    epilog="""\b
Examples (the other play commands' examples go on from these):
  fightlog fixtures                # once: copies the bundled files to fixtures/
  fightlog play start gate.jsonl --ruleset roe7 --title "Gate skirmish" --gm Gemma
  fightlog play start duel.jsonl --ruleset roe7 --open            # casual: seed public now
  fightlog play start house.jsonl --ruleset roe7 --options fixtures/roe7/house-rules.toml"""
)
@log_argument
@click.option("--ruleset", required=True, metavar="ID", help="The ruleset that plays the fight (roe7, d20-evasion).",
              shell_complete=complete_ruleset)
@click.option("--scene", metavar="ID", callback=_scene_id, help="The scene id, mixed into the dice (default: scene, never the file's name).")
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
) -> None:
    """Start a new scene in LOG (ruleset, options, dice commitment).

    Unless --open, the secret seed is written to LOG.seed (readable by you only): keep it
    until `fightlog play end` reveals it, and never share it before.
    """
    if os.path.exists(log) and (os.path.isdir(log) or os.path.getsize(log) > 0):
        raise InputError("already holds a log (or is not a file): start the new scene in a new file", path=log)
    try:
        table = table_for(ruleset)
    except RefusedError as exc:
        raise click.BadParameter(exc.message, param_hint="'--ruleset'") from None
    overrides: dict[str, Any] = {}
    if house is not None:
        from fightlog.kit.house import read_house_rules

        overrides = read_house_rules(house).overrides(ruleset, table.option_type)
    options = table.options(overrides, where=house)
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
    secret = None if open_mode else _write_seed(log, seed)
    scribe = Scribe(EMPTY, seed)
    scribe.emit(event)
    try:
        _commit(log, EMPTY, scribe)
    except BaseException:
        if secret is not None:
            os.unlink(secret)
        raise
    if secret is None:
        click.echo(f"dice seed (open): {seed}")
    else:
        click.echo(f"dice commitment: {commitment(seed)}; the seed is in {secret} until `fightlog play end`")


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
@click.option("--at", "at", multiple=True, metavar="ID=X,Y", callback=_positions,
              help="Where ID stands, in whole metres (repeatable).")
@click.option("--arrival", is_flag=True, help="Arriving in a fight in progress (takes a slot next round).")
@click.option("--after", metavar="ID", help="With --arrival: the slot claimed is right after ID's.")
@click.option("--reserve", is_flag=True, help="Join off the posting order, until a com call brings them in.")
@click.option("--salt", metavar="HEX", callback=_salt, help="The joining player's dice salt, mixed into later rolls.")
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
) -> None:
    """Bring roster combatants into the scene.

    Names the IDs to join (default: every combatant of the roster not in the scene yet).
    """
    if after is not None and not arrival:
        raise click.UsageError("--after goes with --arrival")
    if arrival and reserve:
        raise click.UsageError("--arrival and --reserve exclude each other")
    state, table, seed = _open(log)
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
    with _refusals(log):
        for actor in chosen:
            entrant = entrants[actor]
            if actor in at:
                entrant = _placed(entrant, at[actor])
            table.join(scribe, entrant, arrival=arrival, after=after, salt=salt, reserve=reserve)
    _commit(log, state, scribe)


def _placed(entrant: Entrant, position: tuple[int, int]) -> Entrant:
    return replace(entrant, position=position)


@play.command(epilog="""\b
Examples (continuing those of `fightlog play start --help`, in order):
  fightlog play begin gate.jsonl""")
@log_argument
@reports_errors
def begin(log: str) -> None:
    """Open the fight: the posting order, round 1, the first turn."""
    _act(log, lambda table, scribe: table.begin(scribe))


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
weapon, mode, range, distance (metres), item, cost; any other key is a parameter
(gm=-3, m=8); what each action reads is the ruleset's (docs/rulesets/). See docs/play.md."""
)
@log_argument
@click.argument("actor", metavar="ACTOR")
@click.argument("text", required=False, default="", metavar="[TEXT]")
@click.option("--do", "actions", multiple=True, metavar="'ACTION'", callback=_actions,
              help="One action of the post, e.g. 'attack target=bob weapon=Rifle' (repeatable).")
@click.option("--responds-to", type=SEQ, metavar="SEQ",
              help="The seq of the post this one answers (an interrupt, a defence).")
@click.option("--ooc", is_flag=True, help="An out-of-character post (no actions).")
@reports_errors
def post(log: str, actor: str, text: str, actions: tuple[Action, ...], responds_to: int | None, ooc: bool) -> None:
    """Post for ACTOR: the text and the actions.

    TEXT is the post as written; each --do is one action the rules resolve (rolls, hits,
    damage, effects), in order. A post the rules refuse writes nothing.
    """
    declared = Post(actor=actor, text=text, actions=actions, responds_to=responds_to, ooc=ooc)

    def move(table: Table, scribe: Scribe) -> None:
        if responds_to is not None and responds_to > scribe.state.seq:
            raise click.BadParameter(
                f"{responds_to}: no such event (the log ends at seq {scribe.state.seq}); give the seq of the post answered",
                param_hint="'--responds-to'",
            )
        table.post(scribe, declared)

    _act(log, move)


@play.command("end-turn", epilog="""\b
Examples (continuing those of `fightlog play start --help`, in order):
  fightlog play end-turn gate.jsonl""")
@log_argument
@reports_errors
def end_turn(log: str) -> None:
    """Close the open turn and open the next.

    End-of-turn effects count down, pending flees and com calls resolve, and the next
    combatant's start-of-turn effects take hold (as the ruleset says).
    """
    _act(log, lambda table, scribe: table.end_turn(scribe))


@play.command(epilog="""\b
Examples (continuing those of `fightlog play start --help`, in order):
  fightlog play end gate.jsonl --reason "Bob flees"     # reveals the seed, removes gate.jsonl.seed
  fightlog verify --dice gate.jsonl      # then anyone can recompute every roll""")
@log_argument
@click.option("--reason", help="Why the scene ends.")
@reports_errors
def end(log: str, reason: str | None) -> None:
    """End the scene and reveal the dice seed.

    The seed (from LOG.seed, or scene_started for an open scene) goes into scene_ended, so
    anyone can recompute every roll with `fightlog verify --dice LOG`; LOG.seed, public now,
    is removed.
    """
    state, table, seed = _open(log)
    info = state.scene
    assert info is not None
    if seed is None and info.commitment is not None:
        raise InputError(
            "no such file: the seed the scene committed to is needed to end it", path=_seed_path(log)
        )
    scribe = Scribe(state, seed)
    with _refusals(log):
        table.end(scribe, reveal=seed, reason=reason)
    _commit(log, state, scribe)
    if seed is not None:
        click.echo(f"dice seed revealed: {seed}; check every roll with `fightlog verify --dice {log}`")
    if info.commitment is not None and info.seed is None:
        click.echo(_remove_seed(log))


# --------------------------------------------------------------------------- the steps


def _act(log: str, move: Callable[[Table, Scribe], None]) -> None:
    state, table, seed = _open(log)
    scribe = Scribe(state, seed)
    with _refusals(log):
        move(table, scribe)
    _commit(log, state, scribe)


def _open(log: str) -> tuple[SceneState, Table, str | None]:
    """The state after LOG's last event, its ruleset's table, and the dice seed (``None``
    when neither the log nor ``LOG.seed`` has it)."""
    state = state_at(log, cache=False)
    info = state.scene
    if info is None:  # cannot happen: a log starts with scene_started
        raise InputError("no scene_started: not a scene", path=log)
    with _refusals(log):
        table = table_for(info.ruleset)
    return state, table, _read_seed(log, state)


def _commit(log: str, before: SceneState, scribe: Scribe) -> None:
    """Append what the scribe decided, unless the log moved on since ``before``, and say it."""
    sealed = FileStore(log).append(scribe.events, expect=before.seq)
    steps = []
    state = before
    for event in sealed:
        after = reduce(state, event)
        steps.append(Step(event, state, after))
        state = after
    for line in render([line for step in steps for line in narrate(step) if line.seq is not None]):
        click.echo(line)


@contextmanager
def _refusals(log: str) -> Iterator[None]:
    """A refusal by the rules, as ``LOG: refused: why``."""
    try:
        yield
    except RefusedError as exc:
        raise RefusedError(f"refused: {exc.message}", path=log) from None


# --------------------------------------------------------------------------- the seed file


def _seed_path(log: str) -> str:
    return log + ".seed"


def _write_seed(log: str, seed: str) -> str:
    """Keep ``seed`` in ``LOG.seed``, readable and writable by the owner only; refuse to
    replace one (it may be the only copy of another scene's seed)."""
    path = _seed_path(log)
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        raise InputError("exists already: it may hold another scene's secret seed; move it away first",
                         path=path) from None
    except OSError as exc:
        raise InputError(f"cannot create: {exc.strerror}", path=path) from None
    try:
        os.fchmod(fd, 0o600)
        os.write(fd, (seed + "\n").encode())
        os.fsync(fd)
    finally:
        os.close(fd)
    return path


def _remove_seed(log: str) -> str:
    """Remove ``LOG.seed`` once ``scene_ended`` has revealed its seed, and say so (or say
    why it stays, and that it is public now)."""
    path = _seed_path(log)
    try:
        os.unlink(path)
    except FileNotFoundError:
        return f"{path}: gone already (the seed is public in scene_ended)"
    except OSError as exc:
        return f"{path}: could not be removed ({exc.strerror}); the seed in it is public now"
    return f"removed {path}: the seed is public in scene_ended"


def _read_seed(log: str, state: SceneState) -> str | None:
    """The scene's seed: revealed in the log (open mode, or ended), else from ``LOG.seed``,
    which must match the commitment in ``scene_started``."""
    info = state.scene
    if info is None or info.seed is not None:
        return None if info is None else info.seed
    path = _seed_path(log)
    try:
        with open(path, "rb") as handle:
            raw = handle.read(1024)
    except FileNotFoundError:
        return None
    except OSError as exc:
        raise InputError(f"cannot read: {exc.strerror}", path=path) from None
    try:
        seed = seed_bytes(raw.decode("ascii", "replace"), minimum=SEED_BYTES, what="the seed").hex()
    except DiceSeedError as exc:
        raise InputError(exc.message, path=path) from None
    if info.commitment is not None and commitment(seed) != info.commitment:
        raise InputError("does not match the dice commitment in scene_started (a seed of another scene?)",
                         path=path)
    return seed

