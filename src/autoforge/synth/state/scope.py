"""Scope attributes: a list that must be told where to look says where its records live.

A list tool whose required parameter names nothing its records hold
(``list_invoices(account_id)``, ``describe_rules(budget_name)``, a cloud API's
``list_instances(project)``) lists the records *of* that scope: the account, the budget, the
project. Real API documents rarely repeat the scope inside the item schema, so a design read
from the schemas alone leaves the list no field to compare with, and no tool can be written.
:func:`scope_attributes` gives the listed collection that attribute; it references the
collection whose key the parameter is, when there is one. Creates of the collection that take
the same parameter then store it, and the list filters by it: the round trip a user expects.

Only designs read from documents get this: with data the records say what they hold.
"""

from __future__ import annotations

from collections.abc import Sequence

from autoforge.env import Attribute, AttributeType, CollectionSchema, StateSchema
from autoforge.lexicon import (
    SCOPE_NOTE,
    collection_of_key,
    is_scope,
    paging_params,
    scope_params,
    tool_access,
    tool_scope,
)
from autoforge.synth.state.infer import schema_field_paths
from autoforge.tooldocs import ToolSpec

_TYPES: dict[str, AttributeType] = {"integer": "integer", "number": "number", "string": "string"}


def scope_lines(
    spec: ToolSpec, coll: CollectionSchema, key: str | None, exprs: dict[str, str], noun: str
) -> list[str]:
    """Lines refusing a loaded ``record`` of another scope than the call names, as not found."""
    lines: list[str] = []
    for param in scope_params(spec, coll, key):
        expr = exprs[param]
        lines += [
            f"    if {expr} is not None and str(record.get({param!r})) != str({expr}):",
            f'        raise ToolError(f"{noun} not found in {param} {{{expr}}}")',
        ]
    return lines


def _keyed(param: str, schema: StateSchema) -> CollectionSchema | None:
    """The collection whose key ``param`` names (its primary key or ``<noun>_id``)."""
    for coll in schema.collections:
        if coll.primary_key == param:
            return coll
    return collection_of_key(param, schema)


def _scope_params(
    spec: ToolSpec, coll: CollectionSchema, schema: StateSchema, origins: dict[str, str]
) -> list[str]:
    """The required, non-paging parameters of a list over ``coll`` that no field the docs'
    schemas define holds (a field added from parameters alone may be one)."""
    props = spec.parameters.get("properties", {})
    paging = paging_params(props, spec.param_names)
    paths = schema_field_paths(coll)
    out = []
    for param in spec.required:
        prop = props.get(param) or {}
        documented = param in paths and origins.get(param, "").startswith("docs:")
        if param in paging or documented or prop.get("type") not in (None, *_TYPES):
            continue
        if _keyed(param, schema) is coll:
            continue  # the listed records' own key: a lookup's job, not a scope
        out.append(param)
    return out


def scope_attributes(
    schema: StateSchema, tools: Sequence[ToolSpec], provenance: dict[str, dict[str, str]]
) -> list[str]:
    """Add to each listed collection the scope its list tools require; returns
    ``collection.attribute`` per attribute added (for the design report)."""
    made: list[str] = []
    for spec in tools:
        if tool_access(spec) != "read":
            continue
        c = tool_scope(spec, schema)
        coll = schema.collection(c.collection) if c.cls == "list" and c.collection else None
        if coll is None:
            continue
        props = spec.parameters.get("properties", {})
        origins = provenance.setdefault(coll.name, {})
        for param in _scope_params(spec, coll, schema, origins):
            if is_scope(coll.attribute(param)):
                continue
            ref = _keyed(param, schema)
            typ = _TYPES.get(str((props.get(param) or {}).get("type")), "string")
            attr = Attribute(
                name=param,
                type="id" if ref is not None else typ,
                references=ref.name if ref is not None else None,
                description=f"{SCOPE_NOTE} {spec.name} lists {coll.name} of",
            )
            coll.attributes = [a for a in coll.attributes if a.name != param] + [attr]
            origins[param] = f"rules:{spec.name} lists the {coll.name} of a required {param}"
            made.append(f"{coll.name}.{param}")
    return made
