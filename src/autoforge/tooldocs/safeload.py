"""Parsing untrusted JSON and YAML documents within bounds, with clean errors.

Tool documents come from anyone, and a few hundred bytes can make a plain parser spend minutes
and gigabytes or raise a raw traceback: a YAML "billion laughs" (aliases of aliases, 10^9
nodes once expanded), an alias inside its own anchor (a cycle), nesting thousands of levels
deep (``RecursionError``), integers longer than Python converts (``ValueError`` past 4,300
digits). Everything here raises :class:`DocParseError` naming the file, the line where known,
and what to change, within time proportional to the text.

The YAML checks work on PyYAML's node graph, before any Python value is built: nesting depth is
bounded while composing (the composer is recursive), then one memoised pass over the graph
measures the size and depth of the document *once aliases are expanded* and finds cycles, so
an alias bomb is refused in microseconds instead of being expanded.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml
from yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode

from autoforge.tooldocs.spec import DocParseError


@dataclass(frozen=True)
class DocLimits:
    """Bounds on one parsed document.

    ``max_depth``: nesting of arrays/objects (tool schemas rarely pass 20);
    ``max_int_digits``: digits of an integer literal (Python refuses more than 4,300);
    ``alias_nodes_base`` + ``alias_ratio`` x (nodes written): how many nodes a YAML document may
    have once its aliases are expanded (a document without aliases always fits).
    """

    max_depth: int = 100
    max_int_digits: int = 4300
    alias_nodes_base: int = 100_000
    alias_ratio: int = 10


DEFAULT_LIMITS = DocLimits()


def read_text(path: str | Path) -> str:
    """A document's text as UTF-8 (a BOM is dropped); ``DocParseError`` for anything else."""
    p = Path(path)
    try:
        return p.read_text(encoding="utf-8-sig")
    except UnicodeDecodeError as exc:
        line = exc.object[: exc.start].count(b"\n") + 1
        raise DocParseError(
            f"not UTF-8 text (byte {exc.start}, line {line}: {exc.reason})",
            file=str(path),
            line=line,
            hint="save the file as UTF-8 (e.g. iconv -f latin1 -t utf-8)",
        ) from None
    except OSError as exc:
        raise DocParseError(
            f"cannot read: {exc.strerror or exc}", file=str(path), hint="check the path"
        ) from None


# --- JSON -------------------------------------------------------------------------------------


def parse_json(text: str, filename: str, limits: DocLimits = DEFAULT_LIMITS) -> Any:
    """``json.loads`` with the integer, depth and syntax errors turned into ``DocParseError``."""

    def parse_int(digits: str) -> int:
        if len(digits.lstrip("-")) > limits.max_int_digits:
            raise _int_error(filename, _line_of(text, digits[:50]), len(digits), limits)
        return int(digits)

    try:
        value = json.loads(text, parse_int=parse_int)
    except json.JSONDecodeError as exc:
        raise DocParseError(
            f"invalid JSON at line {exc.lineno} column {exc.colno}: {exc.msg}",
            file=filename,
            line=exc.lineno,
            hint="fix the JSON syntax there; a missing comma, quote or bracket is typical",
        ) from None
    except RecursionError:
        raise _depth_error(filename, None, limits) from None
    check_depth(value, filename, limits)
    return value


def check_depth(value: Any, filename: str, limits: DocLimits = DEFAULT_LIMITS) -> None:
    """``DocParseError`` when arrays/objects nest deeper than ``limits.max_depth`` (iterative)."""
    if not isinstance(value, dict | list):
        return
    stack: list[tuple[Any, int]] = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if depth > limits.max_depth:
            raise _depth_error(filename, None, limits)
        children = item.values() if isinstance(item, dict) else item
        stack.extend((child, depth + 1) for child in children if isinstance(child, dict | list))


# --- YAML -------------------------------------------------------------------------------------


class _JsonLikeLoader(yaml.SafeLoader):
    """A safe YAML loader that keeps dates as strings (JSON has no date type) and bounds
    nesting while scanning (the scanner's work per token grows with the flow depth) and
    composing (PyYAML's composer recurses once per level)."""

    max_depth = DEFAULT_LIMITS.max_depth
    max_int_digits = DEFAULT_LIMITS.max_int_digits
    filename = "<yaml>"

    def __init__(self, stream: str) -> None:
        super().__init__(stream)
        self._depth = 0

    def fetch_flow_collection_start(self, token_class: Any) -> None:
        if self.flow_level >= self.max_depth:
            raise _depth_error(self.filename, self.get_mark().line + 1, _limits_of(self))
        super().fetch_flow_collection_start(token_class)

    def add_indent(self, column: int) -> bool:
        if len(self.indents) > self.max_depth:
            raise _depth_error(self.filename, self.get_mark().line + 1, _limits_of(self))
        return super().add_indent(column)

    def compose_node(self, parent: Node | None, index: Any) -> Node | None:
        if self.check_event(yaml.AliasEvent):
            return super().compose_node(parent, index)
        self._depth += 1
        try:
            if self._depth > self.max_depth:
                mark = self.peek_event().start_mark
                raise _depth_error(self.filename, mark.line + 1, _limits_of(self))
            return super().compose_node(parent, index)
        finally:
            self._depth -= 1

    def construct_yaml_int(self, node: ScalarNode) -> int:
        digits = sum(c.isdigit() for c in str(node.value))
        if digits > self.max_int_digits:
            line = node.start_mark.line + 1
            raise _int_error(self.filename, line, digits, _limits_of(self))
        return super().construct_yaml_int(node)


