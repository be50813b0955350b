"""Episodes of agent x simulated user x environment, their reward, and the MEU judge.

```python
from autoforge.rollout import Agent, LLMUser, run_episode, Runner, episode_fn
traj = await run_episode(task, Agent(client, policy=p, tools=t), LLMUser(client, task), env_ep)
traj.reward, traj.reward_reason, traj.end_reason, traj.final_state_hash
```
"""

from autoforge.rollout.agent import Agent, AgentConfig, ChatClient
from autoforge.rollout.episode import EpisodeConfig, EpisodeLimits, run_episode
from autoforge.rollout.judge import JudgeVerdict, judge_user, meu_judge, nl_assertion_judge
from autoforge.rollout.reward import compute_reward, output_found, score_episode
from autoforge.rollout.runner import (
    Checkpoint,
    EnvBinding,
    LocalExecutor,
    RolloutDeps,
    Runner,
    bind_environment,
    episode_fn,
    read_trajectories,
    rollout_episode,
)
from autoforge.rollout.trajectory import EndReason, RewardInfo, Trajectory
from autoforge.rollout.user import FaultyUser, LLMUser, ScriptedUser, UserConfig

__all__ = [
    "AGENT_STOP_TOKEN",
    "FAULT_KINDS",
    "OPENING",
    "STOP_TOKEN",
    "Agent",
    "AgentConfig",
    "AgentFactory",
    "AskedOracle",
    "ChatClient",
    "Checkpoint",
    "EndReason",
    "EnvBinding",
    "EpisodeConfig",
    "EpisodeFn",
    "EpisodeLimits",
    "FaultyUser",
    "Goal",
    "JudgeExtraction",
    "JudgeHooks",
    "JudgeVerdict",
    "LLMUser",
    "LocalExecutor",
    "MEUHook",
    "OracleClient",
    "RayPool",
    "RewardInfo",
    "RoleKind",
    "RolloutDeps",
    "RoutedClient",
    "Runner",
    "ScriptedUser",
    "SimulatedUser",
    "StopClaim",
    "ToolCallRecord",
    "Trajectory",
    "UserClaim",
    "UserConfig",
    "UserFactory",
    "agent_factory",
    "apply_verdict",
    "bind_environment",
    "build_kind",
    "canonical_kind",
    "code_judge_hook",
    "compute_reward",
    "conveyed",
    "episode_fn",
    "episode_seed",
    "fact_label",
    "fact_leaves",
    "fault_oracle",
    "has_value",
    "judge_hooks",
    "judge_user",
    "kind_field",
    "kind_names",
    "kind_needs_llm",
    "lookup_kind",
    "make_executor",
    "message_reasoning",
    "meu_judge",
    "nl_assertion_judge",
    "normal",
    "output_found",
    "read_trajectories",
    "register_kind",
    "role_kinds",
    "rollout_episode",
    "run_episode",
    "score_episode",
    "scripted_user",
    "task_goals",
    "user_factory",
    "verdict_from",
    "visible_text",
]

# --- the lazy part of the face: each name is also in __all__ and in the TYPE_CHECKING
# imports; tests/architecture/test_faces.py pins __all__ ---
import importlib as _importlib
from typing import TYPE_CHECKING as _TYPE_CHECKING
from typing import Any as _Any

