"""The ``d20-evasion`` ruleset: d20 evasion quests and duels (1d20 + bonus against Evasion)."""
