"""Evaluation (pass^k, ``eval.json``) and benchmark import (tau-bench, tau2-bench).

```python
from autoforge.bench import evaluate, load_domain, GoldReplayer
report = evaluate(trajectories)          # EvalReport: pass_hat_k {k: value}, n_infra_errors, ...
dom = load_domain("../shared/benchmarks/tau2-bench/retail")   # tasks as autoforge Tasks
```
"""

from autoforge.bench.passk import EvalReport, PassK, evaluate, pass_hat_k, pass_hat_k_task
from autoforge.bench.replay import GoldReplayer, RecordedAssertions
from autoforge.bench.statehash import CachedStateHasher, apply_diff, tau2_hash, tau_hash
from autoforge.bench.tau import BenchDomain, load_domain

__all__ = [
    "BenchDomain",
    "CachedStateHasher",
    "EvalReport",
    "GoldReplayer",
    "PassK",
    "RecordedAssertions",
    "apply_diff",
    "evaluate",
    "load_domain",
    "pass_hat_k",
    "pass_hat_k_task",
    "tau2_hash",
    "tau_hash",
]
