"""tau-bench and tau2-bench: everything autoforge knows about their formats, in one place.

- :mod:`.importer`: a domain directory (``tools.json`` + ``policy.md`` + ``tools_meta.json``)
  as ``ToolDocs`` (tooldocs format ``bench``);
- :mod:`.domain`: a domain's tasks as rollout tasks, its data and ``gt_replay.json`` records
  (:func:`load_domain`);
- :mod:`.statehash`: the benchmarks' own state hashes (:func:`tau_hash`, :func:`tau2_hash`,
  :class:`CachedStateHasher`) and copy-on-write :func:`apply_diff`;
- :mod:`.replay`: gold and do-nothing trajectories from the recorded outcomes;
- :mod:`.targets`: a domain's tasks bound to a synthesized environment (``eval --bench``);
- :mod:`.fidelity`: a domain's recording for :mod:`autoforge.synth.fidelity`;
- :mod:`.export`: a task set written in the tau2-bench domain layout;
- :mod:`.profile`: what the generic stages take from this adapter through
  :mod:`autoforge.profiles` (importer, transfer tool, export).

Names are imported on first use, so loading the profile stays cheap.
"""

from __future__ import annotations

import importlib
from typing import Any

_EXPORTS: dict[str, str] = {
    "BenchDomain": "domain",
    "ReplayRecord": "domain",
    "load_domain": "domain",
    "tau2_normalise": "domain",
    "CachedStateHasher": "statehash",
    "HashKind": "statehash",
    "apply_diff": "statehash",
    "state_hash_of": "statehash",
    "tau2_hash": "statehash",
    "tau_hash": "statehash",
    "GoldReplayer": "replay",
    "RecordedAssertions": "replay",
    "say_output": "replay",
    "bench_target": "targets",
    "bench_tasks": "targets",
    "bind_bench_task": "targets",
    "bench_fidelity": "fidelity",
    "load_bench": "fidelity",
    "split_ids": "fidelity",
    "export_tau2": "export",
}

__all__ = sorted(_EXPORTS)


def __getattr__(name: str) -> Any:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'autoforge.adapters.tau' has no attribute {name!r}")
    value = getattr(importlib.import_module(f"autoforge.adapters.tau.{module}"), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(__all__)
