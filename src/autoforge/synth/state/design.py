"""Phase 1: design the state structure (collections, keys, attributes) from the tool docs.

What the documents define is read, not asked: their schemas give collections and attributes
(:mod:`autoforge.lexicon.schema_entities`); without schemas the rules give collections from id
parameters and tool names and attributes from the parameters. The model is asked once, in a
compact format (:mod:`autoforge.synth.state.design_model`), for what those leave open; the
result is validated (every entity-naming parameter must map to an attribute), unmapped
parameters are fed back while the call budget lasts, and whatever is still missing is placed
by rules, so a weak model yields a usable (if plain) schema rather than none. Without any model
answer, :func:`rule_based_schema` alone gives the schema.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from pydantic import BaseModel, Field

from autoforge.env import Attribute, CollectionSchema, StateSchema
from autoforge.lexicon import (
    FILLER,
    SESSION,
    Derivation,
    add_session,
    derive_state,
    doc_field_names,
    find_user_collection,
    paging_params,
    self_word_at,
    tool_access,
)
from autoforge.llm import LLMClient, LLMFailure, Message
from autoforge.synth.rulecode.classify import classify_tool, collection_of_key, target_collection
from autoforge.synth.rulecode.transition_fields import modified_field
from autoforge.synth.state.design_model import (
    Budget,
    CompactCollection,
    CompactDesign,
    ask,
    docs_words,
    parse_lines,
    stated,
)
from autoforge.synth.state.design_prompts import design_messages, feedback_messages
from autoforge.synth.state.inputs import keep_write_inputs, param_type
from autoforge.synth.state.keys import key_by_tools
from autoforge.synth.state.mapping import Unmapped, place_by_rules, unmapped_params
from autoforge.synth.state.scope import scope_attributes
from autoforge.synth.state.settings import Setting, extract_settings, settings_collection
from autoforge.tooldocs import ToolSpec, id_base, identifier, is_id_like, plural, singular, tokens

# words of a tool name that are no collection noun: the shared filler words, plus these
_NOISE = FILLER | {"id", "ids", "status", "human", "agents", "agent", "types", "type"}


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
    #: why the docs show a session user (the state then has the ``session`` singleton)
    session: str | None = None
    repaired: list[str] = Field(default_factory=list)
    #: ``collection.attribute`` per scope a list requires (:mod:`~autoforge.synth.state.scope`)
    scoped: list[str] = Field(default_factory=list)
    #: ``collection: old -> new`` per key the tools name records by (:mod:`.keys`)
    rekeyed: list[str] = Field(default_factory=list)
    #: ``collection.attribute`` per write parameter given a place (:mod:`.inputs`)
    kept_inputs: list[str] = Field(default_factory=list)


_ADJECTIVES = {"new", "old", "current", "target", "source", "original", "default"}


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
        paging = paging_params(spec.parameters.get("properties", {}), spec.param_names)
        for param in spec.param_names:
            noun = _id_noun(param) if param not in paging else None  # a cursor names no kind
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
        paging = paging_params(spec.parameters.get("properties", {}), spec.param_names)
        for param in spec.param_names:
            ref = collection_of_key(param, schema)
            if coll.attribute(param) is not None or (ref is coll and param != "id"):
                continue
            if param in paging and (tool_access(spec) == "read" or paging[param] == "request"):
                continue
            typ = "id" if ref is not None or is_id_like(param) else param_type(spec, param)
            enum = (spec.parameters["properties"][param] or {}).get("enum")
            coll.attributes.append(
                Attribute(
                    name=param,
                    type=typ,
                    enum=[str(e) for e in enum] if typ == "enum" and enum else None,
                    references=ref.name if ref is not None and ref is not coll else None,
                )
            )
        if _sets_status(spec, schema) and coll.attribute("status") is None:
            coll.attributes.append(Attribute(name="status", type="string"))
    for coll in schema.collections:  # ``new_date`` is the new value of ``date``, not a field
        coll.attributes = [a for a in coll.attributes if modified_field(coll, a.name) is None]
    return schema


def _sets_status(spec: ToolSpec, schema: StateSchema) -> bool:
    """Whether a tool changes its collection's status: a transition whose name has a known
    verb (``cancel_order`` sets ``cancelled``). A write the classifier only guesses is a
    transition (``shop_search_recommend``, ``address_to_longitude_latitude``: no known verb)
    names no status it would set, so its collection gets no ``status`` to fill with words."""
    found = classify_tool(spec, schema)
    return found.cls == "transition" and not found.reason.startswith("no known verb")


def _ensure(schema: StateSchema, name: str, key: str) -> CollectionSchema:
    found = schema.collection(name)
    if found is not None:
        return found
    coll = CollectionSchema(name=name, primary_key=key, attributes=[Attribute(name=key, type="id")])
    schema.collections.append(coll)
    return coll


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
    tools: Sequence[ToolSpec] = ()
    words: str = ""
    vocabulary: frozenset[str] | None = None
    repaired: list[str] = field(default_factory=list)

    def evidenced(self, coll: CollectionSchema, new: list[Attribute]) -> list[Attribute]:
        """The model's attributes the documents state: with schemas, names the docs define (a
        parameter or a field of a returned record, ``vocabulary``); without, names their text
        states (see :func:`stated`), or a reference to a known collection (it names that
        collection's key)."""
        kept = []
        for attr in new:
            if self.vocabulary is not None:
                known = attr.name.lower() in self.vocabulary
            else:
                known = bool(attr.references) or stated(attr.name, self.words)
            if known:
                kept.append(attr)
            elif coll.attribute(attr.name) is None:
                self.rejected.append(f"{coll.name}.{attr.name}: model guess, not in the docs")
        return kept


def _finish(
    schema: StateSchema,
    tools: Sequence[ToolSpec],
    policy: str | None,
    provenance: dict[str, dict[str, str]],
    derived: Derivation,
) -> dict[str, Any]:
    """What every design gets after the model's rounds, from the docs alone: the user's lists
    owned, unused collections merged, the keys the tools name records by, the scopes lists
    require, documented enums, the settings and session records, provenance filled in.
    Returns the :class:`DesignResult` fields these steps report."""
    user_lists(schema, tools, provenance)
    merged = merge_unused_collections(schema, tools, keep=set(derived.provenance))
    rekeyed = key_by_tools(schema, tools, provenance)
    scoped = scope_attributes(schema, tools, provenance)
    kept = keep_write_inputs(schema, tools, provenance)
    enums_from_docs(schema, tools)
    settings = _add_settings(schema, tools, policy, provenance)
    session = _add_session(schema, tools, provenance)
    _fill_provenance(schema, provenance)
    return {
        "merged": merged,
        "settings": settings,
        "session": session,
        "scoped": scoped,
        "rekeyed": rekeyed,
        "kept_inputs": kept,
    }


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
    (:mod:`autoforge.lexicon.schema_entities`); without schemas the rules give the collections
    (id parameters, tool-name nouns) and the attributes the parameters name. One model call
    (:mod:`autoforge.synth.state.design_model`'s compact answer) then asks only what those
    leave open: the attributes the open collections still need and, without schemas, any
    missing collection; its answers are checked against the docs. Parameters still unmapped
    are fed back while the budget of ``max_calls`` requests (re-asks included) lasts, and the
    rules place whatever is left. Never raises for bad model output: failed calls are recorded
    and rules fill the gaps. Without a model (``--llm none``) no call is made.
    """
    rules_only = client.rules_only("synthesizer")
    budget = Budget(0 if rules_only else max_calls)
    failures: list[str] = []
    rejected: list[str] = []
    derived = derive_state(tools)
    schema, provenance, draft, open_colls, source = _starting_state(tools, derived)
    checks = _checks_for(tools, policy, derived, provenance, rejected, source)
    if open_colls or source == "llm":  # without schemas the model may name what rules missed
        asker = _Ask(client, tools, budget, failures, checks)
        await _design_open(asker, open_colls, schema, draft, policy, new=source == "llm")
    if source == "llm":
        rejected += _reject_operation_names(schema, tools, draft, provenance)
    initial = unmapped_params(tools, schema)
    missing, rounds = initial, 0
    while missing and rounds < max_rounds and budget.left > 0:
        rounds += 1
        await _feedback_round(_Ask(client, tools, budget, failures, checks), schema, missing)
        missing = unmapped_params(tools, schema)
    added = place_by_rules(missing, {t.name: t for t in tools}, schema) if missing else []
    finished = _finish(schema, tools, policy, provenance, derived)
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
        unwrapped=derived.unwrapped,
        repaired=checks.repaired,
        **finished,
    )


def _starting_state(
    tools: Sequence[ToolSpec], derived: Derivation
) -> tuple[StateSchema, dict[str, dict[str, str]], StateSchema, list[CollectionSchema], str]:
    """Where the design starts: the docs' schemas when they define collections (``docs``; the
    rule draft keeps only what parameters name), else the rule draft (``llm``); with the
    collections still open to the model."""
    draft = rule_based_schema(tools)
    if derived.schema.collections:
        schema, provenance = derived.schema.model_copy(deep=True), dict(derived.provenance)
        draft = _params_only(draft, tools)  # the docs have schemas: guess no further fields
        return schema, provenance, draft, _open_collections(schema, draft, provenance), "docs"
    schema, provenance = _draft_state(draft)
    return schema, provenance, draft, list(schema.collections), "llm"


def _checks_for(
    tools: Sequence[ToolSpec],
    policy: str | None,
    derived: Derivation,
    provenance: dict[str, dict[str, str]],
    rejected: list[str],
    source: str,
) -> _Checks:
    """The checks the model's answers meet; with schemas the docs' field names and the
    parameters are the whole vocabulary."""
    checks = _Checks(
        set(derived.provenance), provenance, rejected, tools, docs_words(tools, policy)
    )
    if source == "docs":
        names = doc_field_names(tools) | {p for t in tools for p in t.param_names}
        checks.vocabulary = frozenset(n.lower() for n in names)
    return checks


def _draft_state(draft: StateSchema) -> tuple[StateSchema, dict[str, dict[str, str]]]:
    """The rule draft as the starting state (no schemas): collections from id parameters and
    tool names, attributes from the parameters."""
    schema = draft.model_copy(deep=True)
    provenance = {
        c.name: {
            a.name: "rules:id parameter of the tools"
            if a.name == c.primary_key
            else "rules:tool parameters"
            for a in c.attributes
        }
        for c in schema.collections
    }
    return schema, provenance


@dataclass
class _Ask:
    """What one model request of the design needs: the client, the tools, the shared budget,
    and where failures and checks are recorded."""

    client: LLMClient
    tools: Sequence[ToolSpec]
    budget: Budget
    failures: list[str]
    checks: _Checks

    async def __call__(
        self, messages: list[Message], purpose: str, collections: int
    ) -> CompactDesign | None:
        """The answer, or None when the budget is spent or the call failed (recorded)."""
        try:
            return await ask(
                self.client,
                messages,
                self.budget,
                purpose=purpose,
                collections=collections,
                notes=self.checks.repaired,
            )
        except LLMFailure as exc:
            self.failures.append(f"{purpose}: {exc}")
            return None


async def _design_open(
    asker: _Ask,
    open_colls: list[CollectionSchema],
    schema: StateSchema,
    draft: StateSchema,
    policy: str | None,
    *,
    new: bool,
) -> None:
    """One call for all collections the docs leave open: the attributes their records still
    need and (``new``: no schemas) collections the rules missed. The rule draft's attributes
    stay; the model's are added after the checks."""
    for open_coll in open_colls:
        fallback = draft.collection(open_coll.name)
        _merge(open_coll, list(fallback.attributes) if fallback else [])
    known = [(c.name, c.primary_key, [a.name for a in c.attributes]) for c in open_colls]
    documented = [c for c in schema.collections if c.name in asker.checks.documented]
    context = [(c.name, c.primary_key, [a.name for a in c.attributes]) for c in documented]
    msgs = design_messages(asker.tools, known, policy, new_collections=new, context=context)
    answer = await asker(msgs, "synth.state.design", len(open_colls) + (2 if new else 0))
    if answer is None:
        return
    names = {c.name for c in open_colls}
    for item in answer.collections:
        coll = _answered_collection(item, schema, names, new, asker.checks)
        if coll is None:
            continue
        if coll.name not in names and coll.name not in asker.checks.provenance:
            asker.checks.provenance[coll.name] = {coll.primary_key: "model"}
        added = _resolved(parse_lines(item.add), coll, schema)
        added = asker.checks.evidenced(coll, _checked(added, coll, asker.checks.rejected))
        _merge(coll, added)
        origins = asker.checks.provenance.setdefault(coll.name, {})
        for attr in added:
            origins.setdefault(attr.name, "model")


def _answered_collection(
    item: CompactCollection,
    schema: StateSchema,
    asked: set[str],
    new: bool,
    checks: _Checks,
) -> CollectionSchema | None:
    """The collection an answer item is about: an asked one (by name, or by the key the tools
    pass), a new one when ``new`` allows it and the docs name it, else None (a documented
    collection is not open; a name the docs never use is a guess)."""
    name = identifier(item.name)
    if not name:
        return None
    key = identifier(item.key) or f"{singular(name)}_id"
    found = schema.collection(name) or collection_of_key(key, schema)
    if found is not None:
        return found if found.name in asked else None
    if not new:
        return None
    if not stated(singular(name), checks.words):
        checks.rejected.append(f"collection {name}: model guess, not in the docs")
        return None
    params = {p for t in checks.tools for p in t.param_names}
    if key not in params and f"{singular(name)}_id" in params:
        key = f"{singular(name)}_id"  # the key the tools actually pass
    coll = CollectionSchema(name=name, primary_key=key, attributes=[Attribute(name=key, type="id")])
    schema.collections.append(coll)
    return coll


def _resolved(
    attrs: list[Attribute], coll: CollectionSchema, schema: StateSchema
) -> list[Attribute]:
    """Parsed attributes made consistent: the key stays an id, references only to known
    collections (an id-named attribute refers to the collection whose key it names)."""
    out = []
    for attr in attrs:
        if attr.name == coll.primary_key:
            continue
        ref = schema.collection(attr.references) if attr.references else None
        if ref is None and attr.type == "id":
            ref = collection_of_key(attr.name, schema)
        if ref is coll:
            ref = None
        if attr.type == "id" and not is_id_like(attr.name) and ref is None:
            attr = attr.model_copy(update={"type": "string"})
        out.append(attr.model_copy(update={"references": ref.name if ref else None}))
    return out


def user_lists(
    schema: StateSchema, tools: Sequence[ToolSpec], provenance: dict[str, dict[str, str]]
) -> list[str]:
    """Give each collection a read of "the user's X" lists a reference to the user collection.

    A read without parameters that acts for the signed-in user and names a collection after
    the word saying so (:func:`~autoforge.lexicon.session.self_word_at`:
    ``get_user_all_orders()``,
    ``get_my_loans()``) lists the records of that collection that belong to the user, so they
    must say whose they are; tool parameters rarely do (``cancel_order(order_id)``). When no
    attribute of it references the user collection
    (:func:`~autoforge.lexicon.session.find_user_collection`), the one named as that
    collection's
    key becomes (or is added as) that reference. Returns ``collection.attribute`` per reference.
    """
    user = find_user_collection(schema)
    ucoll = schema.collection(user) if user else None
    made: list[str] = []
    if ucoll is None:
        return made
    noun = singular(ucoll.name).lower()
    for spec in tools:
        at = self_word_at(spec, noun)
        words = tokens(spec.name)[at + 1 :] if at is not None else []
        named = (c for w in words if (c := _named_by(w, schema)) is not None)
        listed = next((c for c in named if c is not ucoll), None)
        if listed is None or any(a.references == ucoll.name for a in listed.attributes):
            continue
        key = ucoll.primary_key
        have = listed.attribute(key)
        if have is not None and have.type == "array":
            continue  # records shared by several users: no one owner
        ref = Attribute(name=key, type="id", references=ucoll.name)
        if have is None:
            listed.attributes.append(ref)
        else:  # a documented field of that name: now the reference it names
            update = {"type": "id", "references": ucoll.name}
            listed.attributes[listed.attributes.index(have)] = have.model_copy(update=update)
        why = f"rules:{spec.name}() lists the signed-in {noun}'s {listed.name}"
        provenance.setdefault(listed.name, {}).setdefault(key, why)
        made.append(f"{listed.name}.{key}")
    return made


def _named_by(tok: str, schema: StateSchema) -> CollectionSchema | None:
    """The collection a word of a tool name names (``orders``/``order`` -> ``orders``)."""
    for coll in schema.collections:
        if {tok, singular(tok)} & {coll.name.lower(), singular(coll.name)}:
            return coll
    return None


def _add_session(
    schema: StateSchema, tools: Sequence[ToolSpec], provenance: dict[str, dict[str, str]]
) -> str | None:
    """The singleton ``session`` collection when the docs show a session user
    (:mod:`autoforge.lexicon.session`): who is signed in is state, so the tools acting for that
    user read it there and replay stays pure."""
    reason = add_session(schema, tools)
    coll = schema.collection(SESSION) if reason is not None else None
    if coll is not None:
        provenance[coll.name] = {a.name: f"rules:{reason}" for a in coll.attributes}
        provenance[coll.name][coll.primary_key] = "rules:singleton key"
    return reason


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


async def _feedback_round(asker: _Ask, schema: StateSchema, missing: list[Unmapped]) -> None:
    """Ask the model where the unmapped parameters live, one call per target collection.

    For a collection the docs define, only the attributes asked for are taken: anything else
    the model adds would be an attribute the document does not have.
    """
    by_tool = {t.name: t for t in asker.tools}
    groups: dict[str, list[Unmapped]] = {}
    for item in missing:
        target = target_collection(by_tool[item.tool], schema)
        if target is not None:
            groups.setdefault(target.name, []).append(item)
    checks = asker.checks
    for name, items in groups.items():
        coll = schema.collection(name)
        assert coll is not None
        attrs = [a.name for a in coll.attributes]
        wanted = [(u.param, u.tool, u.description) for u in items]
        msgs = feedback_messages(name, coll.primary_key, attrs, wanted, asker.tools)
        answer = await asker(msgs, "synth.state.feedback", 1)
        if answer is None:
            if asker.budget.left <= 0:
                return
            continue
        lines = [line for c in answer.collections for line in c.add]
        kept = _checked(_resolved(parse_lines(lines), coll, schema), coll, checks.rejected)
        asked = {u.param.lower() for u in items} | {id_base(u.param) for u in items}
        if name in checks.documented:
            for attr in kept:
                if attr.name.lower() not in asked and coll.attribute(attr.name) is None:
                    checks.rejected.append(f"{name}.{attr.name}: not in the docs' schema")
            kept = [a for a in kept if a.name.lower() in asked]
        else:
            kept = checks.evidenced(coll, kept)
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
