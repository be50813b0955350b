"""The built-in importers, one module per format; :mod:`autoforge.tooldocs.registry` wires them."""

__all__ = [
    "tool_items",
    "tools_from_items",
]

# --- the lazy part of the face: each name is also in __all__ and in the TYPE_CHECKING
# imports; tests/architecture/test_faces.py pins __all__ ---
import importlib as _importlib
from typing import TYPE_CHECKING as _TYPE_CHECKING
from typing import Any as _Any

if _TYPE_CHECKING:
    from autoforge.tooldocs.importers.openai_tools import tool_items as tool_items
    from autoforge.tooldocs.importers.openai_tools import tools_from_items as tools_from_items

_LAZY: dict[str, str] = {
    "tool_items": "autoforge.tooldocs.importers.openai_tools",
    "tools_from_items": "autoforge.tooldocs.importers.openai_tools",
}


def __getattr__(name: str) -> _Any:
    """A re-exported name, imported from its module on first use."""
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(_importlib.import_module(module), name)


# --- end of the lazy part of the face ---
