"""Synthesized code answering in the reply envelope its docs document.

Where the reply puts the records is read from the docs by :mod:`autoforge.lexicon.envelope`;
:func:`enveloped` rewrites each ``return`` of any implementation (template, draft or model
answer) so that the tool answers ``{"Kiln": record}`` or ``{"Kilns": [...]}`` as documented,
not the bare record the rules work on.
"""

from __future__ import annotations

import ast
from collections.abc import Mapping

from autoforge.lexicon import Envelope
from autoforge.synth.modelcode.codegen import ToolCode, extract_function

__all__ = ["enveloped"]


def _wrap(value: ast.expr, env: Envelope, names: Mapping[str, str]) -> ast.expr:
    inner = value
    if env.kind == "keys":
        inner = ast.parse(
            f"[_r.get({env.key!r}) if isinstance(_r, dict) else _r for _r in {ast.unparse(value)}]",
            mode="eval",
        ).body
    keys: list[ast.expr | None] = [ast.Constant(env.field)]
    values = [inner]
    if isinstance(value, ast.Name):  # the record's related records, read once more by name
        for field, coll, ref, key in env.related:
            keys.append(ast.Constant(field))
            values.append(ast.parse(
                f"[_o for _o in state.get({coll!r}, {{}}).values() "
                f"if str(_o.get({ref!r})) == str({value.id}.get({key!r}))]",
                mode="eval",
            ).body)  # fmt: skip
    for field, param in env.echo:  # the call's own value, as the reply documents it
        if param in names:
            keys.append(ast.Constant(field))
            values.append(ast.Name(id=names[param], ctx=ast.Load()))
    return ast.Dict(keys=keys, values=values)


def _already(value: ast.expr, env: Envelope) -> bool:
    return isinstance(value, ast.Dict) and any(
        isinstance(k, ast.Constant) and k.value == env.field for k in value.keys
    )


class _Returns(ast.NodeTransformer):
    """Each ``return <value>`` of the tool function (not of a nested function) enveloped."""

    def __init__(self, env: Envelope, names: Mapping[str, str]) -> None:
        self.env, self.names = env, names

    def visit_FunctionDef(self, node: ast.FunctionDef) -> ast.AST:
        return node  # a nested helper's returns are its own

    visit_AsyncFunctionDef = visit_FunctionDef  # type: ignore[assignment]

    def visit_Lambda(self, node: ast.Lambda) -> ast.AST:
        return node

    def visit_Return(self, node: ast.Return) -> ast.AST:
        value = node.value
        if value is None or (isinstance(value, ast.Constant) and value.value is None):
            return node
        if _already(value, self.env):
            return node
        return ast.copy_location(ast.Return(value=_wrap(value, self.env, self.names)), node)


def enveloped(
    code: ToolCode, env: Envelope | None, names: Mapping[str, str] | None = None
) -> ToolCode:
    """``code`` whose tool function answers inside ``env`` (unchanged when ``env`` is None or
    a reply is already built as the envelope); ``names``: each parameter's Python name (for
    the fields that echo one, :attr:`Envelope.echo`)."""
    if env is None:
        return code
    tree = ast.parse(code.body)
    for fn in tree.body:
        if isinstance(fn, ast.FunctionDef) and fn.name == code.name:
            walker = _Returns(env, names or {})
            fn.body = [walker.visit(stmt) for stmt in fn.body]
    body = ast.unparse(ast.fix_missing_locations(tree))
    head = "\n".join(code.imports)
    return extract_function(f"{head}\n\n{body}\n" if head else body, code.name)
