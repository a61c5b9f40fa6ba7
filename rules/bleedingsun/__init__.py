"""``bleeding-sun``: Bleeding Sun d6 dice-pool combat (d6 pools counting hits against a
threshold; a standard, two move, a free and an immediate action a round, immediate actions
dropping one in the sequence; burst fire and recoil, soak, spreads and explosives, status
saves, bleeding out).

``ruleset`` is what the fold asks (light), ``table`` plays, ``audit`` checks a logged fight;
``docs/rulesets/bleeding-sun.md`` maps every clause of the rulebook to its code and test.
This package file imports nothing.
"""
