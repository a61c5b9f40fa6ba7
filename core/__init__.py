"""fightlog: append-only, tamper-evident logs of role-play dice fights.

The package root. Subpackages: ``fightlog.events`` (event model, codec, store, reader),
``fightlog.reducers`` (pure folds into scene state), ``fightlog.rules`` (rulesets and dice),
``fightlog.cli`` (the command line: I/O and formatting only).
"""

__version__ = "0.1.0"
