"""The IR itself: a ``ToolDocs`` JSON written by ``autoforge ingest`` (format ``autoforge``).

Loaded back as written (domain, policy, sources kept) and re-checked, so a hand-edited file
gets the same name and schema checks as any other input.
"""

from __future__ import annotations

from pydantic import ValidationError

from autoforge.tooldocs.schema import check_tool_name, normalize_parameters, normalize_returns
from autoforge.tooldocs.source import DocInput, pointer_join
from autoforge.tooldocs.spec import TOOLDOCS_SCHEMA_VERSION, DocParseError, ToolDocs, ToolSpec


def detect(doc: DocInput) -> bool:
    """A mapping with ``schema_version`` and a ``tools`` list."""
    data = doc.try_data()
    return (
        isinstance(data, dict) and "schema_version" in data and isinstance(data.get("tools"), list)
    )


def load(doc: DocInput) -> ToolDocs:
    """The ``ToolDocs`` in the file, validated."""
    data = doc.data()
    file = doc.filename
    version = data.get("schema_version") if isinstance(data, dict) else None
    if isinstance(version, int) and version > TOOLDOCS_SCHEMA_VERSION:
        raise DocParseError(
            f"schema_version {version} is newer than this autoforge reads "
            f"({TOOLDOCS_SCHEMA_VERSION})",
            file=file,
            pointer="/schema_version",
            hint="upgrade autoforge, or re-run `autoforge ingest` on the original documents",
        )
    try:
        docs = ToolDocs.model_validate(data)
    except ValidationError as exc:
        err = exc.errors()[0]
        raise DocParseError(
            f"not a valid autoforge ToolDocs file: {err['msg']}",
            file=file,
            pointer=pointer_join("", *err["loc"]),
            hint="re-create it with `autoforge ingest ... --out FILE`",
        ) from exc
    tools = [_recheck(tool, file, i) for i, tool in enumerate(docs.tools)]
    return docs.model_copy(update={"tools": tools})


def _recheck(tool: ToolSpec, file: str, index: int) -> ToolSpec:
    """The tool with its name checked and its schemas normalised."""
    ptr = pointer_join("/tools", index)
    check_tool_name(tool.name, file=file, pointer=pointer_join(ptr, "name"))
    params = normalize_parameters(
        tool.parameters, file=file, pointer=pointer_join(ptr, "parameters")
    )
    returns = normalize_returns(tool.returns, file=file, pointer=pointer_join(ptr, "returns"))
    return tool.model_copy(update={"parameters": params, "returns": returns})
