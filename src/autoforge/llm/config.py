"""Which endpoint and model each role uses: config file < environment < command line.

Roles (``synthesizer``, ``agent``, ``user``, ``judge``) are configured independently; a
``default`` section applies to every role that does not override a field. A role without a
``base_url`` uses the embedded local model (started lazily in-process); its ``model`` then
names the embedded model (``default`` = Qwen2.5-Coder-1.5B, ``small`` = 0.5B). The model name
``none`` (``--llm none``) means no model at all: every request fails at once with
:class:`~autoforge.llm.types.LLMFailure`, and the stages that can work by rules alone
(synthesis, task generation) switch to rules-only mode and say so in their reports. It is
never a default: a user asks for it.

Environment: ``AUTOFORGE_BASE_URL`` / ``_MODEL`` / ``_API_KEY`` / ``_TOOL_MODE`` for all roles,
``AUTOFORGE_<ROLE>_BASE_URL`` etc. for one role, ``AUTOFORGE_LLM_CONFIG`` (config file),
``AUTOFORGE_NO_CACHE=1``, ``AUTOFORGE_LLM_CACHE`` (cache file), ``AUTOFORGE_CACHE_DIR``,
``AUTOFORGE_THREADS`` and ``AUTOFORGE_EMBEDDED_MODEL``.
"""

from __future__ import annotations

import os
import tomllib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal
from urllib.parse import urlsplit

import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from autoforge.errors import UserError
from autoforge.llm.types import ROLES, ToolMode

EmbeddedModelName = Literal["default", "small"]
EMBEDDED_NAMES: tuple[str, ...] = ("default", "small")
#: The model name that means "no LLM": rules only (``--llm none``).
NO_MODEL = "none"
DEFAULT_REMOTE_CONCURRENCY = 8


def cache_dir() -> Path:
    """The user cache directory (``AUTOFORGE_CACHE_DIR`` or ``~/.cache/autoforge``)."""
    env = os.environ.get("AUTOFORGE_CACHE_DIR")
    return Path(env).expanduser() if env else Path.home() / ".cache" / "autoforge"


class RoleConfig(BaseModel):
    """Endpoint settings of one role (or of ``default``); unset fields fall back to default."""

    model_config = ConfigDict(extra="forbid")

    base_url: str | None = None
    model: str | None = None
    api_key: str | None = None
    tool_mode: ToolMode = "auto"
    max_concurrency: int | None = Field(default=None, ge=1)
    timeout_s: float = Field(default=900.0, gt=0)
    extra_body: dict[str, Any] = Field(default_factory=dict)


class EmbeddedConfig(BaseModel):
    """The in-process llama.cpp server used when a role has no ``base_url``."""

    model_config = ConfigDict(extra="forbid")

    model: EmbeddedModelName = "default"
    threads: int | None = Field(default=None, ge=1)
    ctx_size: int = Field(default=8192, ge=512, description="context tokens per parallel slot")
    parallel: int = Field(default=2, ge=1, le=16)
    host: str = "127.0.0.1"
    port: int = Field(default=0, ge=0, le=65535)


class LLMConfig(BaseModel):
    """Complete LLM configuration: per-role endpoints, embedded server, cache, retries."""

    model_config = ConfigDict(extra="forbid")

    schema_version: int = 1
    default: RoleConfig = Field(default_factory=RoleConfig)
    synthesizer: RoleConfig = Field(default_factory=RoleConfig)
    agent: RoleConfig = Field(default_factory=RoleConfig)
    user: RoleConfig = Field(default_factory=RoleConfig)
    judge: RoleConfig = Field(default_factory=RoleConfig)
    embedded: EmbeddedConfig = Field(default_factory=EmbeddedConfig)
    cache: bool = True
    cache_path: Path | None = None
    max_retries: int = Field(default=4, ge=0, description="transport retries per call")
    structured_retries: int = Field(default=2, ge=0, description="re-asks after invalid output")
    backoff_base_s: float = Field(default=1.0, ge=0)
    backoff_max_s: float = Field(default=30.0, ge=0)

    def role(self, name: str) -> RoleConfig:
        if name not in ROLES:
            raise UserError(f"unknown LLM role {name!r}; roles: {', '.join(ROLES)}")
        merged = self.default.model_dump()
        specific: RoleConfig = getattr(self, name)
        merged.update({k: getattr(specific, k) for k in specific.model_fields_set})
        return RoleConfig.model_validate(merged)

    def resolved_cache_path(self) -> Path:
        return self.cache_path or cache_dir() / "llm-cache.sqlite"


