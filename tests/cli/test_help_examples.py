"""Every example line of every ``--help`` runs as written, outside the repository, after the
one step the help names (``fightlog fixtures``, which copies the bundled files out of the
installed package): none exits 2 (bad input or usage).

The examples are read from the ``--help`` output itself (no second copy to drift). Each
command's run in a fresh directory; the ``play`` subcommands' examples are one fight, so they
run in one directory, in the order a fight is played.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import click
import pytest
from click.testing import CliRunner

from fightlog.cli.main import COMMANDS, cli

PLAY_ORDER = ("start", "join", "begin", "post", "end-turn", "end")
"""The play subcommands in the order their examples play one fight."""

REPO = Path(__file__).resolve().parents[2]


def command_paths() -> list[tuple[str, ...]]:
    """``()`` (the group) and every command and subcommand, as CLI words."""
    paths: list[tuple[str, ...]] = [()]
    ctx = click.Context(cli)
    for name in sorted(COMMANDS):
        paths.append((name,))
        command = cli.get_command(ctx, name)
        if isinstance(command, click.Group):
            paths += [(name, sub) for sub in sorted(command.commands)]
    return paths


def examples(path: tuple[str, ...]) -> list[str]:
    """The example lines of ``fightlog PATH --help``: the indented lines under a heading that
    starts with ``Example`` and ends with ``:``, continuation lines (``\\``) joined."""
    result = CliRunner().invoke(cli, [*path, "--help"])
    assert result.exit_code == 0, result.output
    found: list[str] = []
    inside = False
    pending = ""
    for line in result.output.splitlines():
        text = line.strip()
        if text.startswith("Example") and text.endswith(":"):
            inside = True
            continue
        if inside and (not text or not line.startswith("    ")):
            inside = False
        if not inside:
            continue
        pending += (" " if pending else "") + text.removesuffix("\\").strip()
        if not text.endswith("\\"):
            found.append(pending)
            pending = ""
    return found


def shell() -> dict[str, str]:
    """The environment with this Python's ``fightlog`` first on PATH."""
    env = dict(os.environ, PATH=f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}")
    env.pop("PYTHONPATH", None)
    return env


def run_lines(lines: list[str], workdir: Path) -> None:
    env = shell()
    for line in lines:
        done = subprocess.run(["bash", "-c", line], cwd=workdir, env=env, capture_output=True, text=True)
        assert done.returncode in (0, 1), f"{line}\nexit {done.returncode}\n{done.stderr}"
        assert "Traceback" not in done.stderr, line


@pytest.fixture
def workdir(tmp_path: Path) -> Path:
    """A directory outside the repository where ``fightlog fixtures`` has run."""
    assert REPO not in tmp_path.parents
    run_lines(["fightlog fixtures"], tmp_path)
    assert (tmp_path / "fixtures" / "roe7" / "disputed-duel.jsonl").is_file()
    return tmp_path


ALONE = [p for p in command_paths() if not (len(p) == 2 and p[0] == "play")]




def test_every_command_has_examples() -> None:
    for path in command_paths():
        assert examples(path), f"fightlog {' '.join(path)} --help has no examples"


@pytest.mark.parametrize("path", [*ALONE, ("play", "start")], ids=lambda p: " ".join(p) or "fightlog")
def test_examples_that_read_bundled_files_say_how_to_get_them(path: tuple[str, ...]) -> None:
    lines = examples(path)
    if any("fixtures/" in line for line in lines[1:]):
        assert lines[0].startswith("fightlog fixtures "), lines[0]


def test_no_two_help_pages_write_the_same_file() -> None:
    """A new user runs the examples of one page after another in one directory: `verify
    --help` and `audit --help` both started `live.jsonl`, and `run --help` wrote the
    `house.jsonl` that `play start --help` starts, so the second of each was refused."""
    import re

    writes = re.compile(r"(?:play start|-o|--output)\s+(\S+\.(?:jsonl|html|toml))")
    owner: dict[str, str] = {}
    for path in [*ALONE, ("play",)]:
        lines = [line for p in ([path] if path != ("play",) else [("play", sub) for sub in PLAY_ORDER])
                 for line in examples(p)]
        for name in sorted({m.group(1) for line in lines for m in writes.finditer(line)}):
            page = " ".join(path) or "fightlog"
            assert owner.setdefault(name, page) == page, f"{name}: written by `{owner[name]} --help` and `{page} --help`"


@pytest.mark.slow
@pytest.mark.parametrize("path", ALONE, ids=lambda p: " ".join(p) or "fightlog")
def test_the_examples_run(path: tuple[str, ...], workdir: Path) -> None:
    run_lines(examples(path), workdir)


@pytest.mark.slow
def test_the_play_examples_play_one_fight(workdir: Path) -> None:
    assert {p[1] for p in command_paths() if len(p) == 2 and p[0] == "play"} == set(PLAY_ORDER)
    for sub in PLAY_ORDER:
        run_lines(examples(("play", sub)), workdir)
    assert not (workdir / "gate.jsonl.seed").exists()  # play end removed it
    assert b'"kind":"scene_ended"' in (workdir / "gate.jsonl").read_bytes().splitlines()[-1]


def test_fixtures_copies_the_bundled_files_once(tmp_path: Path) -> None:
    env = shell()
    first = subprocess.run(["fightlog", "fixtures"], cwd=tmp_path, env=env, capture_output=True, text=True)
    assert first.returncode == 0 and first.stdout.startswith("copied ")
    again = subprocess.run(["fightlog", "fixtures"], cwd=tmp_path, env=env, capture_output=True, text=True)
    assert (again.returncode, again.stdout) == (0, "fixtures/: the bundled files are there already\n")
    changed = tmp_path / "fixtures" / "roe7" / "house-rules.toml"
    changed.write_text("# mine\n")
    (tmp_path / "fixtures" / "roe7" / "sample-duel.jsonl").unlink()
    refused = subprocess.run(["fightlog", "fixtures"], cwd=tmp_path, env=env, capture_output=True, text=True)
    assert refused.returncode == 2
    assert refused.stderr == f"fightlog: {Path('fixtures/roe7/house-rules.toml')}: exists already, changed: move it away first (nothing was copied)\n"
    assert changed.read_text() == "# mine\n"
    assert not (tmp_path / "fixtures" / "roe7" / "sample-duel.jsonl").exists()
