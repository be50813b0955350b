"""The package boundaries of ``docs/architecture.md``, checked on every CI run.

- the layers contract of ``.importlinter`` (a stage imports only the stages below it);
- an import from another package goes through that package's ``__init__``
  (``from autoforge.tasks import Task``, not ``from autoforge.tasks.model import Task``); the
  package's face (its ``__all__``, pinned in ``test_faces.py``) says which names it offers.

A sub-package with a face (an ``__all__``, e.g. ``autoforge.adapters.tau``) is a package of its
own. A sub-package without one is a *room* of its stage (``autoforge.synth.behaviour``,
``autoforge.tasks.gold``): it groups the stage's modules by what they do, and the modules of one
stage import each other freely across its rooms. Other stages still go through the stage's face.
"""

from __future__ import annotations

import ast
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SRC = ROOT / "src"
PKG = SRC / "autoforge"
#: ``module:name`` imports allowed to bypass: the name is also a submodule of the package, so
#: the package attribute would be the module, not the function
SAME_NAME_AS_MODULE: set[str] = set()


def test_layers_contract_is_kept() -> None:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(SRC), env.get("PYTHONPATH", "")])
    code = (
        "import sys\nfrom importlinter.cli import lint_imports\n"
        "sys.exit(lint_imports(config_filename='.importlinter', no_cache=True, no_logo=True))"
    )
    run = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True
    )
    assert run.returncode == 0, "import contract broken:\n" + run.stdout + run.stderr


def _has_face(init: Path) -> bool:
    """Whether a package's ``__init__`` declares a face (assigns ``__all__``)."""
    tree = ast.parse(init.read_text(encoding="utf-8"))
    return any(
        isinstance(node, (ast.Assign, ast.AnnAssign))
        and any(
            isinstance(t, ast.Name) and t.id == "__all__"
            for t in (node.targets if isinstance(node, ast.Assign) else [node.target])
        )
        for node in tree.body
    )


def _owner(module: str, src: Path = SRC) -> str:
    """The package a module belongs to: ``autoforge.X``, or ``autoforge.X.Y`` for a
    subpackage with a face of its own (a boundary); a room (no face) belongs to its stage."""
    parts = module.split(".")
    owner = parts[:2]
    for i in range(2, len(parts)):
        init = src.joinpath(*parts[: i + 1]) / "__init__.py"
        if init.is_file() and _has_face(init):
            owner = parts[: i + 1]
    return ".".join(owner)


def _is_package(module: str, src: Path) -> bool:
    path = src.joinpath(*module.split("."))
    return (path / "__init__.py").is_file() or module.count(".") == 1


def _is_submodule(package: str, name: str, src: Path) -> bool:
    return (src.joinpath(*package.split(".")) / f"{name}.py").is_file()


def bypassing_imports(pkg: Path = PKG) -> list[str]:
    """``file:line: from X import Y`` for every import of another package that bypasses its
    ``__init__`` (a plain module as the target, or a module imported by name)."""
    src = pkg.parent
    found = []
    for path in sorted(pkg.rglob("*.py")):
        rel = path.relative_to(src).with_suffix("")
        parts = list(rel.parts)
        here = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
        mine = _owner(here, src) if here.count(".") else here
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                targets = [(node.module, [a.name for a in node.names])]
            elif isinstance(node, ast.Import):
                targets = [(a.name, []) for a in node.names]
            else:
                continue
            for module, names in targets:
                theirs = _owner(module, src) if module.startswith("autoforge.") else mine
                if theirs == mine or theirs.startswith(mine + ".") or mine.startswith(theirs + "."):
                    continue  # not autoforge, same package, or a package and its subpackage
                if names and all(f"{module}:{n}" in SAME_NAME_AS_MODULE for n in names):
                    continue
                if not _is_package(module, src) or any(
                    _is_submodule(module, n, src) for n in names
                ):
                    shown = f"from {module} import {', '.join(names)}" if names else module
                    found.append(f"{path.relative_to(src)}:{node.lineno}: {shown}")
    return found


def test_cross_package_imports_go_through_the_package_init() -> None:
    found = bypassing_imports()
    assert not found, (
        f"{len(found)} imports bypass the package __init__; import each name from the package "
        "itself (from autoforge.tasks import Task); a name its face lacks is added to the "
        "package's __init__.py (__all__, _LAZY, TYPE_CHECKING imports) and to FACES in "
        "tests/architecture/test_faces.py:\n" + "\n".join(found)
    )


def test_the_check_sees_a_bypass(tmp_path: Path) -> None:
    """The AST check itself: a deep import from another package is reported."""
    pkg = tmp_path / "autoforge"
    (pkg / "a").mkdir(parents=True)
    (pkg / "a" / "__init__.py").write_text("from autoforge.errors import UserError\n")
    (pkg / "a" / "m.py").write_text(
        "from autoforge.tasks.model import Task\nfrom autoforge.tasks import Task\n"
    )
    found = bypassing_imports(pkg)
    assert [f.split(": ", 1)[1] for f in found] == ["from autoforge.tasks.model import Task"]


def test_rooms_belong_to_their_stage_and_faced_subpackages_do_not(tmp_path: Path) -> None:
    """Modules in two rooms of one stage may import each other; a room is no way around the
    stage's face, while a faced sub-package is a boundary of its own."""
    pkg = tmp_path / "autoforge"
    for room, init in (("s/r1", ""), ("s/r2", ""), ("s/faced", "__all__ = ['f']\n")):
        (pkg / room).mkdir(parents=True)
        (pkg / room / "__init__.py").write_text(init)
    (pkg / "s" / "__init__.py").write_text("")
    (pkg / "o").mkdir()
    (pkg / "o" / "__init__.py").write_text("")
    (pkg / "s" / "faced" / "m.py").write_text("f = 1\n")
    (pkg / "s" / "r2" / "n.py").write_text("g = 1\n")
    (pkg / "s" / "r1" / "m.py").write_text(
        "from autoforge.s.r2.n import g\nfrom autoforge.s.faced.m import f\n"
    )
    (pkg / "o" / "m.py").write_text(
        "from autoforge.s.r2.n import g\nfrom autoforge.s.faced.m import f\n"
    )
    found = sorted(f.split(": ", 1)[1] for f in bypassing_imports(pkg))
    assert found == ["from autoforge.s.faced.m import f", "from autoforge.s.r2.n import g"]
    assert _owner("autoforge.s.r2.n", tmp_path) == "autoforge.s"
    assert _owner("autoforge.s.faced.m", tmp_path) == "autoforge.s.faced"
