"""On a real Dask cluster: a ``dask scheduler`` and two ``dask worker`` processes started on
127.0.0.1 (free ports, stopped at the end). ``batch audit`` and ``sim`` with ``--scheduler``
give the same findings and the same win rates, bit for bit, as the same work in this
process; the embedded local cluster (the default) gives them too. Plus the one-line errors:
a scheduler that does not answer, the extra not installed."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pyarrow.parquet as pq
import pytest
from click.testing import CliRunner

from fightlog.cli.main import cli
from fightlog.scale.batch import find_logs
from fightlog.scale.cluster import OnDask
from fightlog.scale.jobs import Serial, batch_audit, simulate
from fightlog.scale.runs import chunks, play_chunk
from fightlog.scale.tally import Tally
from fightlog.scale.seeds import master_seed
from fightlog.scale.setup import load_setup
from fightlog.scale.tally import report
from tests.conftest import FIXTURES, REPO

SCENARIO = FIXTURES / "d20-evasion" / "scenarios" / "yard-brawl.toml"
ARCHIVE = FIXTURES / "roe7"
DASK = str(Path(sys.executable).with_name("dask"))


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextmanager
def cluster(workers: int = 2) -> Iterator[tuple[str, subprocess.Popen[bytes]]]:
    """``tcp://127.0.0.1:PORT`` of a scheduler with single-threaded worker processes, and
    the scheduler's process; all stopped after."""
    port = free_port()
    address = f"tcp://127.0.0.1:{port}"
    # The workers import this module's dying task, and fightlog from where this process does.
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(p for p in (str(REPO), os.environ.get("PYTHONPATH")) if p)}
    quiet = {"stdout": subprocess.DEVNULL, "stderr": subprocess.DEVNULL, "start_new_session": True, "env": env}
    procs = [subprocess.Popen([DASK, "scheduler", "--host", "127.0.0.1", "--port", str(port),
                               "--no-dashboard"], **quiet)]  # type: ignore[call-overload]
    try:
        from distributed import Client

        client = Client(address, timeout=20)
        # as docs/scale.md starts them: without the profiler, whose history grows with the run
        env_workers = {**quiet, "env": {**env, "DASK_DISTRIBUTED__WORKER__PROFILE__ENABLED": "False"}}
        procs += [subprocess.Popen([DASK, "worker", address, "--nthreads", "1", "--nworkers", "1",
                                    "--host", "127.0.0.1", "--no-dashboard"], **env_workers)  # type: ignore[call-overload]
                  for _ in range(workers)]
        client.wait_for_workers(workers, timeout=30)
        client.close()
        yield address, procs[0]
    finally:
        for proc in reversed(procs):
            if proc.poll() is None:
                os.killpg(proc.pid, signal.SIGTERM)
        for proc in procs:
            try:
                proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                os.killpg(proc.pid, signal.SIGKILL)
                proc.wait()


@pytest.fixture(scope="module")
def scheduler() -> Iterator[str]:
    """A cluster of two workers for the module's tests."""
    with cluster(2) as (address, _):
        yield address


def sim_json(*args: str) -> dict[str, object]:
    result = CliRunner().invoke(cli, ["sim", str(SCENARIO), "--fights", "60", "--seed", "7",
                                      "--audit-every", "20", "--format", "json", *args])
    assert result.exit_code == 0, result.output
    doc: dict[str, object] = json.loads(result.stdout)
    return doc


def test_batch_and_sim_on_the_cluster_equal_the_work_in_this_process(scheduler: str, tmp_path: Path) -> None:
    logs = find_logs([str(ARCHIVE)])
    here = batch_audit(Serial(), logs, str(tmp_path / "here"))
    result = CliRunner().invoke(cli, ["batch", "audit", str(ARCHIVE), "-o", str(tmp_path / "there"),
                                      "--scheduler", scheduler, "--format", "json"])
    assert result.exit_code == 1, result.output  # the flawed fights have findings
    there = json.loads(result.stdout)
    assert {k: v for k, v in there.items() if k != "output"} == here
    for name in ("logs.parquet", "findings.parquet"):
        ours, theirs = (pq.read_table(tmp_path / d / name).sort_by([("log", "ascending")]) for d in ("here", "there"))
        if name == "findings.parquet":
            ours, theirs = (t.sort_by([("log", "ascending"), ("seq", "ascending"), ("code", "ascending"),
                                       ("message", "ascending")]) for t in (ours, theirs))
        assert ours.equals(theirs), name

    setup = load_setup(str(SCENARIO))
    expected = report(simulate(Serial(), setup, master_seed(7), 60, audit_every=20), setup.sides)
    assert sim_json("--scheduler", scheduler)["a"] == expected


def test_the_embedded_local_cluster_gives_the_same_win_rates(scheduler: str) -> None:
    assert sim_json("--workers", "2") == sim_json("--scheduler", scheduler)


def test_compare_runs_the_same_seeds_under_two_house_rules(scheduler: str, tmp_path: Path) -> None:
    base = tmp_path / "base.toml"
    base.write_text("", encoding="utf-8")
    harsh = tmp_path / "harsh.toml"
    harsh.write_text("natural_20_hits = true\nbase_damage_per_step = 20\n", encoding="utf-8")
    doc = sim_json("--options", str(base), "--compare", str(harsh), "--scheduler", scheduler,
                   "--chart", str(tmp_path / "runs.svg"))
    assert doc["a"] == sim_json("--scheduler", scheduler)["a"]
    rows = doc["differences"]
    assert isinstance(rows, list) and {r["what"] for r in rows} >= {"win rate (draw)", "mean rounds"}
    assert all(r["low"] <= r["difference"] <= r["high"] for r in rows)
    assert (tmp_path / "runs.svg").read_text(encoding="utf-8").startswith("<svg")


