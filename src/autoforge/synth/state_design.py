"""Phase 1: design the state structure (collections, keys, attributes) from the tool docs.

Decomposed for small models: first the list of entities, then the attributes of each collection
in its own small prompt. The result is validated (every entity-naming parameter must map to an
attribute); unmapped parameters are fed back for a few rounds and whatever is still missing is
placed by rules, so a weak model yields a usable (if plain) schema rather than none. Without any
model answer, :func:`rule_based_schema` alone gives the schema.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from pydantic import BaseModel, Field

from autoforge.env import Attribute, AttributeType, CollectionSchema, StateSchema
from autoforge.llm import LLMClient, LLMFailure
from autoforge.synth import prompts
from autoforge.synth.classify import classify_tool, collection_of_key, target_collection
from autoforge.synth.mapping import Unmapped, place_by_rules, unmapped_params
from autoforge.synth.naming import (
    id_base,
    identifier,
    is_id_like,
    plural,
    singular,
    tokens,
)
from autoforge.synth.schema_entities import derive_state
from autoforge.synth.state_design_settings import Setting, extract_settings, settings_collection
from autoforge.tooldocs import ToolSpec

_TYPES = {"string", "integer", "number", "boolean", "date", "datetime", "enum", "object", "array"}
_JSON_TO_ATTR: dict[str, AttributeType] = {
    "string": "string",
    "integer": "integer",
    "number": "number",
    "boolean": "boolean",
    "object": "object",
    "array": "array",
}
_NOISE = {
    "by",
    "all",
    "details",
    "detail",
    "info",
    "information",
    "the",
    "for",
    "of",
    "to",
    "from",
    "with",
    "in",
    "on",
    "my",
    "new",
    "pending",
    "delivered",
    "current",
    "id",
    "ids",
    "status",
    "human",
    "agents",
    "agent",
    "types",
    "type",
}


class EntityItem(BaseModel):
    """One collection proposed by the LLM."""

    name: str
    primary_key: str
    description: str = ""


class EntityDesign(BaseModel):
    """Step-1 answer: the collections of the state."""

    collections: list[EntityItem] = Field(default_factory=list)


class AttributeItem(BaseModel):
    """One attribute proposed by the LLM."""

    name: str
    type: str = "string"
    description: str = ""
    enum: list[str] | None = None
    references: str | None = None


class AttributeDesign(BaseModel):
    """Step-2 answer: the attributes of one collection's records."""

    attributes: list[AttributeItem] = Field(default_factory=list)


class CollectionAttributes(BaseModel):
    """One collection of a batched step-2 answer."""

    name: str
    attributes: list[AttributeItem] = Field(default_factory=list)


class BatchAttributeDesign(BaseModel):
    """Batched step-2 answer: the attributes of several collections."""

    collections: list[CollectionAttributes] = Field(default_factory=list)


class DesignResult(BaseModel):
    """The designed schema and how it came about (for the synthesis report).

    ``provenance[collection][attribute]`` says where each attribute came from: ``docs:<pointer>``
    (a schema in the document), ``model``, or ``rules:<why>`` (tool parameters, names).
    """

    state_schema: StateSchema
    source: str = "llm"
    rounds: int = 0
    unmapped_initial: list[str] = Field(default_factory=list)
    unmapped_final: list[str] = Field(default_factory=list)
    added_by_rules: list[str] = Field(default_factory=list)
    failures: list[str] = Field(default_factory=list)
    provenance: dict[str, dict[str, str]] = Field(default_factory=dict)
    model_calls: int = 0
    rejected: list[str] = Field(default_factory=list)
    merged: list[str] = Field(default_factory=list)
    unwrapped: list[str] = Field(default_factory=list)
    settings: list[Setting] = Field(default_factory=list)


def _param_type(spec: ToolSpec, param: str) -> AttributeType:
    prop = spec.parameters.get("properties", {}).get(param) or {}
    if prop.get("enum"):
        return "enum"
    if prop.get("format") == "date":
        return "date"
    if prop.get("format") == "date-time":
        return "datetime"
    return _JSON_TO_ATTR.get(str(prop.get("type")), "string")


_ADJECTIVES = {"new", "old", "current", "pending", "target", "source", "original", "default"}


def _head_noun(spec: ToolSpec) -> str | None:
    """The object of a tool name: last noun after the verb, before ``by``/``for``/``id``."""
    words: list[str] = []
    for tok in tokens(spec.name)[1:]:
        if tok in ("by", "for", "with", "id", "ids", "from", "to"):
            break
        if tok not in _NOISE and tok not in _ADJECTIVES and len(tok) > 2:
            words.append(tok)
    return singular(words[-1]) if words else None


