"""Find what to serve: an environment directory, a run directory holding one, or an example.

``ENV_OR_RUN_DIR`` may be an environment directory (it has ``environment.json``), a run
directory with an environment directory inside it (searched one and two levels down) and
usually a ``tasks.jsonl``, the name of a bundled example (``bookstore``), or the name of an
installed environment package (``autoforge.adapters.package``).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from autoforge.errors import UserError
from autoforge.examples import ENVIRONMENT_FILE, example_path, list_examples
from autoforge.serve.service import EnvService, Limits
from autoforge.tasks.model import Task, read_tasks

TASKS_FILE = "tasks.jsonl"


@dataclass(frozen=True)
class Target:
    """The environment directory to load and the tasks file to serve (if any)."""

    env_dir: Path
    tasks_file: Path | None


def resolve(path: str | Path, tasks: str | Path | None = None) -> Target:
    """Where the environment and the tasks are; ``UserError`` saying what was looked for."""
    root = Path(path)
    if not root.exists():
        from autoforge.adapters.package import installed_environment

        if str(path) in list_examples(with_environment=True):
            root = example_path(str(path))
        elif (installed := installed_environment(str(path))) is not None:
            root = installed
        else:
            raise UserError(
                f"{path} does not exist (give an environment dir, a run dir, an installed "
                "environment package (autoforge export verifiers ... --wheel), or one of the "
                f"bundled examples: {', '.join(list_examples(with_environment=True))})"
            )
    env_dir = _find_env_dir(root)
    tasks_file = Path(tasks) if tasks is not None else None
    if tasks_file is None:
        for candidate in (root / TASKS_FILE, env_dir / TASKS_FILE):
            if candidate.is_file():
                tasks_file = candidate
                break
    return Target(env_dir=env_dir, tasks_file=tasks_file)


def _find_env_dir(root: Path) -> Path:
    if (root / ENVIRONMENT_FILE).is_file():
        return root
    if root.is_dir():
        found = sorted(p.parent for p in root.glob(f"*/{ENVIRONMENT_FILE}"))
        found = found or sorted(p.parent for p in root.glob(f"*/*/{ENVIRONMENT_FILE}"))
        if len(found) == 1:
            return found[0]
        if len(found) > 1:
            names = ", ".join(str(p) for p in found)
            raise UserError(f"{root} holds several environments ({names}); name one of them")
    raise UserError(
        f"no {ENVIRONMENT_FILE} in {root} or the directories below it: give an environment "
        "directory (environment.json + tools.py) or a run directory containing one"
    )


def load_service(
    path: str | Path,
    tasks: str | Path | None = None,
    *,
    limits: Limits | None = None,
    call_timeout_s: float | None = None,
    isolated: bool = False,
) -> EnvService:
    """Load the environment (sandbox-checked by the runtime) and its tasks into a service.

    ``call_timeout_s``: the runtime's per-call time limit (its default when None);
    ``isolated``: run tool code in a subprocess per episode (the runtime's hard boundary).
    """
    from autoforge.env import Environment

    target = resolve(path, tasks)
    env: Any = (
        Environment.load(target.env_dir)
        if call_timeout_s is None
        else Environment.load(target.env_dir, call_timeout_s=call_timeout_s)
    )
    served: list[Task] = read_tasks(target.tasks_file) if target.tasks_file else []
    wrong = sorted({t.env_id for t in served} - {env.spec.name})
    if wrong:
        raise UserError(
            f"{target.tasks_file} has tasks of environment(s) {', '.join(wrong)}, but "
            f"{target.env_dir} is {env.spec.name!r}"
        )
    return EnvService(env, served, limits=limits, isolated=isolated)
