"""The base of the RoE audit's checks (``audit.Roe7Audit``): the scene's options and the
weapon tokens its logged weapon texts read as, read once per scene.

``Roe7Audit`` is one class written in layers, one module per family of checks, each class
adding its family to the one below it: ``SceneFacts`` (here), ``RollChecks``
(``audit_rolls``), ``EffectChecks`` (``audit_effects``), ``DamageChecks`` (``audit_damage``),
``AttackChecks`` (``audit_attacks``), ``PostChecks`` (``audit_posts``), ``Roe7Audit``
(``audit``). A chain rather than separate objects or mixins: mypyc compiles single
inheritance only, and one object keeps every check a direct method reading the little the
checks remember on ``self``, with nothing added to the audit's loop. A family may use what
the layers below it remember and report (a post closes the start-of-turn phase of
``EffectChecks``; an attack's natural 1 is owed through ``EffectChecks._owe``).
"""

from __future__ import annotations

from fightlog.reducers.state import SceneState
from fightlog.errors import InputError, RefusedError
from fightlog.rules.roe7.fighters import UNARMED, UNARMED_TOKEN, Fighter, options_of
from fightlog.rules.roe7.options import DEFAULTS, Roe7Options
from fightlog.rules.roe7.ruleset import token
from fightlog.rules.roe7.tokens import WeaponToken


class SceneFacts:
    """The scene's options and weapon tokens, read again only when the scene's options
    object changes."""

    def __init__(self) -> None:
        self._raw: object = None
        self._opts: Roe7Options = DEFAULTS
        self._tokens: dict[str, WeaponToken | None] = {}
        self._carried: dict[tuple[str, str], tuple[object, WeaponToken | None]] = {}
        """(actor, a class name) -> the actor's sheet it was read from, and the carried
        weapon's token it names (``weapon``; read again when the sheet is another)."""
        self._crits: dict[tuple[str | None, int, str | None], bool] = {}
        """(weapon, attack die sides, attacker) -> whether its natural maximum crits
        (``AttackChecks._crit_allowed``)."""

    def options(self, state: SceneState) -> Roe7Options:
        """The scene's options (read again only when the scene's options object changes)."""
        scene = state.scene
        raw = None if scene is None else scene.options
        if raw is not self._raw:
            self._raw = raw
            self._opts = options_of(state)  # bad options give the defaults (``scene.bad-options``)
            self._tokens.clear()
            self._carried.clear()
            self._crits.clear()
        return self._opts

    def weapon(self, text: str | None, opts: Roe7Options, state: SceneState | None = None,
               actor: str | None = None) -> WeaponToken | None:
        """The token a logged weapon text reads as (``None``: none, or not a weapon): a
        token, or with ``state`` and ``actor``, a class name (``Rifle``) naming one of the
        actor's weapons, as a post may (``Fighter.weapon``)."""
        if text is None:
            return None
        found = self._tokens.get(text, False)
        if found is False:
            found = UNARMED_TOKEN if text == UNARMED else token(text, opts.tokens)
            self._tokens[text] = found
        if found is None and state is not None and actor is not None:
            who = state.combatants.get(actor)
            sheet = None if who is None else who.sheet
            key = (actor, text)
            cached = self._carried.get(key)
            if cached is not None and cached[0] is sheet:
                return cached[1]
            carried: WeaponToken | None = None
            if sheet is not None:
                try:
                    carried = Fighter(state, actor).weapon(text)[0]
                except (RefusedError, InputError):
                    carried = None
            self._carried[key] = (sheet, carried)
            return carried
        return found  # type: ignore[return-value]
