"""The serving core: an environment, its tasks and a bounded set of isolated episodes.

Transport-free (the FastAPI app and the MCP server are thin shells over it) and synchronous:
the transports run these methods in worker threads (:mod:`autoforge.serve.runner`), one call
at a time per episode, so a slow or stuck tool never stalls the event loop. Every episode has
an owner (the bearer token that opened it, ``"local"`` without auth); the other methods take
the caller's owner and refuse other owners' episodes as unknown. What a response carries is
built here as plain dicts, ready for a fast JSON encoder.
"""

from __future__ import annotations

import importlib
import itertools
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from autoforge.env import Environment, EpisodeLike
from autoforge.rollout import EndReason, ToolCallRecord, Trajectory, compute_reward
from autoforge.serve.errors import InvalidArguments, NoTask, UnknownTool
from autoforge.serve.sessions import (
    LOCAL_OWNER,
    LogLimits,
    Session,
    SessionStore,
    bounded_entry,
)
from autoforge.serve.tasks import TaskIndex
from autoforge.tasks import Task

#: How episodes run: each in a worker of its own, inline (trusted code), or in shared lanes.
ServeMode = Literal["isolated", "inline", "lanes"]


@dataclass(frozen=True)
class Limits:
    """Session bounds: how many episodes at once (in all and per token), how long an idle one
    is kept, and how much of each episode's calls is logged (for its reward).

    Untrusted tool code runs in ``worker_lanes`` sandboxed workers, episodes assigned round
    robin: a stuck or crashing call holds up only the episodes of its lane (and only until the
    runtime's time limit kills and replaces that worker), and 200 open episodes still cost a
    handful of processes. ``autoforge serve --isolated`` gives every episode a worker of its own.

    The per-call time limit is the environment's own (``Environment.load(call_timeout_s=)``):
    a call past it returns an observation with ``error_kind="timeout"``. ``call_wait_s`` is how
    long the server waits for a call before answering 504 (default: that limit + 5 s, room for
    an isolated worker to be killed and replaced).
    """

    max_sessions: int = 256
    idle_timeout_s: float = 600.0
    max_sessions_per_token: int | None = None
    log: LogLimits = field(default_factory=LogLimits)
    call_wait_s: float | None = None
    max_error_chars: int = 2000
    worker_lanes: int = 4


