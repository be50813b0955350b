"""Task synthesis: from an environment to many hard but exactly verifiable multi-turn tasks.

Pipeline (all deterministic; the LLM steps are hooks with deterministic defaults):
tool dependency graph and walks (room ``graph``) -> blueprint with reasoning nodes (room
``blueprints``) -> start state S0 (room ``states``) -> gold run to S* inside the docs' rules, and
the quality gates (room ``gold``) -> what the user knows and says (room ``scenario``; the model's
hooks in room ``llm``) -> :class:`Task` (:mod:`.model`).

Entry point: ``tasks, stats = generate_tasks(env, n, "medium", seed=0)``.
"""

from __future__ import annotations

from autoforge.tasks.blueprints.blueprint import Blueprint, BlueprintError, FactSpec
from autoforge.tasks.difficulty import DifficultyMetrics, DifficultySpec, parse_difficulty, preset
from autoforge.tasks.export import export_parquet
from autoforge.tasks.gold.gates import GateStats
from autoforge.tasks.graph.dependency import (
    EdgeJudge,
    EdgeVerdict,
    RuleJudge,
    ToolGraph,
    build_graph,
)
from autoforge.tasks.graph.merge import MergeAdvisor, RuleMergeAdvisor, merge_walks
from autoforge.tasks.graph.svg import graph_svg
from autoforge.tasks.graph.walks import Walk, WalkConfig, random_walks
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
from autoforge.tasks.scenario.question import ScenarioRequest, ScenarioWriter, TemplateWriter
from autoforge.tasks.scenario.spoken import missing_facts

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
    "llm_hooks",
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
    from autoforge.tasks.blueprints.blueprint import Binding as Binding
    from autoforge.tasks.blueprints.blueprint import CallNode as CallNode
    from autoforge.tasks.blueprints.blueprint import FactRef as FactRef
    from autoforge.tasks.blueprints.blueprint import ListBinding as ListBinding
    from autoforge.tasks.blueprints.blueprint import ObjectBinding as ObjectBinding
    from autoforge.tasks.blueprints.blueprint import ReasonNode as ReasonNode
    from autoforge.tasks.blueprints.blueprint import iter_refs as iter_refs
    from autoforge.tasks.export import splits as splits
    from autoforge.tasks.llm.hooks import build_graph_async as build_graph_async
    from autoforge.tasks.llm.hooks import generate_tasks_async as generate_tasks_async
    from autoforge.tasks.llm.hooks import llm_hooks as llm_hooks
    from autoforge.tasks.model import task_line as task_line

_LAZY: dict[str, str] = {
    "Binding": "autoforge.tasks.blueprints.blueprint",
    "CallNode": "autoforge.tasks.blueprints.blueprint",
    "FactRef": "autoforge.tasks.blueprints.blueprint",
    "ListBinding": "autoforge.tasks.blueprints.blueprint",
    "ObjectBinding": "autoforge.tasks.blueprints.blueprint",
    "ReasonNode": "autoforge.tasks.blueprints.blueprint",
    "build_graph_async": "autoforge.tasks.llm.hooks",
    "generate_tasks_async": "autoforge.tasks.llm.hooks",
    "llm_hooks": "autoforge.tasks.llm.hooks",
    "iter_refs": "autoforge.tasks.blueprints.blueprint",
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
