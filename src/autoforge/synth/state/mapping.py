"""Validation of a state design: every entity-naming tool parameter must map to an attribute.

A parameter that names an entity (``order_id``, ``email``, ``customer_name``) is only usable if
the state holds values to compare it with. Unmapped ones are fed back to the LLM (and, as a last
resort, placed by rules), so the tool functions never have to invent storage.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from pydantic import BaseModel

from autoforge.env import Attribute, CollectionSchema, StateSchema
from autoforge.lexicon import paging_params
from autoforge.synth.rulecode.classify import collection_of_key, target_collection
from autoforge.synth.rulecode.doc_templates import field_by_noun
from autoforge.synth.state.infer import schema_field_paths
from autoforge.tooldocs import (
    ToolSpec,
    id_base,
    is_entity_param,
    is_id_like,
    plural,
    singular,
    tokens,
)


class Unmapped(BaseModel):
    """A tool parameter that names an entity but no collection attribute holds it."""

    tool: str
    param: str
    description: str = ""

    def __str__(self) -> str:
        return f"{self.tool}.{self.param}"


def _known_names(schema: StateSchema, extra: Iterable[str]) -> set[str]:
    names = set(extra)
    for coll in schema.collections:
        names.add(coll.primary_key)
        names.add(f"{singular(coll.name)}_id")
        names.update(schema_field_paths(coll))
    return {n.lower() for n in names}


def param_maps(param: str, spec: ToolSpec, schema: StateSchema, known: set[str]) -> bool:
    """Whether ``param`` of ``spec`` has an attribute (or key) in ``schema`` to live in."""
    low = param.lower()
    if low in known or id_base(low) in known:
        return True
    target = target_collection(spec, schema)
    if target is not None and field_by_noun(target, param) is not None:
        return True  # ``DataSourceName`` is the ``Name`` of a data source
    if low == "id":
        return target_collection(spec, schema) is not None
    return collection_of_key(param, schema) is not None


def unmapped_params(
    tools: Iterable[ToolSpec], schema: StateSchema, extra_fields: Iterable[str] = ()
) -> list[Unmapped]:
    """The entity-naming parameters of ``tools`` that ``schema`` cannot hold.

    ``extra_fields`` adds field names found nested inside real records (from-data mode).
    """
    known = _known_names(schema, extra_fields)
    out: list[Unmapped] = []
    for spec in tools:
        props = spec.parameters.get("properties", {})
        paging = paging_params(props, spec.param_names)  # page or sort results: hold nothing
        for param in spec.param_names:
            if param in paging:
                continue
            if is_entity_param(param) and not param_maps(param, spec, schema, known):
                desc = str((props.get(param) or {}).get("description", ""))
                out.append(Unmapped(tool=spec.name, param=param, description=desc))
    return out


def _param_type(spec: ToolSpec, param: str) -> str:
    prop = spec.parameters.get("properties", {}).get(param) or {}
    return str(prop.get("type", "string"))


def place_by_rules(
    missing: Iterable[Unmapped], tools: Mapping[str, ToolSpec], schema: StateSchema
) -> list[str]:
    """Add storage for each unmapped parameter by rule; returns what was added (for the report).

    ``<noun>_id`` with no ``<noun>s`` collection gets a new collection keyed by it; anything else
    becomes an attribute of the collection the tool acts on (or of the first collection).
    """
    added: list[str] = []
    for item in missing:
        spec = tools[item.tool]
        base = id_base(item.param)
        toks = tokens(base)
        if is_id_like(base) and len(toks) >= 2 and toks[-1] == "id":
            name = plural("_".join(toks[:-1]))
            if schema.collection(name) is None:
                schema.collections.append(
                    CollectionSchema(
                        name=name,
                        primary_key=base,
                        description=f"added for {item}",
                        attributes=[Attribute(name=base, type="id")],
                    )
                )
                added.append(f"collection {name} (key {base}) for {item}")
                continue
        coll = target_collection(spec, schema) or (
            schema.collections[0] if schema.collections else None
        )
        if coll is None:
            coll = CollectionSchema(name="records", primary_key="record_id", attributes=[])
            coll.attributes.append(Attribute(name="record_id", type="id"))
            schema.collections.append(coll)
        if coll.attribute(item.param) is None:
            typ = "id" if is_id_like(item.param) else "string"
            if _param_type(spec, item.param) == "array":
                typ = "array"
            coll.attributes.append(Attribute(name=item.param, type=typ))  # type: ignore[arg-type]
            added.append(f"attribute {coll.name}.{item.param} for {item}")
    return added
