"""The ruleset kit: what every ruleset is asked (by play, the audit and the fold) and the
shared parts a ruleset package fills in."""
