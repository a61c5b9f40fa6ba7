"""Work past one machine: batch audits of whole archives and simulated fights (``fightlog
batch audit``, ``fightlog sim``). The work per log and per fight is pure and lives here
(``batch``, ``fights``, ``tally``); ``cluster`` maps it over Dask in chunks. See
docs/scale.md."""
