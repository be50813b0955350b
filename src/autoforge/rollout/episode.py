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

from pydantic import BaseModel, Field

from autoforge.env import EpisodeLike
from autoforge.llm import LLMFailure, TransportError
from autoforge.rollout.agent import Agent, AgentConfig, AgentStep, ParsedCall
from autoforge.rollout.reward import AssertionEvaluator, NLJudge, score_episode
from autoforge.rollout.trajectory import EndReason, ToolCallRecord, Trajectory
from autoforge.rollout.user import SimulatedUser, UserConfig
from autoforge.tasks import Task

INFRA_ERRORS: tuple[type[BaseException], ...] = (
    LLMFailure,
    TransportError,
    ConnectionError,
    TimeoutError,
)
OPENING = "(The chat has started. Write your first message to the agent.)"


class EpisodeLimits(BaseModel):
    """When an episode is cut off, the same for evaluation and both training backends.

    ``max_steps`` = 30 LLM calls (agent and user together): the gold path of the hardest task
    preset (up to 3 walks of 5 tool calls, one agent call each) plus the user's and the agent's
    turns around it fits, and 30 steps of a thinking model stay near the training episode's
    token budget (``autoforge.rl.TokenBudget.episode``), so an episode is cut by the same rule
    whether it is evaluated or trained on. ``tool_error_budget`` = 10 failed tool calls, as
    tau2-bench's ``max_errors``.
    """

    max_steps: int = Field(default=30, ge=2, description="LLM calls, agent and user together")
    tool_error_budget: int = Field(default=10, ge=0, description="failed tool calls tolerated")


class EpisodeConfig(BaseModel):
    """Everything serialisable that shapes an episode: agent, simulated user, limits, faults.

    The one episode settings type: ``autoforge eval`` (``EvalSettings.episode``), the TRL
    backend (``TokenEpisodeConfig.episode``) and the verl agent loop
    (``AgentLoopSettings.episode``) embed it unchanged, so by default a task is the same
    episode in all three. ``agent.keep_thinking`` is the interleaved-thinking switch.
    """

    agent: AgentConfig = Field(default_factory=AgentConfig)
    user: UserConfig = Field(default_factory=UserConfig)
    limits: EpisodeLimits = Field(default_factory=EpisodeLimits)
    fault_p: float = Field(default=0.0, ge=0.0, le=1.0, description="FaultyUser probability")


@dataclass
class _Loop:
    task: Task
    agent: Agent
    user: SimulatedUser
    env: EpisodeLike
    config: EpisodeLimits
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


def _final_hashes(traj: Trajectory, env: EpisodeLike) -> None:
    """Record the final state hashes; a broken environment is an internal error, not a crash."""
    try:
        traj.final_state_hash = env.state_hash()
        final_user = getattr(env, "user_state_hash", None)
        traj.final_user_state_hash = final_user() if callable(final_user) else None
    except Exception as exc:
        traj.end_reason = EndReason.INTERNAL_ERROR
        traj.infra_error = traj.infra_error or f"state hash failed: {type(exc).__name__}: {exc}"


def new_trajectory(task: Task, trial: int, seed: int | None) -> Trajectory:
    """An empty trajectory for ``task`` (ids, domain, difficulty filled in)."""
    return Trajectory(
        task_id=task.id,
        trial=trial,
        seed=seed,
        env_id=task.env_id,
        domain=task.domain or task.env_id,
        difficulty=task.difficulty_level(),
        started_at=time.time(),
    )


async def run_episode(
    task: Task,
    agent: Agent,
    user: SimulatedUser,
    env: EpisodeLike,
    *,
    limits: EpisodeLimits | None = None,
    trial: int = 0,
    seed: int | None = None,
    assertions: AssertionEvaluator | None = None,
    nl_judge: NLJudge | None = None,
) -> Trajectory:
    """Play one episode to its end and score it. Never raises for LLM or agent failures."""
    traj = new_trajectory(task, trial, seed)
    loop = _Loop(task, agent, user, env, limits or EpisodeLimits(), traj)
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
