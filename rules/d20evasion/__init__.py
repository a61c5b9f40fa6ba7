"""The ``d20-evasion`` ruleset: d20 evasion quests and duels (1d20 + bonus against Evasion).

``options`` holds every named choice; ``stats`` and ``bands`` the numbers a sheet gives and
the range chart; ``sheet`` and ``roster`` read what players write (pydantic), ``card`` the
snapshot the log keeps (msgspec); ``ruleset`` is what the fold asks (light: no pydantic, no
rules); the table (``table``) plays fights with ``plan``, ``allowance``, ``attack``,
``defence``, ``harm``, ``conditions``, ``moves``, ``spells``, ``items``, ``disarm``,
``tactics``, ``initiative`` and ``turns``; ``audit`` holds the audit's checks. See
``docs/rulesets/d20-evasion.md``.

This package file imports nothing: the fold imports ``ruleset`` alone.
"""
