"""fightlog: append-only, tamper-evident logs of role-play dice fights.

The package root holds the error tree (``fightlog.errors``) and ``python -m fightlog``.
The subpackages, from the top layer down (docs/architecture.md): ``cli`` (the command line:
I/O and formatting only), ``testing`` (the pytest plugin), ``api`` (the public API),
``report`` (narration and views), ``history`` and ``importing``, ``audit``, ``rules`` (the
rulesets), ``kit`` (the ruleset interface and kit), ``reducers`` and ``dice``, ``events``.
"""

__version__ = "0.1.0"
