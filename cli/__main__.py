"""``python -m fightlog.cli``: the same entry point as the ``fightlog`` console script."""

from fightlog.cli.main import main

if __name__ == "__main__":
    main()
