"""RoE 7th Edition (``roe7``): sheets, rosters and weapon tokens.

``tokens`` reads weapon tokens (``M_a_Rifle_Class_(Permanent)``), ``races`` holds the races and
their racials, ``terms`` the shared vocabulary (sizes, roll types, damage types, caps),
``sheet`` the validated sheet with its computed views and ``roster`` loads a roster TOML file.
See ``docs/rulesets/roe7-sheets.md``.

This package file imports nothing: ``sheet`` and ``roster`` use pydantic, which the light
paths of fightlog (``verify``, events, reducers) must never load.
"""
