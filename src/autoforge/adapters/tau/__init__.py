"""tau-bench and tau2-bench: everything autoforge knows about their formats, in one place.

- :mod:`.importer`: a domain directory (``tools.json`` + ``policy.md`` + ``tools_meta.json``)
  as ``ToolDocs`` (tooldocs format ``bench``);
- :mod:`.domain`: a domain's tasks as rollout tasks, its data and ``gt_replay.json`` records
  (:func:`load_domain`);
- :mod:`.statehash`: the benchmarks' own state hashes (:func:`tau_hash`, :func:`tau2_hash`,
  :class:`CachedStateHasher`) and copy-on-write :func:`apply_diff`;
- :mod:`.replay`: gold and do-nothing trajectories from the recorded outcomes;
- :mod:`.targets`: a domain's tasks bound to a synthesized environment (``eval --bench``);
- :mod:`.fidelity`: a domain's recording for :mod:`autoforge.synth.fidelity.bench`;
- :mod:`.export`: a task set written in the tau2-bench domain layout;
- :mod:`.profile`: what the generic stages take from this adapter through
  :mod:`autoforge.profiles` (importer, transfer tool, export).

Names are imported on first use, so loading the profile stays cheap.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from autoforge.adapters.tau.domain import BenchDomain, ReplayRecord, load_domain, tau2_normalise
    from autoforge.adapters.tau.export import export_tau2
    from autoforge.adapters.tau.fidelity import bench_fidelity, load_bench, split_ids
    from autoforge.adapters.tau.replay import GoldReplayer, RecordedAssertions, say_output
    from autoforge.adapters.tau.statehash import (
        CachedStateHasher,
        HashKind,
        apply_diff,
        state_hash_of,
        tau2_hash,
        tau_hash,
    )
    from autoforge.adapters.tau.targets import bench_target, bench_tasks, bind_bench_task

_LAZY: dict[str, str] = {
    "BenchDomain": "autoforge.adapters.tau.domain",
    "ReplayRecord": "autoforge.adapters.tau.domain",
    "load_domain": "autoforge.adapters.tau.domain",
    "tau2_normalise": "autoforge.adapters.tau.domain",
    "CachedStateHasher": "autoforge.adapters.tau.statehash",
    "HashKind": "autoforge.adapters.tau.statehash",
    "apply_diff": "autoforge.adapters.tau.statehash",
    "state_hash_of": "autoforge.adapters.tau.statehash",
    "tau2_hash": "autoforge.adapters.tau.statehash",
    "tau_hash": "autoforge.adapters.tau.statehash",
    "GoldReplayer": "autoforge.adapters.tau.replay",
    "RecordedAssertions": "autoforge.adapters.tau.replay",
    "say_output": "autoforge.adapters.tau.replay",
    "bench_target": "autoforge.adapters.tau.targets",
    "bench_tasks": "autoforge.adapters.tau.targets",
    "bind_bench_task": "autoforge.adapters.tau.targets",
    "bench_fidelity": "autoforge.adapters.tau.fidelity",
    "load_bench": "autoforge.adapters.tau.fidelity",
    "split_ids": "autoforge.adapters.tau.fidelity",
    "export_tau2": "autoforge.adapters.tau.export",
}

__all__ = [
    "BenchDomain",
    "CachedStateHasher",
    "GoldReplayer",
    "HashKind",
    "RecordedAssertions",
    "ReplayRecord",
    "apply_diff",
    "bench_fidelity",
    "bench_target",
    "bench_tasks",
    "bind_bench_task",
    "export_tau2",
    "load_bench",
    "load_domain",
    "say_output",
    "split_ids",
    "state_hash_of",
    "tau2_hash",
    "tau2_normalise",
    "tau_hash",
]


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'autoforge.adapters.tau' has no attribute {name!r}")
    return getattr(importlib.import_module(module), name)


def __dir__() -> list[str]:
    return sorted(__all__)