def test_the_run_as_a_page_holds_its_chart_and_summary(scheduler: str, tmp_path: Path) -> None:
    page = tmp_path / "run.html"
    doc = sim_json("--scheduler", scheduler, "--chart", str(page))
    html = page.read_text(encoding="utf-8")
    assert html.startswith("<!DOCTYPE html>") and "<svg" in html and "Content-Security-Policy" in html
    wins = doc["a"]["wins"]  # type: ignore[index]
    for side, row in wins.items():
        assert f"{row['rate']:.3f} [{row['low']:.3f}, {row['high']:.3f}]" in html  # the chart's and the summary's


def dies_once(marker: str, *args: object) -> Tally:
    """``play_chunk``, but the first task to run kills its worker process outright."""
    try:
        fd = os.open(marker, os.O_CREAT | os.O_EXCL | os.O_WRONLY)
    except FileExistsError:
        return play_chunk(*args)  # type: ignore[arg-type]
    os.close(fd)
    os._exit(1)


def test_a_worker_that_dies_mid_run_changes_nothing(scheduler: str, tmp_path: Path) -> None:
    """Its task runs again on another worker (the nanny restarts the dead one): the tally is
    the one this process computes."""
    from distributed import Client

    setup = load_setup(str(SCENARIO))
    parts = [(str(tmp_path / "died"), setup, master_seed(7), a, b, 20) for a, b in chunks(60, 2)]
    with Client(scheduler, timeout=20) as dask:
        total = Tally()
        for tally in OnDask(dask).map(dies_once, parts):
            total = total.merge(tally)
        dask.wait_for_workers(2, timeout=30)
    assert (tmp_path / "died").exists()
    expected = simulate(Serial(), setup, master_seed(7), 60, audit_every=20)
    assert report(total, setup.sides) == report(expected, setup.sides)


def profiling(dask_worker: object) -> tuple[bool, bool]:
    """Whether the worker runs Dask's statistical profiler, and whether it has kept any of it."""
    callbacks = getattr(dask_worker, "periodic_callbacks")
    return "profile" in callbacks, bool(getattr(dask_worker, "profile_history"))


def test_the_embedded_cluster_s_workers_keep_no_profile_history(scheduler: str) -> None:
    """Its history grows with the run's length (``WORKER_CONFIG``): a long sim would not be
    flat in memory. The workers of a cluster started as docs/scale.md shows run without it too."""
    from distributed import Client

    from fightlog.scale.cluster import local_cluster

    with local_cluster(1) as cluster, Client(cluster) as dask:
        dask.submit(time.sleep, 1.2, pure=False).result()
        assert list(dask.run(profiling).values()) == [(False, False)]
    with Client(scheduler, timeout=20) as dask:
        assert list(dask.run(profiling).values()) == [(False, False)] * 2


class Counted:
    """A shared argument that counts how often this process pickles it."""

    sent = 0

    def __reduce__(self) -> tuple[type[Counted], tuple[()]]:
        Counted.sent += 1
        return Counted, ()


def shared_and_own(shared: Counted, n: int) -> tuple[str, int]:
    return type(shared).__name__, n


def test_a_shared_argument_goes_to_the_cluster_once_not_with_every_task(scheduler: str) -> None:
    """A run's setup is sent once (a scheduler keeps each worker's last 1,000 task messages:
    with the setup in each, its memory grew with the run)."""
    from distributed import Client

    Counted.sent = 0
    with Client(scheduler, timeout=20) as dask:
        results = list(OnDask(dask).map(shared_and_own, [(n,) for n in range(40)], shared=(Counted(),)))
    assert sorted(results) == [("Counted", n) for n in range(40)]
    assert Counted.sent == 1
    assert sorted(Serial().map(shared_and_own, [(n,) for n in range(3)], shared=(Counted(),))) == \
        [("Counted", n) for n in range(3)]


def test_a_scheduler_lost_mid_run_is_one_line_not_an_internal_error() -> None:
    """docs/scale.md: a scheduler that does not answer is bad input. One that went away during
    a run was ``internal error: FutureCancelledError`` (exit 3) after Dask's own traceback
    (a tester)."""
    from distributed import Client

    with cluster(1) as (address, scheduler_process):
        run = subprocess.Popen([sys.executable, "-m", "fightlog", "sim", str(SCENARIO), "--fights", "200000",
                                "--seed", "7", "--scheduler", address], stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True)
        try:
            with Client(address, timeout=20) as watch:
                deadline = time.monotonic() + 60
                while not any(watch.processing().values()) and time.monotonic() < deadline:
                    time.sleep(0.2)
            os.killpg(scheduler_process.pid, signal.SIGKILL)
            _, stderr = run.communicate(timeout=120)
        finally:
            if run.poll() is None:
                run.kill()
    assert run.returncode == 2, stderr
    assert stderr.count("\n") == 1 and stderr.startswith(f"fightlog: {address}: the scheduler stopped answering"), stderr
