"""Integration tests against the real embedded model (Qwen2.5-Coder-0.5B, llama.cpp).

One server for the whole session (the process-wide singleton); short prompts; greedy decoding.
Skipped, with the pip command to run, when the ``[model-small]`` extra is not installed.
"""

from __future__ import annotations

import json
from typing import Literal

import pytest
import typer
from pydantic import BaseModel, Field
from typer.testing import CliRunner

from autoforge.llm import LLMClient, LLMConfig
from autoforge.llm.config import build_config

pytestmark = pytest.mark.llm

TOOLS = [
    {
        "type": "function",
        "function": {
            "name": "get_order",
            "description": "Look up an order by its id.",
            "parameters": {
                "type": "object",
                "properties": {"order_id": {"type": "string"}},
                "required": ["order_id"],
            },
        },
    },
    {
        "type": "function",
        "function": {
            "name": "cancel_order",
            "description": "Cancel an order.",
            "parameters": {
                "type": "object",
                "properties": {"order_id": {"type": "string"}, "reason": {"type": "string"}},
                "required": ["order_id", "reason"],
            },
        },
    },
    {
        "type": "function",
        "function": {
            "name": "get_weather",
            "description": "Current weather in a city.",
            "parameters": {
                "type": "object",
                "properties": {"city": {"type": "string"}},
                "required": ["city"],
            },
        },
    },
]
SYSTEM = {"role": "system", "content": "You are a customer service agent."}


@pytest.fixture(scope="session")
def small_config() -> LLMConfig:
    """Config for the embedded 0.5B model; starts its server once for the session."""
    from autoforge.llm.embedded import MODELS, ModelNotInstalled, chunk_paths, ensure_server

    try:
        import xllamacpp  # noqa: F401

        chunk_paths(MODELS["small"])
    except (ImportError, ModelNotInstalled) as exc:
        pytest.skip(f"embedded model not installed ({exc}); pip install -e '.[model-small]'")
    cfg = build_config(
        environ={}, overrides={"embedded": {"model": "small", "ctx_size": 4096}, "cache": False}
    )
    ensure_server("small", cfg.embedded)
    return cfg


class Capital(BaseModel):
    country: str
    capital: str
    continent: Literal["Africa", "Americas", "Asia", "Europe", "Oceania"]
    letters_in_capital: int = Field(ge=1, le=50)


async def test_constrained_json_validates_with_pydantic(small_config: LLMConfig) -> None:
    client = LLMClient(small_config, cache=False)
    question = [{"role": "user", "content": "Describe the capital of France."}]
    value, resp = await client.structured_response(
        question, Capital, purpose="test.structured", max_tokens=80
    )
    await client.aclose()
    assert isinstance(value, Capital)
    assert value.capital.lower() == "paris" and value.continent == "Europe"
    assert resp.attempts == 1  # the grammar made the first answer valid
    assert resp.usage.completion_tokens > 0 and not resp.cached


@pytest.mark.parametrize(
    ("question", "tool", "argument", "expected"),
    [
        ("Is it raining in Paris?", "get_weather", "city", "paris"),
        ("What's the status of order A-992?", "get_order", "order_id", "a-992"),
    ],
)
async def test_action_protocol_picks_tool_and_arguments(
    small_config: LLMConfig, question: str, tool: str, argument: str, expected: str
) -> None:
    client = LLMClient(small_config, cache=False)
    resp = await client.chat(
        [SYSTEM, {"role": "user", "content": question}],
        purpose="test.tools",
        tools=TOOLS,
        max_tokens=60,
    )
    await client.aclose()
    assert resp.tool_calls, f"expected a tool call, got {resp.message}"
    call = resp.tool_calls[0]["function"]
    assert call["name"] == tool
    assert json.loads(call["arguments"])[argument].lower() == expected


async def test_protocol_uses_tool_result_from_history(small_config: LLMConfig) -> None:
    client = LLMClient(small_config, cache=False)
    history = [
        SYSTEM,
        {"role": "user", "content": "Please cancel my order o-17, I ordered by mistake."},
    ]
    first = await client.chat(history, purpose="test.tools", tools=TOOLS, max_tokens=60)
    assert first.tool_calls and first.tool_calls[0]["function"]["name"] == "cancel_order"
    history += [
        first.history_message(),
        {
            "role": "tool",
            "tool_call_id": first.tool_calls[0]["id"],
            "content": '{"order_id": "o-17", "status": "cancelled"}',
        },
    ]
    final = await client.chat(history, purpose="test.tools", tools=TOOLS, max_tokens=60)
    await client.aclose()
    assert not final.tool_calls and final.content
    assert "cancel" in final.content.lower()


def test_llm_check_round_trip(small_config: LLMConfig) -> None:
    from autoforge.cli import llm as llm_cli

    app = typer.Typer()
    llm_cli.register(app)
    app.callback()(lambda: None)
    result = CliRunner().invoke(app, ["llm", "check", "--llm-model", "small"], terminal_width=200)
    assert result.exit_code == 0, result.output
    assert "embedded:small" in result.output and "round trips" in result.output
