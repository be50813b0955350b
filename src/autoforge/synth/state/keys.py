"""The key of a collection is what its tools name its records by.

A design read from response schemas keys each collection by its identifier property (``id``,
or a key invented for records without one). Real APIs often name a record by another field:
cloud resources by ``name`` in the path (``get_job(job_collection_name, job_name)``), users by
an ARN or an email. When no tool ever passes the designed key while several tools acting on
the collection pass the same one of its fields, no lookup, update or delete could find a
record; :func:`key_by_tools` makes that field the key. A parameter names a field when it is
the field's name or the field's name after the collection's noun or its last words
(``job_name`` for a job's ``name``, ``account_name`` for a storage account's), or the bare
noun when the docs give the record a ``name`` (``deployment``). When no field holds the
record's name the tools pass (``accountName``), that parameter becomes the key.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from autoforge.env import Attribute, CollectionSchema, StateSchema
from autoforge.lexicon import key_param, noun_field, target_collection
from autoforge.tooldocs import ToolSpec, singular, snake

#: tools that must pass the same field before it becomes the key
_MIN_TOOLS = 2


def named_field(param: str, coll: CollectionSchema, origins: dict[str, str]) -> str | None:
    """The attribute of ``coll`` a parameter names: the attribute after the collection's noun
    (``hangar_name``: the hangar's ``name``), else one the docs' schemas define under that
    very name. A field only added from parameters (``region_name`` beside a hangar's fields)
    is where the records live, not what names them."""
    low = snake(param)
    noun = singular(coll.name)
    for attr in coll.attributes:
        if noun_field(low, noun, snake(attr.name)):
            return attr.name
    for attr in coll.attributes:
        if low == snake(attr.name) and origins.get(attr.name, "").startswith("docs:"):
            return attr.name
    return None


def _naming(param: str, coll: CollectionSchema, origins: dict[str, str]) -> str | None:
    """The field ``param`` names (:func:`named_field`), else ``param`` itself when it is the
    record's name after its noun (``accountName`` of a storage account, ``DomainName`` of a
    domain) and no documented field holds it: what the tools name the records by, though no
    read shows it (an attribute the parameters alone added is that name)."""
    found = named_field(param, coll, origins)
    if found is not None:
        return found
    low, noun = snake(param), singular(coll.name)
    if low == noun and origins.get("name", "").startswith("docs:"):
        return "name"  # ``deployment``: a deployment is named by its documented name
    return param if noun_field(low, noun, "name") else None


def _key_used(coll: CollectionSchema, tools: Sequence[ToolSpec], schema: StateSchema) -> bool:
    """Whether some tool acting on ``coll`` requires its designed key (an optional ``id`` of a
    write's body is a field sent, not how the call names the record)."""
    return any(
        (kp := key_param(t, coll)) is not None and kp in t.required
        for t in tools
        if target_collection(t, schema) is coll
    )


def _named_by_tools(
    coll: CollectionSchema,
    tools: Sequence[ToolSpec],
    schema: StateSchema,
    origins: dict[str, str],
) -> str | None:
    """The field most tools acting on ``coll`` name by a required parameter (at least two)."""
    counts: Counter[str] = Counter()
    for spec in tools:
        if target_collection(spec, schema) is not coll:
            continue
        named = {f for p in spec.required if (f := _naming(p, coll, origins)) is not None}
        counts.update(f for f in named if f != coll.primary_key)
    best = counts.most_common(2)
    if not best or best[0][1] < _MIN_TOOLS or (len(best) > 1 and best[1][1] == best[0][1]):
        return None
    return best[0][0]


def key_by_tools(
    schema: StateSchema, tools: Sequence[ToolSpec], provenance: dict[str, dict[str, str]]
) -> list[str]:
    """Re-key each collection whose key no tool passes by the field its tools pass; returns
    ``collection: old -> new`` per change (for the design report)."""
    changed: list[str] = []
    for coll in schema.collections:
        if coll.fixed is not None or _key_used(coll, tools, schema):
            continue
        origins = provenance.setdefault(coll.name, {})
        field = _named_by_tools(coll, tools, schema, origins)
        if field is None:
            continue
        old = coll.primary_key
        if origins.get(old, "").startswith("rules:"):  # invented: nothing else holds it
            coll.attributes = [a for a in coll.attributes if a.name != old]
            origins.pop(old, None)
        coll.primary_key = field
        if coll.attribute(field) is None:  # named by a parameter no read shows
            coll.attributes.append(Attribute(name=field, type="id"))
            origins[field] = f"rules:the tools name {coll.name} by {field}"
        attr = coll.attribute(field)
        if attr is not None and attr.type not in ("integer", "id"):
            coll.attributes[coll.attributes.index(attr)] = attr.model_copy(
                update={"type": "id", "references": None}
            )
        changed.append(f"{coll.name}: {old} -> {field}")
    return changed
