"""Settings are composed, not re-declared: one episode settings type with one set of defaults
for eval, TRL and verl; one synthesis options type; one token-usage type; LLM clients only from
what the caller passes; the shared ``--llm-*`` options on every command that uses an LLM."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest
import yaml
from typer.testing import CliRunner

import autoforge
from autoforge.rollout import EpisodeConfig, EpisodeLimits

SRC = Path(autoforge.__file__).parent
LLM_OPTIONS = ("--llm-config", "--llm-base-url", "--llm-model", "--llm-api-key", "--llm-set")


def _episodes_by_default() -> dict[str, EpisodeConfig]:
    """The episode settings each backend uses when nobody sets any."""
    from autoforge.bench.evaluation import EvalSettings
    from autoforge.rl.episode import TokenEpisodeConfig
    from autoforge.rl.trl.run import TRLRunConfig
    from autoforge.rl.verl.episode import AgentLoopSettings
    from autoforge.rl.verl.launch import VerlLaunchSpec

    return {
        "eval": EvalSettings(env_dir=".").episode,
        "trl": TRLRunConfig(env_dirs=[], output_dir="-").episode.episode,
        "trl episode": TokenEpisodeConfig().episode,
        "verl agent loop": AgentLoopSettings(tasks=[], env_dirs=[]).episode,
        "verl launch": VerlLaunchSpec(model="m", train_files=[], tasks=[], env_dirs=[]).episode,
    }


def test_eval_trl_and_verl_play_the_same_episode_by_default() -> None:
    episodes = _episodes_by_default()
    for name, episode in episodes.items():
        assert isinstance(episode, EpisodeConfig), name
        assert episode == EpisodeConfig(), name
        assert (episode.limits.max_steps, episode.limits.tool_error_budget) == (30, 10), name
        assert episode.agent.keep_thinking, name


def test_the_commands_default_to_the_same_episode(tmp_path: Path) -> None:
    """``autoforge eval`` and ``autoforge train`` (both backends) build the shared defaults."""
    from autoforge.bench import parse_role_spec
    from autoforge.cli.eval import _settings
    from autoforge.cli.main import main
    from autoforge.cli.train import _episode
    from autoforge.examples import example_path

    loaded = type("Loaded", (), {"env_dir": Path("."), "bench_dir": None, "transfer_tools": []})()
    specs = [parse_role_spec(r, k) for r, k in (("agent", "oracle"), ("user", "scripted"),
                                                 ("judge", "rule"))]  # fmt: skip
    eval_settings = _settings(loaded, specs, None, True, True, None)  # type: ignore[arg-type]
    assert eval_settings.episode == EpisodeConfig()
    assert _episode(True, None) == EpisodeConfig()
    out = tmp_path / "verl"
    with pytest.raises(SystemExit) as done:
        main(["train", "--backend", "verl", "--emit-config", str(out), "--model", "m",
              "--train-files", "t.parquet", "--tasks", "t.jsonl",
              "--env", str(example_path())])  # fmt: skip
    assert done.value.code in (0, None)
    entry = yaml.safe_load((out / "agent_loop.yaml").read_text())[0]
    assert EpisodeConfig.model_validate(entry["episode"]) == EpisodeConfig()


def test_episode_limits_are_validated() -> None:
    with pytest.raises(ValueError):
        EpisodeLimits(max_steps=1)
    with pytest.raises(ValueError):
        EpisodeLimits(tool_error_budget=-1)


def test_forge_embeds_the_synthesis_options_with_their_defaults() -> None:
    from autoforge.cli.synth import synth_options
    from autoforge.forge import ForgeOptions
    from autoforge.synth import SynthOptions

    assert ForgeOptions(out=Path("x")).synth == SynthOptions()
    # no flag given on the command line = the one set of defaults
    assert synth_options(max_repairs=None, design_rounds=None, llm_tests=None) == SynthOptions()
    assert synth_options(max_repairs=1, llm_tests=False).max_repairs == 1


@pytest.mark.parametrize("command", [["ingest"], ["train"], ["synth", "env"], ["forge"], ["eval"]])
def test_llm_commands_list_the_shared_llm_options(command: list[str]) -> None:
    from autoforge.cli.main import app

    result = CliRunner().invoke(app, [*command, "--help"], env={"COLUMNS": "200"})
    assert result.exit_code == 0, result.output
    for option in LLM_OPTIONS:
        assert option in result.output, (command, option)
    assert "--user-base-url" not in result.output


def _calls_without_config(tree: ast.AST, names: set[str]) -> list[int]:
    lines = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        func = node.func
        name = func.id if isinstance(func, ast.Name) else getattr(func, "attr", None)
        if name in names and not node.args and not node.keywords:
            lines.append(node.lineno)
    return lines


def test_no_module_outside_llm_builds_a_client_from_the_environment() -> None:
    """``get_client()`` / ``LLMClient()`` without a config read the process environment: only
    ``autoforge.llm`` may do that; everyone else passes the caller's config."""
    offenders = []
    for path in sorted(SRC.rglob("*.py")):
        if path.relative_to(SRC).parts[0] == "llm":
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for line in _calls_without_config(tree, {"get_client", "LLMClient"}):
            offenders.append(f"{path.relative_to(SRC)}:{line}")
    assert offenders == []


