"""``autoforge export verifiers``: a forged run as an installable Python package (and wheel).

The package holds the environment (``environment.json``, ``tools.py``, ``initial_state.json``)
and its tasks (``tasks.jsonl``) as package data, laid out like a run directory, plus:

- ``load_environment(**kwargs)``: the verifiers environment (``vf.load_environment(NAME)``
  imports the module named after the package and calls it);
- ``data_dir()`` under the entry point group :data:`ENTRY_POINT_GROUP`, so that
  ``autoforge serve NAME`` (:meth:`autoforge.env.EnvDir.resolve`) finds an installed environment
  without the run directory.

The package needs autoforge (this project) and verifiers installed beside it; it lists only
verifiers as a dependency because the name ``autoforge`` on the public index is another project.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from dataclasses import dataclass
from importlib import metadata
from pathlib import Path

from autoforge.env import ENTRY_POINT_GROUP, EnvDir
from autoforge.errors import UserError

VERIFIERS_REQUIREMENT = "verifiers>=0.1.10"
_SETUPTOOLS_WITH_WHEEL = (70, 1)  # bdist_wheel built into setuptools from 70.1 on


@dataclass(frozen=True)
class ExportedPackage:
    """Where the package was written, its names, and the wheel when one was built."""

    root: Path
    dist_name: str
    module: str
    n_tasks: int
    wheel: Path | None = None


def package_names(env_name: str, name: str | None = None) -> tuple[str, str]:
    """``(distribution name, module name)``: ``autoforge-env-<env>`` unless ``name`` is given."""
    dist = name or f"autoforge-env-{env_name}"
    dist = re.sub(r"[^a-z0-9]+", "-", dist.lower()).strip("-")
    if not dist or not dist[0].isalpha():
        raise UserError(f"package name {name or env_name!r} must start with a letter (--name)")
    return dist, dist.replace("-", "_")


def export_package(
    run_dir: str | Path, out: str | Path, *, name: str | None = None, wheel: bool = False
) -> ExportedPackage:
    """Write the package of ``run_dir``'s environment and tasks to ``out`` (and build a wheel)."""
    from autoforge.adapters.forged import load_forged

    target = EnvDir.resolve(run_dir)
    service = load_forged(run_dir)  # validates the env and its tasks before anything is written
    assert target.tasks_file is not None
    dist, module = package_names(service.env_id, name)
    root = Path(out)
    if root.exists() and any(root.iterdir()):
        raise UserError(f"{root} is not empty: give a new directory for the package (--out)")
    data = root / module / "data"
    (data / "env").mkdir(parents=True)
    for file in target.artifact_files():
        shutil.copy2(file, data / "env" / file.name)
    shutil.copy2(target.tasks_file, data / EnvDir.TASKS)
    n_tasks = len(service.tasks)
    (root / module / "__init__.py").write_text(_module_source(service.env_id, dist, module))
    (root / "pyproject.toml").write_text(_pyproject(dist, module, service.env_id))
    (root / "README.md").write_text(_readme(dist, module, service.env_id, n_tasks))
    built = build_wheel(root) if wheel else None
    return ExportedPackage(root, dist, module, n_tasks, built)


def build_wheel(package_dir: Path) -> Path:
    """``pip wheel`` the package into ``package_dir/dist`` (no network when setuptools can)."""
    dist_dir = package_dir / "dist"
    command = [sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(dist_dir)]
    command += build_isolation_flags()
    before = set(package_dir.iterdir())
    try:
        done = subprocess.run([*command, str(package_dir)], capture_output=True, text=True)
    finally:  # setuptools builds in the tree: build/ and *.egg-info are not part of the package
        for left in set(package_dir.iterdir()) - before:
            if left.name == "build" or left.name.endswith(".egg-info"):
                shutil.rmtree(left, ignore_errors=True)
    if done.returncode != 0:
        raise UserError(f"building the wheel of {package_dir} failed:\n{done.stderr.strip()}")
    wheels = sorted(dist_dir.glob("*.whl"))
    if not wheels:
        raise UserError(f"pip wheel wrote no wheel into {dist_dir}")
    return wheels[-1]


def build_isolation_flags() -> list[str]:
    """``["--no-build-isolation"]`` when the installed setuptools builds wheels by itself (no
    download of a build environment), else ``[]`` (pip fetches setuptools from the index)."""
    try:
        version = metadata.version("setuptools")
    except metadata.PackageNotFoundError:
        return []
    parts = tuple(int(p) for p in re.findall(r"\d+", version)[:2])
    return ["--no-build-isolation"] if parts >= _SETUPTOOLS_WITH_WHEEL else []


def _module_source(env_name: str, dist: str, module: str) -> str:
    return f'''"""The forged environment {env_name!r} (autoforge) as an installable package.

``load_environment()`` returns its verifiers environment; ``data_dir()`` is the environment and
its tasks laid out as an autoforge run directory (``autoforge serve {dist}`` uses it).
"""

from pathlib import Path
from typing import Any

ENV_NAME = {env_name!r}


def data_dir() -> Path:
    """The packaged run directory: ``env/`` and ``tasks.jsonl``."""
    return Path(__file__).resolve().parent / "data"


def load_environment(user: str = "scripted", max_turns: int = 30, **kwargs: Any) -> Any:
    """The verifiers environment over the packaged tasks (``user``: scripted or llm)."""
    try:
        from autoforge.adapters.verifiers import load_environment as load
    except ImportError as exc:
        raise ImportError(
            "{module} needs autoforge (the tool-environment forge) and verifiers installed: "
            f"{{exc}}"
        ) from exc
    return load(data_dir(), user=user, max_turns=max_turns, **kwargs)
'''


def _pyproject(dist: str, module: str, env_name: str) -> str:
    return f"""[build-system]
requires = ["setuptools>=68"]
build-backend = "setuptools.build_meta"

[project]
name = "{dist}"
version = "0.1.0"
description = "Forged tool-use environment '{env_name}' with verifiable tasks (autoforge)"
readme = "README.md"
requires-python = ">=3.11"
# also needs autoforge (this forge) installed: not listed, the index name is another project
dependencies = ["{VERIFIERS_REQUIREMENT}"]

[project.entry-points."{ENTRY_POINT_GROUP}"]
{dist} = "{module}:data_dir"

[tool.setuptools]
packages = ["{module}"]

[tool.setuptools.package-data]
{module} = ["data/*", "data/env/*"]
"""


def _readme(dist: str, module: str, env_name: str, n_tasks: int) -> str:
    return f"""# {dist}

The forged environment `{env_name}` with {n_tasks} verifiable tasks, exported by autoforge.

```bash
pip install .            # or: pip install dist/*.whl
autoforge serve {dist}   # HTTP API; --mcp for MCP, --openenv for OpenEnv
```

```python
import verifiers as vf
env = vf.load_environment("{dist}")          # = {module}.load_environment()
```

Reward: 1 iff the final state hash equals the task's gold state hash and every required
output was said. Needs autoforge and verifiers installed.
"""
