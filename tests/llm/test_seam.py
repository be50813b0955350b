"""The LLM layer is the only seam: no other package imports openai or xllamacpp."""

from __future__ import annotations

import ast
from pathlib import Path

SRC = Path(__file__).resolve().parents[2] / "src" / "autoforge"
FORBIDDEN = {"openai", "xllamacpp"}


def imported_roots(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    roots: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            roots.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            roots.add(node.module.split(".")[0])
    return roots


def test_only_the_llm_package_imports_llm_sdks() -> None:
    offenders = []
    for path in SRC.rglob("*.py"):
        if (SRC / "llm") in path.parents or "examples" in path.parts:
            continue
        bad = imported_roots(path) & FORBIDDEN
        if bad:
            offenders.append(f"{path.relative_to(SRC)} imports {sorted(bad)}")
    assert offenders == [], "use autoforge.llm instead:\n" + "\n".join(offenders)


def test_the_check_sees_imports() -> None:
    assert "openai" in imported_roots(SRC / "llm" / "transport.py")
