"""Dice: notation, seeded provably fair generator, rendering (see docs/dice.md).

The pipeline, one module per step: ``lexer`` -> ``parser`` (-> ``ast``) -> ``bounds`` and
``evaluate`` (compiled and cached by ``expression``) -> ``result`` -> ``render``. Faces come
from ``fair`` (the scene's HMAC-SHA256 generator); ``roll_events`` turns results into
``dice_rolled`` events and back; ``verify`` checks the rolls of a log; ``limits`` holds every
limit.

Typical use::

    seed = new_seed()                                   # secret until the scene ends
    started = SceneStarted(scene="duel-1", ruleset="roe7", format=FORMAT_VERSION,
                           dice=dice_commitment(seed))
    gen = FairGenerator(seed, "duel-1")                 # .with_salt(s) when someone joins
    result = roll("1d100", gen, index=0, modifiers=[(10, "scope"), (5, "racial")])
    breakdown(result)              # '1d100 (57) + 15 [scope +10, racial +5] = 72'
    event = dice_rolled(result, roller="bob", purpose="attack")
"""

from fightlog.dice.expression import (
    Expression,
    ModifierLike,
    as_modifiers,
    compile_expression,
    roll,
)
from fightlog.dice.roll_events import dice_rolled, read_roll
from fightlog.dice.evaluate import FaceStream
from fightlog.dice.fair import (
    SCHEME,
    SEED_BYTES,
    FairGenerator,
    HmacStream,
    commitment,
    dice_commitment,
    new_seed,
    salts_digest,
    seed_bytes,
)
from fightlog.dice.render import as_data, breakdown
from fightlog.dice.result import RollResult, TermRoll
from fightlog.dice.verify import RollFinding, RollSummary, RollVerifier

__all__ = [
    "SCHEME",
    "SEED_BYTES",
    "Expression",
    "FaceStream",
    "FairGenerator",
    "HmacStream",
    "ModifierLike",
    "RollFinding",
    "RollResult",
    "RollSummary",
    "RollVerifier",
    "TermRoll",
    "as_data",
    "as_modifiers",
    "breakdown",
    "commitment",
    "compile_expression",
    "dice_commitment",
    "dice_rolled",
    "new_seed",
    "read_roll",
    "roll",
    "salts_digest",
    "seed_bytes",
]
