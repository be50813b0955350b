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
    "EvalReport",
    "PassK",
    "evaluate",
    "pass_hat_k",
    "pass_hat_k_task",
]