def test_the_ast_check_finds_an_argument_less_call() -> None:
    tree = ast.parse("from autoforge.llm import get_client\nc = get_client()\nd = get_client(x)\n")
    assert _calls_without_config(tree, {"get_client"}) == [2]


def test_one_token_usage_type() -> None:
    """No class outside ``autoforge.llm`` declares its own token counters."""
    owners = []
    for path in sorted(SRC.rglob("*.py")):
        if path.relative_to(SRC).parts[0] == "llm":
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ClassDef):
                fields = {
                    s.target.id
                    for s in node.body
                    if isinstance(s, ast.AnnAssign) and isinstance(s.target, ast.Name)
                }
                if {"prompt_tokens", "completion_tokens"} & fields:
                    owners.append(f"{path.relative_to(SRC)}:{node.name}")
    assert owners == []


def test_the_usage_type_reads_trajectories_written_before_it() -> None:
    from autoforge.llm import TokenUsage
    from autoforge.rollout import Trajectory

    traj = Trajectory.model_validate(
        {"task_id": "t", "tokens": {"agent": {"calls": 2, "cached_calls": 1, "prompt_tokens": 5}}}
    )
    usage = traj.tokens["agent"]
    assert isinstance(usage, TokenUsage)
    assert (usage.calls, usage.cache_hits, usage.total_tokens) == (2, 1, 5)
    total = usage + TokenUsage(calls=1, prompt_tokens=1, completion_tokens=2)
    assert (total.calls, total.total_tokens) == (3, 8)
    assert (total - usage).completion_tokens == 2


def test_trl_takes_the_llm_config_from_the_caller() -> None:
    from autoforge.errors import UserError
    from autoforge.llm import LLMConfig
    from autoforge.rl.trl.run import TRLRunConfig, _deps_factory

    config = TRLRunConfig(env_dirs=[], output_dir="-", user="llm", meu="off")
    with pytest.raises(UserError, match="need an LLM"):
        _deps_factory(config, {}, None)
    assert callable(_deps_factory(config, {}, LLMConfig(cache=False)))
    scripted = TRLRunConfig(env_dirs=[], output_dir="-", user="scripted", meu="faults")
    assert callable(_deps_factory(scripted, {}, None))  # no model needed, none asked for


def test_verl_settings_accept_the_nested_sections_a_config_loader_passes() -> None:
    from types import MappingProxyType

    from autoforge.rl.verl.episode import settings_from

    episode = MappingProxyType({"limits": MappingProxyType({"max_steps": 12})})
    llm = MappingProxyType({"user": MappingProxyType({"base_url": "http://u/v1"})})
    settings = settings_from(
        {"tasks": ("t.jsonl",), "env_dirs": ["e"], "episode": episode, "llm": llm, "name": "x"}
    )
    assert settings.episode.limits.max_steps == 12
    assert settings.episode.limits.tool_error_budget == 10
    assert settings.llm.user.base_url == "http://u/v1" and settings.tasks == ["t.jsonl"]
