"""Turning LLM replies into tool code, checking signatures, assembling ``tools.py``.

Replies are messy: prose around a fenced block, an invented ``class ToolError``, a demo call at
the bottom, helpers without a leading underscore. :func:`extract_function` keeps what belongs
in a tool module (imports, the function, its private helpers and constants) and renames public
helpers so the runtime does not mistake them for undocumented tools. :func:`assemble` merges
accepted tools into one module, renaming helpers that clash between tools.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterable

from pydantic import BaseModel

from autoforge.errors import AutoforgeError

_FENCE = re.compile(r"```[ \t]*([A-Za-z0-9_+-]*)[^\n]*\n(.*?)(?:```|\Z)", re.DOTALL)
_DROP_NAMES = {"ToolError", "state"}


class CodeError(AutoforgeError, ValueError):
    """LLM output that is not a usable tool function; the message is fed back for repair."""


class ToolCode(BaseModel):
    """One tool's code split into module-level imports and the rest (helpers + function)."""

    name: str
    imports: list[str] = []
    body: str

    @property
    def source(self) -> str:
        """Standalone module source of this tool alone."""
        head = "\n".join(self.imports)
        return f"{head}\n\n\n{self.body}\n" if head else f"{self.body}\n"


def _candidate_blocks(text: str) -> list[str]:
    blocks = [m.group(2) for m in _FENCE.finditer(text)]
    return blocks or [text]


def _parse(code: str) -> ast.Module:
    try:
        return ast.parse(code)
    except SyntaxError as exc:
        raise CodeError(f"syntax error on line {exc.lineno}: {exc.msg}") from None


def _pick_block(text: str, name: str) -> ast.Module:
    blocks = _candidate_blocks(text)
    wanted = re.compile(rf"^\s*def\s+{re.escape(name)}\s*\(", re.MULTILINE)
    matching = [b for b in blocks if wanted.search(b)]
    if not matching:
        raise CodeError(f"no function named {name!r} in the answer; write def {name}(state, ...)")
    code = matching[0]
    start = wanted.search(code)
    try:
        return ast.parse(code)
    except SyntaxError:
        # Prose or a broken preamble before the def: keep the def onwards.
        assert start is not None
        return _parse(code[start.start() :].lstrip())


class _Renamer(ast.NodeTransformer):
    def __init__(self, mapping: dict[str, str]) -> None:
        self.mapping = mapping

    def visit_Name(self, node: ast.Name) -> ast.Name:
        if node.id in self.mapping:
            node.id = self.mapping[node.id]
        return node

    def visit_FunctionDef(self, node: ast.FunctionDef) -> ast.FunctionDef:
        if node.name in self.mapping:
            node.name = self.mapping[node.name]
        self.generic_visit(node)
        return node


def _keep(node: ast.stmt, name: str) -> bool:
    if isinstance(node, ast.Import | ast.ImportFrom | ast.FunctionDef):
        return not (isinstance(node, ast.FunctionDef) and node.name in _DROP_NAMES)
    if isinstance(node, ast.Assign):
        targets = [t for t in node.targets if isinstance(t, ast.Name)]
        return bool(targets) and all(t.id.isupper() or t.id.startswith("_") for t in targets)
    return False


def extract_function(text: str, name: str) -> ToolCode:
    """The tool function ``name`` (with its helpers and imports) from an LLM reply."""
    tree = _pick_block(text, name)
    body = [n for n in tree.body if _keep(n, name)]
    if not any(isinstance(n, ast.FunctionDef) and n.name == name for n in body):
        raise CodeError(f"no top-level function named {name!r}")
    rename = {
        n.name: f"_{n.name}"
        for n in body
        if isinstance(n, ast.FunctionDef) and n.name != name and not n.name.startswith("_")
    }
    module = ast.Module(body=body, type_ignores=[])
    if rename:
        module = _Renamer(rename).visit(module)
    imports = [ast.unparse(n) for n in module.body if isinstance(n, ast.Import | ast.ImportFrom)]
    rest = [n for n in module.body if not isinstance(n, ast.Import | ast.ImportFrom)]
    code = "\n\n\n".join(ast.unparse(n) for n in rest)
    return ToolCode(name=name, imports=imports, body=code)


def from_source(source: str, name: str) -> ToolCode:
    """A template or stored source as :class:`ToolCode` (same normalisation as LLM output)."""
    return extract_function(source, name)


def _top_names(body: str) -> dict[str, str]:
    """Top-level helper/constant names of a tool body and their source."""
    out: dict[str, str] = {}
    for node in ast.parse(body).body:
        if isinstance(node, ast.FunctionDef):
            out[node.name] = ast.unparse(node)
        elif isinstance(node, ast.Assign):
            for t in node.targets:
                if isinstance(t, ast.Name):
                    out[t.id] = ast.unparse(node)
    return out


def assemble(codes: Iterable[ToolCode], header: str, *, share: bool = True) -> str:
    """One ``tools.py`` from accepted tools: imports once, clashing helpers renamed per tool.

    A helper identical to one already emitted is shared; a different one with the same name is
    renamed ``_<tool>_<helper>`` in that tool. Renaming changes the helpers that call it, so
    clashes are re-checked until none is left. ``share=False`` renames every helper per tool.
    """
    imports: list[str] = []
    seen: dict[str, str] = {}
    chunks: list[str] = []
    for code in codes:
        for imp in code.imports:
            if imp not in imports:
                imports.append(imp)
        tree = _without_clashes(ast.parse(code.body), code.name, seen, share)
        kept = []
        for node in tree.body:
            src = ast.unparse(node)
            key = _node_name(node)
            if key is not None and key != code.name and seen.get(key) == src:
                continue
            if key is not None:
                seen[key] = src
            kept.append(src)
        chunks.append("\n\n\n".join(kept))
    parts = [f'"""{header}"""', "\n".join(sorted(imports)), *chunks]
    return "\n\n\n".join(p for p in parts if p) + "\n"


def _without_clashes(
    tree: ast.Module, tool: str, seen: dict[str, str], share: bool = True
) -> ast.Module:
    """Rename the tool's helpers that clash with already-emitted ones, to a fixpoint."""
    prefix = f"_{tool}_"
    for _ in range(50):
        current = _top_names(ast.unparse(tree))
        clash = {
            h: f"_{tool}{h if h.startswith('_') else '_' + h}"
            for h, src in current.items()
            if h != tool
            and ((h in seen and seen[h] != src) or (not share and not h.startswith(prefix)))
        }
        if not clash:
            return tree
        tree = _rename_assigns(_Renamer(clash).visit(tree), clash)
    return tree


def _node_name(node: ast.stmt) -> str | None:
    if isinstance(node, ast.FunctionDef):
        return node.name
    if isinstance(node, ast.Assign) and isinstance(node.targets[0], ast.Name):
        return node.targets[0].id
    return None


def _rename_assigns(tree: ast.Module, mapping: dict[str, str]) -> ast.Module:
    for node in tree.body:
        if isinstance(node, ast.Assign):
            for t in node.targets:
                if isinstance(t, ast.Name) and t.id in mapping:
                    t.id = mapping[t.id]
    return tree
