"""Few-shot example implementations for the tool-writing prompts.

Examples come from the bundled, hand-written bookstore environment (``tools.py``): each tool
function is extracted with the private helpers and constants it uses, classified like the
tools being synthesized, and the shortest ones of the same class are shown. A tool being
synthesized never sees an example with its own name (no leaking of the answer when the
bookstore itself is synthesized); built-in examples from a small library domain cover the
classes the bookstore lacks.
"""

from __future__ import annotations

import ast
import builtins
import functools

from autoforge.env import EnvDir, EnvironmentSpec
from autoforge.synth.rulecode.classify import ToolClass, classify_tool

_RELATED: dict[str, tuple[str, ...]] = {
    "lookup": ("lookup", "list"),
    "list": ("list", "lookup"),
    "create": ("create", "transition"),
    "update": ("update", "transition"),
    "delete": ("delete", "update"),
    "transition": ("transition", "update"),
    "compute": ("compute", "list"),
    "generic": ("generic", "lookup"),
}

BUILTIN: dict[str, list[tuple[str, str]]] = {
    "delete": [
        (
            "delete_loan",
            '''def delete_loan(state, loan_id):
    """Delete a loan record that was never started."""
    loan = state["loans"].get(loan_id)
    if loan is None:
        raise ToolError(f"loan {loan_id} not found")
    if loan["status"] != "requested":
        raise ToolError(f"loan {loan_id} is {loan['status']}; only requested loans can be deleted")
    del state["loans"][loan_id]
    return {"deleted": loan_id}''',
        )
    ],
    "transition": [
        (
            "return_loan",
            '''def return_loan(state, loan_id):
    """Return a borrowed book: the loan is closed and the copy is available again."""
    loan = state["loans"].get(loan_id)
    if loan is None:
        raise ToolError(f"loan {loan_id} not found")
    if loan["status"] != "active":
        raise ToolError(f"loan {loan_id} is {loan['status']}; only active loans can be returned")
    loan["status"] = "returned"
    state["copies"][loan["copy_id"]]["available"] = True
    return dict(loan)''',
        )
    ],
    "compute": [
        (
            "count_overdue_loans",
            '''def count_overdue_loans(state, member_id, today):
    """How many active loans of a member are past their due date (dates are YYYY-MM-DD)."""
    if member_id not in state["members"]:
        raise ToolError(f"member {member_id} not found")
    return sum(
        1
        for loan in state["loans"].values()
        if loan["member_id"] == member_id and loan["status"] == "active" and loan["due"] < today
    )''',
        )
    ],
    "generic": [
        (
            "transfer_to_librarian",
            '''def transfer_to_librarian(state, summary):
    """Hand the conversation to a human librarian; nothing in the state changes."""
    return "A librarian will take over the conversation."''',
        )
    ],
}


def _bookstore_sources() -> tuple[str, EnvironmentSpec] | None:
    try:
        parts = EnvDir.resolve("example:bookstore").read()
    except Exception:  # the bundled example is optional for synthesis
        return None
    return parts.tools_source, parts.spec


def _with_dependencies(tree: ast.Module, source: str, name: str) -> str:
    """The function ``name`` preceded by the private helpers and constants it uses."""
    defs = {n.name: n for n in tree.body if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef)}
    consts = {
        t.id: n
        for n in tree.body
        if isinstance(n, ast.Assign)
        for t in n.targets
        if isinstance(t, ast.Name)
    }
    order: list[ast.stmt] = []

    def visit(node: ast.stmt) -> None:
        for sub in ast.walk(node):
            if isinstance(sub, ast.Name) and sub.id.startswith("_"):
                dep = defs.get(sub.id) or consts.get(sub.id)
                if dep is not None and dep not in order:
                    order.append(dep)
                    visit(dep)

    target = defs[name]
    visit(target)
    used = {
        sub.id for node in [target, *order] for sub in ast.walk(node) if isinstance(sub, ast.Name)
    }
    imports = [
        ast.get_source_segment(source, n) or ""
        for n in tree.body
        if isinstance(n, ast.Import | ast.ImportFrom)
        and any((a.asname or a.name).split(".")[0] in used for a in n.names)
    ]
    parts = [ast.get_source_segment(source, n) or "" for n in sorted(order, key=lambda n: n.lineno)]
    head = ["\n".join(imports)] if imports else []
    return "\n\n".join([*head, *parts, ast.get_source_segment(source, target) or ""])


