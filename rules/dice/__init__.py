"""Dice: notation, seeded provably fair generator, rendering (see docs/dice.md)."""