_JsonLikeLoader.yaml_implicit_resolvers = {
    first: [(tag, rx) for tag, rx in resolvers if tag != "tag:yaml.org,2002:timestamp"]
    for first, resolvers in yaml.SafeLoader.yaml_implicit_resolvers.items()
}
_JsonLikeLoader.add_constructor("tag:yaml.org,2002:int", _JsonLikeLoader.construct_yaml_int)


def _limits_of(loader: _JsonLikeLoader) -> DocLimits:
    return DocLimits(max_depth=loader.max_depth, max_int_digits=loader.max_int_digits)


def parse_yaml(text: str, filename: str, limits: DocLimits = DEFAULT_LIMITS) -> Any:
    """Safe-load one YAML document within ``limits``; syntax errors name the line."""
    try:
        loader = _JsonLikeLoader(text)  # the reader refuses control characters here
    except yaml.reader.ReaderError as exc:
        line = text.count("\n", 0, exc.position) + 1
        raise DocParseError(
            f"invalid YAML at line {line}: character {exc.character!r} is not allowed in YAML",
            file=filename,
            line=line,
            hint="remove the control character (or escape it inside a double-quoted string)",
        ) from None
    loader.max_depth, loader.max_int_digits = limits.max_depth, limits.max_int_digits
    loader.filename = filename
    try:
        node = loader.get_single_node()
        if node is None:
            return None
        _check_graph(node, filename, limits)
        return loader.construct_document(node)
    except yaml.YAMLError as exc:
        raise _yaml_error(exc, filename) from None
    finally:
        loader.dispose()


def _check_graph(root: Node, filename: str, limits: DocLimits) -> None:
    """Refuse alias cycles, and documents too big or too deep once aliases are expanded.

    One post-order pass with the (size, depth) of each distinct node memoised: linear in the
    nodes written, however large the expansion would be.
    """
    memo: dict[int, tuple[int, int]] = {}
    written = 0
    on_path: set[int] = set()
    stack: list[tuple[Node, bool]] = [(root, False)]
    while stack:
        node, finished = stack.pop()
        key = id(node)
        if finished:
            kids = _children(node)
            size = 1 + sum(memo[id(k)][0] for k in kids)
            depth = 1 + max((memo[id(k)][1] for k in kids), default=0)
            on_path.discard(key)
            memo[key] = (size, depth)
            if depth > limits.max_depth:
                raise _depth_error(filename, node.start_mark.line + 1, limits, aliases=True)
            continue
        if key in memo:
            continue
        if key in on_path:
            raise DocParseError(
                f"an alias refers to its own anchor (a cycle) at line {node.start_mark.line + 1}",
                file=filename,
                line=node.start_mark.line + 1,
                hint="an anchor cannot contain an alias of itself: write the value out",
            )
        written += 1
        on_path.add(key)
        stack.append((node, True))
        stack.extend((k, False) for k in _children(node) if id(k) not in memo)
    expanded = memo[id(root)][0]
    allowed = limits.alias_nodes_base + limits.alias_ratio * written
    if expanded > allowed:
        raise DocParseError(
            f"YAML aliases expand {written} written nodes into {expanded} (more than "
            f"{allowed}: an alias bomb or a document that repeats itself massively)",
            file=filename,
            hint="write repeated parts once and reference them with $ref, or drop the aliases",
        )


def _children(node: Node) -> list[Node]:
    if isinstance(node, SequenceNode):
        return list(node.value)
    if isinstance(node, MappingNode):
        return [part for pair in node.value for part in pair]
    return []


def _yaml_error(exc: yaml.YAMLError, filename: str) -> DocParseError:
    mark = getattr(exc, "problem_mark", None)
    line = mark.line + 1 if mark is not None else None
    problem = getattr(exc, "problem", None) or str(exc).splitlines()[0]
    where = f" at line {line} column {mark.column + 1}" if mark is not None else ""
    context = getattr(exc, "context_mark", None)
    if context is not None and mark is not None and context.line != mark.line:
        problem += f" ({getattr(exc, 'context', None) or 'context'} at line {context.line + 1})"
    return DocParseError(
        f"invalid YAML{where}: {problem}",
        file=filename,
        line=line,
        hint="fix the YAML there; wrong indentation and unquoted ':' are typical causes",
    )


# --- shared errors ----------------------------------------------------------------------------


def _depth_error(
    filename: str, line: int | None, limits: DocLimits, *, aliases: bool = False
) -> DocParseError:
    where = f" at line {line}" if line is not None else ""
    how = " once its aliases are expanded" if aliases else ""
    return DocParseError(
        f"nested more than {limits.max_depth} levels deep{where}{how}",
        file=filename,
        line=line,
        hint=f"flatten the document to at most {limits.max_depth} levels of arrays/objects",
    )


def _int_error(filename: str, line: int | None, digits: int, limits: DocLimits) -> DocParseError:
    where = f" at line {line}" if line is not None else ""
    return DocParseError(
        f"an integer of {digits} digits{where} (at most {limits.max_int_digits} are read)",
        file=filename,
        line=line,
        hint="write the number as a quoted string",
    )


def _line_of(text: str, fragment: str) -> int | None:
    at = text.find(fragment)
    return None if at < 0 else text.count("\n", 0, at) + 1
