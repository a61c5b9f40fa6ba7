"""``fightlog schema``: the JSON Schema of one log line."""

from __future__ import annotations

import json

import click

from fightlog.events.schema import event_schema


@click.command(
    epilog="""\b
Example:
  fightlog schema > fightlog-event.schema.json"""
)
def schema() -> None:
    """Print the JSON Schema of the event format.

    Bots and HUD scripts that write fightlog logs can validate their lines against it.
    """
    click.echo(json.dumps(event_schema(), indent=2, sort_keys=True))
