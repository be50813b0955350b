"""``autoforge forge``: the whole pipeline in one resumable run directory.

ingest -> environment (synthesis or a given env, conformance check) -> tool graph -> tasks
(walks, blueprints, instantiation, gates) -> verify (replay gold calls to S*) -> exports ->
``report.html`` (:mod:`.report`). Each stage writes its artifact under RUN_DIR and its status,
fingerprint, time and tokens into ``run.json``; a rerun skips what is done and resumes what is
not.

```python
from autoforge.forge import ForgeOptions, run_forge
manifest = asyncio.run(run_forge(ForgeOptions(out=Path("runs/bs"), example="bookstore"),
                                 client_factory=lambda: LLMClient(config)))
```
"""

from __future__ import annotations

from autoforge.forge.context import (
    ForgeContext,
    ForgeError,
    ForgeReporter,
    NullReporter,
    resolve_inputs,
)
from autoforge.forge.layout import STAGES, ForgeOptions, RunLayout, StateSource
from autoforge.forge.manifest import RunManifest, StageRecord, load_manifest
from autoforge.forge.report import load_run, render_forge_report, run_shortfall, write_forge_report
from autoforge.forge.runner import run_forge
from autoforge.forge.verify import TaskVerdict, VerifyReport, verify_task, verify_tasks

__all__ = [
    "STAGES",
    "BatchReport",
    "ForgeContext",
    "ForgeError",
    "ForgeOptions",
    "ForgeReporter",
    "ItemResult",
    "NullReporter",
    "RunLayout",
    "RunManifest",
    "StageRecord",
    "StateSource",
    "TaskVerdict",
    "VerifyReport",
    "discover",
    "failed_stage",
    "failed_tools",
    "forge_many",
    "is_doc_set_dir",
    "load_manifest",
    "load_run",
    "render_forge_report",
    "resolve_inputs",
    "run_failure",
    "run_forge",
    "run_shortfall",
    "task_shortfall",
    "tool_outcomes",
    "verify_task",
    "verify_tasks",
    "write_forge_report",
]

# --- the lazy part of the face: each name is also in __all__ and in the TYPE_CHECKING
# imports; tests/architecture/test_faces.py pins __all__ ---
import importlib as _importlib
from typing import TYPE_CHECKING as _TYPE_CHECKING
from typing import Any as _Any

if _TYPE_CHECKING:
    from autoforge.forge.batch import BatchReport as BatchReport
    from autoforge.forge.batch import ItemResult as ItemResult
    from autoforge.forge.batch import discover as discover
    from autoforge.forge.batch import forge_many as forge_many
    from autoforge.forge.batch import is_doc_set_dir as is_doc_set_dir
    from autoforge.forge.batch import tool_outcomes as tool_outcomes
    from autoforge.forge.summary import failed_stage as failed_stage
    from autoforge.forge.summary import failed_tools as failed_tools
    from autoforge.forge.summary import run_failure as run_failure
    from autoforge.forge.summary import task_shortfall as task_shortfall

_LAZY: dict[str, str] = {
    "BatchReport": "autoforge.forge.batch",
    "ItemResult": "autoforge.forge.batch",
    "discover": "autoforge.forge.batch",
    "failed_tools": "autoforge.forge.summary",
    "forge_many": "autoforge.forge.batch",
    "is_doc_set_dir": "autoforge.forge.batch",
    "failed_stage": "autoforge.forge.summary",
    "run_failure": "autoforge.forge.summary",
    "task_shortfall": "autoforge.forge.summary",
    "tool_outcomes": "autoforge.forge.batch",
}


def __getattr__(name: str) -> _Any:
    """A re-exported name, imported from its module on first use."""
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(_importlib.import_module(module), name)


# --- end of the lazy part of the face ---
