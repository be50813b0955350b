"""Package faces, written by hand and pinned: each package's ``__all__`` is its face (the names
other packages may import from it), and this list is the decision.

A face changes on purpose: add (or remove) the name in the package's ``__init__.py`` and here,
in one commit. The failure messages say exactly what to add and where. Checked:

- each package's ``__all__`` equals :data:`FACES` (in any order);
- every name of a face resolves, and every lazily exported name (``_LAZY``) is in ``__all__``;
- every ``from autoforge.PKG import NAME`` outside ``PKG`` names something in PKG's face.
"""

from __future__ import annotations

import ast
import importlib
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parents[2] / "src"

FACES: dict[str, list[str]] = {
    "autoforge.adapters": [
        "create_openenv_app",
        "export_package",
        "load_forged",
    ],
    "autoforge.adapters.tau": [
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
    ],
    "autoforge.bench": [
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
    ],
    "autoforge.env": [
        "ALLOWED_MODULES",
        "Attribute",
        "AttributeType",
        "BehaviourModel",
        "Boundary",
        "Check",
        "CollectionSchema",
        "ContainedEpisode",
        "ContainedRuntime",
        "DocRule",
        "ENTRY_POINT_GROUP",
        "Effect",
        "EnvDir",
        "EnvLoadError",
        "EnvParts",
        "Environment",
        "EnvironmentLike",
        "EnvironmentSpec",
        "Episode",
        "EpisodeLike",
        "ErrorKind",
        "Mode",
        "Observation",
        "ObservationLike",
        "ParamInfo",
        "RULES_FILE",
        "Reply",
        "RuleSet",
        "SandboxViolation",
        "StateSchema",
        "ToolBehaviour",
        "ToolError",
        "ToolKind",
        "Value",
        "ValueSource",
        "canonical_json",
        "check_source",
        "describe_boundary",
        "diff_states",
        "doc_sentences",
        "json_encoder",
        "probe_boundary",
        "python_param_name",
        "refusal_alternatives",
        "rule_words",
        "state_hash",
        "states_rule",
        "unenforced_sentences",
    ],
    "autoforge.examples": [
        "DEFAULT_EXAMPLE",
        "example_path",
        "list_examples",
    ],
    "autoforge.forge": [
        "STAGES",
        "BatchReport",
        "ForgeContext",
        "ForgeError",
        "ForgeOptions",
        "ForgeReporter",
        "ItemResult",
        "NullReporter",
        "RunLayout",
        "RunManifest",
        "StageRecord",
        "TaskVerdict",
        "VerifyReport",
        "discover",
        "forge_many",
        "is_doc_set_dir",
        "load_manifest",
        "load_run",
        "render_forge_report",
        "resolve_inputs",
        "run_forge",
        "run_shortfall",
        "verify_task",
        "verify_tasks",
        "write_forge_report",
        "StateSource",
        "failed_tools",
        "failed_stage",
        "run_failure",
        "task_shortfall",
        "tool_outcomes",
    ],
    "autoforge.lexicon": [
        "iso_day",
        "NUMBER_WORDS",
        "count_of",
        "number_words",
        "IdShape",
        "KeyRules",
        "documented",
        "documented_in",
        "fitting",
        "from_examples",
        "from_keys",
        "key_rules",
        "plain",
        "API_VERBS",
        "CREATE_VERBS",
        "EVERYDAY",
        "FILLER",
        "NAME_FIELDS",
        "QUOTED_STOP",
        "READ_CLASSES",
        "SESSION",
        "SCOPE_NOTE",
        "SESSION_RECORD",
        "SPOKEN_VERBS",
        "TERMINAL_VERBS",
        "VERBS",
        "Derivation",
        "Envelope",
        "Leaf",
        "Literals",
        "PagingRole",
        "ToolClass",
        "ToolScope",
        "acting_for",
        "add_session",
        "api_prefix",
        "assumed_returns",
        "collection_of_key",
        "derive_state",
        "dir_rules",
        "doc_field_names",
        "docs_statuses",
        "entity_of",
        "enumerate_words",
        "envelope_of",
        "environment_rules",
        "extract_rules",
        "field_said",
        "fields_under",
        "find_user_collection",
        "is_identifier_name",
        "is_scope",
        "key_param",
        "label",
        "listed_noun",
        "name_tokens",
        "name_verb",
        "names_record",
        "new_key_param",
        "noun_field",
        "output_leaves",
        "owner_attribute",
        "paging_params",
        "paging_role",
        "param_leaves",
        "qualified_for",
        "quoted",
        "record_collection",
        "record_noun",
        "request_params",
        "record_words",
        "refer_back",
        "request_on",
        "rules_of",
        "same_as",
        "schema_leaves",
        "scope_params",
        "self_word_at",
        "sentences",
        "session_owner",
        "session_user",
        "sign_in",
        "signed_in",
        "singular",
        "split_path",
        "status_attribute",
        "status_rank",
        "status_values",
        "target_collection",
        "tool_access",
        "tool_scope",
        "unwrap",
        "updates",
        "user_collection",
        "verb_first",
        "whole_record",
        "with_preposition",
        "without_prefix",
        "words",
    ],
    "autoforge.llm": [
        "DEFAULT_REMOTE_CONCURRENCY",
        "EMBEDDED_NAMES",
        "NO_MODEL",
        "ROLES",
        "ChatResponse",
        "EmbeddedConfig",
        "Endpoint",
        "LLMClient",
        "LLMConfig",
        "LLMFailure",
        "Message",
        "RecordedRequest",
        "Role",
        "RoleConfig",
        "ScriptExhausted",
        "TokenUsage",
        "ToolMode",
        "TransportError",
        "UsageLedger",
        "assemble",
        "build_config",
        "cache_dir",
        "config_from_cli",
        "ensure_server",
        "get_client",
        "model_spec",
        "print_usage",
        "probe_reasoning",
        "resolve_endpoint",
        "shutdown_all",
        "usage_table",
        "with_text_calls",
        "calls_from_text",
    ],
    "autoforge.report": [
        "Cell",
        "Markup",
        "adjacency_table",
        "badge",
        "bars",
        "blueprint_svg",
        "card",
        "code_json",
        "details",
        "esc",
        "gallery",
        "hbars",
        "histogram",
        "join",
        "page",
        "section",
        "table",
        "tag",
        "tool_graph_svg",
    ],
    "autoforge.rl": [
        "DEFAULT_BUDGET",
        "AdvantageBreakdown",
        "BatchedGenerator",
        "ChatCodec",
        "DynamicSampler",
        "ERPOConfig",
        "EpisodeDeps",
        "Method",
        "PPOLossOutput",
        "RolloutGroup",
        "SFTRunConfig",
        "SamplingConfig",
        "SamplingStats",
        "TokenAgentClient",
        "TokenBudget",
        "TokenEpisodeConfig",
        "TokenRollout",
        "TokenTrace",
        "TrainOutcome",
        "TrainRequest",
        "advantage_breakdown",
        "compute_advantages",
        "episode_roles",
        "flatten_groups",
        "group_advantages",
        "informative_mask",
        "keep_groups",
        "ppo_clip_grad",
        "ppo_clip_loss",
        "sample_batch",
        "token_episode",
        "train_sft",
    ],
    "autoforge.rl.trl": [
        "TRLRunConfig",
        "load_environments",
        "load_task_pool",
        "train_trl",
    ],
    "autoforge.rl.verl": [
        "ESTIMATOR_NAME",
        "UID_SEP",
        "VerlLaunchSpec",
        "emit_config",
        "env_uid",
        "erpo_outcome_advantage",
        "split_uid",
    ],
    "autoforge.rollout": [
        "AGENT_STOP_TOKEN",
        "FAULT_KINDS",
        "OPENING",
        "STOP_TOKEN",
        "Agent",
        "AgentConfig",
        "AgentFactory",
        "AskedOracle",
        "ChatClient",
        "Checkpoint",
        "EndReason",
        "EnvBinding",
        "EpisodeConfig",
        "EpisodeFn",
        "EpisodeLimits",
        "FaultyUser",
        "Goal",
        "JudgeExtraction",
        "JudgeHooks",
        "JudgeVerdict",
        "LLMUser",
        "LocalExecutor",
        "MEUHook",
        "OracleClient",
        "RayPool",
        "RewardInfo",
        "RoleKind",
        "RolloutDeps",
        "RoutedClient",
        "Runner",
        "ScriptedUser",
        "SimulatedUser",
        "StopClaim",
        "ToolCallRecord",
        "Trajectory",
        "UserClaim",
        "UserConfig",
        "UserFactory",
        "agent_factory",
        "apply_verdict",
        "bind_environment",
        "build_kind",
        "canonical_kind",
        "code_judge_hook",
        "compute_reward",
        "conveyed",
        "episode_fn",
        "episode_seed",
        "fact_label",
        "fact_leaves",
        "fault_oracle",
        "has_value",
        "judge_hooks",
        "judge_user",
        "kind_field",
        "kind_names",
        "kind_needs_llm",
        "lookup_kind",
        "make_executor",
        "message_reasoning",
        "meu_judge",
        "nl_assertion_judge",
        "normal",
        "output_found",
        "read_trajectories",
        "register_kind",
        "role_kinds",
        "rollout_episode",
        "run_episode",
        "score_episode",
        "scripted_user",
        "task_goals",
        "user_factory",
        "verdict_from",
        "visible_text",
    ],
    "autoforge.serve": [
        "EnvClient",
        "EnvClientError",
        "EnvService",
        "HttpLimits",
        "Limits",
        "ServeError",
        "SessionStore",
        "build_mcp_server",
        "check_bind",
        "create_app",
        "is_loopback",
        "load_service",
        "mcp_http_app",
        "run",
        "serve_stdio",
    ],
    "autoforge.synth": [
        "Bench",
        "BenchAction",
        "BenchTask",
        "CheckItem",
        "CheckReport",
        "Classification",
        "FidelityReport",
        "NO_OUTPUT",
        "SynthOptions",
        "SynthesisReport",
        "ToolReport",
        "check_directory",
        "check_env_dir",
        "check_environment",
        "classify_tool",
        "conformance",
        "data_to_state",
        "design_state",
        "infer_schema",
        "is_refapi_dir",
        "reason_kind",
        "report_table",
        "rule_based_schema",
        "run_fidelity",
        "run_probes",
        "score_refapi",
        "synthesize",
    ],
    "autoforge.tasks": [
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
    ],
    "autoforge.tooldocs": [
        "EMAIL_LIKE",
        "ID_SUFFIXES",
        "NAME_LIKE",
        "ONCE_ONLY",
        "PHONE_LIKE",
        "READ_VERBS",
        "TOOLDOCS_SCHEMA_VERSION",
        "AccessHint",
        "DocInput",
        "DocParseError",
        "DocWarning",
        "Importer",
        "PhraseMode",
        "SourceLocation",
        "ToolDocs",
        "ToolSpec",
        "break_camel",
        "check_tool_name",
        "detect_format",
        "get_importer",
        "id_base",
        "identifier",
        "importer_names",
        "importers",
        "is_entity_param",
        "is_id_like",
        "is_tool_name",
        "load_doc",
        "load_docs",
        "load_input",
        "merge_docs",
        "named_statuses",
        "normalize_parameters",
        "normalize_returns",
        "parse_structured",
        "parse_text",
        "phrase_in",
        "plural",
        "pointer_join",
        "read_text",
        "register_importer",
        "sanitize_name",
        "singular",
        "snake",
        "snake_words",
        "stated_statuses",
        "to_snake",
        "tokens",
        "unregister_importer",
        "word_match",
        "markdown_tables",
        "TEXT_SUFFIXES",
    ],
    "autoforge.tooldocs.importers": [
        "tool_items",
        "tools_from_items",
    ],
}


