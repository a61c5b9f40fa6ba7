"""``traveller``: Traveller 2D6 combat (the combat sheet in ``docs/rulesets/traveller.md``).

``ruleset`` is what the fold asks (light: msgspec only), ``table`` plays, ``audit`` checks a
logged fight. This package file imports nothing: the fold imports ``ruleset`` alone.
"""
