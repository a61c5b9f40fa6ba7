"""Recomputing engine rolls from the seed, as fast as the dice allow.

Anyone holding a scene's seed can recompute each engine roll from (seed, scene, salts
recorded before it, roll index). ``Recomputer`` does it for a stream of rolls (``fightlog
verify --dice`` and the audit's dice checks): an expression with a fast plan is judged by
the faces block 0 of its roll gives (``fastpath.build_block_faces``), and what the plan
makes of them (value and dice) is kept by expression and faces, so a roll seen before costs
one HMAC block, a dict lookup and a comparison instead of a ``RollResult``; a pool of more
than a block of dice is rolled by its fast plan. Anything else goes through the general plan,
which draws the same faces.
"""

from __future__ import annotations

from fightlog.events.model import Die
from fightlog.dice.dialects import compile_in
from fightlog.dice.expression import Expression, compile_expression
from fightlog.dice.fair import FairGenerator
from fightlog.dice.fastpath import BlockFaces, build_block_faces

KEPT_ROLLS = 1 << 11
"""Recomputed rolls (value and dice) kept for reuse, by expression and faces (a 1d100 has a
hundred outcomes)."""


class Recomputer:
    """Engine rolls of one scene recomputed from its seed (raw bytes)."""

    def __init__(self, seed: bytes, scene: str) -> None:
        self.seed = seed
        self.scene = scene
        self._generators: dict[tuple[str, ...], FairGenerator] = {}
        self._salts: tuple[str, ...] | None = None
        self._generator: FairGenerator | None = None
        self._expressions: dict[str, tuple[Expression, BlockFaces | None]] = {}
        self._dialects: dict[tuple[str, str], tuple[Expression, BlockFaces | None]] = {}
        self._rolled: dict[tuple[Expression, int | tuple[int, ...]], tuple[int, list[Die]]] = {}

    def rolled(self, notation: str, salts: tuple[str, ...], index: int, dialect: str | None = None) -> tuple[int, list[Die]]:
        """The value (before modifiers) and the dice of roll ``index`` of ``notation`` (read
        in ``dialect``, fightlog's by default), with ``salts`` the salts recorded before it.
        A notation the engine refuses raises ``DiceError``."""
        known = self._expressions.get(notation) if dialect is None else self._dialects.get((notation, dialect))
        if known is None:
            expr = compile_expression(notation) if dialect is None else compile_in(notation, dialect)
            faces_of = None if expr.fast is None else build_block_faces(expr.terms)
            known = (expr, faces_of)
            if dialect is None:
                self._expressions[notation] = known
            else:
                self._dialects[(notation, dialect)] = known
        expr, block_faces = known
        gen = self._generator
        if gen is None or salts is not self._salts:
            gen = self._generator_for(salts)
        faces = None if block_faces is None else block_faces(gen.block(index, 0))
        rolled = None if faces is None else self._rolled.get((expr, faces))
        if rolled is None:
            fast = expr.fast
            result = None if fast is None else fast(expr, gen, index, (), 0)
            if result is None:
                result = expr.roll(gen.stream(index), index=index)
            rolled = (result.value, result.dice)
            if faces is not None:
                if len(self._rolled) >= KEPT_ROLLS:
                    self._rolled.clear()
                self._rolled[(expr, faces)] = rolled
        return rolled

    def _generator_for(self, salts: tuple[str, ...]) -> FairGenerator:
        gen = self._generators.get(salts)
        if gen is None:
            gen = self._generators[salts] = FairGenerator(self.seed, self.scene, salts)
        self._salts = salts
        self._generator = gen
        return gen