class EnvService:
    """One environment served to many clients, each in its own episode."""

    def __init__(
        self,
        env: Environment,
        tasks: Sequence[Task] = (),
        *,
        limits: Limits | None = None,
        isolated: bool = False,
    ) -> None:
        self.env = env
        self.limits = limits or Limits()
        self.tasks = TaskIndex(tasks)
        # untrusted tool code: a sandboxed worker per episode, so a stuck or crashing call
        # never holds up another client's episode; a trusted environment runs inline
        trusted = env.trusted
        self.mode: ServeMode = "isolated" if isolated else "inline" if trusted else "lanes"
        self._lanes: list[Any] = []
        self._next_lane = itertools.count()
        self.store: SessionStore[EpisodeLike] = SessionStore(
            self.limits.max_sessions,
            self.limits.idle_timeout_s,
            on_close=_close_episode,
            max_per_owner=self.limits.max_sessions_per_token,
        )
        self._task_envs: dict[str, Environment] = {}
        self.env_id: str = env.spec.name
        self.policy: str = env.spec.policy
        self.tools: list[dict[str, Any]] = [t.openai_tool() for t in env.spec.tools]
        self.tool_names = frozenset(t.name for t in env.spec.tools)
        timeout = float(env.call_timeout_s)
        self.call_wait_s = self.limits.call_wait_s or timeout + 5.0

    def _episode(self, env: Environment) -> EpisodeLike:
        """A new episode of ``env`` (the served environment or a task's S0 variant of it)."""
        mode = self.mode
        if mode != "lanes" or env._runtime is None:
            return env.episode(mode=None if mode == "lanes" else mode)
        from autoforge.env import ContainedEpisode, ContainedRuntime

        if not self._lanes:
            memory = int(env._runtime.memory_mb)
            self._lanes = [
                ContainedRuntime(self.env, memory_mb=memory, eager=False)
                for _ in range(max(1, self.limits.worker_lanes))
            ]
        return ContainedEpisode(env, self._lanes[next(self._next_lane) % len(self._lanes)])

    def open_episode(
        self, task_id: str | None = None, seed: int | None = None, *, owner: str = LOCAL_OWNER
    ) -> dict[str, Any]:
        """Start an episode of ``owner`` (from a task, a seeded task pick, or the initial
        state); 429 past the session limit or the owner's quota, 422 for a seed that is not a
        64-bit integer (checked before anything is created)."""
        check_seed(seed)
        task = self.tasks.get(task_id) if task_id is not None else None
        if task is None and seed is not None:
            task = self.tasks.pick(seed)
        env = self._env_for(task)
        session = self.store.open(
            lambda: self._episode(env),
            task_id=task.id if task else None,
            seed=seed,
            owner=owner,
        )
        return {
            "episode_id": session.id,
            "env_id": self.env_id,
            "task_id": session.task_id,
            "seed": seed,
            "question": task.scenario.opening() if task else None,
            "policy": task.with_session(self.policy) if task else self.policy,
            "tools": self.tools,
        }

    def _env_for(self, task: Task | None) -> Environment:
        """The environment over the task's S0, built once per task: opening an episode then
        copies nothing and rehashes nothing (the runtime shares the base state's digests)."""
        if task is None or task.initial_state is None:
            return self.env
        env = self._task_envs.get(task.id)
        if env is None:
            env = self._task_envs[task.id] = self.env.with_initial_state(task.initial_state)
        return env

    def call(
        self, episode_id: str, name: str, arguments: Any, *, owner: str = LOCAL_OWNER
    ) -> dict[str, Any]:
        """Run one tool call; unknown tools and bad arguments raise (404 / 422) after logging."""
        session = self.store.get(episode_id, owner)
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
            tools = sorted(self.tool_names)
            raise UnknownTool(self._short(raw.content), extra={"observation": obs, "tools": tools})
        if raw.error_kind == "invalid_arguments":
            raise InvalidArguments(self._short(raw.content), extra={"observation": obs})
        return obs

    def _short(self, message: str) -> str:
        """An error message cut to ``max_error_chars`` (the full text is in the observation)."""
        limit = self.limits.max_error_chars
        return message if len(message) <= limit else message[:limit] + " [...]"

    def _log(
        self,
        session: Session[EpisodeLike],
        name: str,
        args: dict[str, Any],
        obs: dict[str, Any],
        s: float,
    ) -> None:
        limits = self.limits.log
        session.log(bounded_entry(name, args, obs, s, limits.max_value_bytes), limits)

    def info(self, episode_id: str, *, owner: str = LOCAL_OWNER) -> dict[str, Any]:
        """What an episode is: its task, how many calls it made, and its current state hash."""
        session = self.store.get(episode_id, owner)
        return {
            "episode_id": session.id,
            "env_id": self.env_id,
            "task_id": session.task_id,
            "seed": session.seed,
            "n_calls": session.n_calls,
            "state_hash": session.episode.state_hash(),
        }

    def reward(
        self, episode_id: str, messages: Sequence[Any] = (), *, owner: str = LOCAL_OWNER
    ) -> dict[str, Any]:
        """Score the episode now with the rollout's reward code (state hash vs S*, outputs).

        ``messages`` are the agent's messages to the user: OpenAI-format dicts or plain strings
        (each taken as an assistant message). The episode stays open. Only the calls still in
        the bounded log count (all of them unless it overflowed).
        """
        session = self.store.get(episode_id, owner)
        if session.task_id is None:
            raise NoTask(
                f"episode {episode_id} was not started from a task, so it has no reward; "
                'open it with POST /episodes {"task_id": ...}'
            )
        task = self.tasks.get(session.task_id)
        traj = self.trajectory(session, task, messages)
        info = compute_reward(task, traj)
        return {
            "episode_id": session.id,
            "task_id": task.id,
            "reward": info.reward,
            "reason": info.reason,
            "components": info.components,
            "details": info.details,
            "state_hash": traj.final_state_hash,
            "gold_state_hash": task.final_state_hash,
        }

    def trajectory(
        self, session: Session[EpisodeLike], task: Task, messages: Sequence[Any]
    ) -> Trajectory:
        """The episode so far as a rollout ``Trajectory`` (ended by the agent)."""
        records = [
            ToolCallRecord(
                step=session.log_dropped + i,
                call_id=f"call_{session.log_dropped + i}",
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
            n_steps=session.n_calls,
            n_tool_errors=sum(not c.ok for c in session.calls),
            end_reason=EndReason.AGENT_STOP,
            final_state_hash=session.episode.state_hash(),
        )

    def close(self, episode_id: str, *, owner: str = LOCAL_OWNER) -> dict[str, Any]:
        """Close an episode and free its slot."""
        session = self.store.close(episode_id, owner)
        return {"episode_id": session.id, "closed": True, "n_calls": session.n_calls}

    def boundary(self) -> str:
        """Which execution boundary runs the tool code (printed by ``autoforge serve``): the
        runtime's own description (``env.boundary``) when it has one, else the episode mode."""
        found = getattr(self.env, "boundary", None)
        if found is not None and not callable(found):
            try:
                describe = importlib.import_module("autoforge.env").describe_boundary
            except (ImportError, AttributeError):
                return str(found)
            return f"{describe(found)}; {_MODES.get(self.mode, self.mode)}"
        return _MODES.get(self.mode, f"episode mode {self.mode}")

    def health(self) -> dict[str, Any]:
        """Liveness plus the load: open episodes out of the limit."""
        return {
            "status": "ok",
            "env_id": self.env_id,
            "open_episodes": len(self.store),
            "max_sessions": self.limits.max_sessions,
            "tasks": len(self.tasks),
        }


_MODES = {
    "inline": "inline: tool code runs in the server process (in-process sandbox only, no OS "
    "boundary; a call stuck in C code holds the GIL and stalls the server until it ends)",
    "isolated": "isolated: tool code runs in a sandboxed worker process per episode (killed "
    "and replaced on timeout or crash)",
    "lanes": "lanes: tool code runs in a few sandboxed worker processes shared round robin by "
    "the episodes (killed and replaced on timeout or crash)",
}


#: Seeds are signed 64-bit integers: what every JSON encoder of the responses can write back.
SEED_MIN, SEED_MAX = -(2**63), 2**63 - 1


def check_seed(seed: object) -> None:
    """422 (:class:`InvalidArguments`) unless ``seed`` is None or an int in 64-bit range."""
    if seed is None:
        return
    if type(seed) is not int:
        raise InvalidArguments(f"seed must be an integer, got {_kind(seed)}")
    if not SEED_MIN <= seed <= SEED_MAX:
        raise InvalidArguments(
            f"seed {seed:.3g} is out of range: give an integer from {SEED_MIN} to {SEED_MAX}"
        )


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
