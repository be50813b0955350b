"""A documented reply that holds the tool's records in an envelope (``{"Kiln": {...}}``,
``{"Kilns": [...], "NextToken": ...}``), read by the lexicon's one reader of envelopes
(:func:`autoforge.lexicon.envelope_of`) against the collections the evidence shows.

Without this the behaviour model took such a list for a computed reply and such a lookup for an
object of one field, and its code answered the bare record where the docs promise the envelope.
The compiled reply puts the record or list under the envelope's field
(:attr:`autoforge.env.Reply.wrap`); fields beside it (a page token, related records) are not
modelled, which is why, without data, the other stages keep the tools whose code passed.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from autoforge.env import Attribute, CollectionSchema, Reply
from autoforge.lexicon import envelope_of
from autoforge.synth.behaviour.data import DataEvidence


def enveloped_reply(returns: Any, ev: DataEvidence, params: Sequence[str] = ()) -> Reply | None:
    """The reply ``returns`` documents when it is an envelope of one collection's record
    (``record``) or records (``list``), beside at most scalars that are not the call's
    ``params`` (a page token, a count); None otherwise (the record or list itself, an envelope
    of keys only, fields that are no collection's, other records or lists beside it, which
    the compiled reply would drop, or the call's values echoed: an answer computed for them,
    such as the tables free at a given time)."""
    if not isinstance(returns, dict) or _is_array(returns):
        return None
    props = schema_props(returns)
    for name, inner in props.items():
        inner_props = schema_props(inner)
        coll = ev.collection_for(list(inner_props)) if inner_props else None
        if coll is None:
            continue
        many = _is_array(inner)
        others = {k: v for k, v in props.items() if k != name}
        held = [v for v in others.values() if schema_props(v) or _is_array(v)]
        if set(others) & set(params) or held:
            continue  # the call's values echoed (a computed answer), or other records beside it
        env = envelope_of(returns, _layout(ev, coll), many)
        if env is not None and env.field == name and env.kind in ("record", "records"):
            keys = list(inner_props)
            if many:
                return Reply(kind="list", collection=coll, keys=keys, wrap=name)
            return Reply(kind="record", collection=coll, keys=keys, wrap=name)
    return None


def _is_array(schema: Any) -> bool:
    return isinstance(schema, dict) and schema.get("type") == "array"


def schema_props(schema: Any) -> dict[str, Any]:
    """The properties of an object schema, or of an array's items (empty otherwise)."""
    if not isinstance(schema, dict):
        return {}
    if schema.get("type") == "array":
        return schema_props(schema.get("items"))
    return dict(schema.get("properties") or {})


def _layout(ev: DataEvidence, coll: str) -> CollectionSchema:
    """``coll`` as the evidence lays it out (its attributes; its key where known)."""
    attrs = [Attribute(name=a) for a in ev.attributes.get(coll, [])]
    return CollectionSchema(name=coll, primary_key=ev.key_attribute(coll) or "id", attributes=attrs)
