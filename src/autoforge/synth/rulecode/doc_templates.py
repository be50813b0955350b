"""Templates for list tools whose filtering the docs spell out.

A list tool is written without a model when the docs say what every parameter does:

* a parameter naming an attribute filters by **equality** -- unless its description or the
  tool's says the match is partial ("part of the title", "contains", "substring"), then it is a
  **substring** match, case-insensitive only when the docs say so;
* ``max_<attr>`` / ``min_<attr>`` (also ``<attr>_max``, ``maximum_<attr>``) on a numeric
  attribute is an upper / lower **bound**;
* a boolean ``<attr>_only`` / ``only_<attr>`` / ``in_<attr>_only`` keeps, when true, the records
  whose boolean attribute is true, or whose numeric attribute is at least 1 when the docs say "at
  least one";
* a parameter whose plural names a map attribute keyed by its values (``date`` and a record's
  ``dates``: date -> object) keeps the records that have an **entry** under the value given,
  and each result is the record without that map, merged with the entry (the record as it
  stands on that date);
* an array parameter named as the plural of an attribute (``cluster_names`` and
  ``cluster_name``) keeps the records whose value is **among** those given;
* ``offset`` / ``limit`` slice the result; "sorted by <attribute or id>" sorts it; a documented
  item schema whose fields are all attributes projects each record onto them.

Anything else (a parameter the docs leave open, a sort key that is no attribute, a free
``query``) makes :func:`documented_list` return ``None``, and the tool goes to the model as
before: a template is only chosen where the docs leave no choice.

:func:`qualified_field` gives the attribute a qualified parameter names (a move's
``destination_queue_id`` -> ``queue_id``), for the class drafts of updates and transitions.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal

from autoforge.env import CollectionSchema
from autoforge.lexicon import PagingRole, noun_field, paging_params, paging_role
from autoforge.synth.rulecode.headers import head
from autoforge.synth.rulecode.paging import paging_lines
from autoforge.tooldocs import ToolSpec, plural, singular, snake, tokens

FilterOp = Literal[
    "eq", "contains", "contains_ci", "le", "ge", "true", "positive", "entry", "among"
]

_PARTIAL = re.compile(r"\bpart of\b|\bcontain(?:s|ing)?\b|\bsubstrings?\b|\bpartial\b", re.I)
_NO_CASE = re.compile(r"\bcase[- ]insensitive\b|\bignor(?:es|ing) case\b", re.I)
_AT_LEAST_ONE = re.compile(r"\bat least (?:one|1)\b|\bmore than (?:zero|0)\b", re.I)
_SORTED = re.compile(r"\bsorted by ([a-z_ ]+?)(?: \(|,|\.|$| in | from )", re.I)
_DESC = re.compile(r"\bdescending\b|\bnewest first\b|\bhighest first\b", re.I)
_UPPER = {"max", "maximum"}
_LOWER = {"min", "minimum"}
_FLAG_WORDS = {"only", "in", "has", "with", "is"}
_NUMERIC = ("integer", "number")


@dataclass(frozen=True)
class ListFilter:
    """One documented filter: parameter, the record field it tests, how."""

    param: str
    path: tuple[str, ...]
    op: FilterOp


def _attr_type(coll: CollectionSchema, path: list[str] | tuple[str, ...]) -> str | None:
    attr = coll.attribute(path[0]) if len(path) == 1 else None
    return attr.type if attr is not None else None


def _bound(param: str, coll: CollectionSchema) -> ListFilter | None:
    """``max_price`` -> price <= max_price, on a numeric attribute."""
    toks = tokens(param)
    if len(toks) < 2:
        return None
    if toks[0] in _UPPER | _LOWER:
        word, rest = toks[0], toks[1:]
    elif toks[-1] in _UPPER | _LOWER:
        word, rest = toks[-1], toks[:-1]
    else:
        return None
    attr = coll.attribute("_".join(rest))
    if attr is None or attr.type not in _NUMERIC:
        return None
    return ListFilter(param, (attr.name,), "le" if word in _UPPER else "ge")


def _flag(param: str, prop: dict[str, Any], coll: CollectionSchema) -> ListFilter | None:
    """``in_stock_only`` (boolean, "at least one copy in stock") -> stock >= 1 when true."""
    if prop.get("type") != "boolean":
        return None
    toks = tokens(param)
    if "only" not in toks:
        return None
    attr = coll.attribute("_".join(t for t in toks if t not in _FLAG_WORDS))
    if attr is None:
        return None
    if attr.type == "boolean":
        return ListFilter(param, (attr.name,), "true")
    text = str(prop.get("description", ""))
    if attr.type in _NUMERIC and _AT_LEAST_ONE.search(text):
        return ListFilter(param, (attr.name,), "positive")
    return None


def _entry(param: str, coll: CollectionSchema) -> ListFilter | None:
    """``date`` over a ``dates`` map from key to object -> the record's entry for that date."""
    attr = coll.attribute(plural(param))
    if attr is None or attr.type != "object" or not attr.description.startswith("map from"):
        return None
    return ListFilter(param, (attr.name,), "entry")


