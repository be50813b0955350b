"""The environment directory: how a user names one, where its files are, how it is read and written.

Every stage that touches an environment on disk goes through :class:`EnvDir`: synthesis writes
one, ``forge`` copies and fingerprints one, ``serve``, ``eval`` and the adapters resolve and load
one, the report reads one.

```python
env_dir = EnvDir.resolve("runs/shop")        # a run dir, an env dir, example:NAME, a package
env = env_dir.load()                         # the sandboxed runtime Environment
spec = env_dir.read_spec()                   # the spec alone (no tool code runs)
EnvDir(Path("out")).write(spec, source, initial_state, rules)
rules = env_dir.read_rules()                 # rules.json as recorded, None without one
```

What :meth:`EnvDir.resolve` accepts, in this order:

- ``example:NAME``: the bundled example ``NAME`` (``autoforge.examples``);
- an existing path: an environment directory (it has ``environment.json``), or a run directory
  with exactly one environment directory one or two levels below it (``RUN_DIR/env``);
- a name that is no path: a bundled example with an environment (``bookstore``), or an installed
  environment package (the entry point group :data:`ENTRY_POINT_GROUP`, written by
  ``autoforge export verifiers``).

The tasks of a run sit beside its environment: ``tasks.jsonl`` in the directory named, else in
the environment directory; :attr:`EnvDir.tasks_file` is the one found (or the one given).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from importlib import metadata
from pathlib import Path
from typing import Any, ClassVar

from autoforge.env.artifact import files
from autoforge.env.artifact.rules import RuleSet
from autoforge.env.artifact.spec import EnvironmentSpec
from autoforge.env.runtime import DEFAULT_CALL_TIMEOUT_S, Environment
from autoforge.errors import UserError
from autoforge.examples import example_path, list_examples

#: The entry point group under which an installed environment package names its data directory.
ENTRY_POINT_GROUP = "autoforge.environments"
EXAMPLE_PREFIX = "example:"


@dataclass(frozen=True)
class EnvDir:
    """An environment directory (``root``) and the tasks file found beside it, if any."""

    root: Path
    tasks_file: Path | None = None

    SPEC: ClassVar[str] = files.SPEC_FILE
    TOOLS: ClassVar[str] = files.TOOLS_FILE
    INITIAL_STATE: ClassVar[str] = files.INITIAL_STATE_FILE
    RULES: ClassVar[str] = files.RULES_FILE
    REPORT: ClassVar[str] = files.REPORT_FILE
    SYNTH_STORE: ClassVar[str] = files.SYNTH_STORE
    TASKS: ClassVar[str] = files.TASKS_FILE
    #: The files that make the environment (copied, packaged and fingerprinted).
    ARTIFACT: ClassVar[tuple[str, ...]] = files.ARTIFACT_FILES

    @property
    def spec_path(self) -> Path:
        """``environment.json``."""
        return self.root / self.SPEC

    @property
    def tools_path(self) -> Path:
        """``tools.py``."""
        return self.root / self.TOOLS

    @property
    def initial_state_path(self) -> Path:
        """``initial_state.json`` (optional)."""
        return self.root / self.INITIAL_STATE

    @property
    def rules_path(self) -> Path:
        """``rules.json``: the rules synthesis extracted (optional, :class:`RuleSet`)."""
        return self.root / self.RULES

    @property
    def report_path(self) -> Path:
        """``synthesis_report.json`` (synthesized environments only)."""
        return self.root / self.REPORT

    def exists(self) -> bool:
        """Whether ``root`` holds an environment spec."""
        return self.spec_path.is_file()

    def artifact_files(self) -> Iterator[Path]:
        """The files of :attr:`ARTIFACT` that exist, in that order, then ``rules.json`` if it
        exists (what a copy or a package of the environment carries)."""
        names = (*self.ARTIFACT, *files.DERIVED_FILES)
        return (self.root / name for name in names if (self.root / name).is_file())

    def read_spec(self) -> EnvironmentSpec:
        """The spec alone (no tool code is compiled); ``EnvLoadError`` naming the problem."""
        return files.read_spec(self.spec_path)

    def read(self) -> files.EnvParts:
        """Spec, tool source, initial state and rules as written; ``EnvLoadError`` naming the
        file."""
        return files.read_parts(self.root)

    def read_rules(self) -> RuleSet | None:
        """``rules.json`` as synthesis recorded it; None when the directory has none (the
        lexicon extracts them from the spec then: :func:`autoforge.lexicon.dir_rules`)."""
        return files.read_rules(self.rules_path)

    def load(self, *, call_timeout_s: float | None = None, trusted: bool = False) -> Environment:
        """The runtime environment (tool code sandboxed unless ``trusted``); ``call_timeout_s``:
        the per-call time limit (the runtime's default when None)."""
        timeout = DEFAULT_CALL_TIMEOUT_S if call_timeout_s is None else call_timeout_s
        return Environment.load(self.root, call_timeout_s=timeout, trusted=trusted)

    def write(
        self,
        spec: EnvironmentSpec,
        tools_source: str,
        initial_state: Mapping[str, Any] | None = None,
        rules: RuleSet | None = None,
    ) -> None:
        """Write the artifact (``root`` created if needed; no initial state: none written; no
        ``rules``: no ``rules.json``, the rules are then read from the spec when loaded)."""
        files.write_parts(self.root, spec, tools_source, initial_state, rules)

    def write_report(self, json_text: str) -> None:
        """Write ``synthesis_report.json``."""
        self.report_path.write_text(json_text, encoding="utf-8")

    @classmethod
    def resolve(cls, ref: str | Path, tasks: str | Path | None = None) -> EnvDir:
        """The environment directory ``ref`` names (see the module docstring) with its tasks
        file (``tasks`` when given); ``UserError`` saying what was looked for and how to fix it."""
        root = _named_root(ref)
        env_root = _find_env_root(root)
        tasks_file = Path(tasks) if tasks is not None else None
        if tasks_file is None:
            for candidate in (root / cls.TASKS, env_root / cls.TASKS):
                if candidate.is_file():
                    tasks_file = candidate
                    break
        return cls(env_root, tasks_file)


def example_names() -> list[str]:
    """The bundled examples that carry a runnable environment (the others are docs only)."""
    return [name for name in list_examples() if EnvDir(example_path(name)).exists()]


def installed_environment(name: str) -> Path | None:
    """The data directory of an installed environment package called ``name``, or None.

    ``name`` may be the distribution name (``autoforge-env-shop``) or its module name.
    """
    wanted = name.replace("_", "-").lower()
    for entry in metadata.entry_points(group=ENTRY_POINT_GROUP):
        if entry.name.replace("_", "-").lower() == wanted:
            return Path(entry.load()())
    return None


def _named_root(ref: str | Path) -> Path:
    """The directory ``ref`` names: a path, ``example:NAME``, an example or a package name."""
    text = str(ref)
    if text.startswith(EXAMPLE_PREFIX):
        return example_path(text[len(EXAMPLE_PREFIX) :])
    root = Path(ref)
    if root.exists():
        return root
    if text in example_names():
        return example_path(text)
    installed = installed_environment(text)
    if installed is not None:
        return installed
    raise UserError(
        f"{ref} does not exist: give an environment dir ({files.SPEC_FILE} + "
        f"{files.TOOLS_FILE}), a run dir holding one, an installed environment package "
        "(autoforge export verifiers ... --wheel), or a bundled example as NAME or "
        f"example:NAME ({', '.join(example_names())})"
    )


def _find_env_root(root: Path) -> Path:
    """``root`` when it is an environment directory, else the one one or two levels below."""
    spec = files.SPEC_FILE
    if (root / spec).is_file():
        return root
    if root.is_dir():
        found = sorted(p.parent for p in root.glob(f"*/{spec}"))
        found = found or sorted(p.parent for p in root.glob(f"*/*/{spec}"))
        if len(found) == 1:
            return found[0]
        if len(found) > 1:
            names = ", ".join(str(p) for p in found)
            raise UserError(f"{root} holds several environments ({names}); name one of them")
    raise UserError(
        f"no {spec} in {root} or the directories below it: give an environment "
        f"directory ({spec} + {files.TOOLS_FILE}) or a run directory containing one"
    )