def _id_noun(param: str) -> str | None:
    """``new_item_ids`` -> ``item``; ``payment_method_id`` -> ``payment_method``."""
    toks = tokens(id_base(param))
    if len(toks) < 2 or toks[-1] != "id":
        return None
    words = [t for t in toks[:-1] if t not in _ADJECTIVES]
    return "_".join(words) or None


def rule_based_schema(tools: Sequence[ToolSpec]) -> StateSchema:
    """A schema from names alone: ``<noun>_id`` parameters and tool-name nouns become collections.

    Each tool's parameters become attributes of the collection it acts on. Plain, but every
    entity parameter maps, so it is the floor the LLM design can only improve on.
    """
    schema = StateSchema()
    for spec in tools:
        for param in spec.param_names:
            noun = _id_noun(param)
            if noun is not None:
                _ensure(schema, plural(noun), f"{noun}_id")
    for spec in tools:
        noun = _head_noun(spec)
        creates = classify_tool(spec, schema).cls == "create"
        if noun and (creates or target_collection(spec, schema) is None):
            _ensure(schema, plural(noun), f"{noun}_id")
    for spec in tools:
        coll = target_collection(spec, schema)
        if coll is None:
            continue
        for param in spec.param_names:
            ref = collection_of_key(param, schema)
            if coll.attribute(param) is not None or (ref is coll and param != "id"):
                continue
            typ = "id" if ref is not None or is_id_like(param) else _param_type(spec, param)
            enum = (spec.parameters["properties"][param] or {}).get("enum")
            coll.attributes.append(
                Attribute(
                    name=param,
                    type=typ,
                    enum=[str(e) for e in enum] if typ == "enum" and enum else None,
                    references=ref.name if ref is not None and ref is not coll else None,
                )
            )
        if classify_tool(spec, schema).cls == "transition" and coll.attribute("status") is None:
            coll.attributes.append(Attribute(name="status", type="string"))
    return schema


def _ensure(schema: StateSchema, name: str, key: str) -> CollectionSchema:
    found = schema.collection(name)
    if found is not None:
        return found
    coll = CollectionSchema(name=name, primary_key=key, attributes=[Attribute(name=key, type="id")])
    schema.collections.append(coll)
    return coll


_ECHO = {"name", "type", "description", "enum", "enum_values", "references", "primary_key"}


def _clean_attributes(items: list[AttributeItem], pk: str, known: set[str]) -> list[Attribute]:
    """Sanitise the LLM's attributes: identifiers, valid types, references only on ids."""
    names = {identifier(i.name) for i in items}
    echoed = names & _ECHO if len(names & _ECHO) >= 3 else set()  # the model copied the format
    out: dict[str, Attribute] = {}
    for item in items:
        name = identifier(item.name)
        if name in echoed and name != pk:
            continue
        typ = item.type.lower().strip()
        if typ not in _TYPES and typ != "id":
            typ = "id" if is_id_like(name) else "string"
        enum = [str(e) for e in item.enum] if item.enum else None
        if typ == "enum" and not enum:
            typ = "string"
        ref = identifier(item.references) if item.references else None
        if typ not in ("id", "array") or name == pk:
            ref = None
        out.setdefault(
            name,
            Attribute(
                name=name,
                type=typ,  # type: ignore[arg-type]
                description=prompts.clip(item.description, 200),
                enum=enum if typ == "enum" else None,
                references=ref if ref in known else None,
            ),
        )
    if pk not in out:
        out = {pk: Attribute(name=pk, type="id"), **out}
    else:
        out[pk] = out[pk].model_copy(update={"type": "id", "references": None})
    return list(out.values())


def _tools_for(
    coll: CollectionSchema, tools: Sequence[ToolSpec], schema: StateSchema
) -> list[ToolSpec]:
    noun = singular(coll.name)
    picked = []
    for spec in tools:
        target = target_collection(spec, schema)
        mentions = noun in spec.name.lower() or coll.primary_key in spec.param_names
        if (target is not None and target.name == coll.name) or mentions:
            picked.append(spec)
    return picked[:8]


