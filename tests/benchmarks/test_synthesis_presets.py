"""benchmarks/synthesis.py: a single-preset run gets the same inputs, split and replay side as
its ``--suite`` row (no model, no synthesis: only the preset resolution)."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))

import synthesis


@pytest.mark.parametrize(
    ("name", "domain", "split", "agent_side"),
    [
        ("tau2-retail", "tau2-bench/retail", None, False),
        ("tau2-mock", "tau2-bench/mock", "all", False),
        ("tau2-telecom", "tau2-bench/telecom", "all", True),
        ("acebench-agent", "acebench/agent", "all", False),
    ],
)
def test_benchmark_presets_resolve_to_their_directory_split_and_side(
    name: str, domain: str, split: str | None, agent_side: bool
) -> None:
    preset = synthesis._preset(name)
    bench = synthesis.BENCH_ROOT / domain
    assert preset["bench"] == bench and preset["docs"] == [bench]
    assert preset["data"] == bench / "db.json"
    assert preset["policy"] is None  # the directory's docs carry its policy.md
    assert (preset["split"], preset["agent_side"]) == (split, agent_side)


def test_every_suite_row_names_a_preset_a_single_run_can_take() -> None:
    for label, name, split, _role in synthesis.SUITE:
        preset = synthesis._preset(name)
        if preset["split"] is not None:  # held-out domains: the single run's default split
            assert preset["split"] == split, label


def test_unknown_preset_names_the_known_ones() -> None:
    with pytest.raises(SystemExit, match="tau2-telecom"):
        synthesis._preset("tau2-telcom")


def test_fidelity_uses_the_presets_split_and_side_unless_one_is_given(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from autoforge.adapters import tau

    calls: list[dict[str, Any]] = []

    def fake(env: Path, bench: Path, **kw: Any) -> str:
        calls.append({"env": env, "bench": bench, **kw})
        return "report"

    monkeypatch.setattr(tau, "bench_fidelity", fake)
    preset = synthesis._preset("tau2-telecom")
    assert synthesis._bench_fidelity(Path("env"), preset, None) == "report"
    synthesis._bench_fidelity(Path("env"), preset, "test")
    assert calls[0]["split"] == "all" and calls[0]["agent_side"] is True
    assert calls[1]["split"] == "test" and calls[0]["bench"] == preset["bench"]


def test_a_benchmark_presets_inputs_include_its_policy_and_data(benchmarks_dir: Path) -> None:
    assert benchmarks_dir == synthesis.BENCH_ROOT  # both read AUTOFORGE_BENCH_ROOT
    docs, data, policy = synthesis._inputs(synthesis._preset("tau2-mock"))
    assert policy is None and docs.policy and "task" in docs.policy.lower()
    assert isinstance(data, dict) and data
    assert [t.name for t in docs.tools][:1] == ["create_task"]
