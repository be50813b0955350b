"""Environment synthesis: tool docs (and optionally data) in, a checked environment out.

```python
from autoforge.synth import SynthOptions, synthesize, run_fidelity
report = await synthesize(docs, Path("envs/retail"), client, data=db, options=SynthOptions())
fid = run_fidelity(Path("envs/retail"), bench)   # bench: a recording, e.g. adapters.tau.load_bench
```

Stages: ``state_design`` (LLM, docs mode) or ``infer`` (data mode) for the state schema;
``classify`` + ``templates`` for deterministic scaffolding; ``functions`` + ``checks`` for the
per-tool LLM loop with check and repair; ``pipeline`` for resumable orchestration and the
environment directory; ``fidelity`` for replaying a benchmark's ground truth.
"""

from autoforge.synth.classify import Classification, classify_tool
from autoforge.synth.fidelity import FidelityReport, run_fidelity
from autoforge.synth.infer import data_to_state, infer_schema
from autoforge.synth.options import SynthOptions
from autoforge.synth.pipeline import synthesize
from autoforge.synth.report import SynthesisReport, ToolReport
from autoforge.synth.state_design import design_state, rule_based_schema

__all__ = [
    "NO_OUTPUT",
    "Bench",
    "BenchAction",
    "BenchTask",
    "Classification",
    "FidelityReport",
    "SynthOptions",
    "SynthesisReport",
    "ToolReport",
    "check_env_dir",
    "classify_tool",
    "conformance",
    "data_to_state",
    "design_state",
    "infer_schema",
    "is_refapi_dir",
    "reason_kind",
    "report_table",
    "rule_based_schema",
    "run_fidelity",
    "run_probes",
    "score_refapi",
    "synthesize",
]

# --- the lazy part of the face: each name is also in __all__ and in the TYPE_CHECKING
# imports; tests/architecture/test_faces.py pins __all__ ---
import importlib as _importlib
from typing import TYPE_CHECKING as _TYPE_CHECKING
from typing import Any as _Any

if _TYPE_CHECKING:
    from autoforge.synth.envdir_checks import check_env_dir as check_env_dir
    from autoforge.synth.fidelity import NO_OUTPUT as NO_OUTPUT
    from autoforge.synth.fidelity import Bench as Bench
    from autoforge.synth.fidelity import BenchAction as BenchAction
    from autoforge.synth.fidelity import BenchTask as BenchTask
    from autoforge.synth.leftout import reason_kind as reason_kind
    from autoforge.synth.pipeline import conformance as conformance
    from autoforge.synth.pipeline import report_table as report_table
    from autoforge.synth.probing import run_probes as run_probes
    from autoforge.synth.refapi import is_refapi_dir as is_refapi_dir
    from autoforge.synth.refapi import score_refapi as score_refapi

_LAZY: dict[str, str] = {
    "Bench": "autoforge.synth.fidelity",
    "BenchAction": "autoforge.synth.fidelity",
    "BenchTask": "autoforge.synth.fidelity",
    "NO_OUTPUT": "autoforge.synth.fidelity",
    "check_env_dir": "autoforge.synth.envdir_checks",
    "conformance": "autoforge.synth.pipeline",
    "is_refapi_dir": "autoforge.synth.refapi",
    "reason_kind": "autoforge.synth.leftout",
    "report_table": "autoforge.synth.pipeline",
    "run_probes": "autoforge.synth.probing",
    "score_refapi": "autoforge.synth.refapi",
}


def __getattr__(name: str) -> _Any:
    """A re-exported name, imported from its module on first use."""
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(_importlib.import_module(module), name)


# --- end of the lazy part of the face ---
