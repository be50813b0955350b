"""The benchmark scripts and ``benchmarks/lab`` import each other as top-level modules."""

from __future__ import annotations

import sys
from pathlib import Path

BENCHMARKS = str(Path(__file__).resolve().parents[2] / "benchmarks")
#: the lab tests reuse tests/rollout's task builders (``test_goals``); pytest only puts a test
#: file's own folder on the path, and tests/benchmarks is collected before tests/rollout
ROLLOUT_TESTS = str(Path(__file__).resolve().parents[1] / "rollout")
for _folder in (BENCHMARKS, ROLLOUT_TESTS):
    if _folder not in sys.path:
        sys.path.insert(0, _folder)
