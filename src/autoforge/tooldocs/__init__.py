"""Tool documentation ingestion: OpenAI lists, OpenAPI, MCP and benchmark domains into one IR.

>>> from autoforge.tooldocs import load_docs
>>> docs = load_docs(["petstore.yaml"])          # doctest: +SKIP
>>> docs.tools[0].name, docs.tools[0].parameters  # doctest: +SKIP
"""

from autoforge.tooldocs.registry import (
    Importer,
    detect_format,
    get_importer,
    importer_names,
    importers,
    load_doc,
    load_docs,
    load_input,
    merge_docs,
    parse_text,
    register_importer,
    unregister_importer,
)
from autoforge.tooldocs.schema import (
    check_tool_name,
    is_tool_name,
    normalize_parameters,
    normalize_returns,
    sanitize_name,
)
from autoforge.tooldocs.source import DocInput
from autoforge.tooldocs.spec import (
    TOOLDOCS_SCHEMA_VERSION,
    AccessHint,
    DocParseError,
    DocWarning,
    SourceLocation,
    ToolDocs,
    ToolSpec,
)

__all__ = [
    "TOOLDOCS_SCHEMA_VERSION",
    "AccessHint",
    "DocInput",
    "DocParseError",
    "DocWarning",
    "Importer",
    "SourceLocation",
    "ToolDocs",
    "ToolSpec",
    "check_tool_name",
    "detect_format",
    "get_importer",
    "importer_names",
    "importers",
    "is_tool_name",
    "load_doc",
    "load_docs",
    "load_input",
    "merge_docs",
    "normalize_parameters",
    "normalize_returns",
    "parse_text",
    "register_importer",
    "sanitize_name",
    "unregister_importer",
]
