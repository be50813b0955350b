"""The serving core: an environment, its tasks and a bounded set of isolated episodes.

Transport-free (the FastAPI app and the MCP server are thin shells over it) and synchronous: a
tool call of the runtime takes tens of microseconds, so handlers call it inline on the event
loop, which also serialises every call to an episode without locks. What a response carries
is built here as plain dicts, ready for a fast JSON encoder.
"""

from __future__ import annotations

import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from autoforge.rollout.reward import compute_reward
from autoforge.rollout.trajectory import EndReason, ToolCallRecord, Trajectory
from autoforge.serve.errors import InvalidArguments, NoTask, UnknownTool
from autoforge.serve.sessions import CallLog, Session, SessionStore
from autoforge.serve.tasks import ServedTask, TaskIndex


class ObservationLike(Protocol):
    """What ``Episode.call`` returns (see ``docs/architecture.md``)."""

    ok: bool
    content: str
    error_kind: str | None


class EpisodeLike(Protocol):
    """The part of the runtime's ``Episode`` the server uses."""

    def call(self, name: str, arguments: Mapping[str, Any]) -> Any: ...

    def state_hash(self) -> str: ...


@dataclass(frozen=True)
class Limits:
    """Session bounds: how many episodes at once, and how long an idle one is kept.

    The per-call time limit is the environment's own (``Environment.load(call_timeout_s=)``):
    a call past it returns an observation with ``error_kind="timeout"``.
    """

    max_sessions: int = 256
    idle_timeout_s: float = 600.0


