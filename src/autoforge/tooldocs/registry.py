"""The importer registry and the entry points ``load_doc``, ``load_docs`` and ``parse_text``.

An importer is a name, a ``detect(doc) -> bool`` and a ``load(doc) -> ToolDocs`` over a
:class:`DocInput`. Built-in ones (``autoforge``, ``openapi``, ``swagger2``, ``mcp``, ``openai``,
``markdown``) are registered here; a benchmark's own layout comes from its profile
(:mod:`autoforge.profiles`, e.g. ``bench`` from the tau adapter), registered on first use of the
registry; another importer registers itself the same way::

    register_importer("markdown", detect=lambda d: d.suffix in {".md", ".txt"}, load=my_load)

With ``format="auto"`` the importers are asked in order of decreasing ``priority`` (then
registration order) and the first whose ``detect`` says yes loads the document. Whatever the
importer, the result is checked the same way: at least one tool, valid and unique names.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from autoforge.tooldocs.htmltext import html_text
from autoforge.tooldocs.importers import mcp, native, openai_tools, openapi, swagger2
from autoforge.tooldocs.refs import inline_local_refs
from autoforge.tooldocs.schema import check_tool_name, normalize_parameters, normalize_returns
from autoforge.tooldocs.source import DocInput, LLMFactory, pointer_join
from autoforge.tooldocs.spec import DocParseError, ToolDocs, ToolSpec

DetectFn = Callable[[DocInput], bool]
LoadFn = Callable[[DocInput], ToolDocs]
AUTO = "auto"


@dataclass(frozen=True)
class Importer:
    """One input format: how to recognise it and how to load it."""

    name: str
    detect: DetectFn
    load: LoadFn
    priority: int = 0
    description: str = ""
    normalizes: bool = False


_REGISTRY: dict[str, Importer] = {}
_profiles_loaded = False


def _load_profile_importers() -> None:
    """Register the importers the active profiles provide (once, on first use)."""
    global _profiles_loaded
    if _profiles_loaded:
        return
    _profiles_loaded = True
    from autoforge.profiles import profile_values

    for spec in profile_values("IMPORTERS"):
        if spec["name"] not in _REGISTRY:
            register_importer(**spec)


def register_importer(
    name: str,
    detect: DetectFn,
    load: LoadFn,
    *,
    priority: int = 0,
    description: str = "",
    replace: bool = False,
    normalizes: bool = False,
) -> Importer:
    """Add an importer; ``replace=True`` to overwrite one of the same name.

    Unless ``normalizes=True`` (the importer already calls :func:`normalize_parameters` and
    :func:`normalize_returns` itself), every tool it returns is passed through them.
    """
    if name == AUTO or not name.isidentifier():
        raise ValueError(f"invalid importer name {name!r}")
    if name in _REGISTRY and not replace:
        raise ValueError(f"an importer called {name!r} is already registered")
    importer = Importer(name, detect, load, priority, description, normalizes)
    _REGISTRY[name] = importer
    return importer


def unregister_importer(name: str) -> None:
    """Remove an importer (no error when there is none)."""
    _REGISTRY.pop(name, None)


def importers() -> list[Importer]:
    """The registered importers in detection order."""
    _load_profile_importers()
    order = {name: i for i, name in enumerate(_REGISTRY)}
    return sorted(_REGISTRY.values(), key=lambda imp: (-imp.priority, order[imp.name]))


def importer_names() -> list[str]:
    """Names accepted as ``format`` (besides ``"auto"``), in detection order."""
    return [imp.name for imp in importers()]


def get_importer(name: str, *, file: str | None = None) -> Importer:
    """The importer called ``name``; a :class:`DocParseError` listing the known ones if none."""
    _load_profile_importers()
    if name not in _REGISTRY:
        known = ", ".join([AUTO, *sorted(_REGISTRY)])
        raise DocParseError(
            f"unknown format {name!r}", file=file, hint=f"use one of the known formats: {known}"
        )
    return _REGISTRY[name]


def detect_format(doc: DocInput) -> str:
    """The name of the first importer that recognises ``doc``.

    JSON/YAML syntax errors of a document that looks structured are raised first, with their
    line number, rather than reported as an unknown format.
    """
    if doc.looks_structured():
        doc.data()
    for imp in importers():
        if imp.detect(doc):
            return imp.name
    if doc.is_dir:
        raise DocParseError(
            "is a directory without tools.json (the benchmark domain layout)",
            file=doc.filename,
            hint="pass the tool documents inside it as files",
        )
    raise DocParseError(
        "could not tell the format of this document",
        file=doc.filename,
        hint=f"pass format= (CLI: --format) with one of: {', '.join(importer_names())}",
    )


def load_input(doc: DocInput, format: str = AUTO, *, domain: str | None = None) -> ToolDocs:
    """Import one :class:`DocInput` with the named (or detected) importer, then check it."""
    name = detect_format(doc) if format == AUTO else get_importer(format, file=doc.filename).name
    importer = _REGISTRY[name]
    docs = importer.load(doc)
    if not importer.normalizes:
        docs = docs.model_copy(update={"tools": [_normalized(t, doc.filename) for t in docs.tools]})
    docs = _read_html(docs)
    _check(docs, doc.filename)
    return docs.model_copy(update={"domain": domain}) if domain else docs


def load_doc(
    path: str | Path,
    format: str = AUTO,
    *,
    domain: str | None = None,
    llm: LLMFactory | None = None,
) -> ToolDocs:
    """Import one file (or benchmark domain directory); ``llm``: see :class:`DocInput`."""
    if format != AUTO:
        get_importer(format, file=str(path))
    return load_input(DocInput.from_path(path, llm=llm), format, domain=domain)


def parse_text(
    text: str,
    format: str = AUTO,
    filename: str = "<input>",
    *,
    domain: str | None = None,
    llm: LLMFactory | None = None,
) -> ToolDocs:
    """Import in-memory text; ``filename`` names it in errors and picks JSON vs YAML by suffix."""
    return load_input(DocInput(filename=filename, text=text, llm=llm), format, domain=domain)


def load_docs(
    paths: Iterable[str | Path],
    format: str = AUTO,
    domain: str | None = None,
    *,
    llm: LLMFactory | None = None,
) -> ToolDocs:
    """Import several documents into one :class:`ToolDocs` (see :func:`merge_docs`).

    ``llm`` makes the LLM client for importers that use a model (Markdown prose the rules
    cannot read); without it they read by rules only.
    """
    parts = [load_doc(p, format, llm=llm) for p in paths]
    if not parts:
        raise DocParseError("no documents given", hint="pass at least one tool document")
    return merge_docs(parts, domain=domain)


def merge_docs(parts: list[ToolDocs], *, domain: str | None = None) -> ToolDocs:
    """One :class:`ToolDocs` from several; a tool name defined twice is an error.

    The domain is ``domain`` or the first part's; policies and descriptions are concatenated.
    """
    seen: dict[str, ToolSpec] = {}
    for part in parts:
        for tool in part.tools:
            if tool.name in seen:
                raise _duplicate(tool, seen[tool.name])
            seen[tool.name] = tool
    policy = "\n\n".join(p.policy for p in parts if p.policy) or None
    description = "\n\n".join(p.description for p in parts if p.description)
    return ToolDocs(
        domain=domain or parts[0].domain,
        description=description,
        policy=policy,
        tools=list(seen.values()),
    )


def _normalized(tool: ToolSpec, filename: str) -> ToolSpec:
    """``tool`` with its schemas brought to the IR's rules (refs inlined, object schema)."""
    src = tool.source
    file = src.file if src and src.file else filename
    base = src.pointer if src and src.pointer is not None else ""
    params = inline_local_refs(tool.parameters, file=file, pointer=pointer_join(base, "parameters"))
    returns = inline_local_refs(tool.returns, file=file, pointer=pointer_join(base, "returns"))
    update = {
        "parameters": normalize_parameters(
            params, file=file, pointer=pointer_join(base, "parameters")
        ),
        "returns": normalize_returns(returns, file=file, pointer=pointer_join(base, "returns")),
    }
    return tool.model_copy(update=update)


