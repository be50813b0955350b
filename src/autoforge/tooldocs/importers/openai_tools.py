"""OpenAI function-calling tool lists (also Anthropic-style ``input_schema`` tools).

Accepted shapes: a list, ``{"tools": [...]}``, ``{"functions": [...]}`` or one tool object; each
tool either ``{"type": "function", "function": {name, description, parameters}}`` or the bare
``{name, description, parameters}``. OpenAI lists carry no read/write hint: ``access`` is None.
"""

from __future__ import annotations

from typing import Any

from autoforge.tooldocs.refs import inline_local_refs
from autoforge.tooldocs.schema import check_tool_name, description_text, normalize_parameters
from autoforge.tooldocs.source import DocInput, pointer_join
from autoforge.tooldocs.spec import DocParseError, SourceLocation, ToolDocs, ToolSpec

_NOT_OPENAI_KEYS = ("openapi", "swagger", "schema_version", "jsonrpc", "result")
# At least one entry must have one of these: a list of bare ``{"name": ...}`` records (such as
# a benchmark's tools_meta.json) is not taken for a tool list.
_TOOL_KEYS = ("function", "parameters", "input_schema", "description")


def tool_items(data: Any, *, file: str) -> tuple[list[Any], str]:
    """The tool objects of an OpenAI-style document and the JSON pointer of their list."""
    if isinstance(data, list):
        return data, ""
    if isinstance(data, dict):
        for key in ("tools", "functions"):
            if isinstance(data.get(key), list):
                return data[key], f"/{key}"
        if "function" in data or "name" in data:
            return [data], ""
    raise DocParseError(
        "expected a list of tools, an object with a 'tools' list, or one tool object",
        file=file,
        pointer="",
        hint='write [{"type": "function", "function": {"name": ..., "parameters": ...}}, ...]',
    )


def detect(doc: DocInput) -> bool:
    """A list (or ``tools`` list) of objects that look like OpenAI function tools."""
    data = doc.try_data()
    if not isinstance(data, list | dict):
        return False
    if isinstance(data, dict) and any(k in data for k in _NOT_OPENAI_KEYS):
        return False
    try:
        items, _ = tool_items(data, file=doc.filename)
    except DocParseError:
        return False
    dicts = all(isinstance(i, dict) for i in items)
    return dicts and (not items or any(any(k in i for k in _TOOL_KEYS) for i in items))


def load(doc: DocInput) -> ToolDocs:
    """All tools of the document, in order."""
    items, base = tool_items(doc.data(), file=doc.filename)
    tools = tools_from_items(items, file=doc.filename, base=base)
    return ToolDocs(domain=doc.domain, tools=tools)


def tools_from_items(items: list[Any], *, file: str, base: str) -> list[ToolSpec]:
    """Convert each OpenAI tool object; ``base`` is the pointer of the list in the file."""
    return [
        tool_from_item(item, file=file, pointer=pointer_join(base, i))
        for i, item in enumerate(items)
    ]


def tool_from_item(item: Any, *, file: str, pointer: str) -> ToolSpec:
    """One OpenAI tool object as a :class:`ToolSpec`."""
    if not isinstance(item, dict):
        raise DocParseError(
            f"a tool must be a JSON object, got {type(item).__name__}",
            file=file,
            pointer=pointer,
            hint='write {"type": "function", "function": {"name": ..., "parameters": ...}}',
        )
    fn, fptr = item, pointer
    if "function" in item:
        if item.get("type", "function") != "function":
            raise DocParseError(
                f"only function tools are supported, got type {item.get('type')!r}",
                file=file,
                pointer=pointer_join(pointer, "type"),
                hint='remove built-in tools; keep entries with "type": "function"',
            )
        fn, fptr = item["function"], pointer_join(pointer, "function")
        if not isinstance(fn, dict):
            raise DocParseError(
                "'function' must be an object with name, description and parameters",
                file=file,
                pointer=fptr,
                hint='write "function": {"name": ..., "description": ..., "parameters": {...}}',
            )
    return _spec(fn, file=file, pointer=fptr)


def _spec(fn: dict[str, Any], *, file: str, pointer: str) -> ToolSpec:
    name = check_tool_name(fn.get("name"), file=file, pointer=pointer_join(pointer, "name"))
    key = "parameters" if "parameters" in fn or "input_schema" not in fn else "input_schema"
    pptr = pointer_join(pointer, key)
    raw = inline_local_refs(fn.get(key), file=file, pointer=pptr)
    return ToolSpec(
        name=name,
        description=description_text(
            fn.get("description"), file=file, pointer=pointer_join(pointer, "description")
        ),
        parameters=normalize_parameters(raw, file=file, pointer=pptr),
        source=SourceLocation(file=file, pointer=pointer),
    )
