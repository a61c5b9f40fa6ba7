"""Shell completion beyond what click derives itself: ruleset ids for ``--ruleset``.

Commands, subcommands, options and ``click.Choice`` values complete on their own once the
shell has loaded fightlog's completion script (docs/cli.md).
"""

from __future__ import annotations

import click
from click.shell_completion import CompletionItem


def playable_rulesets() -> list[str]:
    """The ids of the installed rulesets that can play a fight (``play start --ruleset``)."""
    from fightlog.kit.ruleset import playable  # each ruleset's light module, no table

    return list(playable())


def complete_ruleset(ctx: click.Context, param: click.Parameter, incomplete: str) -> list[CompletionItem]:
    """``--ruleset`` completes with the playable ruleset ids."""
    return [CompletionItem(r) for r in playable_rulesets() if r.startswith(incomplete)]
