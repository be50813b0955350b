"""The role registry: one entry per kind, old spellings as aliases, clear errors, and a kind
registered once is accepted by every entry point that names roles (eval settings and specs, the
TRL and verl settings, the verifiers adapter's user factory)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from autoforge.errors import UserError
from autoforge.rollout import roles
from autoforge.rollout.episode import EpisodeConfig
from autoforge.rollout.roles import (
    RoleKind,
    canonical_kind,
    judge_hooks,
    kind_names,
    kind_needs_llm,
    lookup_kind,
    register_kind,
    user_factory,
)
from autoforge.rollout.user import ScriptedUser
from autoforge.tasks.model import Task

TASK = Task(id="t", env_id="shop", scenario="Cancel order o1.", user_facts={"order_id": "o1"})


def eager_users(client: Any, config: EpisodeConfig) -> Any:
    """A user kind for the test: the request and every fact in one message, then stop."""

    def make(task: Task, seed: int) -> ScriptedUser:
        facts = "; ".join(f"{k}: {v}" for k, v in task.known_facts().items())
        return ScriptedUser([f"{task.scenario.opening()} {facts}", "###STOP###"])

    return make


@pytest.fixture
def eager() -> Iterator[RoleKind]:
    kind = register_kind(RoleKind("user", "eager", f"{__name__}:eager_users", "all at once"))
    yield kind
    for key in [k for k, v in roles._KINDS.items() if v is kind]:
        del roles._KINDS[key]


def test_each_role_has_its_builtin_kinds_once() -> None:
    assert kind_names("agent") == ["llm", "oracle"]
    assert kind_names("user") == ["llm", "scripted"]
    assert kind_names("judge") == ["llm", "rule", "faults", "none"]
    assert kind_names("trainer") == ["trl", "verl"]
    assert kind_needs_llm("judge", "llm") and not kind_needs_llm("judge", "rule")


def test_old_spellings_are_aliases() -> None:
    assert canonical_kind("judge", "judge") == "llm"  # train --meu judge
    assert canonical_kind("judge", "off") == "none"  # train --meu off
    assert lookup_kind("judge", "none") is lookup_kind("judge", "off")


def test_unknown_kind_names_the_choices() -> None:
    with pytest.raises(UserError, match="unknown user kind 'oracle': choose one of llm, scripted"):
        lookup_kind("user", "oracle")


def test_a_taken_name_is_refused_unless_replaced() -> None:
    with pytest.raises(ValueError, match="taken by 'scripted'"):
        register_kind(RoleKind("user", "other", "x:y", "", aliases=("scripted",)))
    assert kind_names("user") == ["llm", "scripted"]


def test_builders_build_what_the_role_needs() -> None:
    hooks = judge_hooks("rule", None, EpisodeConfig())
    assert hooks.meu is not None and hooks.nl is None
    assert judge_hooks("off", None, EpisodeConfig()).meu is None
    user = user_factory("scripted", None, EpisodeConfig())(TASK, 0)
    assert user.turns[0] == "Cancel order o1."  # type: ignore[attr-defined]
    with pytest.raises(UserError, match="needs an LLM client"):
        user_factory("llm", None, EpisodeConfig())


def test_a_bad_builder_path_is_a_clear_error() -> None:
    kind = RoleKind("judge", "broken", "autoforge.rollout.nowhere:judges", "")
    with pytest.raises(UserError, match=r"cannot be imported.*register_kind"):
        kind.load()


def test_a_new_kind_is_one_registration_away_from_every_entry_point(eager: RoleKind) -> None:
    pytest.importorskip(
        "verifiers",
        reason="the verifiers adapter needs the [adapters] extra: pip install -e '.[adapters]'",
    )
    from autoforge.adapters.verifiers import users_of
    from autoforge.bench import EvalSettings, parse_role_spec
    from autoforge.rl.trl import TRLRunConfig
    from autoforge.rl.verl.episode import AgentLoopSettings

    assert parse_role_spec("user", "eager").name == "eager"
    assert EvalSettings(env_dir="e", user="eager").user == "eager"
    run = TRLRunConfig(env_dirs=["e"], output_dir="o", user="eager", meu="off")
    assert (run.user, run.meu) == ("eager", "off")  # kept as written
    assert AgentLoopSettings(tasks=[], env_dirs=[], user="eager").user == "eager"
    user = users_of("eager")(TASK, 0)
    assert user.turns == ["Cancel order o1. order_id: o1", "###STOP###"]  # type: ignore[attr-defined]


def test_settings_refuse_an_unknown_kind() -> None:
    from pydantic import ValidationError

    from autoforge.bench import EvalSettings

    with pytest.raises(ValidationError, match="unknown user kind 'eager'"):
        EvalSettings(env_dir="e", user="eager")


def test_installed_packages_register_kinds_by_entry_point(monkeypatch: pytest.MonkeyPatch) -> None:
    class Point:
        name, value = "eager", f"{__name__}:EAGER"

        def load(self) -> Any:
            return [RoleKind("user", "eager-ep", f"{__name__}:eager_users", "by entry point")]

    seen: list[str] = []

    def points(group: str) -> list[Point]:
        seen.append(group)
        return [Point()]

    monkeypatch.setattr(roles.importlib.metadata, "entry_points", points)
    monkeypatch.setattr(roles, "_plugins_loaded", False)
    try:
        assert "eager-ep" in kind_names("user") and seen == ["autoforge.roles"]
    finally:
        for key in [k for k in roles._KINDS if k == ("user", "eager-ep")]:
            del roles._KINDS[key]
