"""Who plays each role in an evaluation: ``--agent`` / ``--user`` / ``--judge`` specs.

A spec is one of:

- ``embedded`` or ``default``: the embedded 1.5B model; ``small``: the embedded 0.5B model;
- ``BASE_URL/MODEL``: an OpenAI-compatible endpoint and a model name, e.g.
  ``http://localhost:8000/v1/Qwen/Qwen3-8B`` (split after the ``/v1`` path segment, so model
  names may contain slashes; without ``/v1`` the split is at the last slash) or just
  ``http://host:8000/v1`` (the server's first listed model);
- a kind of the role registry (:mod:`autoforge.rollout.roles`) that needs no model, e.g.
  ``oracle`` (agent: replays the task's gold calls and says its required outputs),
  ``scripted`` (user: states the request and every known fact, then stops), ``rule`` (judge:
  the MEU code rules of :mod:`autoforge.rollout.meu`), ``none``/``off`` (judge: none); a kind
  registered later is accepted the same way.

Pure: specs become :class:`~autoforge.llm.config.RoleConfig` overrides of an ``LLMConfig``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from autoforge.errors import UserError
from autoforge.llm import EMBEDDED_NAMES, LLMConfig, RoleConfig
from autoforge.rollout import lookup_kind, role_kinds

Role = Literal["agent", "user", "judge"]
EMBEDDED_ALIASES = {"embedded": "default", "default": "default", "small": "small"}


@dataclass(frozen=True)
class RoleSpec:
    """A parsed spec: ``kind`` ``llm`` (with endpoint or embedded model), ``config`` (the LLM
    config's role), or ``scripted``: the registry kind ``name`` that needs no model."""

    role: Role
    kind: Literal["llm", "scripted", "config"]
    base_url: str | None = None
    model: str | None = None
    name: str = "llm"

    @property
    def label(self) -> str:
        """How reports name the player (never the API key)."""
        if self.kind == "scripted":
            return self.name
        if self.kind == "config":
            return "(LLM config)"
        if self.base_url is None:
            return f"embedded:{self.model}"
        return f"{self.base_url} {self.model or '(first listed)'}".strip()


def split_url_model(spec: str) -> tuple[str, str | None]:
    """``(base_url, model)`` of ``BASE_URL/MODEL``: after ``/v1``, else at the last slash."""
    scheme, _, rest = spec.partition("://")
    host, slash, path = rest.partition("/")
    if not slash or not path.strip("/"):
        return spec.rstrip("/"), None
    parts = path.strip("/").split("/")
    if "v1" in parts:
        i = parts.index("v1") + 1
        base_path, model_parts = parts[:i], parts[i:]
    else:
        base_path, model_parts = parts[:-1], parts[-1:]
    base = f"{scheme}://{host}" + "".join(f"/{p}" for p in base_path)
    return base, "/".join(model_parts) or None


def _no_model_kind(role: Role, text: str) -> str | None:
    """The canonical name of the registry kind ``text`` of ``role`` when it needs no model."""
    names = {n for k in role_kinds(role) if not k.needs_llm for n in (k.name, *k.aliases)}
    return lookup_kind(role, text).name if text in names else None


def parse_role_spec(role: Role, spec: str | None) -> RoleSpec:
    """Parse one ``--agent``/``--user``/``--judge`` value; ``None`` keeps the LLM config."""
    if spec is None:
        return RoleSpec(role=role, kind="config")
    text = spec.strip()
    name = _no_model_kind(role, text)
    if name is not None:
        return RoleSpec(role=role, kind="scripted", name=name)
    if text.lower() in EMBEDDED_ALIASES:
        return RoleSpec(role=role, kind="llm", model=EMBEDDED_ALIASES[text.lower()])
    if text.startswith(("http://", "https://")):
        base, model = split_url_model(text)
        return RoleSpec(role=role, kind="llm", base_url=base, model=model)
    no_model = [k.name for k in role_kinds(role) if not k.needs_llm]
    allowed = ["embedded", "small", "BASE_URL/MODEL", *no_model]
    raise UserError(f"--{role} {spec!r}: expected one of {', '.join(allowed)}")


def apply_role_specs(config: LLMConfig, specs: list[RoleSpec]) -> LLMConfig:
    """``config`` with each LLM spec's endpoint set on its role (other fields kept)."""
    updates: dict[str, RoleConfig] = {}
    for spec in specs:
        if spec.kind != "llm":
            continue
        current = config.role(spec.role)
        fields = current.model_dump()
        fields.update(base_url=spec.base_url, model=spec.model)
        if spec.base_url is None and spec.model not in EMBEDDED_NAMES:
            raise UserError(f"--{spec.role}: unknown embedded model {spec.model!r}")
        updates[spec.role] = RoleConfig.model_validate(fields)
    return config.model_copy(update=updates)
