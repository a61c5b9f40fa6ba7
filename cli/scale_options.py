"""Options ``batch`` and ``sim`` share: where the work runs."""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

import click

from fightlog.cli.options import BoundedInt

F = TypeVar("F", bound=Callable[..., object])

MOST_WORKERS = 1024
"""The most processes ``--workers`` starts on this machine (a bigger run wants --scheduler)."""


def cluster_options(function: F) -> F:
    """``--scheduler tcp://HOST:PORT`` (a running Dask cluster) or ``--workers N`` (the
    embedded local cluster's processes)."""
    function = click.option(
        "--workers", type=BoundedInt(1, most=MOST_WORKERS), default=None,
        help="Processes of the embedded local cluster (default: one per core). Not with --scheduler.",
    )(function)
    return click.option(
        "--scheduler", metavar="tcp://HOST:PORT", default=None,
        help="Run on this Dask scheduler instead of an embedded local cluster (docs/scale.md).",
    )(function)


def check_cluster(scheduler: str | None, workers: int | None) -> None:
    if scheduler is not None and workers is not None:
        raise click.UsageError("--workers sizes the local cluster: not with --scheduler")
    if scheduler is not None and "://" not in scheduler:
        raise click.UsageError(f"--scheduler: expected tcp://HOST:PORT, got {scheduler!r}")