async def _entities(
    client: LLMClient, tools: Sequence[ToolSpec], policy: str | None
) -> list[EntityItem]:
    design = await client.structured(
        prompts.entities_messages(tools, policy),
        EntityDesign,
        role="synthesizer",
        purpose="synth.state.entities",
        max_tokens=600,
    )
    params = {p for t in tools for p in t.param_names}
    seen: dict[str, EntityItem] = {}
    for item in design.collections:
        name = identifier(item.name)
        if name and name not in seen:
            pk = identifier(item.primary_key) or f"{singular(name)}_id"
            if pk not in params and f"{singular(name)}_id" in params:
                pk = f"{singular(name)}_id"  # the key the tools actually pass
            seen[name] = EntityItem(name=name, primary_key=pk, description=item.description)
    return list(seen.values())


async def _attributes(
    client: LLMClient,
    coll: CollectionSchema,
    tools: Sequence[ToolSpec],
    schema: StateSchema,
    feedback: str = "",
) -> list[Attribute]:
    others = [c.name for c in schema.collections if c.name != coll.name]
    msgs = prompts.attributes_messages(
        coll.name,
        coll.primary_key,
        coll.description,
        _tools_for(coll, tools, schema),
        [f"{c} (key {schema.collection(c).primary_key})" for c in others],  # type: ignore[union-attr]
        feedback,
    )
    design = await client.structured(
        msgs, AttributeDesign, role="synthesizer", purpose="synth.state.attributes", max_tokens=900
    )
    known = {c.name for c in schema.collections}
    return _clean_attributes(design.attributes, coll.primary_key, known)


def _merge(coll: CollectionSchema, new: list[Attribute]) -> None:
    for attr in new:
        if coll.attribute(attr.name) is None:
            coll.attributes.append(attr)


@dataclass
class _Checks:
    """What the model's answers are checked against, and where rejections are recorded."""

    documented: set[str]
    provenance: dict[str, dict[str, str]]
    rejected: list[str]


class _Budget:
    """At most ``limit`` model calls for one state design (the laptop-sized cost bound)."""

    def __init__(self, limit: int) -> None:
        self.limit, self.used = limit, 0

    @property
    def left(self) -> int:
        return self.limit - self.used

    def take(self) -> bool:
        if self.used >= self.limit:
            return False
        self.used += 1
        return True


async def design_state(
    client: LLMClient,
    tools: Sequence[ToolSpec],
    policy: str | None = None,
    *,
    max_rounds: int = 2,
    max_calls: int = 3,
) -> DesignResult:
    """Design the state schema for ``tools``: read what the docs define, ask the model the rest.

    Collections and attributes that the docs' schemas define are derived without a model
    (:mod:`autoforge.synth.schema_entities`); the model is asked, within ``max_calls`` calls, only
    for collections the schemas leave open (entities known only from id parameters), and its
    answers are checked against the docs. Without schemas the model proposes the entities and
    the attributes of the collections most tools touch; rules fill the rest. Never raises for bad
    model output: failed calls are recorded and rules fill the gaps. Without a model
    (``--llm none``) no call is made: the docs' schemas and the rules give the whole design.
    """
    rules_only = client.rules_only("synthesizer")
    budget = _Budget(0 if rules_only else max_calls)
    failures: list[str] = []
    rejected: list[str] = []
    derived = derive_state(tools)
    draft = rule_based_schema(tools)
    if derived.schema.collections:
        schema, provenance = derived.schema.model_copy(deep=True), dict(derived.provenance)
        draft = _params_only(draft, tools)  # the docs have schemas: guess no further fields
        open_colls = _open_collections(schema, draft, provenance)
        source = "docs"
    else:
        schema, provenance = await _model_entities(client, tools, policy, draft, budget, failures)
        rejected += _reject_operation_names(schema, tools, draft, provenance)
        open_colls = list(schema.collections)
        source = "llm"
    checks = _Checks(set(derived.provenance), provenance, rejected)
    await _design_open(client, open_colls, tools, schema, draft, budget, failures, checks)
    initial = unmapped_params(tools, schema)
    missing, rounds = initial, 0
    while missing and rounds < max_rounds and budget.used < budget.limit:
        rounds += 1
        await _feedback_round(client, tools, schema, missing, failures, budget, checks)
        missing = unmapped_params(tools, schema)
    added = place_by_rules(missing, {t.name: t for t in tools}, schema) if missing else []
    merged = merge_unused_collections(schema, tools, keep=set(derived.provenance))
    enums_from_docs(schema, tools)
    settings = _add_settings(schema, tools, policy, provenance)
    _fill_provenance(schema, provenance)
    return DesignResult(
        state_schema=schema,
        source=_source_label(source, failures, rules_only),
        rounds=rounds,
        unmapped_initial=[str(u) for u in initial],
        unmapped_final=[str(u) for u in missing],
        added_by_rules=added,
        failures=failures,
        provenance={c.name: provenance.get(c.name, {}) for c in schema.collections},
        model_calls=budget.used,
        rejected=rejected,
        merged=merged,
        unwrapped=derived.unwrapped,
        settings=settings,
    )


