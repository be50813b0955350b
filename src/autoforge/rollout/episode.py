"""The episode loop, written once: agent x simulated user x environment episode -> Trajectory.

The user speaks (after the agent's greeting); the agent then acts until it speaks back: each
tool call goes to the environment episode and its observation back to the agent. The loop ends
with a typed :class:`EndReason`:

- ``USER_STOP``: the user wrote the stop token; ``AGENT_STOP``: the agent did;
- ``USER_INCOMPLETE``: the user stopped with a goal of its checklist unsaid (after a nudge);
- ``TRANSFER``: the agent called a transfer tool (``AgentConfig.transfer_tools``);
- ``MAX_TURNS``: ``max_steps`` LLM calls (agent and user together) were spent;
- ``TOOL_ERROR_BUDGET``: more than ``tool_error_budget`` tool calls failed;
- ``LLM_FAILURE``: the LLM endpoint failed (``LLMFailure``/transport): an infrastructure error,
  recorded with its message and excluded from scores;
- ``INTERNAL_ERROR``: any other exception (a bug), also excluded and recorded.

The reward is computed at the end from the environment's final state hash.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any, Protocol

from pydantic import BaseModel

from autoforge.llm.types import LLMFailure, TransportError
from autoforge.rollout.agent import Agent, AgentStep, ParsedCall
from autoforge.rollout.reward import AssertionEvaluator, NLJudge, score_episode
from autoforge.rollout.task import RolloutTask, task_difficulty, task_domain
from autoforge.rollout.trajectory import EndReason, ToolCallRecord, Trajectory
from autoforge.rollout.user import SimulatedUser

INFRA_ERRORS: tuple[type[BaseException], ...] = (
    LLMFailure,
    TransportError,
    ConnectionError,
    TimeoutError,
)
OPENING = "(The chat has started. Write your first message to the agent.)"


class Observation(Protocol):
    """What ``EnvEpisode.call`` returns (see ``autoforge.env``)."""

    ok: bool
    content: str
    error_kind: str | None


class EnvEpisode(Protocol):
    """The part of an ``autoforge.env`` episode the loop uses."""

    def call(self, name: str, arguments: dict[str, Any]) -> Observation: ...

    def state_hash(self) -> str: ...


class EpisodeConfig(BaseModel):
    """Limits of one episode."""

    max_steps: int = 60
    tool_error_budget: int = 10


@dataclass
class _Loop:
    task: RolloutTask
    agent: Agent
    user: SimulatedUser
    env: EnvEpisode
    config: EpisodeConfig
    traj: Trajectory
    steps: int = 0

    def _run_call(self, call: ParsedCall) -> ToolCallRecord:
        started = time.perf_counter()
        kind: str | None
        if call.error is not None:
            ok, content, kind = False, f"Error: {call.error}", "invalid_arguments"
        else:
            obs = self.env.call(call.name, call.arguments)
            ok, content, kind = obs.ok, obs.content, obs.error_kind
        return ToolCallRecord(
            step=self.steps,
            call_id=call.call_id,
            name=call.name,
            arguments=call.arguments,
            ok=ok,
            observation=content,
            error_kind=kind,
            duration_s=time.perf_counter() - started,
        )

    def _act(self, step: AgentStep) -> EndReason | None:
        """Execute the step's tool calls; an end reason when they end the episode."""
        transfer = False
        for call in step.calls:
            record = self._run_call(call)
            self.traj.tool_calls.append(record)
            self.agent.observe(call, record.observation, ok=record.ok)
            if not record.ok:
                self.traj.n_tool_errors += 1
            transfer = transfer or (record.ok and call.name in self.agent.config.transfer_tools)
        if transfer:
            return EndReason.TRANSFER
        if self.traj.n_tool_errors > self.config.tool_error_budget:
            return EndReason.TOOL_ERROR_BUDGET
        return None

    async def _agent_turn(self) -> tuple[EndReason | None, str]:
        """The agent acts until it speaks; ``(end reason or None, what it said)``."""
        while self.steps < self.config.max_steps:
            step = await self.agent.step(self.steps)
            self.steps += 1
            if not step.calls:
                return (EndReason.AGENT_STOP if step.stop else None), step.text
            end = self._act(step)
            if end is not None:
                return end, ""
        return EndReason.MAX_TURNS, ""

    async def run(self) -> EndReason:
        said = self.agent.config.greeting or OPENING
        while self.steps < self.config.max_steps:
            reply = await self.user.reply(said)
            self.steps += 1
            if reply.stop:
                return EndReason.USER_INCOMPLETE if reply.incomplete else EndReason.USER_STOP
            self.agent.hear(reply.text)
            self.traj.n_user_turns += 1
            end, said = await self._agent_turn()
            if end is not None:
                return end
        return EndReason.MAX_TURNS


def _final_hashes(traj: Trajectory, env: EnvEpisode) -> None:
    """Record the final state hashes; a broken environment is an internal error, not a crash."""
    try:
        traj.final_state_hash = env.state_hash()
        final_user = getattr(env, "user_state_hash", None)
        traj.final_user_state_hash = final_user() if callable(final_user) else None
    except Exception as exc:
        traj.end_reason = EndReason.INTERNAL_ERROR
        traj.infra_error = traj.infra_error or f"state hash failed: {type(exc).__name__}: {exc}"


def new_trajectory(task: RolloutTask, trial: int, seed: int | None) -> Trajectory:
    """An empty trajectory for ``task`` (ids, domain, difficulty filled in)."""
    return Trajectory(
        task_id=task.id,
        trial=trial,
        seed=seed,
        env_id=task.env_id,
        domain=task_domain(task),
        difficulty=task_difficulty(task),
        started_at=time.time(),
    )


async def run_episode(
    task: RolloutTask,
    agent: Agent,
    user: SimulatedUser,
    env: EnvEpisode,
    *,
    config: EpisodeConfig | None = None,
    trial: int = 0,
    seed: int | None = None,
    assertions: AssertionEvaluator | None = None,
    nl_judge: NLJudge | None = None,
) -> Trajectory:
    """Play one episode to its end and score it. Never raises for LLM or agent failures."""
    traj = new_trajectory(task, trial, seed)
    loop = _Loop(task, agent, user, env, config or EpisodeConfig(), traj)
    started = time.perf_counter()
    try:
        traj.end_reason = await loop.run()
    except INFRA_ERRORS as exc:
        traj.end_reason = EndReason.LLM_FAILURE
        traj.infra_error = f"{type(exc).__name__}: {exc}"
    except Exception as exc:
        traj.end_reason = EndReason.INTERNAL_ERROR
        traj.infra_error = f"internal {type(exc).__name__}: {exc}"
    traj.n_steps = loop.steps
    traj.messages = list(agent.transcript)
    traj.tokens = {"agent": agent.usage, "user": user.usage}
    traj.faults = list(user.faults)
    traj.user_prompt_version = user.prompt_version
    traj.user_notes = list(getattr(user, "notes", []))
    traj.agent_notes = list(agent.notes)
    _final_hashes(traj, env)
    try:
        info = await score_episode(task, traj, assertions=assertions, nl_judge=nl_judge)
        traj.apply_reward(info)
    except INFRA_ERRORS as exc:
        traj.infra_error = f"reward judge {type(exc).__name__}: {exc}"
        traj.reward, traj.reward_reason = None, "NL judge failed (infrastructure error)"
    traj.duration_s = time.perf_counter() - started
    return traj
