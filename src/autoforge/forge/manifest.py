"""``run.json``: the manifest of a forge run directory (stage status, timings, tokens, inputs).

The manifest is what makes a run resumable. Each stage records a *fingerprint* of its inputs
(the options it depends on and the fingerprints of the stages before it); a rerun skips a stage
whose status is ``done`` and whose fingerprint is unchanged, resumes a ``partial`` one, and
redoes a stage (and so everything after it) whose inputs changed. The file is rewritten
atomically after every stage, so an interrupted run leaves a readable manifest behind.
"""

from __future__ import annotations

import hashlib
import json
import os
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, Field, ValidationError

from autoforge.errors import UserError
from autoforge.llm import TokenUsage

RUN_SCHEMA_VERSION = 1
MANIFEST_FILE = "run.json"

#: ``interrupted``: stopped by Ctrl-C or SIGTERM; the next run resumes it like a failed one.
StageStatus = Literal["pending", "running", "partial", "done", "failed", "interrupted"]


def fingerprint(value: Any) -> str:
    """A short stable hash of a JSON-able value (key order does not matter)."""
    text = json.dumps(value, sort_keys=True, default=str, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def now_iso() -> str:
    """The current UTC time, ISO 8601 to the second."""
    return datetime.now(UTC).replace(microsecond=0).isoformat()


class StageRecord(BaseModel):
    """One stage of the run: status, input fingerprint, time and tokens over all sessions."""

    name: str
    status: StageStatus = "pending"
    fingerprint: str = ""
    sessions: int = Field(default=0, description="how many runs worked on this stage")
    seconds: float = Field(default=0.0, description="wall time summed over the sessions")
    tokens: TokenUsage = Field(default_factory=TokenUsage)
    started_at: str | None = None
    finished_at: str | None = None
    artifacts: list[str] = Field(default_factory=list, description="paths relative to RUN_DIR")
    detail: dict[str, Any] = Field(default_factory=dict, description="stage figures")
    error: str | None = None
    skipped_last: bool = Field(default=False, description="the last run found it done")


class RunManifest(BaseModel):
    """What ``RUN_DIR/run.json`` holds."""

    schema_version: int = RUN_SCHEMA_VERSION
    created_at: str = Field(default_factory=now_iso)
    updated_at: str = Field(default_factory=now_iso)
    sessions: int = 0
    options: dict[str, Any] = Field(default_factory=dict, description="the last run's options")
    model: str = ""
    stages: dict[str, StageRecord] = Field(default_factory=dict)

    def stage(self, name: str) -> StageRecord:
        """The record of stage ``name`` (created as pending when new)."""
        return self.stages.setdefault(name, StageRecord(name=name))

    @property
    def seconds(self) -> float:
        """Wall time of all stages, summed."""
        return round(sum(s.seconds for s in self.stages.values()), 2)

    @property
    def tokens(self) -> TokenUsage:
        """Tokens of all stages, summed."""
        total = TokenUsage()
        for stage in self.stages.values():
            total = total + stage.tokens
        return total


def load_manifest(run_dir: Path) -> RunManifest:
    """The manifest of ``run_dir`` (a fresh one when there is none)."""
    path = run_dir / MANIFEST_FILE
    if not path.is_file():
        return RunManifest()
    try:
        return RunManifest.model_validate_json(path.read_text(encoding="utf-8"))
    except (ValidationError, ValueError) as exc:
        raise UserError(
            f"{path}: not a readable forge manifest ({str(exc).splitlines()[0]}); "
            "use another --out directory or delete the file"
        ) from None


def save_manifest(run_dir: Path, manifest: RunManifest) -> Path:
    """Write ``run.json`` atomically (temp file + rename) and return its path."""
    manifest.updated_at = now_iso()
    return write_atomic(run_dir / MANIFEST_FILE, manifest.model_dump_json(indent=2) + "\n")


def write_atomic(path: Path, text: str) -> Path:
    """Write ``text`` to ``path`` so readers never see a half-written file (temp + rename)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        tmp.write_text(text, encoding="utf-8")
        os.replace(tmp, path)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise
    return path


def read_json(path: Path) -> Any:
    """The JSON at ``path``, or None when it is missing or unreadable (a stage not run yet)."""
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
