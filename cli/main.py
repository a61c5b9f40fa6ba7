"""The ``fightlog`` command group. Each subcommand lives in its own module."""

from __future__ import annotations

import click

from fightlog import __version__
from fightlog.cli.schema import schema
from fightlog.cli.verify import verify


@click.group(
    context_settings={"help_option_names": ["-h", "--help"], "max_content_width": 100},
    epilog="""\b
Examples:
  fightlog verify fixtures/roe7/duel.jsonl
  fightlog schema > fightlog-event.schema.json

Exit codes: 0 ok, 1 findings (a damaged log, a failed check), 2 bad input or usage.""",
)
@click.version_option(__version__, prog_name="fightlog")
def cli() -> None:
    """fightlog: tamper-evident logs of role-play dice fights.

    Every post, roll and effect tick is one line of an append-only JSONL log, chained by
    SHA-256 so that any edit, deletion, insertion or reordering shows.
    """


cli.add_command(verify)
cli.add_command(schema)


def main() -> None:
    cli(prog_name="fightlog")
