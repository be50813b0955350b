"""Small, safe HTML building blocks for self-contained reports (no templates, no assets).

Everything given as ``str`` is escaped. Only :class:`Markup` (HTML built by these helpers or by
the SVG renderers, which escape their own text) is inserted as is, so a tool description or a
task question can never inject markup into a report.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from html import escape
from typing import Any


class Markup(str):
    """A string of trusted HTML (built here from escaped parts)."""

    __slots__ = ()


Cell = str | int | float | Markup | None


def esc(value: Any) -> Markup:
    """``value`` as escaped HTML text (Markup is passed through)."""
    if isinstance(value, Markup):
        return value
    return Markup(escape("" if value is None else str(value)))


def join(parts: Iterable[Markup | str]) -> Markup:
    """Concatenate parts, escaping the plain strings."""
    return Markup("".join(esc(p) for p in parts))


def tag(name: str, body: Markup | str = "", **attrs: Any) -> Markup:
    """``<name attrs>body</name>``; attribute values are escaped, ``cls`` means ``class``."""
    text = "".join(
        f' {"class" if k == "cls" else k.replace("_", "-")}="{escape(str(v), quote=True)}"'
        for k, v in attrs.items()
        if v is not None and v is not False
    )
    return Markup(f"<{name}{text}>{esc(body)}</{name}>")


def table(
    headers: Sequence[str],
    rows: Iterable[Sequence[Cell]],
    *,
    numeric: Iterable[int] = (),
    cls: str = "grid",
    caption: str | None = None,
) -> Markup:
    """A table; the columns listed in ``numeric`` are right-aligned."""
    right = set(numeric)
    head = join(tag("th", h, cls="num" if i in right else None) for i, h in enumerate(headers))
    body = []
    for row in rows:
        cells = [tag("td", _cell(v), cls="num" if i in right else None) for i, v in enumerate(row)]
        body.append(tag("tr", join(cells)))
    parts = [tag("caption", caption)] if caption else []
    parts += [tag("thead", tag("tr", head)), tag("tbody", join(body))]
    return tag("table", join(parts), cls=cls)


def _cell(value: Cell) -> Markup:
    if isinstance(value, Markup):
        return value
    if isinstance(value, float):
        return esc(f"{value:,.2f}")
    if isinstance(value, int) and not isinstance(value, bool):
        return esc(f"{value:,}")
    return esc(value)


def badge(text: str, kind: str = "neutral") -> Markup:
    """A small coloured label (kinds: ok, warn, bad, neutral, info)."""
    return tag("span", text, cls=f"badge {kind}")


def details(summary: Markup | str, body: Markup | str, *, open_: bool = False) -> Markup:
    """A collapsible block."""
    return tag("details", join([tag("summary", summary), esc(body)]), open=open_ or None)


def code_json(value: Any, limit: int = 4000) -> Markup:
    """A JSON value pretty-printed in a ``<pre>`` (cut at ``limit`` characters)."""
    text = json.dumps(value, indent=2, ensure_ascii=False, default=str)
    if len(text) > limit:
        text = text[:limit] + f"\n... ({len(text) - limit} more characters)"
    return tag("pre", text, cls="json")


def section(title: str, body: Markup | str, *, anchor: str) -> Markup:
    """A top-level report section with a heading and an anchor."""
    return tag("section", join([tag("h2", title), esc(body)]), id=anchor)


def card(label: str, value: str, note: str = "", kind: str = "") -> Markup:
    """A headline figure."""
    parts = [tag("div", value, cls="value"), tag("div", label, cls="label")]
    if note:
        parts.append(tag("div", note, cls="note"))
    return tag("div", join(parts), cls=f"card {kind}".strip())


CSS = """
:root { --fg:#1f2937; --muted:#6b7280; --line:#e5e7eb; --bg:#f9fafb; --accent:#2563eb; }
* { box-sizing: border-box; }
body { font: 14px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: var(--fg);
  margin: 0; background: #fff; }
header { background: #111827; color: #f9fafb; padding: 18px 32px; }
header h1 { margin: 0 0 4px; font-size: 22px; }
header .sub { color: #9ca3af; font-size: 13px; }
nav { position: sticky; top: 0; background: #fff; border-bottom: 1px solid var(--line);
  padding: 8px 32px; z-index: 2; font-size: 13px; }
nav a { margin-right: 16px; color: var(--accent); text-decoration: none; }
main { padding: 8px 32px 48px; max-width: 1400px; }
section { margin-top: 28px; }
h2 { font-size: 18px; border-bottom: 2px solid var(--line); padding-bottom: 4px; }
h3 { font-size: 15px; margin: 18px 0 6px; }
.cards { display: flex; flex-wrap: wrap; gap: 12px; margin-top: 16px; }
.card { border: 1px solid var(--line); border-radius: 8px; padding: 10px 16px; min-width: 150px;
  background: var(--bg); }
.card .value { font-size: 22px; font-weight: 600; }
.card .label { color: var(--muted); font-size: 12px; text-transform: uppercase;
  letter-spacing: .04em; }
.card .note { color: var(--muted); font-size: 12px; }
.card.bad .value { color: #b91c1c; } .card.ok .value { color: #15803d; }
table.grid { border-collapse: collapse; margin: 8px 0 12px; font-size: 13px; }
table.grid th, table.grid td { border: 1px solid var(--line); padding: 4px 8px;
  text-align: left; vertical-align: top; }
table.grid th { background: var(--bg); font-weight: 600; }
table.grid td.num, table.grid th.num { text-align: right; font-variant-numeric: tabular-nums; }
table.grid caption { text-align: left; color: var(--muted); font-size: 12px; padding: 2px 0; }
.badge { display: inline-block; padding: 0 7px; border-radius: 9px; font-size: 12px;
  font-weight: 600; white-space: nowrap; }
.badge.ok { background: #dcfce7; color: #166534; } .badge.warn { background: #fef3c7;
  color: #92400e; } .badge.bad { background: #fee2e2; color: #991b1b; }
.badge.neutral { background: #e5e7eb; color: #374151; } .badge.info { background: #dbeafe;
  color: #1e40af; }
details { margin: 6px 0; } summary { cursor: pointer; color: var(--accent); }
pre.json { background: var(--bg); border: 1px solid var(--line); padding: 8px; font-size: 12px;
  overflow-x: auto; max-height: 360px; margin: 4px 0; white-space: pre-wrap;
  word-break: break-word; }
.muted { color: var(--muted); }
.figure { overflow-x: auto; border: 1px solid var(--line); border-radius: 8px; padding: 8px;
  background: #fff; }
.charts { display: flex; flex-wrap: wrap; gap: 16px; }
.charts > div { border: 1px solid var(--line); border-radius: 8px; padding: 6px; }
.gallery { display: grid; grid-template-columns: repeat(auto-fill, minmax(620px, 1fr));
  gap: 16px; }
.task { border: 1px solid var(--line); border-radius: 8px; padding: 12px 14px;
  background: #fff; min-width: 0; }
.task h3 { margin: 0 0 6px; font-size: 14px; font-family: ui-monospace, monospace;
  word-break: break-all; }
.task .question { background: #f0f9ff; border-left: 3px solid #38bdf8; padding: 6px 10px;
  margin: 6px 0; }
.task ol { margin: 4px 0 4px 20px; padding: 0; font-size: 13px; }
.task ol li { margin: 2px 0; word-break: break-word; }
code { font-family: ui-monospace, SFMono-Regular, Menlo, monospace; font-size: 12px;
  background: var(--bg); padding: 0 3px; border-radius: 3px; }
.metrics { color: var(--muted); font-size: 12px; margin: 2px 0 6px; }
table.matrix td { text-align: center; color: #2563eb; padding: 2px 5px; }
table.matrix td:first-child { text-align: left; }
.tables { display: flex; flex-wrap: wrap; gap: 0 24px; align-items: flex-start; }
.tables table.grid td { max-width: 280px; }
.legend span { margin-right: 14px; font-size: 12px; }
.swatch { display: inline-block; width: 12px; height: 12px; border-radius: 3px;
  vertical-align: -2px; margin-right: 4px; border: 1px solid #999; }
"""


def page(title: str, subtitle: str, nav: Sequence[tuple[str, str]], body: Markup) -> str:
    """A complete HTML document with the inline stylesheet."""
    links = join(tag("a", label, href=f"#{anchor}") for anchor, label in nav)
    return (
        "<!DOCTYPE html>\n<html lang='en'><head><meta charset='utf-8'>"
        "<meta name='viewport' content='width=device-width, initial-scale=1'>"
        f"<title>{esc(title)}</title><style>{CSS}</style></head><body>"
        f"<header><h1>{esc(title)}</h1><div class='sub'>{esc(subtitle)}</div></header>"
        f"<nav>{links}</nav><main>{body}</main></body></html>\n"
    )
