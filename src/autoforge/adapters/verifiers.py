"""A forged environment as a verifiers environment (the ``verifiers`` package, prime-rl's format).

:func:`load_environment` returns a ``vf.MultiTurnEnv`` over a forged run:

- dataset: one row per task (``prompt`` = the policy as system message + the user's request,
  ``info.task_id``);
- tools: the environment's tools with their own JSON schemas (``oai_tools``), run in an episode
  opened at the task's S0 by the sandboxed runtime;
- responder: when the model answers without a tool call, the simulated user replies (the
  role registry's ``user`` kinds: ``scripted`` needs no model, ``llm`` is the LLM user of the
  ``user`` role);
  the user's stop ends the rollout, as in ``autoforge.rollout``;
- rubric: the rollout's exact-state reward (final state hash == S* hash and every required
  output said), computed when the rollout ends, before the episode is closed.

Episodes live in one :class:`~autoforge.serve.service.EnvService` (bounded, evicted when idle).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import verifiers as vf
from datasets import Dataset

from autoforge.adapters.forged import agent_messages, load_forged
from autoforge.errors import UserError
from autoforge.llm import with_text_calls
from autoforge.rollout import OPENING, SimulatedUser, UserFactory
from autoforge.serve import EnvService, ServeError

_STATE_KEY = "autoforge"


def task_dataset(service: EnvService) -> Dataset:
    """One row per task: the system policy (with the task's session user, where it has one) and
    the user's request, the task id in ``info``."""
    rows = []
    for task_id in service.tasks.ids():
        task = service.tasks.get(task_id)
        prompt = [{"role": "user", "content": task.scenario.opening()}]
        system = task.with_session(service.policy)  # the policy, then who is signed in
        if system:
            prompt.insert(0, {"role": "system", "content": system})
        rows.append({"prompt": prompt, "answer": "", "info": {"task_id": task_id}})
    return Dataset.from_list(rows)


def users_of(kind: str, llm: Any = None) -> UserFactory:
    """The simulated user: a ``user`` kind of the role registry (``scripted``: no model;
    ``llm``: the ``user`` role of ``llm``, an ``autoforge.llm.LLMConfig`` or its dict)."""
    from autoforge.rollout import EpisodeConfig, kind_needs_llm, user_factory

    client = None
    if kind_needs_llm("user", kind):
        from autoforge.llm import LLMConfig, get_client

        if llm is None:
            raise UserError(f"user={kind!r} needs llm=LLMConfig(...) (or its dict): its model")
        client = get_client(llm if isinstance(llm, LLMConfig) else LLMConfig.model_validate(llm))
    return user_factory(kind, client, EpisodeConfig())


async def exact_state_reward(state: Any, **kwargs: Any) -> float:
    """The rollout's reward of the episode (1.0 iff S* reached and every output said)."""
    info = (state.get(_STATE_KEY) or {}).get("reward") or {}
    return float(info.get("reward") or 0.0)


async def state_matches(state: Any, **kwargs: Any) -> float:
    """Metric: the final state hash equals S* (whatever the agent said)."""
    info = (state.get(_STATE_KEY) or {}).get("reward") or {}
    final = info.get("state_hash")
    return float(final is not None and final == info.get("gold_state_hash"))


class ForgedToolEnv(vf.MultiTurnEnv):
    """Multi-turn tool use in a forged environment, with a simulated user as the responder."""

    def __init__(
        self, service: EnvService, users: UserFactory, *, max_turns: int = 30, **kwargs: Any
    ) -> None:
        self.service = service
        self.users = users
        self._live: dict[str, SimulatedUser] = {}
        rubric = vf.Rubric(funcs=[exact_state_reward, state_matches], weights=[1.0, 0.0])
        super().__init__(
            dataset=task_dataset(service),
            rubric=rubric,
            oai_tools=service.tools,
            max_turns=max_turns,
            env_id=f"autoforge-{service.env_id}",
            **kwargs,
        )

    async def setup_state(self, state: Any) -> Any:
        """Open the task's episode; the simulated user writes the opening message."""
        task_id = state["info"]["task_id"]
        task = self.service.tasks.get(task_id)
        opened = self.service.open_episode(task_id)
        state[_STATE_KEY] = {"episode_id": opened["episode_id"], "task_id": task_id}
        seed = int(state.get("example_id") or 0)
        user = self._live[state["trajectory_id"]] = self.users(task, seed)
        first = await user.reply(OPENING)
        if first.text:
            state["prompt"] = [*state["prompt"][:-1], {"role": "user", "content": first.text}]
        return state

    async def add_model_response(self, state: Any, prompt_messages: Any, response: Any) -> None:
        """Record the model's turn, with tool calls it wrote as text (small models served
        without a tool-call parser) turned into ``tool_calls``, so they run as calls."""
        await super().add_model_response(state, prompt_messages, response)
        step = state["trajectory"][-1]
        step["completion"] = [
            with_text_calls(m, self.service.tools)
            if isinstance(m, dict) and m.get("role") == "assistant"
            else m
            for m in step["completion"]
        ]

    async def env_response(self, messages: Any, state: Any, **kwargs: Any) -> Any:
        """Tool results for tool calls; otherwise the simulated user's reply (or its stop)."""
        last = messages[-1]
        calls = _get(last, "tool_calls") or []
        if calls:
            episode = state[_STATE_KEY]["episode_id"]
            return [self._run_call(episode, call) for call in calls]
        reply = await self._live[state["trajectory_id"]].reply(_get(last, "content") or "")
        if reply.stop:
            state["final_env_response"] = []
            return []
        return [{"role": "user", "content": reply.text}]

    def _run_call(self, episode: str, call: Any) -> dict[str, Any]:
        function = _get(call, "function") or {}
        name = _get(function, "name") or ""
        try:
            arguments = json.loads(_get(function, "arguments") or "{}")
            content = self.service.call(episode, name, arguments)["content"]
        except json.JSONDecodeError as exc:
            content = f"Error: the arguments of {name} are not JSON ({exc.msg})"
        except ServeError as exc:
            content = exc.message
        return {"role": "tool", "content": content, "tool_call_id": _get(call, "id") or ""}

    @vf.cleanup
    async def score_and_close(self, state: Any) -> None:
        """Score the final state (the rubric reads it) and free the episode."""
        self._live.pop(state.get("trajectory_id", ""), None)
        info = state.get(_STATE_KEY)
        if not info or "reward" in info:
            return
        conversation: list[Any] = []
        if state["trajectory"]:
            step = state["trajectory"][-1]
            conversation = [*step["prompt"], *step["completion"]]
        said = agent_messages([_as_dict(m) for m in conversation])
        try:
            info["reward"] = self.service.reward(info["episode_id"], said)
            self.service.close(info["episode_id"])
        except ServeError as exc:  # evicted while idle: unscored
            info["reward"] = {"reward": None, "reason": exc.message}


def load_environment(
    path: str | Path,
    tasks: str | Path | None = None,
    *,
    user: str = "scripted",
    max_turns: int = 30,
    llm: Any = None,
    **kwargs: Any,
) -> ForgedToolEnv:
    """The verifiers environment of a forged run directory (or installed environment package);
    ``llm`` (an ``LLMConfig`` or its dict) for ``user="llm"``."""
    service = load_forged(path, tasks)
    return ForgedToolEnv(service, users_of(user, llm), max_turns=max_turns, **kwargs)


def _get(obj: Any, key: str) -> Any:
    return obj.get(key) if isinstance(obj, dict) else getattr(obj, key, None)


def _as_dict(message: Any) -> dict[str, Any]:
    if isinstance(message, dict):
        return message
    dump = getattr(message, "model_dump", None)
    return dump() if callable(dump) else {}
