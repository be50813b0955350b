"""On-disk response cache: a rerun of the same pipeline costs no LLM calls.

Keyed by the sha256 of the canonical request (base_url, model, messages, tools, response format
and sampling parameters; never the API key). sqlite in WAL mode, so several processes may share
one file; within a process all access happens on the event loop thread.
"""

from __future__ import annotations

import hashlib
import json
import sqlite3
import time
from pathlib import Path
from typing import Any

from autoforge.llm.parsing import canonical_json

_SCHEMA = """
CREATE TABLE IF NOT EXISTS responses (
    key TEXT PRIMARY KEY,
    response TEXT NOT NULL,
    model TEXT NOT NULL,
    created REAL NOT NULL
)
"""


def request_key(base_url: str, body: dict[str, Any]) -> str:
    """The cache key of a request: sha256 over the endpoint and the full request body."""
    payload = canonical_json({"base_url": base_url, "body": body})
    return hashlib.sha256(payload.encode("utf-8")).hexdigest()


class ResponseCache:
    """A sqlite key -> raw response store."""

    def __init__(self, path: Path) -> None:
        self.path = Path(path).expanduser()
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._conn = sqlite3.connect(self.path, timeout=30.0, check_same_thread=False)
        self._conn.execute("PRAGMA journal_mode=WAL")
        self._conn.execute("PRAGMA synchronous=NORMAL")
        self._conn.execute(_SCHEMA)
        self._conn.commit()

    def get(self, key: str) -> dict[str, Any] | None:
        row = self._conn.execute("SELECT response FROM responses WHERE key = ?", (key,)).fetchone()
        if row is None:
            return None
        value = json.loads(row[0])
        return value if isinstance(value, dict) else None

    def put(self, key: str, response: dict[str, Any], model: str = "") -> None:
        self._conn.execute(
            "INSERT OR REPLACE INTO responses (key, response, model, created) VALUES (?, ?, ?, ?)",
            (key, json.dumps(response, ensure_ascii=False), model, time.time()),
        )
        self._conn.commit()

    def count(self) -> int:
        """How many responses are stored."""
        return int(self._conn.execute("SELECT COUNT(*) FROM responses").fetchone()[0])

    def clear(self) -> None:
        self._conn.execute("DELETE FROM responses")
        self._conn.commit()

    def close(self) -> None:
        self._conn.close()
