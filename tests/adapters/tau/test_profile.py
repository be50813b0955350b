"""The tau profile reaches the generic stages only through ``autoforge.profiles``."""

from __future__ import annotations

import sys
import types
from collections.abc import Iterator
from pathlib import Path

import pytest

from autoforge import profiles
from autoforge.rollout.agent import AgentConfig
from autoforge.tooldocs import importer_names

SRC = Path(__file__).resolve().parents[3] / "src" / "autoforge"


@pytest.fixture
def only_profile() -> Iterator[types.ModuleType]:
    """The active profiles replaced by one empty in-memory profile module."""
    saved, loaded = dict(profiles.PROFILE_MODULES), dict(profiles._loaded)
    module = types.ModuleType("autoforge_test_profile")
    sys.modules[module.__name__] = module
    profiles.PROFILE_MODULES.clear()
    profiles._loaded.clear()
    profiles.register_profile("test", module.__name__)
    yield module
    profiles.PROFILE_MODULES.clear()
    profiles.PROFILE_MODULES.update(saved)
    profiles._loaded.clear()
    profiles._loaded.update(loaded)
    del sys.modules[module.__name__]


def test_tau_profile_supplies_transfer_tool_importer_and_export() -> None:
    assert profiles.named_profile_values("tau", "TRANSFER_TOOLS") == ["transfer_to_human_agents"]
    assert "bench" in importer_names()
    assert set(profiles.profile_mapping("TASK_EXPORTERS")) == {"tau2"}


def test_generic_episode_default_names_no_hand_off_tool() -> None:
    """The tau profile is active (its importer and export), yet the episode settings' default
    names no transfer tool: tau's hand-off ends an episode only where tau is opted into."""
    from autoforge.rollout import EpisodeConfig

    assert "tau" in profiles.PROFILE_MODULES
    assert AgentConfig().transfer_tools == []
    assert EpisodeConfig().agent.transfer_tools == []


def test_transfer_tools_come_from_the_named_profile_only(only_profile: types.ModuleType) -> None:
    only_profile.TRANSFER_TOOLS = ("escalate_to_agent",)
    assert AgentConfig().transfer_tools == []  # an active profile does not set the default
    assert profiles.named_profile_values("test", "TRANSFER_TOOLS") == ["escalate_to_agent"]
    assert profiles.named_profile_values("generic", "TRANSFER_TOOLS") == []
    assert AgentConfig(transfer_tools=["x"]).transfer_tools == ["x"]


def test_generic_stages_name_no_tau_conventions() -> None:
    generic = [p for p in SRC.rglob("*.py") if "adapters" not in p.parts]
    offenders = [
        str(p.relative_to(SRC))
        for p in generic
        if "transfer_to_human_agents" in p.read_text(encoding="utf-8")
        or "tau2_hash" in p.read_text(encoding="utf-8")
    ]
    assert offenders == []
