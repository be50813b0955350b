"""The one registry of role kinds: who plays the agent, the user and the judge of an episode,
and which backend trains the policy.

Every kind is one :class:`RoleKind` entry: its role, its name (plus old spellings kept as
aliases), a one-line help, whether it needs an LLM endpoint, and where its builder lives
(``"module:attribute"``, imported on first use, so the registry imports no player and no stage
above ``rollout``). The CLI (``--agent``/``--user``/``--judge``, ``train --user/--meu/--backend``),
``eval``, TRL, verl, OpenEnv and verifiers all resolve names here, so a new kind is one module
with its builder plus one registration, and every entry point accepts it. A kind is
registered by a :func:`register_kind` call (built-ins: :func:`_builtin` below) or, from an
installed package, by an entry point of the group ``autoforge.roles`` naming a
:class:`RoleKind` (read on the first lookup, so ``autoforge eval --user NAME`` finds it).

What a builder returns, per role (``client``: the LLM client of the run, ``None`` when no chosen
kind needs one; ``config``: the run's :class:`~autoforge.rollout.episode.EpisodeConfig`):

- ``agent``: ``builder(client, config) -> AgentFactory``: the chat client playing one task's
  agent (``llm``: the client itself; ``oracle``: the task's gold calls, no model);
- ``user``: ``builder(client, config) -> UserFactory``: one simulated user per (task, seed);
- ``judge``: ``builder(client, config) -> JudgeHooks``: the MEU (user-error) hook and the
  NL-assertion hook of the reward, each optional;
- ``trainer``: ``builder(request: TrainRequest) -> TrainOutcome`` (:mod:`autoforge.rl.request`):
  ``autoforge train --backend NAME`` builds the request and hands it over.
"""

from __future__ import annotations

import importlib
import importlib.metadata
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal

from pydantic import AfterValidator

from autoforge.errors import UserError
from autoforge.tasks import Task

if TYPE_CHECKING:
    from autoforge.rollout.episode import EpisodeConfig
    from autoforge.rollout.reward import NLJudge
    from autoforge.rollout.trajectory import Trajectory
    from autoforge.rollout.user import SimulatedUser

Role = Literal["agent", "user", "judge", "trainer"]
ROLES: tuple[Role, ...] = ("agent", "user", "judge", "trainer")

AgentFactory = Callable[[Task], Any]
UserFactory = Callable[[Task, int], "SimulatedUser"]
MEUHook = Callable[[Task, "Trajectory"], Awaitable[Any]]


@dataclass(frozen=True)
class JudgeHooks:
    """What a judge kind contributes to an episode: the MEU hook (did the simulated user err?)
    and the reward's NL-assertion hook; ``None`` where the kind has none."""

    meu: MEUHook | None = None
    nl: NLJudge | None = None


@dataclass(frozen=True)
class RoleKind:
    """One kind of one role; ``builder`` is ``"module:attribute"`` (see the module docstring
    for what it returns per role)."""

    role: Role
    name: str
    builder: str
    help: str
    needs_llm: bool = False
    aliases: tuple[str, ...] = ()

    def load(self) -> Callable[..., Any]:
        """The builder, imported on first use."""
        module, _, attribute = self.builder.partition(":")
        try:
            builder: Callable[..., Any] = getattr(importlib.import_module(module), attribute)
        except (ImportError, AttributeError) as exc:
            raise UserError(
                f"{self.role} kind {self.name!r}: its builder {self.builder!r} cannot be "
                f"imported ({exc}); fix the module:attribute of its register_kind() call"
            ) from exc
        return builder


_KINDS: dict[tuple[str, str], RoleKind] = {}
#: The entry-point group installed packages register kinds through: each entry point names a
#: :class:`RoleKind` or a list of them (``[project.entry-points."autoforge.roles"]``).
ENTRY_POINT_GROUP = "autoforge.roles"
_plugins_loaded = False


def _load_plugins() -> None:
    """Register the kinds installed packages declare (once, on the first lookup)."""
    global _plugins_loaded
    if _plugins_loaded:
        return
    _plugins_loaded = True
    for point in importlib.metadata.entry_points(group=ENTRY_POINT_GROUP):
        loaded = point.load()
        for kind in loaded if isinstance(loaded, (list, tuple)) else [loaded]:
            if not isinstance(kind, RoleKind):
                raise UserError(
                    f"entry point {point.name!r} ({point.value}) of {ENTRY_POINT_GROUP!r}: "
                    f"expected a RoleKind or a list of them, got {type(kind).__name__}"
                )
            register_kind(kind)


def register_kind(kind: RoleKind, *, replace: bool = False) -> RoleKind:
    """Add ``kind`` to the registry; a name or alias already taken by another kind of the same
    role is refused unless ``replace``."""
    if kind.role not in ROLES:
        raise ValueError(f"register_kind({kind.name!r}): role {kind.role!r} is not in {ROLES}")
    for name in (kind.name, *kind.aliases):
        taken = _KINDS.get((kind.role, name))
        if taken is not None and taken.name != kind.name and not replace:
            raise ValueError(
                f"register_kind({kind.name!r}): {kind.role} name {name!r} is taken by "
                f"{taken.name!r}; pick another name or pass replace=True"
            )
    for key in [k for k, v in _KINDS.items() if k[0] == kind.role and v.name == kind.name]:
        del _KINDS[key]
    for name in (kind.name, *kind.aliases):
        _KINDS[(kind.role, name)] = kind
    return kind


