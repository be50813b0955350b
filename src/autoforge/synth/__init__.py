"""Environment synthesis: tool docs (and optionally data) in, a checked environment out.

```python
from autoforge.synth import SynthOptions, synthesize, run_fidelity
report = await synthesize(docs, Path("envs/retail"), client, data=db, options=SynthOptions())
fid = run_fidelity(Path("envs/retail"), bench)   # bench: a recording, e.g. adapters.tau.load_bench
```

Rooms, in pipeline order: ``state`` designs the state schema (rules and the model from the docs,
or inferred from data); ``behaviour`` derives each tool's behaviour model and compiles it;
``rulecode`` writes the tool code rules can write (classification, templates, effects, guards);
``modelcode`` has the model write the rest; ``checking`` checks each candidate and says why a
tool was left out; ``fidelity`` compares the result with a benchmark or a reference API.
``pipeline`` runs them resumably into the environment directory.
"""

from autoforge.synth.fidelity.bench import FidelityReport, run_fidelity
from autoforge.synth.options import SynthOptions
from autoforge.synth.pipeline import synthesize
from autoforge.synth.report import SynthesisReport, ToolReport
from autoforge.synth.rulecode.classify import Classification, classify_tool
from autoforge.synth.state.design import design_state, rule_based_schema
from autoforge.synth.state.infer import data_to_state, infer_schema

__all__ = [
    "NO_OUTPUT",
    "Bench",
    "BenchAction",
    "BenchTask",
    "CheckItem",
    "CheckReport",
    "Classification",
    "FidelityReport",
    "SynthOptions",
    "SynthesisReport",
    "ToolReport",
    "check_directory",
    "check_env_dir",
    "check_environment",
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
    from autoforge.synth.check.checker import CheckItem as CheckItem
    from autoforge.synth.check.checker import CheckReport as CheckReport
    from autoforge.synth.check.checker import check_directory as check_directory
    from autoforge.synth.check.checker import check_environment as check_environment
    from autoforge.synth.checking.leftout import reason_kind as reason_kind
    from autoforge.synth.fidelity.bench import NO_OUTPUT as NO_OUTPUT
    from autoforge.synth.fidelity.bench import Bench as Bench
    from autoforge.synth.fidelity.bench import BenchAction as BenchAction
    from autoforge.synth.fidelity.bench import BenchTask as BenchTask
    from autoforge.synth.fidelity.envdir_checks import check_env_dir as check_env_dir
    from autoforge.synth.fidelity.probing import run_probes as run_probes
    from autoforge.synth.fidelity.refapi import is_refapi_dir as is_refapi_dir
    from autoforge.synth.fidelity.refapi import score_refapi as score_refapi
    from autoforge.synth.pipeline import conformance as conformance
    from autoforge.synth.pipeline import report_table as report_table

_LAZY: dict[str, str] = {
    "CheckItem": "autoforge.synth.check.checker",
    "CheckReport": "autoforge.synth.check.checker",
    "check_directory": "autoforge.synth.check.checker",
    "check_environment": "autoforge.synth.check.checker",
    "Bench": "autoforge.synth.fidelity.bench",
    "BenchAction": "autoforge.synth.fidelity.bench",
    "BenchTask": "autoforge.synth.fidelity.bench",
    "NO_OUTPUT": "autoforge.synth.fidelity.bench",
    "check_env_dir": "autoforge.synth.fidelity.envdir_checks",
    "conformance": "autoforge.synth.pipeline",
    "is_refapi_dir": "autoforge.synth.fidelity.refapi",
    "reason_kind": "autoforge.synth.checking.leftout",
    "report_table": "autoforge.synth.pipeline",
    "run_probes": "autoforge.synth.fidelity.probing",
    "score_refapi": "autoforge.synth.fidelity.refapi",
}


def __getattr__(name: str) -> _Any:
    """A re-exported name, imported from its module on first use."""
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(_importlib.import_module(module), name)


# --- end of the lazy part of the face ---
