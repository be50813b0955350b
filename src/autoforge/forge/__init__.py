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

from autoforge.forge.context import ForgeContext, ForgeError, ForgeReporter, NullReporter
from autoforge.forge.layout import STAGES, ForgeOptions, RunLayout
from autoforge.forge.manifest import RunManifest, StageRecord, load_manifest
from autoforge.forge.report import load_run, render_forge_report, write_forge_report
from autoforge.forge.runner import run_forge
from autoforge.forge.verify import TaskVerdict, VerifyReport, verify_task, verify_tasks

__all__ = [
    "STAGES",
    "ForgeContext",
    "ForgeError",
    "ForgeOptions",
    "ForgeReporter",
    "NullReporter",
    "RunLayout",
    "RunManifest",
    "StageRecord",
    "TaskVerdict",
    "VerifyReport",
    "load_manifest",
    "load_run",
    "render_forge_report",
    "run_forge",
    "verify_task",
    "verify_tasks",
    "write_forge_report",
]