class EnvService:
    """One environment served to many clients, each in its own episode."""

    def __init__(
        self,
        env: Any,
        tasks: Sequence[ServedTask] = (),
        *,
        limits: Limits | None = None,
        isolated: bool = False,
    ) -> None:
        self.env = env
        self.limits = limits or Limits()
        self.tasks = TaskIndex(tasks)
        self.mode = "isolated" if isolated else "inline"
        self.store: SessionStore[EpisodeLike] = SessionStore(
            self.limits.max_sessions, self.limits.idle_timeout_s, on_close=_close_episode
        )
        self._task_envs: dict[str, Any] = {}
        self.env_id: str = env.spec.name
        self.policy: str = env.spec.policy
        self.tools: list[dict[str, Any]] = [t.openai_tool() for t in env.spec.tools]
        self.tool_names = frozenset(t.name for t in env.spec.tools)

    def open_episode(self, task_id: str | None = None, seed: int | None = None) -> dict[str, Any]:
        """Start an episode (from a task, a seeded task pick, or the initial state)."""
        task = self.tasks.get(task_id) if task_id is not None else None
        if task is None and seed is not None:
            task = self.tasks.pick(seed)
        env = self._env_for(task)
        session = self.store.open(
            lambda: env.episode(mode=self.mode), task_id=task.id if task else None, seed=seed
        )
        return {
            "episode_id": session.id,
            "env_id": self.env_id,
            "task_id": session.task_id,
            "seed": seed,
            "question": task.question if task else None,
            "policy": self.policy,
            "tools": self.tools,
        }

    def _env_for(self, task: ServedTask | None) -> Any:
        """The environment over the task's S0, built once per task: opening an episode then
        copies nothing and rehashes nothing (the runtime shares the base state's digests)."""
        if task is None or task.initial_state is None:
            return self.env
        env = self._task_envs.get(task.id)
        if env is None:
            env = self._task_envs[task.id] = self.env.with_initial_state(task.initial_state)
        return env

    def call(self, episode_id: str, name: str, arguments: Any) -> dict[str, Any]:
        """Run one tool call; unknown tools and bad arguments raise (404 / 422) after logging."""
        session = self.store.get(episode_id)
        if not isinstance(arguments, dict):
            obs = _refusal(f"arguments of {name} must be a JSON object, got {_kind(arguments)}")
            self._log(session, name, {}, obs, 0.0)
            raise InvalidArguments(obs["content"], extra={"observation": obs})
        start = time.perf_counter()
        raw = session.episode.call(name, arguments)
        elapsed = time.perf_counter() - start
        obs = {"ok": raw.ok, "content": raw.content, "error_kind": raw.error_kind}
        self._log(session, name, arguments, obs, elapsed)
        if raw.error_kind == "unknown_tool":
            raise UnknownTool(
                raw.content, extra={"observation": obs, "tools": sorted(self.tool_names)}
            )
        if raw.error_kind == "invalid_arguments":
            raise InvalidArguments(raw.content, extra={"observation": obs})
        return obs

    @staticmethod
    def _log(
        session: Session[EpisodeLike],
        name: str,
        args: dict[str, Any],
        obs: dict[str, Any],
        s: float,
    ) -> None:
        session.calls.append(CallLog(name, args, obs["ok"], obs["content"], obs["error_kind"], s))

    def info(self, episode_id: str) -> dict[str, Any]:
        """What an episode is: its task, how many calls it made, and its current state hash."""
        session = self.store.get(episode_id)
        return {
            "episode_id": session.id,
            "env_id": self.env_id,
            "task_id": session.task_id,
            "seed": session.seed,
            "n_calls": len(session.calls),
            "state_hash": session.episode.state_hash(),
        }

    def reward(self, episode_id: str, messages: Sequence[Any] = ()) -> dict[str, Any]:
        """Score the episode now with the rollout's reward code (state hash vs S*, outputs).

        ``messages`` are the agent's messages to the user: OpenAI-format dicts or plain strings
        (each taken as an assistant message). The episode stays open.
        """
        session = self.store.get(episode_id)
        if session.task_id is None:
            raise NoTask(
                f"episode {episode_id} was not started from a task, so it has no reward; "
                'open it with POST /episodes {"task_id": ...}'
            )
        task = self.tasks.get(session.task_id)
        traj = self.trajectory(session, task, messages)
        info = compute_reward(task.spec, traj)
        return {
            "episode_id": session.id,
            "task_id": task.id,
            "reward": info.reward,
            "reason": info.reason,
            "components": info.components,
            "details": info.details,
            "state_hash": traj.final_state_hash,
            "gold_state_hash": task.spec.gold_state_hash,
        }

    def trajectory(
        self, session: Session[EpisodeLike], task: ServedTask, messages: Sequence[Any]
    ) -> Trajectory:
        """The episode so far as a rollout ``Trajectory`` (ended by the agent)."""
        records = [
            ToolCallRecord(
                step=i,
                call_id=f"call_{i}",
                name=c.name,
                arguments=c.arguments,
                ok=c.ok,
                observation=c.content,
                error_kind=c.error_kind,
                duration_s=c.duration_s,
            )
            for i, c in enumerate(session.calls)
        ]
        return Trajectory(
            task_id=task.id,
            seed=session.seed,
            env_id=self.env_id,
            messages=[_as_message(m) for m in messages],
            tool_calls=records,
            n_steps=len(records),
            n_tool_errors=sum(not c.ok for c in session.calls),
            end_reason=EndReason.AGENT_STOP,
            final_state_hash=session.episode.state_hash(),
        )

    def close(self, episode_id: str) -> dict[str, Any]:
        """Close an episode and free its slot."""
        session = self.store.close(episode_id)
        return {"episode_id": session.id, "closed": True, "n_calls": len(session.calls)}

    def health(self) -> dict[str, Any]:
        """Liveness plus the load: open episodes out of the limit."""
        return {
            "status": "ok",
            "env_id": self.env_id,
            "open_episodes": len(self.store),
            "max_sessions": self.limits.max_sessions,
            "tasks": len(self.tasks),
        }


def _close_episode(episode: Any) -> None:
    close = getattr(episode, "close", None)
    if close is not None:
        close()


def _as_message(message: Any) -> dict[str, Any]:
    if isinstance(message, str):
        return {"role": "assistant", "content": message}
    if isinstance(message, dict) and isinstance(message.get("role"), str):
        return message
    raise InvalidArguments(
        "each message must be a string or an OpenAI-format object with a 'role', "
        f"got {_kind(message)}"
    )


def _refusal(content: str) -> dict[str, Any]:
    return {"ok": False, "content": content, "error_kind": "invalid_arguments"}


def _kind(value: Any) -> str:
    return {dict: "an object", list: "an array", str: "a string", type(None): "null"}.get(
        type(value), type(value).__name__
    )
