"""Interleaved thinking at evaluation: the agent sends its earlier reasoning back, and the
endpoint's chat template is probed once for whether that reasoning reaches the model."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from autoforge.llm import LLMClient
from autoforge.llm.thinking import probe_reasoning
from autoforge.llm.transport import RecordedRequest


def _server(render: Any) -> Any:
    """A scripted endpoint whose prompt-token count is the word count of ``render(messages)``."""

    def answer(request: RecordedRequest) -> dict[str, Any]:
        words = len(render(request.messages).split())
        return {
            "choices": [{"index": 0, "message": {"role": "assistant", "content": "ok"},
                         "finish_reason": "stop"}],
            "usage": {"prompt_tokens": words, "completion_tokens": 1},
        }  # fmt: skip

    return answer


def keeps_field(messages: list[dict[str, Any]]) -> str:
    return " ".join(f"{m.get('reasoning_content', '')} {m['content']}" for m in messages)


def content_only(messages: list[dict[str, Any]]) -> str:  # Qwen2.5-like: ignores the field
    return " ".join(str(m["content"]) for m in messages)


def drops_all(messages: list[dict[str, Any]]) -> str:  # Qwen3-like before the last user turn
    return " ".join(str(m["content"]).split("</think>")[-1] for m in messages)


@pytest.mark.parametrize(
    "render, field, inline",
    [(keeps_field, True, True), (content_only, False, True), (drops_all, False, False)],
)
def test_probe_tells_what_the_template_keeps(render: Any, field: bool, inline: bool) -> None:
    client = LLMClient.scripted([_server(render)] * 3)
    probe = asyncio.run(probe_reasoning(client, "agent"))
    assert (probe.field_kept, probe.inline_kept, probe.kept) == (field, inline, field or inline)
    assert len(client.requests) == 3
    again = asyncio.run(probe_reasoning(client, "agent"))  # once per endpoint
    assert again is probe and len(client.requests) == 3


def test_eval_switches_to_inline_reasoning_when_the_field_is_dropped(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from autoforge.bench.evaluation import EvalSettings
    from autoforge.cli.eval import check_thinking
    from autoforge.rollout.episode import EpisodeConfig

    settings = EvalSettings(env_dir=".", episode=EpisodeConfig(), agent="llm", user="scripted")
    for render, inline in ((content_only, True), (drops_all, False)):
        client = LLMClient.scripted([_server(render)] * 3)
        monkeypatch.setattr("autoforge.bench.evaluation.make_client", lambda config, c=client: c)
        settings.episode.agent.inline_thinking = False
        check_thinking(settings)
        assert settings.episode.agent.inline_thinking is inline
    assert "cannot take effect" in capsys.readouterr().err


def test_agent_with_keep_thinking_sends_earlier_reasoning_back() -> None:
    from autoforge.rollout.agent import Agent, AgentConfig

    reply = {"role": "assistant", "content": "<think>the user wants X</think>Sure."}
    for keep in (True, False):
        client = LLMClient.scripted([reply, "Done."])
        agent = Agent(client, policy="p", tools=[], config=AgentConfig(keep_thinking=keep))
        agent.hear("hello")
        asyncio.run(agent.step(0))
        agent.hear("and now?")
        asyncio.run(agent.step(1))
        sent = [m for m in client.requests[1].messages if m["role"] == "assistant"][-1]
        assert (sent.get("reasoning_content") == "the user wants X") is keep
        assert sent["content"] == "Sure."
