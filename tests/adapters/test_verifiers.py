"""The verifiers adapter against the real ``verifiers`` package: dataset, tools, the simulated
user as responder and the exact-state rubric, played by a scripted model behind a real
``AsyncOpenAI`` client (HTTP answered in process)."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("verifiers", reason="needs the [adapters] extra: pip install -e '.[adapters]'")

from autoforge.adapters.verifiers import load_environment


def _writer(tasks: list[Any]) -> Any:
    return next(t for t in tasks if t.initial_state_hash != t.final_state_hash)


def _row(env: Any, task_id: str) -> dict[str, Any]:
    return next(dict(r) for r in env.get_dataset() if r["info"]["task_id"] == task_id)


def _play(env: Any, task_id: str, client: Any) -> Any:
    output = env.run_rollout(
        _row(env, task_id), client, "scripted", {}, state_columns=["autoforge"]
    )
    return asyncio.run(output)


@pytest.fixture(scope="module")
def vf_env(forged_run: Path) -> Any:
    return load_environment(forged_run)


def test_dataset_is_the_tasks_and_tools_are_the_environments(
    vf_env: Any, forged_run: Path, run_tasks: list[Any]
) -> None:
    from autoforge.env import Environment

    spec = Environment.load(forged_run / "env").spec
    rows = list(vf_env.get_dataset())
    assert sorted(r["info"]["task_id"] for r in rows) == sorted(t.id for t in run_tasks)
    by_id = {t.id: t for t in run_tasks}
    for row in rows:
        system, user = row["prompt"]
        assert system == {"role": "system", "content": spec.policy}
        assert user["content"] == by_id[row["info"]["task_id"]].scenario.question
    assert vf_env.oai_tools == [t.openai_tool() for t in spec.tools]


def test_scripted_model_solves_a_task_and_is_rewarded(
    vf_env: Any, run_tasks: list[Any], scripted_openai: Any, solution: Any
) -> None:
    task = _writer(run_tasks)
    client = scripted_openai(solution(task))
    out = _play(vf_env, task.id, client)
    assert out["reward"] == 1.0
    assert out["metrics"]["state_matches"] == 1.0
    assert out["autoforge"]["reward"]["state_hash"] == task.final_state_hash
    assert out["stop_condition"] == "has_final_env_response"  # the simulated user stopped
    first = client.requests[0]
    assert {t["function"]["name"] for t in first["tools"]} >= {c.name for c in task.gold_calls}
    # the tool results and the user's replies reached the model
    roles = [m["role"] for m in client.requests[-1]["messages"]]
    assert roles.count("tool") == len(task.gold_calls) and roles.count("user") >= 2
    assert len(vf_env.service.store) == 0  # the episode was closed after scoring


def test_a_model_that_only_talks_scores_zero(
    vf_env: Any, run_tasks: list[Any], scripted_openai: Any
) -> None:
    task = _writer(run_tasks)
    talk = [{"role": "assistant", "content": "Sure, could you tell me more?"}] * 4
    out = _play(vf_env, task.id, scripted_openai(talk))
    assert out["reward"] == 0.0 and out["metrics"]["state_matches"] == 0.0
    assert "final state" in out["autoforge"]["reward"]["reason"]


def test_unknown_user_is_refused(forged_run: Path) -> None:
    from autoforge.errors import UserError

    with pytest.raises(UserError, match="unknown user kind 'oracle': choose one of llm, scripted"):
        load_environment(forged_run, user="oracle")


def test_calls_written_as_text_run_as_tool_calls(
    vf_env: Any, run_tasks: list[Any], scripted_openai: Any, solution: Any
) -> None:
    """A small model behind a server without a tool-call parser writes its calls as JSON text:
    they still run, and the task is solved as with native calls."""
    import json

    task = _writer(run_tasks)
    native, *rest = solution(task)
    text = "\n".join(
        "<tool_call>\n" + json.dumps({"name": c["function"]["name"],
                                      "arguments": json.loads(c["function"]["arguments"])})
        + "\n</tool_call>"
        for c in native["tool_calls"]
    )  # fmt: skip
    client = scripted_openai([{"role": "assistant", "content": text}, *rest])
    out = _play(vf_env, task.id, client)
    assert out["reward"] == 1.0 and out["metrics"]["state_matches"] == 1.0
    sent = client.requests[1]["messages"]
    assert any(m["role"] == "assistant" and m.get("tool_calls") for m in sent)
    assert sum(m["role"] == "tool" for m in sent) == len(task.gold_calls)
