"""What ``autoforge train`` hands a trainer backend, and what the backend hands back.

A trainer backend is a ``trainer`` kind of the role registry (:mod:`autoforge.rollout.roles`):
its builder is ``run(TrainRequest) -> TrainOutcome``. The request is one shape for every
backend (each reads the fields it needs: TRL trains on this machine, verl writes a cluster's
launch files), so the command dispatches by registry name alone and a new backend is one module
plus one registration.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, Field

from autoforge.llm import LLMConfig
from autoforge.rl.config import ERPOConfig
from autoforge.rollout import EpisodeConfig


class TrainRequest(BaseModel):
    """One training request, as the command line gave it."""

    env_dirs: list[str] = Field(default_factory=list)
    tasks: list[str] = Field(default_factory=list)
    synth_tasks: int = 0
    model: str = "tiny"
    out: str = "erpo"
    steps: int = 10
    learning_rate: float = 1e-6
    seed: int = 0
    user: str = "llm"
    meu: str = "judge"
    erpo: ERPOConfig = Field(default_factory=lambda: ERPOConfig.model_validate({}))
    ref_model: str | None = None
    llm: LLMConfig | None = None
    episode: EpisodeConfig = Field(default_factory=EpisodeConfig)
    turn_tokens: int | None = Field(default=None, description="None: TokenBudget's default")
    episode_tokens: int | None = Field(default=None, description="None: TokenBudget's default")
    emit_config: str | None = Field(default=None, description="where launch files go")
    train_files: list[str] = Field(default_factory=list)
    nnodes: int = 1
    gpus_per_node: int = 8


class TrainOutcome(BaseModel):
    """What a backend reports: per-step records (training here) and lines to print."""

    records: list[dict[str, Any]] = Field(default_factory=list)
    messages: list[str] = Field(default_factory=list)
