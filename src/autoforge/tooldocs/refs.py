"""``$ref`` resolution inside one document, with cycles cut instead of followed forever.

Only local references (``#/components/schemas/Pet``, ``#/$defs/Item``) are supported; a
reference to another file or URL is a :class:`DocParseError` asking to bundle the document.
A schema that refers to itself (directly or through others) is expanded once; the inner
occurrence becomes ``{"type": "object", "description": "(recursive Name)"}``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any
from urllib.parse import unquote

from autoforge.tooldocs.schema import copy_json, map_subschemas
from autoforge.tooldocs.source import pointer_join
from autoforge.tooldocs.spec import DocParseError

DEFAULT_MAX_NODES = 1_000_000


class RefResolver:
    """Resolves ``$ref`` against ``root``; pointers in errors are prefixed with ``base``.

    ``base`` is where ``root`` lives in the file (``/0/function/parameters`` when the document
    root of the references is one tool's parameter schema).
    """

    def __init__(
        self,
        root: Any,
        *,
        file: str,
        base: str = "",
        max_nodes: int = DEFAULT_MAX_NODES,
        transform: Callable[[dict[str, Any]], dict[str, Any]] | None = None,
    ) -> None:
        self.root = root
        self.file = file
        self.base = base
        self.max_nodes = max_nodes
        self.transform = transform
        self._nodes = 0
        self._cuts = 0
        # target pointer -> (expansion, node count), for targets expanded without a cycle cut:
        # such an expansion does not depend on the path that led to it.
        self._memo: dict[str, tuple[Any, int]] = {}

    def lookup(self, ref: Any, at: str) -> tuple[Any, str]:
        """The value ``ref`` points to and its pointer; ``at`` is where the ``$ref`` stands.

        Pointers (``at`` and the returned one) are relative to ``root``; only errors add ``base``.
        """
        if not isinstance(ref, str):
            raise self._error(f"$ref must be a string, got {type(ref).__name__}", at, "")
        if not ref.startswith("#"):
            raise self._error(
                f"external $ref {ref!r} is not supported",
                at,
                "bundle the document into one file (e.g. `npx @redocly/cli bundle`) or move "
                "the referenced schema under #/components/schemas or #/$defs",
            )
        fragment = unquote(ref[1:])
        if fragment and not fragment.startswith("/"):
            raise self._error(
                f"$ref {ref!r} names an anchor, which is not supported",
                at,
                "use a JSON pointer such as '#/components/schemas/Name'",
            )
        node: Any = self.root
        walked = ""
        for raw in fragment.split("/")[1:]:
            token = raw.replace("~1", "/").replace("~0", "~")
            node = self._step(node, token, ref, at, walked)
            walked = pointer_join(walked, token)
        return node, walked

    def _step(self, node: Any, token: str, ref: str, at: str, walked: str) -> Any:
        if isinstance(node, dict) and token in node:
            return node[token]
        if isinstance(node, list) and token.isdigit() and int(token) < len(node):
            return node[int(token)]
        raise self._error(
            f"unresolvable $ref {ref!r}: nothing called {token!r} at '#{walked}'",
            at,
            "define the referenced schema there, or correct the reference",
        )

    def deref(self, node: Any, at: str) -> tuple[Any, str]:
        """Follow ``$ref`` chains of a non-schema object (parameter, request body, response).

        Sibling keys of a reference (``description``, ``summary``) override the target's.
        """
        seen: set[str] = set()
        while isinstance(node, dict) and "$ref" in node:
            target, target_ptr = self.lookup(node["$ref"], pointer_join(at, "$ref"))
            if target_ptr in seen:
                raise self._error(
                    f"circular $ref {node['$ref']!r}", at, "make the chain end at an object"
                )
            seen.add(target_ptr)
            siblings = {k: v for k, v in node.items() if k != "$ref"}
            node = {**target, **siblings} if isinstance(target, dict) else target
            at = target_ptr
        return node, at

    def schema(self, node: Any, at: str) -> Any:
        """A copy of the schema ``node`` (standing at ``at``) with every ``$ref`` expanded.

        ``transform`` (when given) is applied to every expanded schema object, bottom up.
        """
        return self._schema(node, at, ())

    def _schema(self, node: Any, at: str, stack: tuple[str, ...]) -> Any:
        self._count(at)
        if not isinstance(node, dict):
            return node
        if "$ref" not in node:
            out = map_subschemas(node, lambda sub, ptr: self._schema(sub, ptr, stack), at)
            return self.transform(out) if self.transform else out
        target, target_ptr = self.lookup(node["$ref"], pointer_join(at, "$ref"))
        resolved = _titled(self._target(target, target_ptr, node["$ref"], stack), node["$ref"])
        siblings = {k: v for k, v in node.items() if k != "$ref"}
        if not siblings:
            return resolved
        extra = map_subschemas(siblings, lambda sub, ptr: self._schema(sub, ptr, stack), at)
        if resolved is True or isinstance(resolved, dict):
            merged = {**resolved, **extra} if isinstance(resolved, dict) else extra
            return self.transform(merged) if self.transform else merged
        return resolved

    def _target(self, target: Any, target_ptr: str, ref: str, stack: tuple[str, ...]) -> Any:
        """The expansion of a referenced schema: memoised, or a stub when it recurses."""
        if target_ptr in stack:
            self._cuts += 1
            return _recursion_stub(target, ref)
        if target_ptr in self._memo:
            expansion, size = self._memo[target_ptr]
            self._nodes += size
            self._count(target_ptr)
            return copy_json(expansion)
        cuts, nodes = self._cuts, self._nodes
        expansion = self._schema(target, target_ptr, (*stack, target_ptr))
        if self._cuts == cuts:
            self._memo[target_ptr] = (expansion, self._nodes - nodes)
        return expansion

    def _count(self, at: str) -> None:
        self._nodes += 1
        if self._nodes > self.max_nodes:
            raise self._error(
                f"schema grows beyond {self.max_nodes} nodes when its $refs are expanded",
                at,
                "split the document, or reduce deeply shared references",
            )

    def _error(self, message: str, at: str, hint: str) -> DocParseError:
        return DocParseError(message, file=self.file, pointer=self.base + at, hint=hint or None)


_NAMED = ("#/components/schemas/", "#/definitions/", "#/$defs/")


def _titled(resolved: Any, ref: str) -> Any:
    """An inlined named schema keeps its name as ``title`` (state design reads entity names)."""
    name = next((ref[len(p) :] for p in _NAMED if ref.startswith(p)), "")
    if not name or "/" in name or not isinstance(resolved, dict):
        return resolved
    if "title" in resolved or "properties" not in resolved:
        return resolved
    if resolved.get("type", "object") != "object":
        return resolved
    return {"title": unquote(name), **resolved}


def _recursion_stub(target: Any, ref: str) -> dict[str, Any]:
    name = ref.rsplit("/", 1)[-1] or "schema"
    kind = target.get("type") if isinstance(target, dict) else None
    return {
        "type": kind if isinstance(kind, str) else "object",
        "description": f"(recursive {name})",
    }


def inline_local_refs(schema: Any, *, file: str, pointer: str) -> Any:
    """``schema`` with its local ``$ref`` expanded and ``$defs``/``definitions`` dropped.

    Used for tool-level schemas (OpenAI, MCP) whose references point into the schema itself.
    """
    if not isinstance(schema, dict) or not _has_ref(schema):
        return schema
    resolved = RefResolver(schema, file=file, base=pointer).schema(schema, "")
    if isinstance(resolved, dict):
        resolved.pop("$defs", None)
        resolved.pop("definitions", None)
    return resolved


def _has_ref(value: Any) -> bool:
    if isinstance(value, dict):
        return "$ref" in value or any(_has_ref(v) for v in value.values())
    if isinstance(value, list):
        return any(_has_ref(v) for v in value)
    return False