if _TYPE_CHECKING:
    from autoforge.rollout.agent import AGENT_STOP_TOKEN as AGENT_STOP_TOKEN
    from autoforge.rollout.episode import OPENING as OPENING
    from autoforge.rollout.goals import Goal as Goal
    from autoforge.rollout.goals import conveyed as conveyed
    from autoforge.rollout.goals import fact_leaves as fact_leaves
    from autoforge.rollout.goals import has_value as has_value
    from autoforge.rollout.goals import normal as normal
    from autoforge.rollout.goals import task_goals as task_goals
    from autoforge.rollout.judge import JudgeExtraction as JudgeExtraction
    from autoforge.rollout.judge import StopClaim as StopClaim
    from autoforge.rollout.judge import UserClaim as UserClaim
    from autoforge.rollout.judge import apply_verdict as apply_verdict
    from autoforge.rollout.judge import code_judge_hook as code_judge_hook
    from autoforge.rollout.judge import fault_oracle as fault_oracle
    from autoforge.rollout.judge import verdict_from as verdict_from
    from autoforge.rollout.players import AskedOracle as AskedOracle
    from autoforge.rollout.players import OracleClient as OracleClient
    from autoforge.rollout.players import RoutedClient as RoutedClient
    from autoforge.rollout.players import scripted_user as scripted_user
    from autoforge.rollout.ray_executor import RayPool as RayPool
    from autoforge.rollout.ray_executor import make_executor as make_executor
    from autoforge.rollout.roles import AgentFactory as AgentFactory
    from autoforge.rollout.roles import JudgeHooks as JudgeHooks
    from autoforge.rollout.roles import MEUHook as MEUHook
    from autoforge.rollout.roles import RoleKind as RoleKind
    from autoforge.rollout.roles import UserFactory as UserFactory
    from autoforge.rollout.roles import agent_factory as agent_factory
    from autoforge.rollout.roles import build_kind as build_kind
    from autoforge.rollout.roles import canonical_kind as canonical_kind
    from autoforge.rollout.roles import judge_hooks as judge_hooks
    from autoforge.rollout.roles import kind_field as kind_field
    from autoforge.rollout.roles import kind_names as kind_names
    from autoforge.rollout.roles import kind_needs_llm as kind_needs_llm
    from autoforge.rollout.roles import lookup_kind as lookup_kind
    from autoforge.rollout.roles import register_kind as register_kind
    from autoforge.rollout.roles import role_kinds as role_kinds
    from autoforge.rollout.roles import user_factory as user_factory
    from autoforge.rollout.runner import EpisodeFn as EpisodeFn
    from autoforge.rollout.runner import episode_seed as episode_seed
    from autoforge.rollout.thinking import message_reasoning as message_reasoning
    from autoforge.rollout.thinking import visible_text as visible_text
    from autoforge.rollout.trajectory import ToolCallRecord as ToolCallRecord
    from autoforge.rollout.user import FAULT_KINDS as FAULT_KINDS
    from autoforge.rollout.user import STOP_TOKEN as STOP_TOKEN
    from autoforge.rollout.user import SimulatedUser as SimulatedUser
    from autoforge.rollout.user_guards import fact_label as fact_label

_LAZY: dict[str, str] = {
    "AgentFactory": "autoforge.rollout.roles",
    "JudgeHooks": "autoforge.rollout.roles",
    "MEUHook": "autoforge.rollout.roles",
    "RoleKind": "autoforge.rollout.roles",
    "UserFactory": "autoforge.rollout.roles",
    "agent_factory": "autoforge.rollout.roles",
    "build_kind": "autoforge.rollout.roles",
    "canonical_kind": "autoforge.rollout.roles",
    "judge_hooks": "autoforge.rollout.roles",
    "kind_field": "autoforge.rollout.roles",
    "kind_names": "autoforge.rollout.roles",
    "kind_needs_llm": "autoforge.rollout.roles",
    "lookup_kind": "autoforge.rollout.roles",
    "register_kind": "autoforge.rollout.roles",
    "role_kinds": "autoforge.rollout.roles",
    "user_factory": "autoforge.rollout.roles",
    "AskedOracle": "autoforge.rollout.players",
    "OracleClient": "autoforge.rollout.players",
    "RoutedClient": "autoforge.rollout.players",
    "scripted_user": "autoforge.rollout.players",
    "fault_oracle": "autoforge.rollout.judge",
    "AGENT_STOP_TOKEN": "autoforge.rollout.agent",
    "EpisodeFn": "autoforge.rollout.runner",
    "FAULT_KINDS": "autoforge.rollout.user",
    "Goal": "autoforge.rollout.goals",
    "JudgeExtraction": "autoforge.rollout.judge",
    "OPENING": "autoforge.rollout.episode",
    "RayPool": "autoforge.rollout.ray_executor",
    "STOP_TOKEN": "autoforge.rollout.user",
    "SimulatedUser": "autoforge.rollout.user",
    "StopClaim": "autoforge.rollout.judge",
    "ToolCallRecord": "autoforge.rollout.trajectory",
    "UserClaim": "autoforge.rollout.judge",
    "apply_verdict": "autoforge.rollout.judge",
    "code_judge_hook": "autoforge.rollout.judge",
    "conveyed": "autoforge.rollout.goals",
    "episode_seed": "autoforge.rollout.runner",
    "fact_label": "autoforge.rollout.user_guards",
    "fact_leaves": "autoforge.rollout.goals",
    "has_value": "autoforge.rollout.goals",
    "make_executor": "autoforge.rollout.ray_executor",
    "message_reasoning": "autoforge.rollout.thinking",
    "normal": "autoforge.rollout.goals",
    "task_goals": "autoforge.rollout.goals",
    "verdict_from": "autoforge.rollout.judge",
    "visible_text": "autoforge.rollout.thinking",
}


def __getattr__(name: str) -> _Any:
    """A re-exported name, imported from its module on first use."""
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(_importlib.import_module(module), name)


# --- end of the lazy part of the face ---