def _init(package: str) -> Path:
    return SRC.joinpath(*package.split(".")) / "__init__.py"


def _defining_module(package: str, name: str) -> str | None:
    """The module of ``package`` (not a subpackage) that defines ``name`` at top level."""
    folder = SRC.joinpath(*package.split("."))
    for path in sorted(folder.glob("*.py")):
        if path.name == "__init__.py":
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in tree.body:
            targets: list[str] = []
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                targets = [node.name]
            elif isinstance(node, ast.Assign):
                targets = [t.id for t in node.targets if isinstance(t, ast.Name)]
            elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
                targets = [node.target.id]
            if name in targets:
                return f"{package}.{path.stem}"
    return None


def how_to_export(package: str, name: str) -> str:
    """The exact lines a developer adds to export ``name`` from ``package``."""
    module = _defining_module(package, name) or f"{package}.<module defining {name}>"
    init = _init(package).relative_to(SRC.parent)
    return (
        f"export {name!r} from {package}: in {init} add {name!r} to __all__, "
        f"'{name}': '{module}' to _LAZY and 'from {module} import {name} as {name}' to the "
        f"TYPE_CHECKING imports (or import it eagerly); then add {name!r} to "
        f"FACES[{package!r}] in tests/architecture/test_faces.py"
    )