def role_kinds(role: Role) -> list[RoleKind]:
    """The kinds of ``role``, in registration order, each once."""
    _load_plugins()
    seen: dict[str, RoleKind] = {}
    for (r, _), kind in _KINDS.items():
        if r == role:
            seen.setdefault(kind.name, kind)
    return list(seen.values())


def kind_names(role: Role) -> list[str]:
    """The canonical names of ``role``'s kinds."""
    return [k.name for k in role_kinds(role)]


def lookup_kind(role: Role, name: str) -> RoleKind:
    """The kind ``name`` (or an alias of it) of ``role``; a clear error listing the choices."""
    _load_plugins()
    kind = _KINDS.get((role, name.strip()))
    if kind is None:
        choices = ", ".join(kind_names(role))
        raise UserError(f"unknown {role} kind {name!r}: choose one of {choices}")
    return kind


def canonical_kind(role: Role, name: str) -> str:
    """The canonical name of ``name`` (old spellings are aliases): for settings validators."""
    return lookup_kind(role, name).name


def kind_needs_llm(role: Role, name: str) -> bool:
    """Whether kind ``name`` of ``role`` needs an LLM endpoint."""
    return lookup_kind(role, name).needs_llm


def build_kind(role: Role, name: str, *args: Any, **kwargs: Any) -> Any:
    """Call kind ``name``'s builder with ``args``/``kwargs`` (see the module docstring)."""
    return lookup_kind(role, name).load()(*args, **kwargs)


def agent_factory(role_name: str, client: Any, config: EpisodeConfig) -> AgentFactory:
    """The ``agent`` kind ``role_name`` built over ``client``."""
    factory: AgentFactory = build_kind("agent", role_name, client, config)
    return factory


def user_factory(role_name: str, client: Any, config: EpisodeConfig) -> UserFactory:
    """The ``user`` kind ``role_name`` built over ``client``."""
    factory: UserFactory = build_kind("user", role_name, client, config)
    return factory


def judge_hooks(role_name: str, client: Any, config: EpisodeConfig) -> JudgeHooks:
    """The ``judge`` kind ``role_name`` built over ``client``."""
    hooks: JudgeHooks = build_kind("judge", role_name, client, config)
    return hooks


# --------------------------------------------------------------------------- built-in kinds


def llm_agent(client: Any, config: EpisodeConfig) -> AgentFactory:
    """``agent llm``: the run's client plays every task's agent."""
    if client is None:
        raise UserError("agent 'llm' needs an LLM client (an endpoint or the embedded model)")
    return lambda task: client


def llm_user(client: Any, config: EpisodeConfig) -> UserFactory:
    """``user llm``: the LLM user (:class:`~autoforge.rollout.user.LLMUser`) under the
    episode's ``UserConfig``."""
    from autoforge.rollout.user import LLMUser

    if client is None:
        raise UserError("user 'llm' needs an LLM client (an endpoint or the embedded model)")
    return lambda task, seed: LLMUser(client, task, config.user, seed=seed)


def _builtin() -> None:
    here = "autoforge.rollout.roles"
    players = "autoforge.rollout.players"
    judges = "autoforge.rollout.judge"
    for kind in (
        RoleKind("agent", "llm", f"{here}:llm_agent", "the agent role's model", True),
        RoleKind("agent", "oracle", f"{players}:oracle_agent", "replays the gold calls, no model"),
        RoleKind("user", "llm", f"{here}:llm_user", "the user role's model", True),
        RoleKind("user", "scripted", f"{players}:scripted_users", "request, facts, stop"),
        RoleKind(
            "judge",
            "llm",
            f"{judges}:llm_judges",
            "code rules + the model's verified claims",
            True,
            aliases=("judge",),
        ),
        RoleKind("judge", "rule", f"{judges}:rule_judges", "the MEU code rules alone, no model"),
        RoleKind("judge", "faults", f"{judges}:fault_judges", "flags injected faults (tests)"),
        RoleKind("judge", "none", f"{judges}:no_judges", "no judge", aliases=("off",)),
        RoleKind("trainer", "trl", "autoforge.rl.trl.run:train_request", "TRL on this machine"),
        RoleKind("trainer", "verl", "autoforge.rl.verl.launch:emit_request", "verl launch files"),
    ):
        register_kind(kind)


_builtin()


def _checked(role: Role) -> Callable[[str], str]:
    def check(name: str) -> str:
        _load_plugins()
        if (role, name.strip()) not in _KINDS:
            raise ValueError(f"unknown {role} kind {name!r}: choose one of {kind_names(role)}")
        return name.strip()

    return check


def kind_field(role: Role) -> AfterValidator:
    """A pydantic validator for a settings field naming a kind of ``role`` (aliases accepted
    and kept as written, so old settings files read and write unchanged):
    ``user: Annotated[str, kind_field("user")] = "llm"``."""
    return AfterValidator(_checked(role))