@dataclass(frozen=True)
class Endpoint:
    """Where one role's requests go, fully resolved. ``embedded`` names the local model."""

    role: str
    base_url: str | None
    model: str
    api_key: str
    tool_mode: Literal["native", "protocol"]
    max_concurrency: int
    timeout_s: float
    extra_body: dict[str, Any] = field(default_factory=dict)
    embedded: str | None = None
    disabled: bool = False  # model "none": no requests are sent, rules only

    @property
    def label(self) -> str:
        if self.disabled:
            return "none (rules only)"
        return f"embedded:{self.embedded}" if self.embedded else str(self.base_url)


def resolve_endpoint(config: LLMConfig, role: str) -> Endpoint:
    """The endpoint of ``role``; raises ``UserError`` for a remote model without a base_url."""
    rc = config.role(role)
    if rc.model == NO_MODEL:
        return Endpoint(
            role=role, base_url=None, model=NO_MODEL, api_key="not-needed", tool_mode="protocol",
            max_concurrency=1, timeout_s=rc.timeout_s, disabled=True,
        )  # fmt: skip
    if rc.base_url is None:
        name = rc.model or config.embedded.model
        if name not in EMBEDDED_NAMES:
            raise UserError(
                f"--llm-model {name!r} (the {role} role's model) needs a server: give "
                f"--llm-base-url (or AUTOFORGE_BASE_URL); without one only the embedded models "
                f"run: --llm-model default or small (or none for rules only, no model)"
            )
        mode = "protocol" if rc.tool_mode == "auto" else rc.tool_mode
        return Endpoint(
            role=role,
            base_url=None,
            model=name,
            api_key="not-needed",
            tool_mode=mode,
            max_concurrency=rc.max_concurrency or config.embedded.parallel,
            timeout_s=rc.timeout_s,
            extra_body=dict(rc.extra_body),
            embedded=name,
        )
    parts = urlsplit(rc.base_url)
    if parts.scheme not in ("http", "https") or not parts.netloc:
        raise UserError(
            f"--llm-base-url {rc.base_url!r} (the {role} role's endpoint) is not an http(s) URL; "
            "give the server's OpenAI-compatible base, e.g. http://127.0.0.1:8000/v1"
        )
    api_key = rc.api_key or os.environ.get("OPENAI_API_KEY") or "not-needed"
    return Endpoint(
        role=role,
        base_url=rc.base_url.rstrip("/"),
        model=rc.model or "",
        api_key=api_key,
        tool_mode="native" if rc.tool_mode == "auto" else rc.tool_mode,
        max_concurrency=rc.max_concurrency or DEFAULT_REMOTE_CONCURRENCY,
        timeout_s=rc.timeout_s,
        extra_body=dict(rc.extra_body),
    )


def _deep_merge(base: dict[str, Any], over: Mapping[str, Any]) -> dict[str, Any]:
    out = dict(base)
    for key, value in over.items():
        if isinstance(value, Mapping) and isinstance(out.get(key), dict):
            out[key] = _deep_merge(out[key], value)
        else:
            out[key] = value
    return out


def load_config_file(path: Path) -> dict[str, Any]:
    """Read a TOML or YAML config file into a plain dict (not yet validated)."""
    path = Path(path).expanduser()
    if not path.is_file():
        raise UserError(f"LLM config file not found: {path}")
    text = path.read_text(encoding="utf-8")
    try:
        if path.suffix.lower() == ".toml":
            data: Any = tomllib.loads(text)
        else:
            data = yaml.safe_load(text) or {}
    except (tomllib.TOMLDecodeError, yaml.YAMLError) as exc:
        raise UserError(f"cannot parse LLM config {path}: {exc}") from exc
    if not isinstance(data, dict):
        raise UserError(f"LLM config {path}: expected a table/mapping at the top level")
    return data