def _add_settings(
    schema: StateSchema,
    tools: Sequence[ToolSpec],
    policy: str | None,
    provenance: dict[str, dict[str, str]],
) -> list[Setting]:
    """The singleton ``settings`` collection for the facts the docs state that are no records
    (skipped when the docs already define a collection of that name)."""
    settings = extract_settings(tools, policy)
    if not settings or schema.collection("settings") is not None:
        return []
    coll = settings_collection(settings)
    schema.collections.append(coll)
    provenance[coll.name] = {coll.primary_key: "rules:singleton key"}
    provenance[coll.name].update({s.name: s.source for s in settings})
    return settings


async def _design_open(
    client: LLMClient,
    open_colls: list[CollectionSchema],
    tools: Sequence[ToolSpec],
    schema: StateSchema,
    draft: StateSchema,
    budget: _Budget,
    failures: list[str],
    checks: _Checks,
) -> None:
    """Attributes of the collections the docs leave open, most-needed first, within budget:
    one call each while calls remain for all of them, else the rest in one batched call."""
    queue = _by_need(open_colls, tools, schema)
    provenance = checks.provenance
    while queue:
        if len(queue) > 1 and len(queue) >= budget.left:
            await _design_batch(client, queue, tools, schema, draft, budget, failures, provenance)
            return
        coll = queue.pop(0)
        origin = await _design_attributes(
            client, coll, tools, schema, draft, budget, failures, checks.rejected
        )
        origins = provenance.setdefault(coll.name, {})
        for attr in coll.attributes:
            origins.setdefault(attr.name, origin)


def _source_label(source: str, failures: list[str], rules_only: bool) -> str:
    """``docs`` / ``llm``, ``+rules`` after failed calls; ``rules`` (or ``docs+rules``) without
    a model."""
    if rules_only:
        return "docs+rules" if source == "docs" else "rules"
    return source if not failures else f"{source}+rules"


def _params_only(draft: StateSchema, tools: Sequence[ToolSpec]) -> StateSchema:
    """The rule draft without attributes no tool parameter names (a guessed ``status``)."""
    params = {p for t in tools for p in t.param_names}
    out = draft.model_copy(deep=True)
    for coll in out.collections:
        coll.attributes = [
            a for a in coll.attributes if a.name in params or a.name == coll.primary_key
        ]
    return out


def _open_collections(
    schema: StateSchema, draft: StateSchema, provenance: dict[str, dict[str, str]]
) -> list[CollectionSchema]:
    """Collections the tools need (their id parameters) that no docs schema defines."""
    opened = []
    for coll in draft.collections:
        if schema.collection(coll.name) or collection_of_key(coll.primary_key, schema):
            continue
        new = CollectionSchema(name=coll.name, primary_key=coll.primary_key)
        new.attributes = [Attribute(name=coll.primary_key, type="id")]
        schema.collections.append(new)
        provenance[new.name] = {coll.primary_key: "rules:id parameter of the tools"}
        opened.append(new)
    return opened


async def _model_entities(
    client: LLMClient,
    tools: Sequence[ToolSpec],
    policy: str | None,
    draft: StateSchema,
    budget: _Budget,
    failures: list[str],
) -> tuple[StateSchema, dict[str, dict[str, str]]]:
    entities: list[EntityItem] = []
    if budget.take():
        try:
            entities = await _entities(client, tools, policy)
        except LLMFailure as exc:
            failures.append(f"entities: {exc}")
    by_model = bool(entities)
    if not entities:
        entities = [EntityItem(name=c.name, primary_key=c.primary_key) for c in draft.collections]
    schema = StateSchema(
        collections=[
            CollectionSchema(name=e.name, primary_key=e.primary_key, description=e.description)
            for e in entities
        ]
    )
    origin = "model" if by_model else "rules:tool and parameter names"
    return schema, {e.name: {e.primary_key: origin} for e in entities}


