"""Task synthesis: from an environment to many hard but exactly verifiable multi-turn tasks.

Pipeline (all deterministic; the LLM steps are hooks with deterministic defaults):
tool dependency graph (:mod:`.graph`) -> random walks (:mod:`.walks`) -> merging (:mod:`.merge`)
-> blueprint with reasoning nodes (:mod:`.build`, :mod:`.blueprint`, :mod:`.reasoning`) ->
instantiation and gold run (:mod:`.instantiate`, :mod:`.population`) -> quality gates
(:mod:`.gates`) -> user scenario (:mod:`.question`) -> :class:`Task` (:mod:`.model`).

Entry point: ``tasks, stats = generate_tasks(env, n, "medium", seed=0)``.
"""

from __future__ import annotations

from autoforge.tasks.blueprint import Blueprint, BlueprintError, FactSpec
from autoforge.tasks.difficulty import DifficultyMetrics, DifficultySpec, parse_difficulty, preset
from autoforge.tasks.export import export_parquet
from autoforge.tasks.gates import GateStats
from autoforge.tasks.graph import EdgeJudge, EdgeVerdict, RuleJudge, ToolGraph, build_graph
from autoforge.tasks.merge import MergeAdvisor, RuleMergeAdvisor, merge_walks
from autoforge.tasks.model import (
    EnvAssertion,
    EvaluationCriteria,
    GoldCall,
    RequiredOutput,
    Task,
    TaskSet,
    TaskSetError,
    UserScenario,
    read_tasks,
)
from autoforge.tasks.pipeline import GenerationStats, TaskHooks, generate_tasks
from autoforge.tasks.question import ScenarioRequest, ScenarioWriter, TemplateWriter, missing_facts
from autoforge.tasks.svg import graph_svg
from autoforge.tasks.walks import Walk, WalkConfig, random_walks

__all__ = [
    "Binding",
    "Blueprint",
    "BlueprintError",
    "CallNode",
    "DifficultyMetrics",
    "DifficultySpec",
    "EdgeJudge",
    "EdgeVerdict",
    "EnvAssertion",
    "EvaluationCriteria",
    "FactRef",
    "FactSpec",
    "GateStats",
    "GenerationStats",
    "GoldCall",
    "ListBinding",
    "MergeAdvisor",
    "ObjectBinding",
    "ReasonNode",
    "RequiredOutput",
    "RuleJudge",
    "RuleMergeAdvisor",
    "ScenarioRequest",
    "ScenarioWriter",
    "Task",
    "TaskHooks",
    "TaskSet",
    "TaskSetError",
    "TemplateWriter",
    "ToolGraph",
    "UserScenario",
    "Walk",
    "WalkConfig",
    "build_graph",
    "build_graph_async",
    "export_parquet",
    "generate_tasks",
    "generate_tasks_async",
    "graph_svg",
    "iter_refs",
    "merge_walks",
    "missing_facts",
    "parse_difficulty",
    "preset",
    "random_walks",
    "read_tasks",
    "splits",
    "task_line",
]

# --- the lazy part of the face: each name is also in __all__ and in the TYPE_CHECKING
# imports; tests/architecture/test_faces.py pins __all__ ---
import importlib as _importlib
from typing import TYPE_CHECKING as _TYPE_CHECKING
from typing import Any as _Any

if _TYPE_CHECKING:
    from autoforge.tasks.blueprint import Binding as Binding
    from autoforge.tasks.blueprint import CallNode as CallNode
    from autoforge.tasks.blueprint import FactRef as FactRef
    from autoforge.tasks.blueprint import ListBinding as ListBinding
    from autoforge.tasks.blueprint import ObjectBinding as ObjectBinding
    from autoforge.tasks.blueprint import ReasonNode as ReasonNode
    from autoforge.tasks.blueprint import iter_refs as iter_refs
    from autoforge.tasks.export import splits as splits
    from autoforge.tasks.llm_hooks import build_graph_async as build_graph_async
    from autoforge.tasks.llm_hooks import generate_tasks_async as generate_tasks_async
    from autoforge.tasks.model import task_line as task_line

_LAZY: dict[str, str] = {
    "Binding": "autoforge.tasks.blueprint",
    "CallNode": "autoforge.tasks.blueprint",
    "FactRef": "autoforge.tasks.blueprint",
    "ListBinding": "autoforge.tasks.blueprint",
    "ObjectBinding": "autoforge.tasks.blueprint",
    "ReasonNode": "autoforge.tasks.blueprint",
    "build_graph_async": "autoforge.tasks.llm_hooks",
    "generate_tasks_async": "autoforge.tasks.llm_hooks",
    "iter_refs": "autoforge.tasks.blueprint",
    "splits": "autoforge.tasks.export",
    "task_line": "autoforge.tasks.model",
}


def __getattr__(name: str) -> _Any:
    """A re-exported name, imported from its module on first use."""
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(_importlib.import_module(module), name)


# --- end of the lazy part of the face ---