@pytest.mark.parametrize("package", sorted(FACES))
def test_face_is_pinned(package: str) -> None:
    module = importlib.import_module(package)
    face = set(getattr(module, "__all__", []))
    pinned = set(FACES[package])
    added, removed = sorted(face - pinned), sorted(pinned - face)
    problems = [
        f"{name!r} is in {package}.__all__ but not pinned: add it to FACES[{package!r}] in "
        "tests/architecture/test_faces.py (or drop it from __all__)"
        for name in added
    ] + [
        f"{name!r} is pinned but missing from {package}.__all__: " + how_to_export(package, name)
        for name in removed
    ]
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("package", sorted(FACES))
def test_face_names_resolve_and_lazy_names_are_in_the_face(package: str) -> None:
    module = importlib.import_module(package)
    face = list(getattr(module, "__all__", []))
    unresolved, extras = [], set()
    for name in face:
        try:
            if getattr(module, name, None) is None:
                unresolved.append(name)
        except ModuleNotFoundError as exc:  # a lazy name that needs an optional extra
            if (exc.name or "").split(".")[0] == "autoforge":
                raise
            extras.add(exc.name or "?")
    assert not unresolved, f"{package}.__all__ names that do not resolve: {unresolved}"
    hidden = sorted(set(getattr(module, "_LAZY", {})) - set(face))
    assert not hidden, f"{package}._LAZY exports {hidden} outside __all__: add them to __all__"
    if extras:
        pytest.skip(f"{package}: some names need {sorted(extras)} (an optional extra, e.g. [dev])")


