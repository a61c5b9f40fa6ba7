"""``fightlog sim --chart FILE.png``: a PNG of the win rates (bars in their colour, as long
as the rates) and the fight lengths, the same bytes for the same run, matplotlib missing
is one line naming the extra before any fight is played, and nothing is written then."""

from __future__ import annotations

import builtins
import io
import struct
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from click.testing import CliRunner
from matplotlib.image import imread

from fightlog.cli.main import cli
from fightlog.scale.chart_png import DPI, RUN_HEIGHT_IN, WIDTH_IN, png
from tests.cli import assert_one_line_error
from tests.conftest import FIXTURES

ROSTER = FIXTURES / "en51" / "rosters" / "tavern.toml"
WIN_RGB = (0x4A, 0x7A, 0xB5)


def _run(rates: dict[str, float]) -> dict[str, Any]:
    return {"fights": 100, "wins": {side: {"rate": r, "low": max(0.0, r - 0.1), "high": min(1.0, r + 0.1)}
                                    for side, r in rates.items()},
            "rounds": {"mean": 3.5, "histogram": {"2": 10, "3": 40, "4": 30, "6": 20}}}


def _size(data: bytes) -> tuple[int, int]:
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and data[12:16] == b"IHDR"
    width, height = struct.unpack(">II", data[16:24])
    return width, height


def _bar_lengths(data: bytes) -> list[int]:
    """The length in pixels of each run of the win colour along the rows that hold one,
    top to bottom, one per bar."""
    pixels = (imread(io.BytesIO(data))[:, :, :3] * 255).round().astype(int)
    mask = np.all(np.abs(pixels - np.array(WIN_RGB)) <= 2, axis=2)
    lengths: list[int] = []
    previous = 0
    for row in mask:
        count = int(row.sum())
        if count and not previous:
            lengths.append(count)
        previous = count
    return lengths


def test_one_run_is_a_row_of_two_panels_and_two_runs_two_rows() -> None:
    one = png([("A", _run({"north": 0.5, "south": 0.3}))], "alley.toml")
    two = png([("A", _run({"north": 0.5})), ("B", _run({"north": 0.7}))], "alley.toml")
    assert _size(one) == (round(WIDTH_IN * DPI), round((0.5 + RUN_HEIGHT_IN) * DPI))
    assert _size(two) == (round(WIDTH_IN * DPI), round((0.5 + 2 * RUN_HEIGHT_IN) * DPI))


def test_the_bars_are_as_long_as_the_win_rates() -> None:
    lengths = _bar_lengths(png([("A", _run({"north": 0.8, "south": 0.2, "draw": 0.4}))], "alley.toml"))
    assert len(lengths) == 3
    north, south, draw = lengths
    assert south / north == pytest.approx(0.25, abs=0.03) and draw / north == pytest.approx(0.5, abs=0.03)


def test_the_same_run_gives_the_same_bytes_and_another_run_others() -> None:
    runs = [("A: the file options", _run({"north": 0.5, "south": 0.3}))]
    assert png(runs, "alley.toml") == png(runs, "alley.toml")
    assert png(runs, "alley.toml") != png([("A: the file options", _run({"north": 0.6, "south": 0.3}))], "alley.toml")
    assert b"tEXtSoftware" not in png(runs, "alley.toml")


def test_sim_writes_the_png(tmp_path: Path) -> None:
    out = tmp_path / "tavern.png"
    result = CliRunner().invoke(cli, ["sim", str(ROSTER), "--fights", "12", "--seed", "7", "--workers", "1",
                                      "--chart", str(out)])
    assert result.exit_code == 0, result.output
    assert _size(out.read_bytes())[0] == round(WIDTH_IN * DPI)
    assert len(_bar_lengths(out.read_bytes())) >= 2


def test_without_matplotlib_it_is_one_line_naming_the_extra(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    real = builtins.__import__

    def no_matplotlib(name: str, *args: Any, **kwargs: Any) -> Any:
        if name == "matplotlib" or name.startswith("matplotlib."):
            raise ImportError(name=name)
        return real(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", no_matplotlib)
    out = tmp_path / "tavern.png"
    result = CliRunner().invoke(cli, ["sim", str(ROSTER), "--fights", "3", "--seed", "7", "--chart", str(out)])
    assert_one_line_error(result, str(out), "needs matplotlib, which is not installed: install fightlog's scale extra")
    assert not out.exists()
