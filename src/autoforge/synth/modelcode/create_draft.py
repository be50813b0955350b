"""The draft a model completes for a create that computes something (an order from items).

A create whose record is not just its parameters cannot be a template, but most of its code is
still fixed by the docs and the data: the records its parameters name must exist (``customer_id``
in ``customers``; each ``book_id`` of an ``items`` entry in ``books``, where the parameter's
item schema names the key), the new key follows the existing keys (``ORD-<n>``), the record has
the collection's attributes, and the parameters with a field of their own go there. The draft
writes those lines and lists the doc sentences still to implement as TODO lines, so a small
model edits working code that already reads each collection the right way instead of
guessing where a value lives. It ends in a TODO and is never kept as a fallback: a record
without the documented computations is not the tool. When the docs state no computation and
every parameter has its field, the draft is the whole tool: the record is what the call gives
(a list of keys once each key names a record), its other attributes stay unset until the tools
that set them run.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from autoforge.env import CollectionSchema, StateSchema
from autoforge.lexicon import whole_record
from autoforge.synth.rulecode.classify import Classification, collection_of_key
from autoforge.tooldocs import ToolSpec, singular

CREATE_TODO = "    # TODO: compute and store what the docs state, then add the record"


def entry_refs(spec: ToolSpec, param: str, schema: StateSchema) -> list[tuple[str, str]]:
    """``(entry key, collection)`` for each key of a list parameter's items naming a record."""
    prop = spec.parameters.get("properties", {}).get(param) or {}
    items = prop.get("items") if prop.get("type") == "array" else None
    props = items.get("properties") if isinstance(items, dict) else None
    out = []
    for key in props or {}:
        coll = collection_of_key(key, schema)
        if coll is not None:
            out.append((key, coll.name))
    return out


def _entry_checks(
    spec: ToolSpec, exprs: Mapping[str, str], schema: StateSchema | None
) -> list[str]:
    lines: list[str] = []
    for param in spec.param_names if schema is not None else []:
        for key, other in entry_refs(spec, param, schema):  # type: ignore[arg-type]
            noun = singular(other)
            lines += [
                f"    for entry in {exprs[param]} or []:",
                f"        {noun} = state.get({other!r}, {{}}).get(str(entry.get({key!r})))",
                f"        if {noun} is None:",
                f'            raise ToolError(f"{noun} not found: {{entry.get({key!r})}}")',
            ]
    return lines


def _id_list_checks(
    spec: ToolSpec, coll: CollectionSchema, exprs: Mapping[str, str], schema: StateSchema | None
) -> list[str]:
    """Lines refusing a list of keys (``subnet_ids``) that names a record no collection has:
    each key is checked, as a scalar reference is."""
    props = spec.parameters.get("properties", {})
    lines: list[str] = []
    for param in spec.param_names if schema is not None else []:
        if (props.get(param) or {}).get("type") != "array":
            continue
        attr = coll.attribute(param)
        found = collection_of_key(param, schema)  # type: ignore[arg-type]
        other = found.name if found is not None else attr.references if attr else None
        if other is None or other == coll.name:
            continue
        lines += key_list_check(exprs[param], other, "    ")
    return lines


def key_list_check(expr: str, collection: str, indent: str) -> list[str]:
    """Lines refusing a list of keys (``expr``) when one names no record of ``collection``."""
    noun = singular(collection).replace("_", " ")
    return [
        f"{indent}for item in {expr} or []:",
        f"{indent}    if str(item) not in state.get({collection!r}, {{}}):",
        f'{indent}        raise ToolError(f"{noun} not found: {{item}}")',
    ]


