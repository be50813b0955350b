"""MCP ``tools/list`` results: ``inputSchema`` -> parameters, ``outputSchema`` -> returns.

Accepted shapes: the JSON-RPC response ``{"jsonrpc": "2.0", "id": .., "result": {"tools": [...]}}``,
the bare result ``{"tools": [...]}`` or a list of tools. ``annotations.readOnlyHint`` gives
``access`` (true -> ``"read"``, false -> ``"write"``; absent -> unknown, None).
"""

from __future__ import annotations

import warnings
from typing import Any

from autoforge.tooldocs.refs import inline_local_refs
from autoforge.tooldocs.schema import (
    check_tool_name,
    description_text,
    normalize_parameters,
    normalize_returns,
)
from autoforge.tooldocs.source import DocInput, pointer_join
from autoforge.tooldocs.spec import (
    AccessHint,
    DocParseError,
    DocWarning,
    SourceLocation,
    ToolDocs,
    ToolSpec,
)


def _tool_list(data: Any) -> tuple[Any, str] | None:
    """The ``tools`` value and its pointer, if ``data`` has one of the MCP shapes."""
    if isinstance(data, list):
        return data, ""
    if not isinstance(data, dict):
        return None
    if isinstance(data.get("result"), dict) and "tools" in data["result"]:
        return data["result"]["tools"], "/result/tools"
    if "tools" in data:
        return data["tools"], "/tools"
    return None


def detect(doc: DocInput) -> bool:
    """A JSON-RPC ``tools/list`` response, or a tool list in which a tool has ``inputSchema``."""
    data = doc.try_data()
    if isinstance(data, dict) and ("jsonrpc" in data or "result" in data):
        return True
    found = _tool_list(data)
    if found is None or not isinstance(found[0], list):
        return False
    return any(isinstance(t, dict) and "inputSchema" in t for t in found[0])


def load(doc: DocInput) -> ToolDocs:
    """All tools of the ``tools/list`` result, in order."""
    data = doc.data()
    file = doc.filename
    if isinstance(data, dict) and "error" in data:
        raise DocParseError(
            f"this is a JSON-RPC error response: {data['error']}",
            file=file,
            pointer="/error",
            hint="save the successful tools/list response instead",
        )
    found = _tool_list(data)
    if found is None or not isinstance(found[0], list):
        raise DocParseError(
            "expected an MCP tools/list result: {'result': {'tools': [...]}}, "
            "{'tools': [...]} or a list of tools",
            file=file,
            pointer=found[1] if found else "",
            hint="pass the JSON the server returned for tools/list",
        )
    items, base = found
    result = data.get("result") if isinstance(data, dict) else None
    if isinstance(result, dict) and result.get("nextCursor"):
        warnings.warn(
            DocWarning(f"{file}: tools/list has a nextCursor: later pages are not included"),
            stacklevel=2,
        )
    tools = [_tool(t, file=file, pointer=pointer_join(base, i)) for i, t in enumerate(items)]
    return ToolDocs(domain=doc.domain, tools=tools)


def _tool(tool: Any, *, file: str, pointer: str) -> ToolSpec:
    if not isinstance(tool, dict):
        raise DocParseError(
            f"an MCP tool must be a JSON object, got {type(tool).__name__}",
            file=file,
            pointer=pointer,
            hint='write {"name": ..., "description": ..., "inputSchema": {...}}',
        )
    name = check_tool_name(tool.get("name"), file=file, pointer=pointer_join(pointer, "name"))
    if "inputSchema" not in tool:
        raise DocParseError(
            f"MCP tool {name!r} has no inputSchema",
            file=file,
            pointer=pointer,
            hint='add "inputSchema": {"type": "object", "properties": {}} (MCP requires it)',
        )
    in_ptr = pointer_join(pointer, "inputSchema")
    out_ptr = pointer_join(pointer, "outputSchema")
    params = inline_local_refs(tool["inputSchema"], file=file, pointer=in_ptr)
    returns = inline_local_refs(tool.get("outputSchema"), file=file, pointer=out_ptr)
    return ToolSpec(
        name=name,
        description=_description(tool, file=file, pointer=pointer),
        parameters=normalize_parameters(params, file=file, pointer=in_ptr),
        returns=normalize_returns(returns, file=file, pointer=out_ptr),
        access=_access(tool.get("annotations")),
        source=SourceLocation(file=file, pointer=pointer),
    )


def _description(tool: dict[str, Any], *, file: str, pointer: str) -> str:
    text = description_text(
        tool.get("description"), file=file, pointer=pointer_join(pointer, "description")
    )
    annotations = tool.get("annotations")
    title = tool.get("title") or (
        annotations.get("title") if isinstance(annotations, dict) else None
    )
    return text or (title if isinstance(title, str) else "")


def _access(annotations: Any) -> AccessHint | None:
    if not isinstance(annotations, dict):
        return None
    hint = annotations.get("readOnlyHint")
    if hint is True:
        return "read"
    if hint is False:
        return "write"
    return None
