"""One simulated run for ``bench_scale.py``'s memory figures, in a fresh process:

    python bench/sim_memory.py SCENARIO FIGHTS [--workers 2] [--audit-every 1000]

The calls ``fightlog sim`` makes (``scale.cluster.client`` on the embedded cluster, then
``scale.jobs.simulate``), then one JSON line: this process's own peak resident set (the
client, with the embedded scheduler in it) and each worker's, read as ``VmHWM`` by each
process of itself (never a launcher's, which counts the largest descendant too), in KiB,
and the run's wall time in seconds."""

from __future__ import annotations

import argparse
import json
import time


def vm_hwm() -> int:
    """This process's peak resident set (KiB) since its ``exec``: ``VmHWM``, not ``ru_maxrss``,
    which a worker inherits from the process that forked it (Linux keeps it across ``exec``)."""
    with open("/proc/self/status") as status:
        for line in status:
            if line.startswith("VmHWM:"):
                return int(line.split()[1])
    raise RuntimeError("no VmHWM in /proc/self/status")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("scenario")
    parser.add_argument("fights", type=int)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--audit-every", type=int, default=1000)
    args = parser.parse_args()

    from fightlog.scale.cluster import client
    from fightlog.scale.jobs import simulate
    from fightlog.scale.seeds import master_seed
    from fightlog.scale.setup import load_setup

    setup = load_setup(args.scenario)
    start = time.monotonic()
    with client(None, args.workers) as runner:
        simulate(runner, setup, master_seed(7), args.fights, audit_every=args.audit_every)
        seconds = time.monotonic() - start
        workers = sorted(runner.dask.run(vm_hwm).values())
    print(json.dumps({"client_kib": vm_hwm(), "worker_kib": workers, "seconds": round(seconds, 1)}))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