def _reject_operation_names(
    schema: StateSchema,
    tools: Sequence[ToolSpec],
    draft: StateSchema,
    provenance: dict[str, dict[str, str]],
) -> list[str]:
    """Drop model collections named after an operation (``list_orders``, ``get_user``).

    When any is dropped, the rule draft's collections that are now missing take their place.
    """
    names = {t.name.lower() for t in tools}
    verbs = {tokens(t.name)[0] for t in tools if tokens(t.name)}
    rejected = []
    for coll in list(schema.collections):
        toks = tokens(coll.name)
        if coll.name.lower() in names or (len(toks) > 1 and toks[0] in verbs):
            schema.collections.remove(coll)
            provenance.pop(coll.name, None)
            rejected.append(f"collection {coll.name}: named after an operation")
    for coll in draft.collections if rejected else []:
        if not schema.collection(coll.name) and not collection_of_key(coll.primary_key, schema):
            schema.collections.append(coll.model_copy(deep=True))
            provenance[coll.name] = {coll.primary_key: "rules:id parameter of the tools"}
    return rejected


def _by_need(
    colls: list[CollectionSchema], tools: Sequence[ToolSpec], schema: StateSchema
) -> list[CollectionSchema]:
    """The collections most tools touch first, so a tight call budget goes where it counts."""
    return sorted(colls, key=lambda c: -len(_tools_for(c, tools, schema)))


async def _design_attributes(
    client: LLMClient,
    coll: CollectionSchema,
    tools: Sequence[ToolSpec],
    schema: StateSchema,
    draft: StateSchema,
    budget: _Budget,
    failures: list[str],
    rejected: list[str],
) -> str:
    """Attributes of ``coll`` from the model (within budget), else from the rule draft.

    Returns the origin to record for the attributes added.
    """
    fallback = draft.collection(coll.name)
    if budget.take():
        try:
            new = await _attributes(client, coll, tools, schema)
            _merge(coll, _checked(new, coll, rejected))
            return "model"
        except LLMFailure as exc:
            failures.append(f"attributes of {coll.name}: {exc}")
    _merge(coll, list(fallback.attributes) if fallback else [])
    _merge(coll, [Attribute(name=coll.primary_key, type="id")])
    return "rules:tool parameters"


async def _design_batch(
    client: LLMClient,
    colls: list[CollectionSchema],
    tools: Sequence[ToolSpec],
    schema: StateSchema,
    draft: StateSchema,
    budget: _Budget,
    failures: list[str],
    provenance: dict[str, dict[str, str]],
) -> None:
    """The attributes of all ``colls`` in one call (more collections than calls left)."""
    answered: dict[str, list[AttributeItem]] = {}
    if budget.take():
        msgs = prompts.attributes_batch_messages(
            [(c.name, c.primary_key, c.description) for c in colls], tools
        )
        try:
            design = await client.structured(
                msgs,
                BatchAttributeDesign,
                role="synthesizer",
                purpose="synth.state.attributes",
                max_tokens=400 + 250 * len(colls),
            )
            answered = {identifier(c.name): c.attributes for c in design.collections}
        except LLMFailure as exc:
            failures.append(f"attributes of {', '.join(c.name for c in colls)}: {exc}")
    known = {c.name for c in schema.collections}
    for coll in colls:
        items = answered.get(coll.name)
        if items:
            _merge(coll, _clean_attributes(items, coll.primary_key, known))
            origin = "model"
        else:
            fallback = draft.collection(coll.name)
            _merge(coll, list(fallback.attributes) if fallback else [])
            _merge(coll, [Attribute(name=coll.primary_key, type="id")])
            origin = "rules:tool parameters"
        origins = provenance.setdefault(coll.name, {})
        for attr in coll.attributes:
            origins.setdefault(attr.name, origin)


def _checked(new: list[Attribute], coll: CollectionSchema, rejected: list[str]) -> list[Attribute]:
    """Model attributes that do not contradict what the collection already holds from docs."""
    kept = []
    for attr in new:
        have = coll.attribute(attr.name)
        if have is not None and have.type != attr.type and attr.type != "string":
            rejected.append(f"{coll.name}.{attr.name}: model type {attr.type}, docs {have.type}")
            continue
        kept.append(attr)
    return kept


def _fill_provenance(schema: StateSchema, provenance: dict[str, dict[str, str]]) -> None:
    for coll in schema.collections:
        origins = provenance.setdefault(coll.name, {})
        for attr in coll.attributes:
            origins.setdefault(attr.name, "rules:tool parameter")


