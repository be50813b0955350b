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
    "Blueprint",
    "BlueprintError",
    "DifficultyMetrics",
    "DifficultySpec",
    "EdgeJudge",
    "EdgeVerdict",
    "EnvAssertion",
    "EvaluationCriteria",
    "FactSpec",
    "GateStats",
    "GenerationStats",
    "GoldCall",
    "MergeAdvisor",
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
    "export_parquet",
    "generate_tasks",
    "graph_svg",
    "merge_walks",
    "missing_facts",
    "parse_difficulty",
    "preset",
    "random_walks",
    "read_tasks",
]
