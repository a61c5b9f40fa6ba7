"""``example``: the smallest ruleset that plays, a worked example of docs/rulesets/HOWTO.md.

One action (``attack target=ID``: 1d20, a hit on ``hit_on`` or more, 1d6 damage), HP, the
posting order as joined. ``ruleset`` is what the fold asks (light), ``table`` plays, ``audit``
checks a logged fight. This package file imports nothing.
"""
