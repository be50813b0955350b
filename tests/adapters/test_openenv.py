"""The OpenEnv adapter against the real ``openenv-core``: its server app on a loopback port,
driven by OpenEnv's own ``MCPToolClient`` (and the thin subclass that keeps reset fields)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("openenv", reason="needs the [adapters] extra: pip install -e '.[adapters]'")

from openenv.core.env_server.mcp_types import CallToolAction
from openenv.core.mcp_client import MCPToolClient

from autoforge.adapters.forged import FINISH_TOOL, load_forged
from autoforge.adapters.openenv import (
    ForgedEnvClient,
    ForgedEnvironment,
    create_openenv_app,
    tool_text,
)
from autoforge.errors import UserError


def _outputs(task: Any) -> str:
    return "Here is what you asked for: " + "; ".join(o.text for o in task.required_outputs)


def _writer(tasks: list[Any]) -> Any:
    """A task whose gold calls change the state (doing nothing cannot reach its S*)."""
    return next(t for t in tasks if t.initial_state_hash != t.final_state_hash)


def _call(client: Any, name: str, **arguments: Any) -> Any:
    return client.step(CallToolAction(tool_name=name, arguments=arguments))


@pytest.fixture
def server(forged_run: Path, live_server: Any) -> Any:
    return live_server(create_openenv_app(load_forged(forged_run)))


def test_gold_episode_over_openenv_client_is_rewarded(server: Any, run_tasks: list[Any]) -> None:
    task = next(t for t in run_tasks if t.required_outputs)
    with ForgedEnvClient(base_url=server.url).sync() as client:
        reset = client.reset(task_id=task.id)
        assert reset.observation.metadata["task_id"] == task.id
        assert reset.observation.metadata["question"] == task.scenario.question
        assert "Inkwell" in reset.observation.metadata["policy"]
        tools = {t.name: t for t in client.list_tools()}
        for gold in task.gold_calls:
            result = _call(client, gold.name, **gold.arguments)
            assert not result.done and result.observation.error is None
            assert not result.observation.result["is_error"], tool_text(result.observation)
        end = _call(client, FINISH_TOOL, message=_outputs(task))
        state = client.state()
    assert end.done and end.reward == 1.0
    assert end.observation.result["state_hash"] == task.final_state_hash
    assert state.step_count == len(task.gold_calls) + 2  # list_tools is a step too
    assert FINISH_TOOL in tools and all(g.name in tools for g in task.gold_calls)


def test_tool_schemas_are_the_environments(server: Any, forged_run: Path) -> None:
    from autoforge.env import Environment

    spec = Environment.load(forged_run / "env").spec
    with ForgedEnvClient(base_url=server.url).sync() as client:
        client.reset(task_id=None)
        listed = {t.name: t.input_schema for t in client.list_tools()}
    assert set(listed) == {t.name for t in spec.tools} | {FINISH_TOOL}
    for tool in spec.tools:
        assert listed[tool.name]["properties"] == tool.parameters["properties"]
        assert sorted(listed[tool.name].get("required", [])) == sorted(tool.parameters["required"])


def test_do_nothing_scores_zero_and_ended_episode_refuses_calls(
    server: Any, run_tasks: list[Any]
) -> None:
    task = _writer(run_tasks)
    with ForgedEnvClient(base_url=server.url).sync() as client:
        client.reset(task_id=task.id)
        end = _call(client, FINISH_TOOL, message=_outputs(task))
        after = _call(client, task.gold_calls[0].name, **task.gold_calls[0].arguments)
    assert end.done and end.reward == 0.0
    assert "final state" in end.observation.result["reason"]
    assert after.observation.error is not None
    assert "ended" in after.observation.error.message


def test_stock_mcp_tool_client_runs_tools_and_reports_errors(
    server: Any, run_tasks: list[Any]
) -> None:
    task = run_tasks[0]
    gold = task.gold_calls[0]
    with MCPToolClient(base_url=server.url).sync() as client:
        client.reset(task_id=task.id)
        ok = client.step(CallToolAction(tool_name=gold.name, arguments=gold.arguments))
        bad = client.step(CallToolAction(tool_name=gold.name, arguments={"nope": 1}))
        missing = client.step(CallToolAction(tool_name="no_such_tool", arguments={}))
    assert not ok.observation.result["is_error"]
    bad_text = tool_text(bad.observation)
    assert bad.observation.error is not None or bad.observation.result["is_error"], bad_text
    assert missing.observation.error is not None


def test_sessions_are_isolated(server: Any, run_tasks: list[Any]) -> None:
    task = _writer(run_tasks)
    with (
        ForgedEnvClient(base_url=server.url).sync() as solver,
        ForgedEnvClient(base_url=server.url).sync() as idler,
    ):
        solver.reset(task_id=task.id)
        idler.reset(task_id=task.id)
        for gold in task.gold_calls:
            _call(solver, gold.name, **gold.arguments)
        idle_end = _call(idler, FINISH_TOOL, message=_outputs(task))
        solved_end = _call(solver, FINISH_TOOL, message=_outputs(task))
    assert (solved_end.reward, idle_end.reward) == (1.0, 0.0)


def test_in_process_environment_and_reserved_name(forged_run: Path, run_tasks: list[Any]) -> None:
    service = load_forged(forged_run)
    env = ForgedEnvironment(service)
    task = next(t for t in run_tasks if t.required_outputs)
    obs = env.reset(task_id=task.id)
    assert obs.question == task.scenario.question
    for gold in task.gold_calls:
        env.step(CallToolAction(tool_name=gold.name, arguments=gold.arguments))
    end = env.step(CallToolAction(tool_name=FINISH_TOOL, arguments={"message": "nothing"}))
    assert end.done and end.reward == 0.0  # state reached, required outputs not said
    assert "missing required outputs" in end.result["reason"]
    env.close()
    assert len(service.store) == 0

    service.tool_names = service.tool_names | {FINISH_TOOL}
    with pytest.raises(UserError, match=FINISH_TOOL):
        ForgedEnvironment(service)


def test_serve_openenv_refuses_beyond_loopback(
    forged_run: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from autoforge.cli.main import main

    with pytest.raises(SystemExit) as exit_info:
        main(["serve", str(forged_run), "--openenv", "--host", "0.0.0.0"])
    assert exit_info.value.code == 2
    assert "only on loopback" in capsys.readouterr().err