def merge_unused_collections(
    schema: StateSchema,
    tools: Sequence[ToolSpec],
    keep: set[str] = frozenset(),  # type: ignore[assignment]
) -> list[str]:
    """Drop proposed collections nothing can reach: no tool passes their key, none is referenced.

    A ``locks`` collection with only ``lock_id`` next to ``devices`` (which holds ``kind``) is
    such a duplicate when every tool takes ``device_id``. Collections the docs define are kept.
    """
    merged = []
    params = {p for t in tools for p in t.param_names}
    referenced = {a.references for c in schema.collections for a in c.attributes if a.references}
    for coll in list(schema.collections):
        if coll.name in (keep or set()) or coll.name in referenced or len(schema.collections) == 1:
            continue
        used = any(collection_of_key(p, schema) is coll for p in params)
        targeted = any(target_collection(t, schema) is coll for t in tools)
        if used or targeted:
            continue
        parent = _kind_parent(coll, schema)
        if parent is not None:
            _merge(parent[0], [a for a in coll.attributes if a.name != coll.primary_key])
            schema.collections.remove(coll)
            merged.append(f"{coll.name}: a kind of {parent[0].name} ({parent[1]}), merged into it")
        elif len(coll.attributes) <= 1:
            schema.collections.remove(coll)
            merged.append(f"{coll.name}: nothing but its key, and no tool reaches it")
    return merged


def _kind_parent(
    coll: CollectionSchema, schema: StateSchema
) -> tuple[CollectionSchema, str] | None:
    """The collection whose enum attribute lists ``coll`` as a kind of its records (``locks``
    next to ``devices.kind`` in {lock, light}), with that attribute, else None."""
    names = {coll.name.lower(), singular(coll.name).lower()}
    for other in schema.collections:
        if other is coll:
            continue
        for attr in other.attributes:
            if attr.enum and names & {str(v).lower() for v in attr.enum}:
                return other, f"{other.name}.{attr.name}"
    return None


async def _feedback_round(
    client: LLMClient,
    tools: Sequence[ToolSpec],
    schema: StateSchema,
    missing: list[Unmapped],
    failures: list[str],
    budget: _Budget,
    checks: _Checks,
) -> None:
    """Ask the model where the unmapped parameters live, one call per target collection.

    For a collection the docs define, only the attributes asked for are taken: anything else
    the model adds would be an attribute the document does not have.
    """
    by_tool = {t.name: t for t in tools}
    groups: dict[str, list[Unmapped]] = {}
    for item in missing:
        target = target_collection(by_tool[item.tool], schema)
        if target is not None:
            groups.setdefault(target.name, []).append(item)
    for name, items in groups.items():
        coll = schema.collection(name)
        assert coll is not None
        if not budget.take():
            return
        try:
            new = await _attributes(client, coll, tools, schema, prompts.unmapped_feedback(items))
        except LLMFailure as exc:
            failures.append(f"feedback for {name}: {exc}")
            continue
        asked = {u.param.lower() for u in items} | {id_base(u.param) for u in items}
        kept = _checked(new, coll, checks.rejected)
        if name in checks.documented:
            for attr in kept:
                if attr.name.lower() not in asked and coll.attribute(attr.name) is None:
                    checks.rejected.append(f"{name}.{attr.name}: not in the docs' schema")
            kept = [a for a in kept if a.name.lower() in asked]
        _merge(coll, kept)
        origins = checks.provenance.setdefault(name, {})
        for attr in kept:
            origins.setdefault(attr.name, "model")


def enums_from_docs(schema: StateSchema, tools: Sequence[ToolSpec]) -> None:
    """Give attributes the enum values the docs list for a same-named parameter.

    ``list_tasks(status: one of open, done)`` makes ``tasks.status`` an enum of those values,
    so test records (and the LLM) use values the tools accept.
    """
    values: dict[str, list[str]] = {}
    for spec in tools:
        for name, prop in spec.parameters.get("properties", {}).items():
            enum = (prop or {}).get("enum")
            if enum and all(isinstance(e, str) for e in enum):
                values.setdefault(name, [str(e) for e in enum])
    for coll in schema.collections:
        for i, attr in enumerate(coll.attributes):
            if attr.name in values and attr.type in ("string", "enum") and not attr.references:
                update = {"type": "enum", "enum": values[attr.name]}
                coll.attributes[i] = attr.model_copy(update=update)


def schema_summary(schema: StateSchema) -> dict[str, Any]:
    """``{collection: [attribute names]}`` for logs and reports."""
    return {c.name: [a.name for a in c.attributes] for c in schema.collections}
