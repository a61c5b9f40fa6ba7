"""The JSON Schema of the log format, generated from the Struct definitions."""

from __future__ import annotations

from typing import Any

import msgspec

from fightlog.events.model import FORMAT_VERSION, AnyEvent


def event_schema() -> dict[str, Any]:
    """JSON Schema (2020-12) for one log line.

    ``seq`` and ``prev`` default to empty in Python (the store assigns them) but every line
    in a log must carry them, so the schema marks them required.
    """
    schema: dict[str, Any] = msgspec.json.schema(AnyEvent)
    for definition in schema.get("$defs", {}).values():
        props = definition.get("properties", {})
        if "kind" in props and "seq" in props:
            required = definition.setdefault("required", [])
            for name in ("seq", "prev"):
                if name not in required:
                    required.append(name)
            props["seq"]["minimum"] = 1
            props["prev"]["pattern"] = "^[0-9a-f]{64}$"
    schema["$schema"] = "https://json-schema.org/draft/2020-12/schema"
    schema["title"] = f"fightlog event (format {FORMAT_VERSION})"
    schema["description"] = (
        "One line of a fightlog log: a JSON object tagged by 'kind'. Lines are UTF-8, "
        "'\\n'-terminated; 'prev' is the hex SHA-256 of the previous line's bytes without "
        "its terminator (64 zeros on line 1)."
    )
    return schema
