"""The batch audit's output directory: ``logs.parquet`` (a row per log), ``findings.parquet``
(a row per finding) and ``manifest.json`` (each log's size and last-line hash when it was
audited, so a run on a grown archive audits only what changed and carries the other rows
over). Rows are streamed to the files as chunks arrive; everything is written in a hidden
directory beside the output and moved into place at the end, the manifest last, so an
interrupted run leaves the previous output as it was."""

from __future__ import annotations

import json
import os
import shutil
import tempfile
from collections import Counter
from collections.abc import Iterable, Mapping
from typing import Any

import msgspec
import pyarrow as pa  # type: ignore[import-untyped]  # pyarrow ships no type information
import pyarrow.parquet as pq  # type: ignore[import-untyped]

from fightlog.errors import InputError
from fightlog.scale.batch import FindingRow, LogRow

LOGS, FINDINGS, MANIFEST = "logs.parquet", "findings.parquet", "manifest.json"
MANIFEST_VERSION = 1

LOG_SCHEMA = pa.schema([
    ("log", pa.string()), ("head", pa.string()), ("events", pa.int64()), ("ruleset", pa.string()),
    ("format", pa.int64()), ("verdict", pa.string()), ("chain", pa.string()), ("dice", pa.string()),
    ("errors", pa.int64()), ("warnings", pa.int64()), ("info", pa.int64()), ("error", pa.string()),
])
FINDING_SCHEMA = pa.schema([
    ("log", pa.string()), ("head", pa.string()), ("ruleset", pa.string()), ("seq", pa.int64()),
    ("code", pa.string()), ("severity", pa.string()), ("actor", pa.string()), ("section", pa.string()),
    ("message", pa.string()), ("accepted", pa.bool_()),
])


def read_manifest(out: str) -> dict[str, str]:
    """Log path -> its key (``batch.head_of``) at the last run; empty when there is none or
    the output is incomplete (then every log is audited again)."""
    path = os.path.join(out, MANIFEST)
    if not all(os.path.isfile(os.path.join(out, n)) for n in (LOGS, FINDINGS, MANIFEST)):
        return {}
    try:
        with open(path, "rb") as handle:
            data = json.load(handle)
    except (OSError, ValueError):
        return {}
    logs = data.get("logs") if isinstance(data, dict) and data.get("version") == MANIFEST_VERSION else None
    return {str(k): str(v) for k, v in logs.items()} if isinstance(logs, dict) else {}


class Summary:
    """Counts kept while rows stream by: findings by severity (those a GM ruling accepted
    apart), findings no ruling accepted by code, unaccepted errors by actor, logs by verdict,
    and the logs that could not be audited with their reasons."""

    def __init__(self) -> None:
        self.severities: Counter[str] = Counter({"error": 0, "warning": 0, "info": 0, "accepted": 0})
        self.codes: Counter[str] = Counter()
        self.actors: Counter[str] = Counter()
        self.verdicts: Counter[str] = Counter()
        self.unread: dict[str, str] = {}
        self.audited = 0
        self.reused = 0

    def add(self, logs: Iterable[Mapping[str, Any]], findings: Iterable[Mapping[str, Any]]) -> None:
        for row in logs:
            self.verdicts[row["verdict"]] += 1
            if row["error"]:
                self.unread[row["log"]] = row["error"]
        for row in findings:
            if row["accepted"]:
                self.severities["accepted"] += 1
                continue
            self.severities[row["severity"]] += 1
            self.codes[row["code"]] += 1
            if row["severity"] == "error" and row["actor"]:
                self.actors[row["actor"]] += 1

    def as_data(self, top: int = 10) -> dict[str, Any]:
        """Plain data, sorted: what ``fightlog batch audit`` prints."""
        def ranked(counter: Counter[str]) -> list[dict[str, Any]]:
            return [{"name": k, "count": v} for k, v in sorted(counter.items(), key=lambda kv: (-kv[1], kv[0]))[:top]]

        def rest(counter: Counter[str]) -> dict[str, int]:
            """What the top ``top`` leave out: how many names, and their count."""
            left = sorted(counter.values(), reverse=True)[top:]
            return {"names": len(left), "count": sum(left)}

        return {
            "logs": sum(self.verdicts.values()),
            "audited": self.audited,
            "unchanged": self.reused,
            "verdicts": dict(sorted(self.verdicts.items())),
            "findings": {k: self.severities[k] for k in ("error", "warning", "info", "accepted")},
            "top_codes": ranked(self.codes),
            "more_codes": rest(self.codes),
            "top_error_actors": ranked(self.actors),
            "more_error_actors": rest(self.actors),
            "unreadable": [{"log": k, "reason": v} for k, v in sorted(self.unread.items())],
        }