def _imports_from_faces() -> list[tuple[str, int, str, str]]:
    """``(file, line, package, name)`` for every ``from autoforge.PKG import NAME`` of a
    faced package in a module outside it."""
    found = []
    for path in sorted((SRC / "autoforge").rglob("*.py")):
        here = ".".join(path.relative_to(SRC).with_suffix("").parts)
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if not (isinstance(node, ast.ImportFrom) and node.level == 0 and node.module):
                continue
            if node.module not in FACES or here.startswith(node.module + "."):
                continue  # not faced, or the package itself
            if node.module.startswith(here.rsplit(".", 1)[0] + "."):
                continue  # a package importing its own subpackage
            folder = SRC.joinpath(*node.module.split("."))
            for alias in node.names:
                if (folder / f"{alias.name}.py").is_file():
                    continue  # a submodule, not a name of the face
                found.append(
                    (str(path.relative_to(SRC.parent)), node.lineno, node.module, alias.name)
                )
    return found


def test_cross_package_imports_use_the_face() -> None:
    found = _imports_from_faces()
    assert len(found) > 50  # the scan saw the code base
    missing = [
        f"{file}:{line}: from {package} import {name}: " + how_to_export(package, name)
        for file, line, package, name in found
        if name not in FACES[package]
    ]
    assert not missing, "\n".join(missing)


def test_the_message_names_the_module_to_export_from() -> None:
    text = how_to_export("autoforge.rollout", "register_kind")
    assert (
        "'register_kind': 'autoforge.rollout.roles'" in text
        and "FACES['autoforge.rollout']" in text
    )