def create_draft(
    spec: ToolSpec,
    c: Classification,
    coll: CollectionSchema,
    exprs: Mapping[str, str],
    schema: StateSchema | None,
    effects: Sequence[str],
    stored: list[str],
    refs: Mapping[str, str],
    owner: tuple[Sequence[str], Sequence[str]] = ((), ()),
) -> list[str]:
    """The body lines of the draft (after the ``def`` and docstring).

    ``stored`` are the lines storing the parameters that have a field in ``record``; ``refs``
    maps each scalar parameter naming a record to its collection: that record is loaded under
    its singular name, or the call is refused. The new record's key is the one the call names
    (``c.key_param``), else a fresh one. ``owner``: the lines binding the signed-in user
    and the lines attaching the new record to them, for a create acting for that user
    (:func:`autoforge.synth.rulecode.session_scope.create_owner_lines`). A list parameter whose
    entries name records is not stored as given: the record's entries have their own shape.
    """
    pk = coll.primary_key
    body: list[str] = list(owner[0])
    for param, other in refs.items():
        noun = singular(other)
        body += [
            f"    {noun} = state.get({other!r}, {{}}).get(str({exprs[param]}))",
            f"    if {noun} is None:",
            f'        raise ToolError(f"{noun} not found: {{{exprs[param]}}}")',
        ]
    body += _entry_checks(spec, exprs, schema)
    body += _id_list_checks(spec, coll, exprs, schema)
    whole = whole_param(spec, coll)
    body += [
        f"    table = state.setdefault({coll.name!r}, {{}})",
        *_key_lines(spec, c, coll, exprs, whole),
        "    record = {" + ", ".join(f"{a.name!r}: None" for a in coll.attributes) + "}",
        f"    record[{pk!r}] = " + ("int(key)" if coll.integer_keyed else "key"),
        *owner[1],
    ]
    if whole is not None:  # its fields are the record's
        body += [
            f"    for field, value in ({exprs[whole]} or {{}}).items():",
            f"        if field in record and field != {pk!r}:",
            "            record[field] = value",
        ]
    body += stored
    shaped = [p for p in spec.param_names if schema is not None and entry_refs(spec, p, schema)]
    for param in shaped:
        body.append(f"    # TODO: store {param} in the shape the record sample shows")
    if effects or shaped or "TODO" in "\n".join(stored):  # not the call as given
        body.append(CREATE_TODO + (":" if effects else ""))
    body += [f"    #   - {e}" for e in effects]
    body += ["    table[key] = record", "    return record"]
    return body


def _key_lines(
    spec: ToolSpec,
    c: Classification,
    coll: CollectionSchema,
    exprs: Mapping[str, str],
    whole: str | None,
) -> list[str]:
    """Lines setting ``key`` for the new record: the key the call names, else the one the
    record given whole names (refused without it), else a fresh one."""
    pk = coll.primary_key
    if c.key_param:
        return _named_key(coll, exprs[c.key_param])
    if whole is not None and pk in _props(spec, whole):
        given = f"({exprs[whole]} or {{}}).get({pk!r})"
        return [
            f"    if {given} is None:",
            f'        raise ToolError("{whole} must name its {pk}")',
            *_named_key(coll, given),
        ]
    return _new_key(coll)


def whole_param(spec: ToolSpec, coll: CollectionSchema) -> str | None:
    """The object parameter that is the new record given whole (``create_budget(Budget)``,
    :func:`~autoforge.lexicon.whole_record`) and shares a field with it; None when none."""
    attrs = {a.name for a in coll.attributes}
    for param in spec.param_names:
        if whole_record(spec, param, coll) and attrs & set(_props(spec, param)):
            return param
    return None


def _props(spec: ToolSpec, param: str) -> dict[str, object]:
    prop = spec.parameters.get("properties", {}).get(param) or {}
    props = prop.get("properties") if isinstance(prop, dict) else None
    return props if isinstance(props, dict) else {}


def _named_key(coll: CollectionSchema, expr: str) -> list[str]:
    """Lines taking the key the caller names (``create_cluster(cluster_name)``), refusing one
    that a record already has."""
    noun = singular(coll.name).replace("_", " ")
    return [
        f"    key = str({expr})",
        "    if key in table:",
        f'        raise ToolError(f"{noun} already exists: {{key}}")',
    ]


def _new_key(coll: CollectionSchema) -> list[str]:
    """Lines setting ``key`` to a fresh state key: one past the largest key of an
    integer-keyed collection, else the existing keys' pattern (REV-1, REV-2 -> REV-4)."""
    if coll.integer_keyed:
        return [
            "    key = str(max([int(k) for k in table if str(k).lstrip('-').isdigit()] or [0]) + 1)"
        ]
    return [
        "    stems = {str(k).rstrip('0123456789') for k in table if str(k)[-1:].isdigit()}",
        f"    stem = stems.pop() if len(stems) == 1 else {singular(coll.name)[:3] + '_'!r}",
        "    n = len(table) + 1",
        '    while f"{stem}{n}" in table:',
        "        n += 1",
        '    key = f"{stem}{n}"',
    ]
