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
    "EMAIL_LIKE",
    "ID_SUFFIXES",
    "NAME_LIKE",
    "ONCE_ONLY",
    "PHONE_LIKE",
    "READ_VERBS",
    "TEXT_SUFFIXES",
    "TOOLDOCS_SCHEMA_VERSION",
    "AccessHint",
    "DocInput",
    "DocParseError",
    "DocWarning",
    "Importer",
    "PhraseMode",
    "SourceLocation",
    "ToolDocs",
    "ToolSpec",
    "break_camel",
    "check_tool_name",
    "detect_format",
    "get_importer",
    "id_base",
    "identifier",
    "importer_names",
    "importers",
    "is_entity_param",
    "is_id_like",
    "is_tool_name",
    "load_doc",
    "load_docs",
    "load_input",
    "markdown_tables",
    "merge_docs",
    "named_statuses",
    "normalize_parameters",
    "normalize_returns",
    "parse_structured",
    "parse_text",
    "phrase_in",
    "plural",
    "pointer_join",
    "read_text",
    "register_importer",
    "sanitize_name",
    "singular",
    "snake",
    "snake_words",
    "stated_statuses",
    "to_snake",
    "tokens",
    "unregister_importer",
    "word_match",
]

# --- the lazy part of the face: each name is also in __all__ and in the TYPE_CHECKING
# imports; tests/architecture/test_faces.py pins __all__ ---
import importlib as _importlib
from typing import TYPE_CHECKING as _TYPE_CHECKING
from typing import Any as _Any

if _TYPE_CHECKING:
    from autoforge.tooldocs.markdown import TEXT_SUFFIXES as TEXT_SUFFIXES
    from autoforge.tooldocs.markdown import markdown_tables as markdown_tables
    from autoforge.tooldocs.naming import EMAIL_LIKE as EMAIL_LIKE
    from autoforge.tooldocs.naming import ID_SUFFIXES as ID_SUFFIXES
    from autoforge.tooldocs.naming import NAME_LIKE as NAME_LIKE
    from autoforge.tooldocs.naming import PHONE_LIKE as PHONE_LIKE
    from autoforge.tooldocs.naming import READ_VERBS as READ_VERBS
    from autoforge.tooldocs.naming import PhraseMode as PhraseMode
    from autoforge.tooldocs.naming import break_camel as break_camel
    from autoforge.tooldocs.naming import id_base as id_base
    from autoforge.tooldocs.naming import identifier as identifier
    from autoforge.tooldocs.naming import is_entity_param as is_entity_param
    from autoforge.tooldocs.naming import is_id_like as is_id_like
    from autoforge.tooldocs.naming import phrase_in as phrase_in
    from autoforge.tooldocs.naming import plural as plural
    from autoforge.tooldocs.naming import singular as singular
    from autoforge.tooldocs.naming import snake as snake
    from autoforge.tooldocs.naming import snake_words as snake_words
    from autoforge.tooldocs.naming import to_snake as to_snake
    from autoforge.tooldocs.naming import tokens as tokens
    from autoforge.tooldocs.naming import word_match as word_match
    from autoforge.tooldocs.phrases import ONCE_ONLY as ONCE_ONLY
    from autoforge.tooldocs.phrases import named_statuses as named_statuses
    from autoforge.tooldocs.phrases import stated_statuses as stated_statuses
    from autoforge.tooldocs.safeload import read_text as read_text
    from autoforge.tooldocs.source import parse_structured as parse_structured
    from autoforge.tooldocs.source import pointer_join as pointer_join

_LAZY: dict[str, str] = {
    "markdown_tables": "autoforge.tooldocs.markdown",
    "TEXT_SUFFIXES": "autoforge.tooldocs.markdown",
    "EMAIL_LIKE": "autoforge.tooldocs.naming",
    "ID_SUFFIXES": "autoforge.tooldocs.naming",
    "NAME_LIKE": "autoforge.tooldocs.naming",
    "ONCE_ONLY": "autoforge.tooldocs.phrases",
    "PHONE_LIKE": "autoforge.tooldocs.naming",
    "READ_VERBS": "autoforge.tooldocs.naming",
    "PhraseMode": "autoforge.tooldocs.naming",
    "break_camel": "autoforge.tooldocs.naming",
    "id_base": "autoforge.tooldocs.naming",
    "identifier": "autoforge.tooldocs.naming",
    "is_entity_param": "autoforge.tooldocs.naming",
    "is_id_like": "autoforge.tooldocs.naming",
    "named_statuses": "autoforge.tooldocs.phrases",
    "parse_structured": "autoforge.tooldocs.source",
    "phrase_in": "autoforge.tooldocs.naming",
    "plural": "autoforge.tooldocs.naming",
    "pointer_join": "autoforge.tooldocs.source",
    "read_text": "autoforge.tooldocs.safeload",
    "singular": "autoforge.tooldocs.naming",
    "snake": "autoforge.tooldocs.naming",
    "snake_words": "autoforge.tooldocs.naming",
    "stated_statuses": "autoforge.tooldocs.phrases",
    "to_snake": "autoforge.tooldocs.naming",
    "tokens": "autoforge.tooldocs.naming",
    "word_match": "autoforge.tooldocs.naming",
}


def __getattr__(name: str) -> _Any:
    """A re-exported name, imported from its module on first use."""
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(_importlib.import_module(module), name)


# --- end of the lazy part of the face ---
