"""Chat transcripts read into fightlog logs (``fightlog import``, ``docs/import.md``).

One small module per transcript format (``sl``, ``discord_json``, ``discord_csv``,
``discord_txt``), each a streaming iterator of neutral ``Message`` records (``message``);
``source`` opens a transcript (decoding, line limits, its SHA-256), ``sniff`` names the
format a file looks like, ``cast`` is the cast file (who is who), ``rolls`` is the one place
dice rolls are read out of a message, ``build`` turns messages into events (pure),
``importer`` seals them into a log streamed to a temporary file renamed into place, and
``suggest`` writes a starting cast file (``--suggest-cast``).
"""

IMPORTER_VERSION = "1"
"""Recorded in ``scene_started.source``: a change that makes the same transcript import to
different events bumps it."""
