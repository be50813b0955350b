"""The documented reply envelope: where a tool's records sit in the reply its docs promise.

Many real APIs do not answer with the record itself: a lookup answers ``{"Cluster": {...}}``,
a list ``{"Clusters": [...], "NextToken": ...}``, ``{"value": [...]}`` or ``{"items": [...]}``,
and some lists answer only the keys (``{"ClusterNames": ["a", "b"]}``). The code the rules write
works on records, so without this a tool would answer something else than its docs say, and
everything downstream that reads the documented reply (the tool graph's data flow, a task's
gold run, an agent) would look for fields that are not there.

:func:`envelope_of` reads the envelope off the documented return schema and the tool's
collection; synthesis puts the reply of any implementation into it
(:func:`autoforge.synth.rulecode.envelope.enveloped`), the checks that compare records (round
trips, paging) take them back out with :func:`unwrap`, and a task's request says a list by its
records, not by the envelope's field.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Literal

from autoforge.env import CollectionSchema, StateSchema
from autoforge.lexicon.dataflow import record_collection
from autoforge.tooldocs import to_snake, tokens

__all__ = ["Envelope", "envelope_of", "unwrap"]

Kind = Literal["record", "records", "keys"]


@dataclass(frozen=True)
class Envelope:
    """The reply is ``{field: <the record>}`` (``record``), ``{field: [<records>]}``
    (``records``) or ``{field: [<each record's key>]}`` (``keys``, ``key`` the attribute).

    ``related``: beside a record, the fields the docs give the records of another collection
    that point at it (``{"kiln": {...}, "firings": [...]}``), as ``(field, collection, the
    attribute referencing the record, the record's key)``."""

    field: str
    kind: Kind
    key: str | None = None
    related: tuple[tuple[str, str, str, str], ...] = ()
    #: the reply's other fields named as a parameter of the call (``{"categoryTreeId": ...}``
    #: beside the records of a call given ``category_tree_id``): ``(field, parameter)``
    echo: tuple[tuple[str, str], ...] = ()


def _props(schema: Any) -> dict[str, Any]:
    props = schema.get("properties") if isinstance(schema, dict) else None
    return props if isinstance(props, dict) else {}


def _overlap(schema: Any, coll: CollectionSchema) -> int:
    return sum(1 for p in _props(schema) if coll.attribute(p) is not None)


def _is_array(schema: Any) -> bool:
    return isinstance(schema, dict) and schema.get("type") == "array"


def _names_key(field: str, coll: CollectionSchema) -> bool:
    """Whether an array field's name is the plural of the collection's key (``ClusterNames``
    for ``ClusterName``, ``job_ids`` for ``job_id``)."""
    words, key = tokens(field), tokens(coll.primary_key)
    if not words or not key or len(words) != len(key):
        return False
    last = words[-1]
    return words[:-1] == key[:-1] and last in (key[-1] + "s", key[-1] + "es")


def _best(cands: dict[str, Any], coll: CollectionSchema) -> str | None:
    """The one candidate field whose schema shares the most attributes with the collection, or
    the only candidate; None when two tie or none fits."""
    if len(cands) == 1:
        return next(iter(cands))
    scored = sorted(((_overlap(s, coll), f) for f, s in cands.items()), reverse=True)
    if scored and scored[0][0] > 0 and scored[0][0] > scored[1][0]:
        return scored[0][1]
    return None


def _related(
    props: dict[str, Any], field: str, coll: CollectionSchema, schema: StateSchema | None
) -> tuple[tuple[str, str, str, str], ...]:
    """The other array fields of a record's envelope whose items are records of a collection
    with one attribute referencing ``coll`` (see :class:`Envelope`)."""
    out = []
    for name, prop in props.items() if schema is not None else []:
        items = prop.get("items") if name != field and _is_array(prop) else None
        other = record_collection(_props(items), schema) if _props(items) and schema else None
        target = schema.collection(other) if schema is not None and other else None
        if target is None or target.name == coll.name:
            continue
        refs = [a.name for a in target.attributes if a.references == coll.name]
        if len(refs) == 1:
            out.append((name, target.name, refs[0], coll.primary_key))
    return tuple(out)


def _echo(props: dict[str, Any], field: str, params: Sequence[str]) -> tuple[tuple[str, str], ...]:
    """The scalar reply fields, besides ``field``, whose name is a parameter's (compared in
    snake case: ``categoryTreeId`` and ``category_tree_id``): the call's own value echoed."""
    by = {to_snake(p): p for p in params}
    return tuple(
        (name, by[to_snake(name)])
        for name, prop in props.items()
        if name != field and to_snake(name) in by and not _props(prop) and not _is_array(prop)
    )


def envelope_of(
    returns: Any,
    coll: CollectionSchema | None,
    many: bool,
    schema: StateSchema | None = None,
    params: Sequence[str] = (),
) -> Envelope | None:
    """The envelope a documented return schema puts the collection's records in, or None when
    the reply is the record (or list) itself, or the docs do not say.

    ``many``: the tool answers several records (a list tool). The reply is an envelope only
    when its own fields are not the record's (no attribute of the collection among them), or,
    for a list, when one array's items share more of the record's attributes than the reply
    itself (a page that also has an ``id`` and a ``kind`` of its own).
    ``schema``: the state's, to fill a record's related records; ``params``: the call's
    parameters, which fields of the reply may echo (:class:`Envelope`).
    """
    props = _props(returns)
    if coll is None or not props:
        return None
    top = _overlap(returns, coll)
    if many:
        arrays = {f: s for f, s in props.items() if _is_array(s)}
        objects = {f: s["items"] for f, s in arrays.items() if _props(s.get("items"))}
        field = _best(objects, coll) if objects else None
        if field is not None and (top == 0 or _overlap(objects[field], coll) > top):
            # a page of records may repeat a few record fields (``id``, ``kind``) of its own
            return Envelope(field, "records", echo=_echo(props, field, params))
    if top > 0:
        return None
    if many:
        keys = [f for f, s in arrays.items() if f not in objects and _names_key(f, coll)]
        if len(keys) != 1:
            return None
        return Envelope(keys[0], "keys", coll.primary_key, echo=_echo(props, keys[0], params))
    objects = {f: s for f, s in props.items() if _props(s)}
    field = _best(objects, coll) if objects else None
    if field is None or not _overlap(objects[field], coll):
        return None
    related = _related(props, field, coll, schema)
    return Envelope(field, "record", related=related, echo=_echo(props, field, params))


def unwrap(result: Any, env: Envelope | None) -> Any:
    """The record (or list) inside a reply shaped as ``env``; the reply itself otherwise."""
    if env is None or not isinstance(result, dict) or env.field not in result:
        return result
    return result[env.field]
