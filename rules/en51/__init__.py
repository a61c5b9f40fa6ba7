"""``en51``: en5.1 black and white d20 combat (one combat action a turn; a black and a white
d20 read together for the hit, the armour and the damage; wounds marked against Toughness).

``ruleset`` is what the fold asks (light), ``table`` plays, ``audit`` checks a logged fight;
``docs/rulesets/en51.md`` maps every clause of the rulebook to its code and test. This
package file imports nothing.
"""