def _read_html(docs: ToolDocs) -> ToolDocs:
    """``docs`` with every description written in HTML read as plain text (tools, their
    parameters and returns, the document's own)."""
    tools = [
        t.model_copy(
            update={
                "description": html_text(t.description),
                "parameters": _plain(t.parameters),
                "returns": _plain(t.returns),
            }
        )
        for t in docs.tools
    ]
    return docs.model_copy(update={"tools": tools, "description": html_text(docs.description)})


def _plain(schema: Any) -> Any:
    """``schema`` with every ``description`` written in HTML read as plain text."""
    if isinstance(schema, dict):
        return {
            k: html_text(v) if k == "description" and isinstance(v, str) else _plain(v)
            for k, v in schema.items()
        }
    if isinstance(schema, list):
        return [_plain(v) for v in schema]
    return schema


def _check(docs: ToolDocs, filename: str) -> None:
    """Every importer's result: not empty, names valid and unique."""
    if not docs.tools:
        raise DocParseError(
            "no tools found (the tool list is empty)",
            file=filename,
            hint="document at least one tool (or operation)",
        )
    seen: dict[str, ToolSpec] = {}
    for i, tool in enumerate(docs.tools):
        source = tool.source
        pointer = source.pointer if source and source.pointer is not None else f"/tools/{i}"
        check_tool_name(tool.name, file=filename, pointer=pointer_join(pointer, "name"))
        if tool.name in seen:
            raise _duplicate(tool, seen[tool.name])
        seen[tool.name] = tool


def _duplicate(tool: ToolSpec, first: ToolSpec) -> DocParseError:
    src = tool.source
    return DocParseError(
        f"duplicate tool name {tool.name!r} (first defined at {first.source or 'another tool'})",
        file=src.file if src else None,
        pointer=src.pointer if src else None,
        hint="tool names must be unique across all documents: rename or remove one",
    )


register_importer(
    "autoforge", native.detect, native.load, priority=40, normalizes=True,
    description="ToolDocs JSON written by `autoforge ingest`",
)  # fmt: skip
register_importer(
    "openapi", openapi.detect, openapi.load, priority=30, normalizes=True,
    description="OpenAPI 3.0 / 3.1, JSON or YAML: one tool per operation",
)  # fmt: skip
register_importer(
    "swagger2", swagger2.detect, swagger2.load, priority=30, normalizes=True,
    description="Swagger / OpenAPI 2.0, JSON or YAML: one tool per operation",
)  # fmt: skip
register_importer(
    "mcp", mcp.detect, mcp.load, priority=20, normalizes=True,
    description="MCP tools/list result (inputSchema / outputSchema / annotations)",
)  # fmt: skip
register_importer(
    "openai", openai_tools.detect, openai_tools.load, priority=10, normalizes=True,
    description="OpenAI function-calling tool list (bare or type=function)",
)  # fmt: skip

from autoforge.tooldocs import markdown as _markdown  # noqa: E402  (needs the registry above)

register_importer(
    "markdown", _markdown.detect, _markdown.load, priority=0,
    description="Markdown / plain text: rule-parsed tool sections, the LLM for the rest",
)  # fmt: skip