def _among(param: str, prop: dict[str, Any], coll: CollectionSchema) -> ListFilter | None:
    """``cluster_names`` (an array) over records keyed or named by ``cluster_name`` -> the
    records whose value is one of those given (all of them when none is given)."""
    if prop.get("type") != "array":
        return None
    for attr in coll.attributes:
        if attr.type != "array" and plural(attr.name).lower() == param.lower():
            return ListFilter(param, (attr.name,), "among")
    return None


def _match(
    spec: ToolSpec, param: str, prop: dict[str, Any], path: list[str], coll: CollectionSchema
) -> ListFilter:
    """Equality, or the substring match the docs state for a free-text parameter."""
    text = str(prop.get("description", ""))
    free_text = not prop.get("enum") and prop.get("type") in (None, "string")
    free_text = free_text and _attr_type(coll, path) in (None, "string")
    partial = _PARTIAL.search(text) or re.search(r"\bsubstrings?\b", spec.description, re.I)
    if not (free_text and partial):
        return ListFilter(param, tuple(path), "eq")
    no_case = _NO_CASE.search(text) or _NO_CASE.search(spec.description)
    return ListFilter(param, tuple(path), "contains_ci" if no_case else "contains")


def list_filters(
    spec: ToolSpec, coll: CollectionSchema, paths: dict[str, list[str]]
) -> list[ListFilter] | None:
    """The filter of every parameter (``offset``/``limit`` aside), or None when one is open."""
    props = spec.parameters.get("properties", {})
    out: list[ListFilter] = []
    paging = paging_params(props, spec.param_names)
    for param in spec.param_names:
        if param in paging:
            continue
        prop = props.get(param) or {}
        path = paths.get(param)
        found = (
            _match(spec, param, prop, path, coll)
            if path is not None
            else _bound(param, coll)
            or _flag(param, prop, coll)
            or _entry(param, coll)
            or _among(param, prop, coll)
        )
        if found is None:
            return None
        out.append(found)
    return out


def sort_key(description: str, coll: CollectionSchema) -> tuple[str, bool] | Literal[""] | None:
    """The attribute a list is "sorted by" and whether descending; ``""`` when the docs do not
    say, ``None`` when they name something that is no attribute."""
    m = _SORTED.search(description)
    if m is None:
        return ""
    words = [w for w in m.group(1).lower().split() if w not in ("the", "their", "its")]
    name = "_".join(words)
    noun = singular(coll.name)
    if name in ("id", f"{noun}_id", coll.primary_key) or words[-1:] == ["id"]:
        return coll.primary_key, bool(_DESC.search(description))
    if coll.attribute(name) is not None:
        return name, bool(_DESC.search(description))
    return None


def projected_fields(spec: ToolSpec, coll: CollectionSchema) -> list[str]:
    """The fields of the documented list items, when each is an attribute (else none)."""
    returns = spec.returns if isinstance(spec.returns, dict) else {}
    items = returns.get("items") if returns.get("type") == "array" else None
    props = items.get("properties") if isinstance(items, dict) else None
    if not isinstance(props, dict) or not props:
        return []
    names = {a.name for a in coll.attributes}
    return list(props) if all(p in names for p in props) else []


def _condition(f: ListFilter, expr: str) -> str:
    got = "record"
    for key in f.path:
        got = f"({got} or {{}}).get({key!r})" if got != "record" else f"record.get({key!r})"
    return {
        "eq": f"{expr} is not None and {got} != {expr}",
        "contains": f"{expr} is not None and str({expr}) not in str({got} or '')",
        "contains_ci": f"{expr} is not None and str({expr}).lower() not in "
        f"str({got} or '').lower()",
        "le": f"{expr} is not None and not (isinstance({got}, (int, float)) and {got} <= {expr})",
        "ge": f"{expr} is not None and not (isinstance({got}, (int, float)) and {got} >= {expr})",
        "true": f"{expr} and not {got}",
        "positive": f"{expr} and not (isinstance({got}, (int, float)) and {got} >= 1)",
        "entry": f"{expr} is not None and not isinstance(({got} or {{}}).get(str({expr})), dict)",
        "among": f"{expr} and str(record.get({f.path[0]!r}, key)) not in [str(v) for v in {expr}]",
    }[f.op]


