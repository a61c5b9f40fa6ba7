"""``fightlog fixtures``: copy the bundled example logs, rosters and scenarios out of the
installed package, so the examples of every ``--help`` (and the README) run anywhere."""

from __future__ import annotations

import os
from collections.abc import Iterator
from importlib.resources import files
from importlib.resources.abc import Traversable

import click

from fightlog.cli.errors import reports_errors
from fightlog.errors import InputError
from fightlog.report.wording import plural

DATA = (".jsonl", ".toml", ".txt", ".json", ".csv")
"""The bundled data files (the package's modules, which write some of them, are not copied)."""


@click.command(
    epilog="""\b
Examples:
  fightlog fixtures                  # into ./fixtures: the paths every --help example uses
  fightlog fixtures my-examples      # or anywhere
  fightlog fixtures --path           # where they are installed (read-only use)

\b
Exit codes: 0 copied (or shown); 2 a file there differs from the bundled one (nothing
is copied), or DIR cannot be written."""
)
@click.argument("directory", default="fixtures", metavar="[DIR]")
@click.option("--path", "show_path", is_flag=True, help="Print where the bundled files are installed; copy nothing.")
@reports_errors
def fixtures(directory: str, show_path: bool) -> None:
    """Copy the bundled example logs, rosters and scenarios into DIR (default: fixtures).

    The examples in every command's --help read them as fixtures/roe7/..., so run this once
    in the directory you try them in. Files already there and the same are left as they are;
    a file there that differs stops the copy before anything is written.
    """
    root = files("fightlog.fixtures")
    if show_path:
        click.echo(str(root))
        return
    if os.path.exists(directory) and not os.path.isdir(directory):
        raise InputError("exists and is not a directory", path=directory)
    todo = []
    for relative, source in _data(root, ""):
        target = os.path.join(directory, relative)
        data = source.read_bytes()
        if os.path.exists(target):
            if _read(target) != data:
                raise InputError("exists already, changed: move it away first (nothing was copied)", path=target)
            continue
        todo.append((target, data))
    for target, data in todo:
        try:
            os.makedirs(os.path.dirname(target), exist_ok=True)
            with open(target, "xb") as handle:
                handle.write(data)
        except OSError as exc:
            raise InputError(f"cannot write: {exc.strerror}", path=target) from None
    if not todo:
        click.echo(f"{directory}/: the bundled files are there already")
        return
    folders = sorted({os.path.relpath(t, directory).split(os.sep)[0] for t, _ in todo})
    click.echo(f"copied {plural(len(todo), 'file')} to {directory}/ ({', '.join(f + '/' for f in folders)})")


def _read(path: str) -> bytes | None:
    try:
        with open(path, "rb") as handle:
            return handle.read()
    except OSError:
        return None


def _data(folder: Traversable, prefix: str) -> Iterator[tuple[str, Traversable]]:
    """The data files under ``folder``, as ``(path relative to the root, file)``, sorted."""
    for entry in sorted(folder.iterdir(), key=lambda e: e.name):
        if entry.name.startswith((".", "__")):
            continue
        relative = f"{prefix}{entry.name}"
        if entry.is_dir():
            yield from _data(entry, relative + "/")
        elif entry.name.endswith(DATA):
            yield relative, entry
