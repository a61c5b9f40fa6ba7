"""``--seed`` means one thing everywhere: an integer or 64 hex digits (``fightlog.events.seeds``),
the integer mapped as the pytest plugin maps it; one error message for anything else."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from fightlog.events import seeds
from fightlog.errors import DiceSeedError
from fightlog.events.model import SceneStarted
from fightlog.events.reader import read_log
from fightlog import dice
from fightlog.dice import commitment
from fightlog.testing.fight import seed_hex as plugin_seed
from tests.cli import SCENARIO_LOGS, assert_usage_error, run

SEVEN = "0" * 63 + "7"
ALLEY = SCENARIO_LOGS / "alley-duel.jsonl"
ACCEPTED = "expected an integer (0 to 2**256-1) or 64 hex digits, got "

COMMANDS = [
    ("roll", "1d20"),
    ("run", str(SCENARIO_LOGS / "alley-duel.toml"), "-o", "never.jsonl"),
    ("play", "start", "never.jsonl", "--ruleset", "roe7"),
    ("audit", str(ALLEY)),
    ("dispute", str(ALLEY), "--at", "41", "--void"),
    ("verify", str(ALLEY)),
]


def test_the_seed_size_is_the_dice_engines() -> None:
    assert seeds.SEED_BYTES == dice.SEED_BYTES


@given(st.integers(min_value=0, max_value=10**63 - 1))
def test_an_integer_is_its_32_big_endian_bytes_as_int_or_as_text(n: int) -> None:
    assert seeds.seed_hex(n) == seeds.seed_hex(str(n)) == plugin_seed(n) == n.to_bytes(32, "big").hex()


@given(st.binary(min_size=32, max_size=32))
def test_64_hex_digits_are_the_bytes_they_spell(raw: bytes) -> None:
    assert seeds.seed_hex(raw.hex().upper()) == raw.hex() == plugin_seed(raw.hex())


@pytest.mark.parametrize("bad", ["", "xyz", "00ff", "ab" * 33, "-1", "1.5", "0x07", "\u0667"])
def test_anything_else_is_refused_naming_what_is_accepted(bad: str) -> None:
    with pytest.raises(DiceSeedError, match=r"^--seed: expected an integer \(0 to 2\*\*256-1\) or 64 hex digits, got "):
        seeds.seed_hex(bad, what="--seed")


@pytest.mark.parametrize("n", [10**64, 2**256 - 1, 2**256])
def test_a_decimal_too_long_to_write_says_so(n: int) -> None:
    # 2**256 - 1 is a seed, but 64 digits read as hex: in text a decimal seed has at most 63
    with pytest.raises(DiceSeedError, match=rf"^--seed: an integer written in decimal has at most 63 digits \(this one "
                                            rf"has {len(str(n))}\): write it as 64 hex digits$"):
        seeds.seed_hex(str(n), what="--seed")
    assert seeds.seed_hex(2**256 - 1) == "f" * 64  # as an int (TOML, the plugin), in range


@pytest.mark.parametrize("args", COMMANDS, ids=[c[0] for c in COMMANDS])
def test_every_command_refuses_a_bad_seed_with_the_same_message(args: tuple[str, ...], tmp_path: Path,
                                                               monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    assert_usage_error(run(*args, "--seed", "xyz"), f"Invalid value for '--seed': {ACCEPTED}'xyz'")
    assert list(tmp_path.iterdir()) == []


def test_every_command_takes_seed_7(tmp_path: Path) -> None:
    """A fight played with ``--seed 7`` is checked, disputed and rolled with ``--seed 7``."""
    scenario = tmp_path / "alley.toml"
    roster = SCENARIO_LOGS.parent / "rosters" / "scenarios" / "alley-duel.toml"
    scenario.write_text((SCENARIO_LOGS / "alley-duel.toml").read_text()
                        .replace('"../rosters/scenarios/alley-duel.toml"', f'"{roster}"').replace("seed = ", "# seed = "))
    log = tmp_path / "alley.jsonl"
    assert run("run", str(scenario), "--seed", "7", "-o", str(log)).exit_code == 0
    started = next(iter(read_log(log)))[1]
    assert isinstance(started, SceneStarted) and started.dice is not None
    assert started.dice.commitment == commitment(SEVEN)
    assert run("verify", str(log), "--seed", "7").exit_code == 0
    assert run("audit", str(log), "--seed", "7").exit_code == 0
    assert run("dispute", str(log), "--at", "41", "--void", "--seed", "7").exit_code == 0
    assert run("roll", "1d100", "--seed", "7").stdout == run("roll", "1d100", "--seed", SEVEN).stdout
    live = tmp_path / "live.jsonl"
    assert run("play", "start", str(live), "--ruleset", "roe7", "--seed", "7").exit_code == 0
    assert (tmp_path / "live.jsonl.seed").read_text().strip() == SEVEN
