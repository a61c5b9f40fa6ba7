"""The command line: reads input, calls the core, formats output. Nothing else lives here.

``main`` is the ``fightlog`` console script: it imports the command group itself, so a
Ctrl-C while click and the commands load is one line too (the group's own handling starts
only once they have loaded), never a traceback.
"""

import sys


def main() -> None:
    """The ``fightlog`` command (``fightlog.cli.main.main``, its imports guarded)."""
    try:
        from fightlog.cli.main import main as run
    except KeyboardInterrupt:
        sys.stderr.write("fightlog: interrupted\n")
        raise SystemExit(130) from None  # cli.errors.EXIT_INTERRUPTED, not imported yet
    run()
