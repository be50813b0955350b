"""Deterministic tool classification: which kind of tool, over which collection, how plain.

The class picks the skeleton the LLM gets, the example implementations shown to it, the property
checks that apply (read tools must leave the state unchanged), and for plain CRUD over an obvious
collection a code template that needs no model at all. The class, collection, key and
references come from :mod:`autoforge.lexicon.toolscope` (the rule extractor reads them there
too);
this module adds how plain the tool is and the status its name or description presupposes.
"""

from __future__ import annotations

from collections.abc import Mapping

from pydantic import BaseModel

from autoforge.env import CollectionSchema, StateSchema
from autoforge.lexicon import (
    READ_CLASSES,
    ToolClass,
    acting_for,
    collection_of_key,
    key_param,
    paging_params,
    request_params,
    scope_params,
    status_attribute,
    target_collection,
    tool_scope,
)
from autoforge.synth.rulecode.transition_fields import modified_field
from autoforge.synth.state.infer import schema_field_paths
from autoforge.tooldocs import ToolSpec, singular, tokens

__all__ = [
    "READ_CLASSES",
    "Classification",
    "ToolClass",
    "classify_tool",
    "collection_of_key",
    "key_param",
    "status_guard",
    "target_collection",
]


class Classification(BaseModel):
    """What the classifier decided for one tool, and why (shown in the synthesis report)."""

    tool: str
    cls: ToolClass
    collection: str | None = None
    key_param: str | None = None
    plain: bool = False
    guard: tuple[str, str] | None = None
    refs: dict[str, str] = {}
    #: the attribute a qualifying noun of the name requires set (see ``ToolScope.qualifier``)
    qualifier: str | None = None
    reason: str = ""


FieldPaths = Mapping[str, Mapping[str, list[str]]]


def classify_tool(
    spec: ToolSpec, schema: StateSchema, fields: FieldPaths | None = None
) -> Classification:
    """Classify ``spec`` against ``schema``.

    ``fields`` maps each collection to where its (possibly nested) fields sit in a record, as
    :func:`autoforge.synth.state.infer.field_paths` finds them in data; without it the schema's
    attributes (and the keys their descriptions name) are used.
    """
    scope = tool_scope(spec, schema)
    coll = schema.collection(scope.collection) if scope.collection else None
    cls, key = scope.cls, scope.key_param
    paths: Mapping[str, list[str]] = {}
    if coll is not None:
        paths = (fields or {}).get(coll.name) or schema_field_paths(coll)
    given = set(spec.param_names)
    acting = acting_for(spec, coll, schema) if cls == "create" else None
    if acting is not None:  # the new record's owner is the signed-in user
        given.add(acting[2])
    plain = _is_plain(cls, spec, coll, key, set(paths), given)
    return Classification(
        tool=spec.name,
        cls=cls,
        collection=scope.collection,
        key_param=key,
        plain=plain,
        guard=status_guard(spec, coll) if cls not in READ_CLASSES else None,
        refs=scope.refs,
        qualifier=scope.qualifier,
        reason=scope.reason,
    )


def status_guard(spec: ToolSpec, coll: CollectionSchema | None) -> tuple[str, str] | None:
    """A status precondition the docs state: ``modify_pending_order`` needs ``pending``.

    From the name, else from the description (``a pending order``); only when the collection
    has a status-like enum attribute with that value.
    """
    if coll is None:
        return None
    toks = set(tokens(spec.name))
    text = " ".join(spec.description.lower().split())
    noun = singular(coll.name).replace("_", " ")
    first = status_attribute(coll, enum=True)  # the record's own status before the others
    for attr in sorted(coll.attributes, key=lambda a: a is not first):
        if attr.enum and ("status" in attr.name or attr.name == "state"):
            for value in attr.enum:
                if value.lower() in toks:
                    return attr.name, value
            for value in attr.enum:  # "Cancel a pending order", "Mark an open task as done"
                if f"{value.lower()} {noun}" in text:
                    return attr.name, value
    return None


_LIST_EXTRAS = {"limit", "offset", "page", "page_size", "query", "q", "sort", "order_by"}


def _is_plain(
    cls: ToolClass,
    spec: ToolSpec,
    coll: CollectionSchema | None,
    key: str | None,
    known: set[str],
    given: set[str],
) -> bool:
    """Whether a code template implements the tool exactly (plain CRUD over one collection);
    ``given``: the attributes a create gets from its call (the parameters, and the owner when
    it acts for the signed-in user)."""
    params = spec.param_names
    if cls == "generic":
        return True
    if cls == "compute":
        return params == ["expression"]
    if coll is None:
        return False
    attrs = {a.name for a in coll.attributes} | known
    scoped = set(scope_params(spec, coll, key)) if cls != "create" else set()
    props = spec.parameters.get("properties", {})
    request = request_params(props, params)  # an idempotency token is no value of the record
    others = [p for p in params if p != key and p not in scoped | request]  # a scope is checked
    if cls == "lookup":
        return (key is not None and not others) or (
            key is None and bool(params) and all(p in attrs for p in params)
        )
    if cls == "list":
        paging = paging_params(props, params)
        return all(p in attrs or p in _LIST_EXTRAS or p in paging for p in params)
    if cls == "create":
        # every stored attribute must come from a parameter, or the tool computes something
        stored = {a.name for a in coll.attributes if a.name != coll.primary_key}
        return bool(others) and all(p in attrs for p in others) and stored <= given
    if cls == "update":  # ``new_date`` replaces ``date`` (:func:`modified_field`)
        placed = [p in attrs or modified_field(coll, p) is not None for p in others]
        return key is not None and bool(others) and all(placed)
    if cls == "delete":
        return key is not None and not [p for p in others if p in spec.required]
    return False
