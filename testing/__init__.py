"""fightlog for its users' own tests: a pytest plugin that plays scenario files with a fixed seed,
and a syrupy extension that snapshots the results as readable JSON."""
