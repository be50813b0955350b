"""Role configuration: file < environment < command line; role sections over default."""

from __future__ import annotations

from pathlib import Path

import pytest

from autoforge.errors import UserError
from autoforge.llm import LLMClient, config_from_cli
from autoforge.llm.config import build_config, resolve_endpoint

TOML = """
[default]
base_url = "http://file-default/v1"
model = "file-model"

[judge]
model = "file-judge"
tool_mode = "protocol"

[embedded]
threads = 3
"""

YAML = """
agent:
  base_url: http://yaml-agent/v1
  model: yaml-agent-model
  max_concurrency: 3
cache: false
"""


def write(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def test_no_configuration_means_embedded_model() -> None:
    cfg = build_config(environ={})
    for role in ("synthesizer", "agent", "user", "judge"):
        ep = resolve_endpoint(cfg, role)
        assert ep.embedded == "default" and ep.base_url is None
        assert ep.tool_mode == "protocol"  # auto -> protocol for the embedded model


def test_file_env_cli_precedence(tmp_path: Path) -> None:
    path = write(tmp_path, "llm.toml", TOML)
    cfg = build_config(file=path, environ={})
    agent, judge = resolve_endpoint(cfg, "agent"), resolve_endpoint(cfg, "judge")
    assert (agent.base_url, agent.model, agent.tool_mode) == (
        "http://file-default/v1",
        "file-model",
        "native",
    )
    assert (judge.base_url, judge.model, judge.tool_mode) == (
        "http://file-default/v1",
        "file-judge",
        "protocol",
    )
    assert cfg.embedded.threads == 3

    env = {
        "AUTOFORGE_MODEL": "env-model",
        "AUTOFORGE_USER_BASE_URL": "http://env-user/v1",
        "AUTOFORGE_THREADS": "1",
    }
    cfg = build_config(file=path, environ=env)
    assert resolve_endpoint(cfg, "agent").model == "env-model"
    assert resolve_endpoint(cfg, "judge").model == "file-judge"  # role section beats default
    assert resolve_endpoint(cfg, "user").base_url == "http://env-user/v1"
    assert cfg.embedded.threads == 1

    cfg = config_from_cli(
        llm_config=path,
        model="cli-model",
        llm_set=["judge.model=cli-judge"],
        no_cache=True,
        environ=env,
    )
    assert resolve_endpoint(cfg, "agent").model == "cli-model"
    assert resolve_endpoint(cfg, "judge").model == "cli-judge"
    assert cfg.cache is False


def test_yaml_file_via_environment_and_api_key_fallback(tmp_path: Path) -> None:
    path = write(tmp_path, "llm.yaml", YAML)
    env = {
        "AUTOFORGE_LLM_CONFIG": str(path),
        "OPENAI_API_KEY": "sk-env",
        "AUTOFORGE_AGENT_API_KEY": "sk-agent",
    }
    cfg = build_config(environ=env)
    ep = resolve_endpoint(cfg, "agent")
    assert (ep.base_url, ep.model, ep.max_concurrency, ep.api_key) == (
        "http://yaml-agent/v1",
        "yaml-agent-model",
        3,
        "sk-agent",
    )
    assert cfg.cache is False
    assert resolve_endpoint(cfg, "user").embedded == "default"


def test_embedded_model_choice_and_remote_model_without_url() -> None:
    cfg = config_from_cli(model="small", environ={})
    assert resolve_endpoint(cfg, "agent").embedded == "small"
    cfg = build_config(environ={"AUTOFORGE_EMBEDDED_MODEL": "small"})
    assert resolve_endpoint(cfg, "judge").embedded == "small"
    with pytest.raises(UserError, match=r"--llm-model 'gpt-4o' .* needs a server: give --llm-base"):
        LLMClient(config_from_cli(model="gpt-4o", environ={}), cache=False)


def test_user_mistakes_are_user_errors(tmp_path: Path) -> None:
    with pytest.raises(UserError, match="not found"):
        build_config(file=tmp_path / "missing.toml", environ={})
    with pytest.raises(UserError, match="cannot parse"):
        build_config(file=write(tmp_path, "bad.toml", "[default\n"), environ={})
    with pytest.raises(UserError, match="invalid LLM configuration"):
        build_config(file=write(tmp_path, "typo.toml", "[agent]\nmodle = 'x'\n"), environ={})
    with pytest.raises(UserError, match=r"SECTION\.KEY=VALUE"):
        config_from_cli(llm_set=["agent.model"], environ={})


def test_cache_location_follows_cache_dir(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("AUTOFORGE_CACHE_DIR", str(tmp_path))
    assert build_config(environ={}).resolved_cache_path() == tmp_path / "llm-cache.sqlite"
    cfg = build_config(environ={"AUTOFORGE_LLM_CACHE": str(tmp_path / "x.sqlite")})
    assert cfg.resolved_cache_path() == tmp_path / "x.sqlite"