_ENV_FIELDS = {
    "BASE_URL": "base_url",
    "MODEL": "model",
    "API_KEY": "api_key",
    "TOOL_MODE": "tool_mode",
}


def env_overrides(environ: Mapping[str, str]) -> dict[str, Any]:
    """The config fields set by ``AUTOFORGE_*`` environment variables."""
    out: dict[str, Any] = {}
    for section, prefix in [("default", "AUTOFORGE_")] + [
        (r, f"AUTOFORGE_{r.upper()}_") for r in ROLES
    ]:
        values = {f: environ[prefix + k] for k, f in _ENV_FIELDS.items() if environ.get(prefix + k)}
        if values:
            out[section] = values
    if environ.get("AUTOFORGE_NO_CACHE", "").strip().lower() in ("1", "true", "yes"):
        out["cache"] = False
    if environ.get("AUTOFORGE_LLM_CACHE"):
        out["cache_path"] = environ["AUTOFORGE_LLM_CACHE"]
    embedded: dict[str, Any] = {}
    if environ.get("AUTOFORGE_THREADS"):
        embedded["threads"] = environ["AUTOFORGE_THREADS"]
    if environ.get("AUTOFORGE_EMBEDDED_MODEL"):
        embedded["model"] = environ["AUTOFORGE_EMBEDDED_MODEL"]
    if embedded:
        out["embedded"] = embedded
    return out


def parse_set_options(items: Sequence[str]) -> dict[str, Any]:
    """``["agent.model=gpt-4o", "embedded.threads=2"]`` -> nested override dict."""
    out: dict[str, Any] = {}
    for item in items:
        key, sep, value = item.partition("=")
        parts = [p for p in key.strip().split(".") if p]
        if not sep or not parts:
            raise UserError(f"--llm-set expects SECTION.KEY=VALUE, got {item!r}")
        node = out
        for part in parts[:-1]:
            node = node.setdefault(part, {})
        node[parts[-1]] = value
    return out


def build_config(
    *,
    file: Path | None = None,
    environ: Mapping[str, str] | None = None,
    overrides: Mapping[str, Any] | None = None,
) -> LLMConfig:
    """Layer config file, environment and explicit overrides (in that order) into a config."""
    env = os.environ if environ is None else environ
    path = file or (Path(env["AUTOFORGE_LLM_CONFIG"]) if env.get("AUTOFORGE_LLM_CONFIG") else None)
    data: dict[str, Any] = load_config_file(path) if path else {}
    data = _deep_merge(data, env_overrides(env))
    data = _deep_merge(data, overrides or {})
    try:
        return LLMConfig.model_validate(data)
    except ValidationError as exc:
        raise UserError(f"invalid LLM configuration: {exc}") from exc


def config_from_cli(
    *,
    llm_config: Path | None = None,
    base_url: str | None = None,
    model: str | None = None,
    api_key: str | None = None,
    no_cache: bool = False,
    llm_set: Sequence[str] = (),
    environ: Mapping[str, str] | None = None,
) -> LLMConfig:
    """The configuration a CLI command should use, given the common LLM options.

    ``base_url``/``model``/``api_key`` apply to every role (the ``default`` section);
    ``llm_set`` items (``agent.model=...``) set any field; both beat environment and file.
    """
    overrides: dict[str, Any] = {}
    default = {
        k: v for k, v in (("base_url", base_url), ("model", model), ("api_key", api_key)) if v
    }
    if default:
        overrides["default"] = default
    if no_cache:
        overrides["cache"] = False
    overrides = _deep_merge(overrides, parse_set_options(llm_set))
    return build_config(file=llm_config, environ=environ, overrides=overrides)
