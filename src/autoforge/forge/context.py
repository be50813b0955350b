"""What the stages of a forge run share: options, resolved inputs, layout, LLM client, progress.

Input resolution turns the command-line choices (docs, ``--example``, ``--env``, ``--data``,
``--policy``) into concrete files, and fingerprints them by content so that a rerun can tell
whether a stage's inputs changed. The LLM client is created lazily: a run that starts from an
existing environment never starts a model.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

from autoforge.env import EnvDir
from autoforge.errors import UserError
from autoforge.forge.layout import ForgeOptions, RunLayout
from autoforge.forge.manifest import RunManifest, StageStatus
from autoforge.llm import LLMClient, TokenUsage
from autoforge.tasks import TaskHooks


class ForgeError(UserError):
    """A stage could not finish; the message names the stage and how to go on."""


def env_dir_digest(root: Path) -> str:
    """Content digest of an environment directory: its artifact files, and ``rules.json``
    when it has one. The rules decide what tasks and checks enforce, so a changed rules file
    re-runs the stages after it; a directory without one keeps the digest it always had
    (runs made before rules files existed are not redone)."""
    rules = [EnvDir.RULES] if (root / EnvDir.RULES).is_file() else []
    return dir_digest(root, [*EnvDir.ARTIFACT, *rules])


@dataclass
class Outcome:
    """What a stage run produced: status, figures and artifact paths (relative to RUN_DIR)."""

    detail: dict[str, Any] = field(default_factory=dict)
    artifacts: list[str] = field(default_factory=list)
    status: StageStatus = "done"
    summary: str = ""


class SynthProgress(Protocol):
    """The progress sink :func:`autoforge.synth.pipeline.synthesize` reports to."""

    def phase(self, name: str, total: int) -> None: ...

    def tool(self, name: str, text: str) -> None: ...

    def advance(self) -> None: ...


class ForgeReporter(Protocol):
    """Progress of a forge run (the CLI draws rich bars; tests ignore it)."""

    def start(self, stage: str, total: int | None, completed: int = 0) -> None:
        """A stage begins (``total`` steps when known)."""
        ...

    def advance(self, stage: str, text: str = "") -> None:
        """One step of ``stage`` is done."""
        ...

    def finish(self, stage: str, summary: str) -> None:
        """``stage`` ended; ``summary`` is one line of figures."""
        ...

    def skip(self, stage: str, summary: str) -> None:
        """``stage`` was already done with the same inputs."""
        ...

    def note(self, text: str) -> None:
        """A line of information (inputs changed, a stage redone...)."""
        ...

    def synth(self) -> SynthProgress:
        """The progress sink for environment synthesis."""
        ...


class _NullSynth:
    def phase(self, name: str, total: int) -> None:
        return None

    def tool(self, name: str, text: str) -> None:
        return None

    def advance(self) -> None:
        return None


class NullReporter:
    """Shows nothing; collects the notes (tests read them)."""

    def __init__(self) -> None:
        self.notes: list[str] = []
        self.skipped: list[str] = []
        self.finished: list[str] = []

    def start(self, stage: str, total: int | None, completed: int = 0) -> None:
        return None

    def advance(self, stage: str, text: str = "") -> None:
        return None

    def finish(self, stage: str, summary: str) -> None:
        self.finished.append(stage)

    def skip(self, stage: str, summary: str) -> None:
        self.skipped.append(stage)

    def note(self, text: str) -> None:
        self.notes.append(text)

    def synth(self) -> SynthProgress:
        return _NullSynth()


@dataclass
class Inputs:
    """The concrete inputs of a run after resolving ``--example`` and ``--env``."""

    docs: list[Path] = field(default_factory=list)
    policy: Path | None = None
    env_dir: Path | None = None
    data: Path | None = None

    def signature(self) -> dict[str, Any]:
        """Content fingerprints of the inputs (what a rerun compares)."""
        return {
            "docs": [path_digest(p) for p in self.docs],
            "policy": path_digest(self.policy) if self.policy else None,
            "env": env_dir_digest(self.env_dir) if self.env_dir else None,
            "data": path_digest(self.data) if self.data else None,
        }


def _example_dir(name: str) -> Path:
    from autoforge.examples import example_path

    return example_path(name)


def _env_source(options: ForgeOptions) -> Path | None:
    if options.env_dir is None:
        return None
    try:
        return EnvDir.resolve(options.env_dir).root
    except UserError as exc:
        raise UserError(f"--env {options.env_dir}: {exc}") from None


def resolve_inputs(options: ForgeOptions) -> Inputs:
    """Concrete input files for ``options``; ``UserError`` for contradictory or missing ones."""
    env_dir = _env_source(options)
    if env_dir is not None:
        if options.docs or options.data or options.example:
            raise UserError("--env starts from an environment: give no DOC, --data or --example")
        return Inputs(env_dir=env_dir, policy=options.policy)
    docs, policy, data = list(options.docs), options.policy, options.data
    if options.example is not None:
        root = _example_dir(options.example)
        if not docs:
            # the OpenAPI document first: it types what each tool returns (finder tools, entities)
            docs = [p for p in (root / "openapi.yaml", root / "tools.openai.json") if p.is_file()]
            docs = docs[:1]
        if policy is None and (root / "policy.md").is_file():
            policy = root / "policy.md"
        sample = EnvDir(root).initial_state_path
        if data is None and options.example_data and sample.is_file():
            data = sample  # docs + data mode, as with a benchmark's db.json
    if not docs:
        raise UserError("nothing to forge: give tool docs (DOC...), --example NAME or --env DIR")
    for path in [*docs, policy, data]:
        if path is not None and not path.exists():
            raise UserError(f"{path}: no such file or directory")
    return Inputs(docs=docs, policy=policy, data=data)


def path_digest(path: Path) -> str:
    """A content digest of a file, or of a directory's files (names, sizes, bytes)."""
    if path.is_dir():
        return dir_digest(path, None)
    return _file_digest(path) if path.is_file() else "missing"


