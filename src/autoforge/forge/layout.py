"""The run directory layout and the options of a forge run.

```
RUN_DIR/
  run.json             manifest: stage status, fingerprints, timings, tokens (resumability)
  tools.json           the ingested ToolDocs IR
  env/                 the environment (environment.json, tools.py, [initial_state.json],
                       synthesis_report.json and the .synth/ store when synthesized)
  check.json           the environment's conformance check
  graph.json graph.svg the tool dependency graph
  tasks.jsonl          one verified task per line (appended as they come)
  generation.json      task generation statistics (attempts, rejections by reason)
  verify.json          the replay of every task's gold calls to its S* hash
  exports/tau2/        tasks as a tau2-bench domain; exports/tasks.parquet (with pyarrow)
  report.html          the self-contained HTML report
```
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from autoforge.env import EnvDir
from autoforge.synth import SynthOptions

StateSource = Literal["generate", "initial", "data"]

STAGES: tuple[str, ...] = ("ingest", "environment", "graph", "tasks", "verify", "exports", "report")

STAGE_HELP: dict[str, str] = {
    "ingest": "read the tool docs into tools.json",
    "environment": "synthesize (or copy) the environment and run its conformance check",
    "graph": "build the tool dependency graph",
    "tasks": "walks, blueprints, instantiation and quality gates until the task count",
    "verify": "replay every task's gold calls and compare with its S* hash",
    "exports": "write the tau2-bench domain and the parquet dataset",
    "report": "write report.html",
}


@dataclass(frozen=True)
class RunLayout:
    """Where each artifact of a run directory lives."""

    root: Path

    @property
    def manifest(self) -> Path:
        return self.root / "run.json"

    @property
    def tools(self) -> Path:
        return self.root / "tools.json"

    @property
    def env(self) -> Path:
        return self.root / "env"

    @property
    def env_dir(self) -> EnvDir:
        """The run's environment directory with the run's tasks file."""
        return EnvDir(self.env, self.tasks)

    @property
    def check(self) -> Path:
        return self.root / "check.json"

    @property
    def graph(self) -> Path:
        return self.root / "graph.json"

    @property
    def graph_svg(self) -> Path:
        return self.root / "graph.svg"

    @property
    def tasks(self) -> Path:
        return self.root / EnvDir.TASKS

    @property
    def generation(self) -> Path:
        return self.root / "generation.json"

    @property
    def verify(self) -> Path:
        return self.root / "verify.json"

    @property
    def exports(self) -> Path:
        return self.root / "exports"

    @property
    def report(self) -> Path:
        return self.root / "report.html"

    def rel(self, path: Path) -> str:
        """``path`` relative to the run directory (for the manifest)."""
        try:
            return str(path.relative_to(self.root))
        except ValueError:
            return str(path)


@dataclass
class ForgeOptions:
    """Everything ``autoforge forge`` can be told.

    Inputs: tool ``docs`` (any ingest format), or a bundled ``example`` (its docs and policy,
    and its sample data as ``data`` unless ``example_data`` is off),
    or an existing environment directory ``env_dir`` (skips synthesis; ``example:NAME`` names a
    bundled environment). ``data``: a db.json to infer the state from (synthesis data mode).
    ``synth``: the synthesis options, unchanged (name, repairs, design rounds, LLM tests, only;
    the ``autoforge synth env`` defaults). ``llm_tasks``: the LLM judges the tool graph's edges,
    advises on merges and writes the scenarios (``autoforge.tasks.llm.hooks``; deterministic
    fallbacks). ``rules_only``: the run has no model (``--llm none``); part of the synthesis
    fingerprint, so a later run with a model synthesizes again. ``until``: stop after this stage.
    """

    out: Path
    docs: list[Path] = field(default_factory=list)
    example: str | None = None
    example_data: bool = True
    env_dir: Path | None = None
    data: Path | None = None
    policy: Path | None = None
    doc_format: str = "auto"
    synth: SynthOptions = field(default_factory=SynthOptions)
    tasks: int = 50
    difficulty: str = "medium"
    seed: int = 0
    state_source: StateSource = "generate"
    max_attempts: int | None = None
    llm_tasks: bool = False
    rules_only: bool = False
    exports: bool = True
    until: str | None = None

    def summary(self) -> dict[str, Any]:
        """The options as JSON values (for the manifest and the report)."""
        return {
            "docs": [str(p) for p in self.docs],
            "example": self.example,
            "example_data": self.example_data if self.example else None,
            "env_dir": str(self.env_dir) if self.env_dir else None,
            "data": str(self.data) if self.data else None,
            "policy": str(self.policy) if self.policy else None,
            "format": self.doc_format,
            "name": self.synth.name,
            "tasks": self.tasks,
            "difficulty": self.difficulty,
            "seed": self.seed,
            "state_source": self.state_source,
            "max_attempts": self.max_attempts,
            "max_repairs": self.synth.max_repairs,
            "design_rounds": self.synth.design_rounds,
            "llm_tests": self.synth.llm_tests,
            "llm_tasks": self.llm_tasks,
            "rules_only": self.rules_only,
            "only": list(self.synth.only),
            "exports": self.exports,
            "until": self.until,
        }