class Writer:
    """The output being written (see the module docstring): ``add`` rows as chunks arrive,
    ``carry`` the rows of unchanged logs from the previous output, then ``commit``."""

    def __init__(self, out: str) -> None:
        self.out = out
        if os.path.exists(out) and not os.path.isdir(out):
            raise InputError("not a directory: -o names the directory the tables are written to", path=out)
        try:
            os.makedirs(out, exist_ok=True)
            self.work = tempfile.mkdtemp(prefix=".batch-", dir=out)
        except OSError as exc:
            raise InputError(f"cannot write here: {exc.strerror or exc}", path=out) from None
        self.logs = pq.ParquetWriter(os.path.join(self.work, LOGS), LOG_SCHEMA)
        self.findings = pq.ParquetWriter(os.path.join(self.work, FINDINGS), FINDING_SCHEMA)
        self.keys: dict[str, str] = {}
        self.summary = Summary()

    def add(self, logs: list[LogRow], findings: list[FindingRow], keys: Mapping[str, str]) -> None:
        log_rows = msgspec.to_builtins(logs)
        finding_rows = msgspec.to_builtins(findings)
        self._write(log_rows, finding_rows)
        self.summary.audited += len(log_rows)
        for row in log_rows:
            self.keys[row["log"]] = keys.get(row["log"], "")

    def carry(self, unchanged: Mapping[str, str]) -> None:
        """The previous output's rows of the logs in ``unchanged`` (path -> key)."""
        if not unchanged:
            return
        wanted = set(unchanged)
        for name, writer_rows in ((LOGS, "logs"), (FINDINGS, "findings")):
            source = pq.ParquetFile(os.path.join(self.out, name))
            for batch in source.iter_batches(batch_size=65536):
                rows = [r for r in batch.to_pylist() if r["log"] in wanted]
                if writer_rows == "logs":
                    self._write(rows, [])
                else:
                    self._write([], rows)
        self.summary.reused += len(wanted)
        self.keys.update(unchanged)

    def _write(self, logs: list[dict[str, Any]], findings: list[dict[str, Any]]) -> None:
        if logs:
            self.logs.write_table(pa.Table.from_pylist(logs, schema=LOG_SCHEMA))
        if findings:
            self.findings.write_table(pa.Table.from_pylist(findings, schema=FINDING_SCHEMA))
        self.summary.add(logs, findings)

    def commit(self) -> None:
        """Close the files and move them into place, the manifest last."""
        self.logs.close()
        self.findings.close()
        manifest = {"version": MANIFEST_VERSION, "logs": dict(sorted(self.keys.items()))}
        with open(os.path.join(self.work, MANIFEST), "w", encoding="utf-8") as handle:
            json.dump(manifest, handle, indent=0, sort_keys=True)
        try:
            os.remove(os.path.join(self.out, MANIFEST))
        except FileNotFoundError:
            pass
        for name in (LOGS, FINDINGS, MANIFEST):
            os.replace(os.path.join(self.work, name), os.path.join(self.out, name))
        shutil.rmtree(self.work, ignore_errors=True)

    def abandon(self) -> None:
        """Drop what was written (the previous output stays as it was)."""
        for writer in (self.logs, self.findings):
            try:
                writer.close()
            except Exception:  # noqa: BLE001 - already failing; the files are removed below
                pass
        shutil.rmtree(self.work, ignore_errors=True)
