"""The import graph: stage packages form a DAG, nothing imports backwards, and the environment
directory's file names are spelled in one place.

The graph is grimp's (the engine of import-linter): every import, including the ones inside
functions, so a lazy import cannot hide a cycle.
"""

from __future__ import annotations

import re
from pathlib import Path

import grimp
import networkx as nx
import pytest

SRC = Path(__file__).resolve().parents[2] / "src" / "autoforge"

#: Module cycles allowed on purpose, each with its reason. The runtime picks how an episode runs
#: (inline, in the shared sandboxed worker, or in a worker of its own) and imports the contained
#: and isolated implementations lazily for it; those subclass the runtime's ``Episode``.
ALLOWED_MODULE_CYCLES = [
    {
        "autoforge.env.runtime",
        "autoforge.env.isolation.contained",
        "autoforge.env.isolation.isolated",
        "autoforge.env.isolation.worker",
    },
]


@pytest.fixture(scope="module")
def graph() -> grimp.ImportGraph:
    return grimp.build_graph("autoforge", cache_dir=None)


def _package(module: str) -> str | None:
    parts = module.split(".")
    return ".".join(parts[:2]) if len(parts) > 1 else None


def _package_graph(graph: grimp.ImportGraph) -> nx.DiGraph:
    packages = nx.DiGraph()
    for module in graph.modules:
        for imported in graph.find_modules_directly_imported_by(module):
            a, b = _package(module), _package(imported)
            if a and b and a != b:
                packages.add_edge(a, b)
    return packages


def test_no_package_cycle(graph: grimp.ImportGraph) -> None:
    packages = _package_graph(graph)
    assert len(packages) >= 10  # the graph was built (a broken build would pass vacuously)
    cycles = list(nx.simple_cycles(packages))
    details = []
    for cycle in cycles:
        for a, b in zip(cycle, [*cycle[1:], cycle[0]], strict=True):
            imports = graph.find_matching_direct_imports(import_expression=f"{a}.** -> {b}.**")
            details.append(f"{a} -> {b}: {imports[:3]}")
    assert not cycles, "package cycles:\n" + "\n".join(details)


def test_bench_does_not_import_serve(graph: grimp.ImportGraph) -> None:
    chain = graph.find_shortest_chain("autoforge.bench", "autoforge.serve", as_packages=True)
    assert chain is None, f"bench reaches serve through {chain}"


def test_no_module_cycle_but_the_allowed_ones(graph: grimp.ImportGraph) -> None:
    modules = nx.DiGraph()
    for module in graph.modules:
        if graph.is_module_squashed(module) or module.count(".") < 2:
            continue
        for imported in graph.find_modules_directly_imported_by(module):
            # a package's __init__ re-exports its modules; importing it is not a module cycle
            if imported.count(".") >= 2 and not _is_package(imported):
                modules.add_edge(module, imported)
    cycles = [set(c) for c in nx.strongly_connected_components(modules) if len(c) > 1]
    unexpected = [sorted(c) for c in cycles if c not in ALLOWED_MODULE_CYCLES]
    assert not unexpected, f"module cycles: {unexpected}"


def _is_package(module: str) -> bool:
    return (SRC.parent / module.replace(".", "/") / "__init__.py").is_file()


#: The environment directory's file names as string literals (quoted).
ENV_FILE_LITERAL = re.compile(
    r"""["'](environment\.json|tools\.py|initial_state\.json|synthesis_report\.json|\.synth)["']"""
)


def test_environment_file_names_are_spelled_once() -> None:
    owner = SRC / "env" / "artifact" / "files.py"
    offenders = [
        f"{path.relative_to(SRC)}:{n}"
        for path in SRC.rglob("*.py")
        if path != owner and "examples" not in path.parts
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1)
        if ENV_FILE_LITERAL.search(line)
    ]
    assert ENV_FILE_LITERAL.search(owner.read_text(encoding="utf-8"))  # the pattern matches
    assert not offenders, f"use autoforge.env.EnvDir instead of the literal: {offenders}"
