"""Self-contained HTML building blocks for reports (no external assets, everything escaped).

:mod:`.html` (tables, badges, cards, the page), :mod:`.charts` (inline SVG bar charts),
:mod:`.dag` (a task's blueprint DAG), :mod:`.tasks` (the task gallery) and :mod:`.toolgraph`
(the tool graph). The reports themselves live with the stage whose artifacts they show: the
forge run's ``report.html`` in :mod:`autoforge.forge.report`, the evaluation's ``eval.html`` in
:mod:`autoforge.bench.html`; this package imports neither.
"""

from __future__ import annotations

from autoforge.report.charts import bars, hbars, histogram
from autoforge.report.dag import blueprint_svg
from autoforge.report.html import (
    Markup,
    badge,
    card,
    code_json,
    details,
    esc,
    join,
    page,
    section,
    table,
    tag,
)
from autoforge.report.tasks import gallery
from autoforge.report.toolgraph import adjacency_table, tool_graph_svg

__all__ = [
    "Cell",
    "Markup",
    "adjacency_table",
    "badge",
    "bars",
    "blueprint_svg",
    "card",
    "code_json",
    "details",
    "esc",
    "gallery",
    "hbars",
    "histogram",
    "join",
    "page",
    "section",
    "table",
    "tag",
    "tool_graph_svg",
]

# --- the lazy part of the face: each name is also in __all__ and in the TYPE_CHECKING
# imports; tests/architecture/test_faces.py pins __all__ ---
import importlib as _importlib
from typing import TYPE_CHECKING as _TYPE_CHECKING
from typing import Any as _Any

if _TYPE_CHECKING:
    from autoforge.report.html import Cell as Cell

_LAZY: dict[str, str] = {
    "Cell": "autoforge.report.html",
}


def __getattr__(name: str) -> _Any:
    """A re-exported name, imported from its module on first use."""
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(_importlib.import_module(module), name)


# --- end of the lazy part of the face ---
