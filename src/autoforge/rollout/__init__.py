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
    "Agent",
    "AgentConfig",
    "ChatClient",
    "Checkpoint",
    "EndReason",
    "EnvBinding",
    "EpisodeConfig",
    "EpisodeLimits",
    "FaultyUser",
    "JudgeVerdict",
    "LLMUser",
    "LocalExecutor",
    "RewardInfo",
    "RolloutDeps",
    "Runner",
    "ScriptedUser",
    "Trajectory",
    "UserConfig",
    "bind_environment",
    "compute_reward",
    "episode_fn",
    "judge_user",
    "meu_judge",
    "nl_assertion_judge",
    "output_found",
    "read_trajectories",
    "rollout_episode",
    "run_episode",
    "score_episode",
]
