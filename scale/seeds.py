"""Seeds of simulated fights: fight ``i``'s seed is HMAC-SHA256 keyed by the master seed over
``i``, so any fight of a run can be played again alone (``fightlog sim --replay I``)."""

from __future__ import annotations

import hashlib
import hmac

from fightlog.events.seeds import seed_hex

DOMAIN = b"fightlog-sim-fight\0"
"""Prefixed to the fight's index, so these seeds never equal another use of the master."""


def master_seed(value: int | str) -> str:
    """A master seed as 64 hex digits (an integer or 64 hex digits, as ``--seed`` takes)."""
    return seed_hex(value, what="seed")


def fight_seed(master: str, index: int) -> str:
    """The seed of fight ``index`` (from 0) of the run with ``master`` (64 hex digits)."""
    message = DOMAIN + index.to_bytes(8, "big")
    return hmac.new(bytes.fromhex(master), message, hashlib.sha256).hexdigest()
