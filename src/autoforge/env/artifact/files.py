"""The files of an environment directory: their names, and reading and writing the artifact.

An environment directory holds ``environment.json`` (the :class:`EnvironmentSpec`),
``tools.py`` (one function per tool) and optionally ``initial_state.json``; synthesis adds
``rules.json`` (the :class:`~autoforge.env.artifact.rules.RuleSet` its guards enforce),
``synthesis_report.json`` and its ``.synth/`` store. This module is the one place those names
are spelled; :class:`autoforge.env.artifact.envdir.EnvDir` is the API the other packages use, and
the
runtime reads through :func:`read_parts` so that both read a directory the same way.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from autoforge.env.artifact.rules import RULES_VERSION, RuleSet
from autoforge.env.artifact.spec import EnvironmentSpec
from autoforge.env.errors import EnvLoadError

SPEC_FILE = "environment.json"
TOOLS_FILE = "tools.py"
INITIAL_STATE_FILE = "initial_state.json"
RULES_FILE = "rules.json"
REPORT_FILE = "synthesis_report.json"
SYNTH_STORE = ".synth"
TASKS_FILE = "tasks.jsonl"
#: The files that make the environment (what is copied, packaged and fingerprinted).
ARTIFACT_FILES: tuple[str, ...] = (SPEC_FILE, TOOLS_FILE, INITIAL_STATE_FILE)
#: Written with the artifact when known, outside the fingerprint: ``rules.json`` is derived from
#: the spec and written together with ``tools.py``, and a run made before it existed must keep
#: its fingerprint (a resumed run would redo its stages otherwise).
DERIVED_FILES: tuple[str, ...] = (RULES_FILE,)


@dataclass(frozen=True)
class EnvParts:
    """An environment directory as read: spec, tool source, optional initial state, and the
    rules synthesis recorded (None: no ``rules.json``)."""

    spec: EnvironmentSpec
    tools_source: str
    initial_state: dict[str, Any] | None
    tools_path: Path
    rules: RuleSet | None = None


def read_parts(root: Path) -> EnvParts:
    """Read the artifact of ``root``; ``EnvLoadError`` naming the file and what is wrong."""
    if not root.is_dir():
        raise EnvLoadError(f"{root}: not an environment directory (it does not exist)")
    spec = read_spec(root / SPEC_FILE)
    tools_path = root / TOOLS_FILE
    if not tools_path.is_file():
        raise EnvLoadError(f"{tools_path}: missing (one function per tool is expected)")
    state_path = root / INITIAL_STATE_FILE
    state = read_json(state_path) if state_path.exists() else None
    return EnvParts(spec, read_text(tools_path), state, tools_path, read_rules(root / RULES_FILE))


def write_parts(
    root: Path,
    spec: EnvironmentSpec,
    tools_source: str,
    initial_state: Mapping[str, Any] | None = None,
    rules: RuleSet | None = None,
) -> None:
    """Write the artifact into ``root`` (created if needed); no initial state or rules: none
    written (a stale ``rules.json`` is removed, so it never describes other tools)."""
    root.mkdir(parents=True, exist_ok=True)
    (root / SPEC_FILE).write_text(spec.model_dump_json(indent=2), encoding="utf-8")
    (root / TOOLS_FILE).write_text(tools_source, encoding="utf-8")
    if initial_state is not None:
        text = json.dumps(initial_state, ensure_ascii=False)
        (root / INITIAL_STATE_FILE).write_text(text, encoding="utf-8")
    if rules is not None:
        (root / RULES_FILE).write_text(rules.model_dump_json(indent=2), encoding="utf-8")
    else:
        (root / RULES_FILE).unlink(missing_ok=True)


def read_rules(path: Path) -> RuleSet | None:
    """The :class:`RuleSet` in ``path`` (None when there is no such file); ``EnvLoadError``
    naming the file for another version or an invalid rule."""
    if not path.is_file():
        return None
    data = read_json(path)
    version = data.get("version") if isinstance(data, dict) else None
    if version != RULES_VERSION:
        raise EnvLoadError(
            f"{path}: rules version {version!r}, this autoforge reads version {RULES_VERSION}; "
            "delete the file (the rules are then read from the spec) or synthesize again"
        )
    try:
        return RuleSet.model_validate(data)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first["loc"])
        raise EnvLoadError(f"{path}: invalid rules at {where}: {first['msg']}") from None


def read_text(path: Path) -> str:
    """The UTF-8 text of ``path``; ``EnvLoadError`` for another encoding."""
    try:
        return path.read_text(encoding="utf-8")
    except UnicodeDecodeError as exc:
        raise EnvLoadError(
            f"{path}: not UTF-8 (byte {exc.start}: {exc.reason}); save the file as UTF-8"
        ) from None


def read_json(path: Path) -> Any:
    """The JSON value of ``path``; ``EnvLoadError`` naming the line of a syntax error."""
    try:
        return json.loads(read_text(path))
    except json.JSONDecodeError as exc:
        raise EnvLoadError(f"{path}:{exc.lineno}: invalid JSON: {exc.msg}") from None
    except RecursionError:
        raise EnvLoadError(f"{path}: JSON nested too deeply") from None
    except ValueError as exc:  # e.g. an integer over the digit limit
        raise EnvLoadError(f"{path}: invalid JSON value: {exc}") from None


def read_spec(path: Path) -> EnvironmentSpec:
    """The :class:`EnvironmentSpec` in ``path``; ``EnvLoadError`` naming the first problem."""
    if not path.is_file():
        raise EnvLoadError(f"{path}: missing (the environment spec)")
    try:
        return EnvironmentSpec.model_validate(read_json(path))
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first["loc"])
        raise EnvLoadError(
            f"{path}: invalid environment spec at {where}: {first['msg']} "
            f"({exc.error_count()} problem(s))"
        ) from None