@functools.lru_cache(maxsize=1)
def bookstore_examples() -> tuple[tuple[str, str, str], ...]:
    """``(name, class, source)`` of every bookstore tool, helpers included; empty if unavailable."""
    loaded = _bookstore_sources()
    if loaded is None:
        return ()
    source, spec = loaded
    tree = ast.parse(source)
    out = []
    for tool in spec.tools:
        try:
            code = _with_dependencies(tree, source, tool.name)
        except KeyError:
            continue
        out.append((tool.name, classify_tool(tool, spec.state_schema).cls, code))
    return tuple(out)


def pick_examples(
    cls: ToolClass, exclude: set[str], k: int = 2, max_chars: int = 1800
) -> list[tuple[str, str]]:
    """Up to ``k`` ``(name, source)`` examples for class ``cls``, shortest first.

    Same class first, then related classes; names in ``exclude`` (the tools being synthesized)
    are never shown; examples longer than ``max_chars`` are skipped.
    """
    pool = [
        (name, c, code)
        for name, c, code in bookstore_examples()
        if name not in exclude and len(code) <= max_chars
    ]
    for c, items in BUILTIN.items():
        pool += [(n, c, code) for n, code in items if n not in exclude]
    picked: list[tuple[str, str]] = []
    for wanted in _RELATED[cls]:
        same = sorted((x for x in pool if x[1] == wanted), key=lambda x: len(x[2]))
        for name, _, code in same:
            if len(picked) < k and name not in {p[0] for p in picked}:
                picked.append((name, code))
    return picked


@functools.lru_cache(maxsize=1)
def example_helpers() -> dict[str, str]:
    """Private helpers of the bundled example tools, each with its imports and dependencies.

    Small models call a helper they saw in a few-shot example (``_next_id``, ``_money``) without
    defining it, and repairing the NameError tends to return the same code; these sources let
    :func:`add_example_helpers` supply the definition deterministically instead.
    """
    loaded = _bookstore_sources()
    if loaded is None:
        return {}
    source, _ = loaded
    tree = ast.parse(source)
    return {
        n.name: _with_dependencies(tree, source, n.name)
        for n in tree.body
        if isinstance(n, ast.FunctionDef) and n.name.startswith("_")
    }


def _example_imports() -> dict[str, str]:
    """Import line per name the examples import (``copy`` -> ``import copy``), plus the plain
    ``import <module>`` of every module the sandbox allows."""
    from autoforge.env import ALLOWED_MODULES

    out = {m: f"import {m}" for m in ALLOWED_MODULES if "." not in m}
    loaded = _bookstore_sources()
    for node in ast.parse(loaded[0]).body if loaded else []:
        if isinstance(node, ast.Import):
            out.update({(a.asname or a.name): f"import {a.name}" for a in node.names})
        elif isinstance(node, ast.ImportFrom) and node.module:
            for a in node.names:
                alias = f" as {a.asname}" if a.asname else ""
                out[a.asname or a.name] = f"from {node.module} import {a.name}{alias}"
    return out


def undefined_names(source: str) -> list[str]:
    """Names ``source`` reads but never binds (def, assignment, argument, import), builtins and
    the runtime-provided ``ToolError`` excepted."""
    tree = ast.parse(source)
    bound: set[str] = {*dir(builtins), "ToolError"}
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            bound.add(node.name)
        elif isinstance(node, ast.Name) and not isinstance(node.ctx, ast.Load):
            bound.add(node.id)
        elif isinstance(node, ast.arg):
            bound.add(node.arg)
        elif isinstance(node, ast.alias):
            bound.add((node.asname or node.name).split(".")[0])
    used = {n.id for n in ast.walk(tree) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)}
    return sorted(used - bound)


def add_example_helpers(source: str) -> tuple[str, list[str]]:
    """``source`` with what it uses but never defines supplied, and the names supplied.

    Small models copy ``_next_id(...)`` or ``copy.deepcopy`` from a few-shot example and leave
    the definition or the import out; a repair round then often returns the same code. Private
    helpers come from the examples (each with its own dependencies, so none is added twice);
    modules and names the examples import get their import line. Names nobody defines are left
    for the checks to report.
    """
    helpers, imports = example_helpers(), _example_imports()
    added: list[str] = []
    while True:
        missing = [
            n for n in undefined_names(source) if (n in helpers or n in imports) and n not in added
        ]
        if not missing:
            return source, added
        name = missing[0]
        added.append(name)
        if name in helpers:
            source = f"{source}\n\n{helpers[name]}\n"
        else:
            source = f"{imports[name]}\n{source}"