def documented_list(
    spec: ToolSpec,
    coll: CollectionSchema,
    paths: dict[str, list[str]],
    qualifier: str | None = None,
) -> str | None:
    """The whole list tool from its documented filters, sort and item fields, or None;
    ``qualifier``: an attribute the records listed must have set (a noun of the name)."""
    filters = list_filters(spec, coll, paths)
    order = sort_key(spec.description, coll)
    if filters is None or order is None:
        return None
    top, exprs = head(spec)
    rows = f"state.get({coll.name!r}, {{}}).items()"
    if order:
        attr, desc = order
        value = "str(kv[0])" if attr == coll.primary_key else f"str(kv[1].get({attr!r}))"
        rows = f"sorted({rows}, key=lambda kv: {value}, reverse={desc!r})"
    body = ["    results = []", f"    for key, record in {rows}:"]
    if qualifier is not None:
        body += [f"        if record.get({qualifier!r}) is None:", "            continue"]
    for f in filters:
        body += [f"        if {_condition(f, exprs[f.param])}:", "            continue"]
    entries = [(f.path[0], exprs[f.param]) for f in filters if f.op == "entry"]
    paging = paging_params(spec.parameters.get("properties", {}), spec.param_names)
    body += list_results(coll, exprs, projected_fields(spec, coll), entries, paging)
    return "\n".join([*top, *body])


def list_results(
    coll: CollectionSchema,
    exprs: dict[str, str],
    fields: list[str],
    entries: list[tuple[str, str]] | None = None,
    paging: Mapping[str, PagingRole] | None = None,
) -> list[str]:
    """The end of a list tool's body: each kept record appended (only ``fields`` when the docs
    name the item fields; the record without the map and merged with its entry for a keyed-map
    filter's value, ``entries`` = ``(map attribute, value expression)``; without big id-keyed
    maps, which would flood the agent, otherwise), then the paging and sorting parameters applied
    (``paging``, by role; :mod:`autoforge.synth.rulecode.paging`), then the return."""
    if entries and not fields:
        body = ["        item = dict(record)"]
        for m, e in entries:  # a value not given leaves the record whole
            body += [
                f"        if {e} is not None:",
                f"            item.pop({m!r}, None)",
                f"            item.update((record.get({m!r}) or {{}}).get(str({e})) or {{}})",
            ]
        body.append("        results.append(item)")
    elif fields:
        picked = ", ".join(f"{x!r}: record.get({x!r})" for x in fields)
        body = ["        results.append({" + picked + "})"]
    elif heavy := [a.name for a in coll.attributes if a.description.startswith("map from id")]:
        body = [
            f"        results.append({{k: v for k, v in record.items() if k not in {heavy!r}}})"
        ]
    else:
        body = ["        results.append(record)"]
    if paging is None:
        paging = {p: r for p in exprs if (r := paging_role(p)) is not None}
    body += paging_lines(paging, exprs)
    return [*body, "    return results"]


_QUALIFIERS = {"new", "target", "destination", "dest", "to", "updated"}


def qualified_field(coll: CollectionSchema, param: str) -> str | None:
    """The attribute a qualified parameter names: ``new_status`` -> ``status``,
    ``destination_folder_id`` -> ``folder_id`` (a move names the field it changes)."""
    toks = tokens(param)
    if len(toks) < 2 or toks[0] not in _QUALIFIERS:
        return None
    base = "_".join(toks[1:])
    attr = next((a for a in coll.attributes if snake(a.name) == base), None)  # camelCase too
    return attr.name if attr is not None and attr.name != coll.primary_key else None


def field_by_noun(coll: CollectionSchema, param: str) -> str | None:
    """The attribute a parameter names by the record's noun and the attribute's name:
    ``DataSourceName`` -> ``Name`` of ``data_sources``, ``account_name`` -> ``name`` of
    ``storage_accounts`` (:func:`~autoforge.lexicon.noun_field`), ``MLModelName`` -> ``Name`` of
    ``mlmodels`` (the noun's words run together). The key is never named this way:
    ``<noun>_id`` is the key parameter."""
    low, noun = snake(param), singular(coll.name)
    flat = low.replace("_", "")
    for attr in coll.attributes:
        field = snake(attr.name)
        if attr.name == coll.primary_key:
            continue
        if noun_field(low, noun, field) or flat == (noun + field).replace("_", ""):
            return attr.name
    return None


def qualified_refs(spec: ToolSpec, coll: CollectionSchema) -> dict[str, str]:
    """Qualified parameters (``destination_folder_id``) whose attribute references another
    collection: that record must exist."""
    out: dict[str, str] = {}
    for param in spec.param_names:
        name = qualified_field(coll, param)
        attr = coll.attribute(name) if name is not None else None
        if attr is not None and attr.references:
            out[param] = attr.references
    return out
