"""What a write is given, its record keeps: a place in the state for every value a create or an
update takes.

Real API documents describe a record by what reads return, and a create by what it takes; the
two rarely name the same fields (``CreateStream(ShardCount)`` beside a stream described by its
shards, a region ``location`` a description never repeats). A design read from the schemas
alone then has no attribute for such a parameter, the write's draft cannot place it, and the
tool is left out: most of a real document's writes were lost this way. :func:`keep_write_inputs`
gives the collection a write acts on one attribute per parameter nothing else holds, typed as
the parameter is, so the record keeps what the call gave and a read after the write shows it.

A parameter already has a place when a field of the record is named like it, when it names the
record's key, a field by the record's noun (``DataSourceName`` -> ``Name``,
:func:`~autoforge.synth.rulecode.doc_templates.field_by_noun`), a qualified field (``new_status``)
or a field the tool's name qualifies (``cancel_reason``); paging and request controls (a page
size, an idempotency token) are never values of a record, and an object named as a record
(``NewBudget``) is a record given whole, not one value: those stay for a model.

Only designs read from documents get this: with data the records say what they hold.
"""

from __future__ import annotations

from collections.abc import Sequence

from autoforge.env import Attribute, AttributeType, CollectionSchema, StateSchema
from autoforge.lexicon import collection_of_key, paging_params, tool_scope, whole_record
from autoforge.synth.rulecode.doc_templates import field_by_noun, qualified_field
from autoforge.synth.rulecode.transition_fields import existing_field
from autoforge.synth.state.infer import schema_field_paths
from autoforge.tooldocs import ToolSpec

_JSON_TO_ATTR: dict[str, AttributeType] = {
    "string": "string",
    "integer": "integer",
    "number": "number",
    "boolean": "boolean",
    "array": "array",
    "object": "object",
}
#: the tool classes whose parameters are values of the record they write
_WRITES = ("create", "update")


def param_type(spec: ToolSpec, param: str) -> AttributeType:
    """The attribute type a parameter's schema gives (enum and date formats first)."""
    prop = spec.parameters.get("properties", {}).get(param) or {}
    if prop.get("enum"):
        return "enum"
    if prop.get("format") == "date":
        return "date"
    if prop.get("format") == "date-time":
        return "datetime"
    return _JSON_TO_ATTR.get(str(prop.get("type")), "string")


def _placed(spec: ToolSpec, coll: CollectionSchema, param: str) -> bool:
    """Whether the draft of a write already finds a field of ``coll`` for ``param``."""
    if param in schema_field_paths(coll) or coll.attribute(param) is not None:
        return True
    return (
        any(found(coll, param) is not None for found in (field_by_noun, qualified_field))
        or existing_field(spec, coll, param) is not None
    )


def _whole_record(spec: ToolSpec, param: str, schema: StateSchema) -> bool:
    """Whether ``param`` is an object named as a record (``Budget``, ``NewBudget``,
    ``OldNotification``): a record given whole, whose fields are not one attribute."""
    return any(whole_record(spec, param, c) for c in schema.collections)


def _unplaced(
    spec: ToolSpec, coll: CollectionSchema, key: str | None, schema: StateSchema
) -> list[str]:
    """The parameters of a write on ``coll`` that no field holds: not its key, not paging or
    request controls, not placed by a name rule, not a record given whole."""
    props = spec.parameters.get("properties", {})
    controls = set(paging_params(props, spec.param_names))
    return [
        p
        for p in spec.param_names
        if p != key
        and p not in controls
        and not _placed(spec, coll, p)
        and not _whole_record(spec, p, schema)
    ]


def keep_write_inputs(
    schema: StateSchema, tools: Sequence[ToolSpec], provenance: dict[str, dict[str, str]]
) -> list[str]:
    """Give each collection a create or update acts on an attribute per parameter of that
    write nothing else holds (a parameter naming another collection's key references it);
    returns ``collection.attribute`` per attribute added (for the design report)."""
    made: list[str] = []
    for spec in tools:
        scope = tool_scope(spec, schema)
        coll = schema.collection(scope.collection) if scope.collection else None
        if scope.cls not in _WRITES or coll is None:
            continue
        origins = provenance.setdefault(coll.name, {})
        for param in _unplaced(spec, coll, scope.key_param, schema):
            ref = collection_of_key(param, schema)
            other = ref is not None and ref.name != coll.name
            typ = param_type(spec, param)
            attr = Attribute(
                name=param,
                type="id" if other and typ != "array" else typ,
                references=ref.name if other and ref is not None else None,
                description=f"what {spec.name} is given as {param}",
            )
            coll.attributes.append(attr)
            origins[param] = f"rules:{spec.name} takes {param} and nothing else holds it"
            made.append(f"{coll.name}.{param}")
    return made


__all__ = ["keep_write_inputs", "param_type"]
