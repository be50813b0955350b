"""LLMClient through the scripted transport: same code path as a real endpoint."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest
from pydantic import BaseModel

from autoforge.llm import LLMClient, LLMFailure, ScriptExhausted, TransportError
from autoforge.llm.accounting import usage_table
from autoforge.llm.config import build_config

USER = [{"role": "user", "content": "hi"}]
TOOLS = [
    {
        "type": "function",
        "function": {
            "name": "get_order",
            "description": "Look up an order.",
            "parameters": {
                "type": "object",
                "properties": {"order_id": {"type": "string"}},
                "required": ["order_id"],
            },
        },
    }
]


FENCED_INVALID = '```json\n{"steps": ["a"], "done": "maybe"}\n```'


class Plan(BaseModel):
    steps: list[str]
    done: bool


async def test_structured_validates_and_feeds_error_back() -> None:
    client = LLMClient.scripted([FENCED_INVALID, {"steps": ["a", "b"], "done": True}])
    plan = await client.structured(USER, Plan, purpose="synth.plan")
    assert plan == Plan(steps=["a", "b"], done=True)
    first, second = client.requests
    fmt = first.response_format
    assert fmt is not None and fmt["type"] == "json_schema"
    assert fmt["json_schema"]["name"] == "Plan" and fmt["json_schema"]["strict"] is True
    sent_schema = fmt["json_schema"]["schema"]
    assert sent_schema["properties"] == Plan.model_json_schema()["properties"]
    assert sent_schema["additionalProperties"] is False
    assert sent_schema["required"] == ["steps", "done"]
    assert second.messages[:1] == USER
    assert second.messages[1] == {"role": "assistant", "content": FENCED_INVALID}
    assert "done" in second.messages[2]["content"] and "rejected" in second.messages[2]["content"]
    stats = client.usage.stats("synthesizer", "synth.plan")
    assert (stats.calls, stats.retries, stats.failures) == (2, 1, 0)


async def test_structured_raises_llm_failure_after_retries() -> None:
    client = LLMClient.scripted(["not json", {"steps": "x"}, {"done": 3}])
    with pytest.raises(LLMFailure) as info:
        await client.structured(USER, Plan, purpose="synth.plan", retries=2)
    assert len(info.value.attempts) == 3
    assert info.value.attempts[0]["output"] == "not json"
    assert info.value.purpose == "synth.plan"
    assert client.usage.stats("synthesizer", "synth.plan").failures == 1


async def test_transport_retries_with_exponential_backoff() -> None:
    client = LLMClient.scripted(
        [
            TransportError("502", retryable=True, status=502),
            ConnectionError("reset"),
            TransportError("429", retryable=True, status=429),
            "finally",
        ]
    )
    resp = await client.chat(USER, purpose="rollout.agent")
    assert resp.content == "finally"
    assert len(client.sleeps) == 3
    base = client.config.backoff_base_s
    for i, delay in enumerate(client.sleeps):
        assert base * 2**i <= delay <= base * 2**i * 1.25
    assert client.usage.stats("agent", "rollout.agent").retries == 3


async def test_transport_gives_up_and_non_retryable_errors_fail_fast() -> None:
    cfg = build_config(environ={}, overrides={"max_retries": 1})
    client = LLMClient.scripted([TransportError("503", retryable=True)] * 2, config=cfg)
    with pytest.raises(LLMFailure, match="after 2 attempts"):
        await client.chat(USER, purpose="p")
    client = LLMClient.scripted([TransportError("400 bad request", retryable=False), "unused"])
    with pytest.raises(TransportError, match="400"):
        await client.chat(USER, purpose="p")
    assert client.sleeps == []


async def test_cache_hit_on_rerun_costs_no_call(tmp_path: Path) -> None:
    path = tmp_path / "cache.sqlite"
    first = LLMClient.scripted([{"steps": ["x"], "done": False}], cache=path)
    assert (await first.structured(USER, Plan, purpose="s")).steps == ["x"]
    rerun = LLMClient.scripted([], cache=path)  # an empty script: any real call would raise
    assert (await rerun.structured(USER, Plan, purpose="s")).steps == ["x"]
    assert rerun.requests == []
    row = rerun.usage.summary()[0]
    assert row["cache_hits"] == 1 and row["saved_tokens"] > 0 and row["prompt_tokens"] == 0
    with pytest.raises(ScriptExhausted):  # a different request is not a hit
        await rerun.structured([{"role": "user", "content": "other"}], Plan, purpose="s")


async def test_sampled_calls_are_cached_only_with_a_seed(tmp_path: Path) -> None:
    path = tmp_path / "cache.sqlite"
    client = LLMClient.scripted(["a", "b", "c"], cache=path)
    r1 = await client.chat(USER, purpose="p", temperature=0.8)
    r2 = await client.chat(USER, purpose="p", temperature=0.8)
    assert (r1.content, r2.content) == ("a", "b")  # no seed: every sample is fresh
    await client.chat(USER, purpose="p", temperature=0.8, seed=7)
    again = await client.chat(USER, purpose="p", temperature=0.8, seed=7)
    assert again.cached and again.content == "c"
    skip = LLMClient.scripted(["fresh"], cache=path)
    assert (
        await skip.chat(USER, purpose="p", temperature=0.8, seed=7, cache=False)
    ).content == "fresh"


async def test_protocol_round_trip_with_history() -> None:
    client = LLMClient.scripted(
        [
            {"action": "get_order", "arguments": {"order_id": "o1"}},
            {"action": "reply", "content": "It shipped."},
        ]
    )
    history = [{"role": "system", "content": "Be brief."}, {"role": "user", "content": "o1?"}]
    resp = await client.chat(history, purpose="rollout.agent", tools=TOOLS, tool_mode="protocol")
    call = resp.tool_calls[0]
    assert call["function"]["name"] == "get_order"
    assert json.loads(call["function"]["arguments"]) == {"order_id": "o1"}
    history += [
        resp.history_message(),
        {"role": "tool", "tool_call_id": call["id"], "content": "shipped"},
    ]
    final = await client.chat(history, purpose="rollout.agent", tools=TOOLS, tool_mode="protocol")
    assert final.message == {"role": "assistant", "content": "It shipped."}
    sent = client.requests[1]
    assert sent.tools is None  # protocol mode sends a schema, not tools=
    branches = sent.response_format["json_schema"]["schema"]["anyOf"]
    assert [b["properties"]["action"]["const"] for b in branches] == ["get_order", "reply"]
    roles = [m["role"] for m in sent.messages]
    assert roles == ["system", "user", "assistant", "user"]
    assert json.loads(sent.messages[2]["content"])["action"] == "get_order"
    assert "shipped" in sent.messages[3]["content"]


async def test_protocol_call_ids_are_deterministic_per_request() -> None:
    script = [{"action": "get_order", "arguments": {"order_id": "o1"}}]
    a = await LLMClient.scripted(script).chat(USER, purpose="p", tools=TOOLS)
    b = await LLMClient.scripted(script).chat(USER, purpose="p", tools=TOOLS)
    c = await LLMClient.scripted(script).chat(USER + USER, purpose="p", tools=TOOLS)
    assert a.tool_calls[0]["id"] == b.tool_calls[0]["id"] != c.tool_calls[0]["id"]


async def test_protocol_invalid_action_is_reasked() -> None:
    client = LLMClient.scripted(
        [{"action": "drop_db", "arguments": {}}, {"action": "reply", "content": "ok"}]
    )
    resp = await client.chat(USER, purpose="p", tools=TOOLS)
    assert resp.content == "ok" and resp.attempts == 2
    assert "unknown action" in client.requests[1].messages[-1]["content"]


async def test_native_mode_passes_tools_and_normalizes_calls() -> None:
    native_call = {
        "tool_calls": [{"function": {"name": "get_order", "arguments": {"order_id": "o2"}}}]
    }
    client = LLMClient.scripted([native_call])
    resp = await client.chat(USER, purpose="p", tools=TOOLS, tool_mode="native")
    assert client.requests[0].tools == TOOLS
    assert client.requests[0].response_format is None
    call = resp.tool_calls[0]
    assert call["id"].startswith("call_") and call["type"] == "function"
    assert json.loads(call["function"]["arguments"]) == {"order_id": "o2"}


async def test_reasoning_is_exposed_separately() -> None:
    client = LLMClient.scripted(
        [
            "<think>check the order first</think>Hello!",
            {"role": "assistant", "content": "Hi", "reasoning_content": "r"},
        ]
    )
    resp = await client.chat(USER, purpose="p")
    assert resp.content == "Hello!" and resp.reasoning_content == "check the order first"
    assert "reasoning_content" not in resp.history_message()
    assert resp.history_message(keep_reasoning=True)["reasoning_content"] == "check the order first"
    assert (await client.chat(USER, purpose="p")).reasoning_content == "r"


async def test_accounting_per_role_and_purpose() -> None:
    client = LLMClient.scripted(["a", "bb", "ccc", {"steps": [], "done": True}])
    await client.chat(USER, role="agent", purpose="rollout.agent")
    await client.chat(USER, role="agent", purpose="rollout.agent")
    await client.chat(USER, role="user", purpose="rollout.user")
    await client.structured(USER, Plan, role="judge", purpose="judge.meu")
    rows = {(r["role"], r["purpose"]): r for r in client.usage.summary()}
    assert rows[("agent", "rollout.agent")]["calls"] == 2
    assert rows[("user", "rollout.user")]["calls"] == 1
    assert rows[("judge", "judge.meu")]["calls"] == 1
    assert rows[("total", "")]["calls"] == 4
    total_prompt = sum(r["prompt_tokens"] for k, r in rows.items() if k[0] != "total")
    assert rows[("total", "")]["prompt_tokens"] == total_prompt > 0
    assert usage_table(client.usage.summary()).row_count == 4


async def test_callable_items_see_the_request_and_script_runs_out() -> None:
    seen: list[str] = []

    def answer(request: object) -> str:
        seen.append(request.purpose)  # type: ignore[attr-defined]
        return "from callable"

    async def async_answer(request: object) -> dict[str, str]:
        return {"role": "assistant", "content": "async"}

    client = LLMClient.scripted([answer, async_answer])
    assert (await client.chat(USER, purpose="p1")).content == "from callable"
    assert (await client.chat(USER, purpose="p2")).content == "async"
    assert seen == ["p1"]
    with pytest.raises(ScriptExhausted):
        await client.chat(USER, purpose="p3")


async def test_concurrency_is_limited_per_endpoint() -> None:
    active = 0
    peak = 0

    async def slow(request: object) -> str:
        nonlocal active, peak
        active += 1
        peak = max(peak, active)
        await asyncio.sleep(0.01)
        active -= 1
        return "ok"

    cfg = build_config(environ={}, overrides={"agent": {"max_concurrency": 2}})
    client = LLMClient.scripted([slow] * 6, config=cfg)
    await asyncio.gather(*(client.chat(USER, purpose="p", seed=i) for i in range(6)))
    assert peak == 2


async def test_unknown_role_is_rejected() -> None:
    client = LLMClient.scripted(["x"])
    with pytest.raises(ValueError, match="unknown LLM role"):
        await client.chat(USER, role="critic", purpose="p")


def test_one_client_serves_several_event_loops() -> None:
    async def slow(request: object) -> str:
        await asyncio.sleep(0.01)
        return "ok"

    cfg = build_config(environ={}, overrides={"agent": {"max_concurrency": 1}})
    client = LLMClient.scripted([slow] * 4, config=cfg)

    async def two() -> list[str | None]:
        got = await asyncio.gather(*(client.chat(USER, purpose="p", seed=i) for i in range(2)))
        return [r.content for r in got]

    assert asyncio.run(two()) == ["ok", "ok"]
    assert asyncio.run(two()) == ["ok", "ok"]  # a semaphore bound to the first loop would fail


async def test_native_mode_reads_a_call_written_as_text() -> None:
    text = (
        'I will look it up.\n```json\n{"name": "get_order", "arguments": {"order_id": "o2"}}\n```'
    )
    client = LLMClient.scripted([text])
    resp = await client.chat(USER, purpose="p", tools=TOOLS, tool_mode="native")
    (call,) = resp.tool_calls
    assert call["function"]["name"] == "get_order"
    assert json.loads(call["function"]["arguments"]) == {"order_id": "o2"}
    assert resp.content == "I will look it up."
    plain = LLMClient.scripted(["Which order do you mean?"])
    answer = await plain.chat(USER, purpose="p", tools=TOOLS, tool_mode="native")
    assert answer.tool_calls == [] and answer.content == "Which order do you mean?"


async def test_protocol_mode_accepts_a_call_in_the_common_name_arguments_shape() -> None:
    client = LLMClient.scripted(['{"name": "get_order", "arguments": {"order_id": "o7"}}'])
    resp = await client.chat(USER, purpose="p", tools=TOOLS, tool_mode="protocol")
    (call,) = resp.tool_calls
    assert call["function"]["name"] == "get_order" and resp.attempts == 1
    assert json.loads(call["function"]["arguments"]) == {"order_id": "o7"}
