"""The public API: what users' code and ``fightlog.testing`` may import."""