def _file_digest(path: Path) -> str:
    h = hashlib.sha256()
    with path.open("rb") as fh:
        for block in iter(lambda: fh.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()[:16]


def dir_digest(root: Path, names: Iterable[str] | None) -> str:
    """A digest of the files of ``root`` (only ``names`` when given; all files otherwise)."""
    h = hashlib.sha256()
    if names is None:
        paths = sorted(
            p for p in root.rglob("*") if p.is_file() and EnvDir.SYNTH_STORE not in p.parts
        )
    else:
        paths = [root / n for n in names]
    for path in paths:
        h.update(str(path.relative_to(root)).encode())
        h.update(_file_digest(path).encode() if path.is_file() else b"-")
    return h.hexdigest()[:16]


@dataclass
class ForgeContext:
    """The state one forge session shares between its stages."""

    options: ForgeOptions
    inputs: Inputs
    layout: RunLayout
    manifest: RunManifest
    reporter: ForgeReporter
    client_factory: Callable[[], LLMClient] | None = None
    hooks_factory: Callable[[ForgeContext], TaskHooks] | None = None
    ran: list[str] = field(default_factory=list)  # stages run (not skipped) this session
    _client: LLMClient | None = None
    _hooks: TaskHooks | None = None

    def client(self) -> LLMClient:
        """The LLM client, created on first use."""
        if self._client is None:
            if self.client_factory is None:
                raise ForgeError("this run needs an LLM but none was configured")
            self._client = self.client_factory()
            endpoint = self._client.endpoint("synthesizer")
            named = endpoint.embedded or endpoint.disabled
            self.manifest.model = endpoint.label if named else endpoint.model
        return self._client

    def tokens(self) -> TokenUsage:
        """LLM totals so far in this session (zero before the client exists)."""
        if self._client is None:
            return TokenUsage()
        return self._client.usage.total()

    def hooks(self) -> TaskHooks:
        """The task-synthesis hooks, made once per session: the factory's, the LLM ones with
        ``llm_tasks`` (edge judge, merge advisor, scenario writer), else the deterministic
        defaults."""
        if self._hooks is None:
            if self.hooks_factory is not None:
                self._hooks = self.hooks_factory(self)
            elif self.options.llm_tasks:
                from autoforge.tasks import llm_hooks

                if self.client().rules_only("synthesizer"):
                    raise ForgeError(
                        "--llm-tasks needs a model, but the LLM is 'none' (rules only): drop "
                        "--llm-tasks, or give a model with --llm-model"
                    )

                self._hooks = llm_hooks(self.client())
            else:
                self._hooks = TaskHooks()
        return self._hooks

    def env_digest(self) -> str:
        """Content digest of the run's environment directory (:func:`env_dir_digest`)."""
        return env_dir_digest(self.layout.env)

    async def aclose(self) -> None:
        """Close the LLM client if one was created."""
        if self._client is not None:
            await self._client.aclose()
