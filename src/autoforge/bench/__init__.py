"""Evaluation: pass^k over trajectories, ``eval.json`` and its HTML viewer.

```python
from autoforge.bench import evaluate
report = evaluate(trajectories)          # EvalReport: pass_hat_k {k: value}, n_infra_errors, ...
```
Benchmark formats (tau-bench / tau2-bench import, hashes, gold replay) live in
:mod:`autoforge.adapters.tau`.
"""

from autoforge.bench.passk import EvalReport, PassK, evaluate, pass_hat_k, pass_hat_k_task

__all__ = [
    "EvalOutput",
    "EvalReport",
    "EvalSettings",
    "EvalTarget",
    "PassK",
    "RoleSpec",
    "apply_role_specs",
    "check_resumable",
    "default_concurrency",
    "episode_diff",
    "evaluate",
    "load_env",
    "load_target",
    "make_client",
    "parse_role_spec",
    "pass_hat_k",
    "pass_hat_k_task",
    "render_eval_html",
    "run_evaluation",
    "run_info",
    "run_trials",
    "summarize",
    "write_outputs",
]

# --- the lazy part of the face: each name is also in __all__ and in the TYPE_CHECKING
# imports; tests/architecture/test_faces.py pins __all__ ---
import importlib as _importlib
from typing import TYPE_CHECKING as _TYPE_CHECKING
from typing import Any as _Any

if _TYPE_CHECKING:
    from autoforge.bench.diffs import episode_diff as episode_diff
    from autoforge.bench.evaluation import EvalOutput as EvalOutput
    from autoforge.bench.evaluation import EvalSettings as EvalSettings
    from autoforge.bench.evaluation import check_resumable as check_resumable
    from autoforge.bench.evaluation import default_concurrency as default_concurrency
    from autoforge.bench.evaluation import make_client as make_client
    from autoforge.bench.evaluation import run_info as run_info
    from autoforge.bench.evaluation import run_trials as run_trials
    from autoforge.bench.evaluation import summarize as summarize
    from autoforge.bench.evaluation import write_outputs as write_outputs
    from autoforge.bench.html import render_eval_html as render_eval_html
    from autoforge.bench.roles import RoleSpec as RoleSpec
    from autoforge.bench.roles import apply_role_specs as apply_role_specs
    from autoforge.bench.roles import parse_role_spec as parse_role_spec
    from autoforge.bench.run import run_evaluation as run_evaluation
    from autoforge.bench.targets import EvalTarget as EvalTarget
    from autoforge.bench.targets import load_env as load_env
    from autoforge.bench.targets import load_target as load_target

_LAZY: dict[str, str] = {
    "EvalOutput": "autoforge.bench.evaluation",
    "EvalSettings": "autoforge.bench.evaluation",
    "EvalTarget": "autoforge.bench.targets",
    "RoleSpec": "autoforge.bench.roles",
    "apply_role_specs": "autoforge.bench.roles",
    "check_resumable": "autoforge.bench.evaluation",
    "default_concurrency": "autoforge.bench.evaluation",
    "episode_diff": "autoforge.bench.diffs",
    "load_env": "autoforge.bench.targets",
    "load_target": "autoforge.bench.targets",
    "make_client": "autoforge.bench.evaluation",
    "parse_role_spec": "autoforge.bench.roles",
    "render_eval_html": "autoforge.bench.html",
    "run_evaluation": "autoforge.bench.run",
    "run_info": "autoforge.bench.evaluation",
    "run_trials": "autoforge.bench.evaluation",
    "summarize": "autoforge.bench.evaluation",
    "write_outputs": "autoforge.bench.evaluation",
}


def __getattr__(name: str) -> _Any:
    """A re-exported name, imported from its module on first use."""
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(_importlib.import_module(module), name)


# --- end of the lazy part of the face ---
