"""The reliability suite: concurrent appenders, kill -9 during appends, the writer's limits.

Bounded so CI stays fast; ``bench/bench_store.py`` runs the long versions."""
