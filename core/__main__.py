"""``python -m fightlog``: the same entry point as the ``fightlog`` console script (the top layer, with ``fightlog.cli``)."""

from fightlog.cli import main

if __name__ == "__main__":
    main()
