"""``--llm none``: no model at all; every request fails at once, callers see ``rules_only``."""

from __future__ import annotations

import asyncio

import pytest
from typer.testing import CliRunner

from autoforge.cli.llm import llm_config_from_options
from autoforge.llm import LLMClient, LLMFailure, build_config


def test_model_none_disables_every_role_without_a_transport_call() -> None:
    config = llm_config_from_options(llm_model="none")
    client = LLMClient.scripted(["never sent"], config=config)
    assert all(client.rules_only(role) for role in ("synthesizer", "agent", "user", "judge"))
    assert client.endpoint("agent").label == "none (rules only)"
    with pytest.raises(LLMFailure, match="rules only"):
        asyncio.run(client.chat([{"role": "user", "content": "hi"}], role="agent", purpose="t"))
    assert client.requests == []  # nothing reached the transport
    assert client.usage.stats("agent", "t").failures == 1


def test_default_and_named_models_are_not_rules_only() -> None:
    client = LLMClient.scripted([], config=build_config(environ={}))
    assert not client.rules_only()
    small = LLMClient.scripted([], config=llm_config_from_options(llm_model="small"))
    assert not small.rules_only()


def test_one_role_can_be_none_through_llm_set() -> None:
    config = llm_config_from_options(llm_set=["synthesizer.model=none"])
    client = LLMClient.scripted([], config=config)
    assert client.rules_only("synthesizer") and not client.rules_only("agent")


def test_cli_llm_none_alias_shows_in_llm_check() -> None:
    from autoforge.cli.main import app

    result = CliRunner().invoke(app, ["llm", "check", "--llm", "none"], env={"COLUMNS": "200"})
    assert result.exit_code == 0, result.output
    assert "none (rules only)" in result.output and "no model: rules only" in result.output
