"""What a tool acts on, read from its name and parameters: its class, collection, key, refs.

Both the synthesis classifier (:mod:`autoforge.synth.rulecode.classify`, which adds how plain a
tool is)
and the rule extractor (:mod:`autoforge.env.artifact.rules`, which every stage may import) need to
know
which record a tool's preconditions are about; they read it here, one way, without any model.
"""

from __future__ import annotations

import itertools
from typing import Literal

from pydantic import BaseModel

from autoforge.env import Attribute, CollectionSchema, StateSchema
from autoforge.tooldocs import (
    READ_VERBS,
    ToolSpec,
    id_base,
    singular,
    snake,
    snake_words,
    tokens,
)

ToolClass = Literal[
    "lookup", "list", "create", "update", "delete", "transition", "compute", "generic"
]
READ_CLASSES: frozenset[str] = frozenset({"lookup", "list", "compute", "generic"})

VERBS: dict[str, ToolClass] = {}
for _cls, _words in (
    ("lookup", "get fetch read show view retrieve find lookup describe check verify inspect"),
    ("list", "list search query browse filter enumerate all"),
    ("create", "create add new book register insert place make post submit open reserve"),
    ("update", "update modify edit change set rename patch replace assign move upgrade"),
    ("delete", "delete remove destroy drop erase purge unregister"),
    (
        "transition",
        "cancel return exchange approve reject complete close archive activate deactivate "
        "confirm checkout borrow lend renew refund pay send suspend resume ship deliver mark "
        "start stop finish enable disable lock unlock restore accept decline process apply "
        "redeem issue revoke toggle",
    ),
    ("compute", "calculate compute count sum total estimate convert average evaluate"),
    ("generic", "think transfer noop echo wait log"),
):
    for _w in _words.split():
        VERBS[_w] = _cls  # type: ignore[assignment]

FILLER = {
    "by",
    "all",
    "details",
    "detail",
    "info",
    "information",
    "the",
    "a",
    "an",
    "for",
    "of",
    "to",
    "from",
    "with",
    "in",
    "on",
    "my",
    "new",
    "current",
}


#: Words before a verb that make one call act on several records (``BatchGetWidget``).
BATCH = {"batch", "bulk"}
#: Verbs after which the record is gone or closed: nothing more is done to it in one task.
TERMINAL_VERBS = ("cancel", "delete", "remove", "close", "void", "revoke", "terminate")
#: How the description of a scope attribute starts: where a record lives (the account, the
#: project a list must be told), which a design read from documents adds
#: (:mod:`autoforge.synth.state.scope`); the tools that name one record check it.
SCOPE_NOTE = "the scope"


def new_key_param(spec: ToolSpec, schema: StateSchema) -> str | None:
    """The parameter naming the record a create makes (``create_bucket(bucket_name)``), which
    must be a key no record has; None for any other tool, and for a create that may also
    replace the record its key names (``CreateOrUpdate``, ``upsert``: an update verb or
    ``upsert`` in its name)."""
    scope = tool_scope(spec, schema)
    words = tokens(spec.name)
    if scope.cls != "create" or "upsert" in words:
        return None
    return None if any(VERBS.get(w) == "update" for w in words) else scope.key_param


def whole_record(spec: ToolSpec, param: str, coll: CollectionSchema) -> bool:
    """Whether ``param`` is an object named as a record of ``coll`` (``Budget``,
    ``NewBudget`` for budgets): a record given whole, whose fields are the record's fields."""
    prop = spec.parameters.get("properties", {}).get(param) or {}
    if prop.get("type") != "object":
        return False
    return param.replace("_", "").lower().endswith(singular(coll.name).replace("_", "").lower())


def is_scope(attr: Attribute | None) -> bool:
    """Whether ``attr`` is a scope attribute (its description starts with :data:`SCOPE_NOTE`)."""
    return attr is not None and attr.description.startswith(SCOPE_NOTE)


def scope_params(spec: ToolSpec, coll: CollectionSchema, key: str | None) -> list[str]:
    """The parameters of ``spec`` naming a scope of ``coll``'s records (its key aside): a tool
    acting on one record finds it only in the scope the call names. A read or a delete that
    names the record by its key also names, this way, the parent record it references
    (``get_ad_unit(ad_client_id, ad_unit_id)``): found only under that parent. (An update's
    reference may be the new value it sets, so it is not read as a parent.) Synthesis writes
    the check; task generation gives these parameters the named record's own values."""
    finds = tool_access(spec) == "read" or VERBS.get(name_verb(spec)) == "delete"
    read = finds and key is not None
    return [
        p
        for p in spec.param_names
        if p != key and (is_scope(attr := coll.attribute(p)) or (read and _parent(attr)))
    ]


def _parent(attr: Attribute | None) -> bool:
    return attr is not None and bool(attr.references) and attr.type != "array"


class ToolScope(BaseModel):
    """Which records a tool's preconditions are about: its class, the collection it acts on,
    the parameter naming that collection's record, and the parameters naming other records."""

    tool: str
    cls: ToolClass
    collection: str | None = None
    key_param: str | None = None
    refs: dict[str, str] = {}
    #: the attribute of the record that a qualifying noun of the name requires set
    #: (``pay_shop_invoice`` pays an invoice whose ``shop_id`` is set: a shop's invoice)
    qualifier: str | None = None
    reason: str = ""


def _collection_for_token(tok: str, schema: StateSchema) -> CollectionSchema | None:
    """The collection a word of a name names: its name or singular, also written as one word
    (``adclients`` for ``ad_clients``, as dotted operation ids write it)."""
    for coll in schema.collections:
        names = {coll.name.lower(), singular(coll.name)}
        names |= {n.replace("_", "") for n in names}
        if tok in names or singular(tok) in names:
            return coll
    return None


def _named(
    spec: ToolSpec, schema: StateSchema
) -> tuple[list[str], list[tuple[int, CollectionSchema]]]:
    """The words of a tool's name after its verb, and the collections they name, in order
    (filler and verbs skipped). A word that is also an enum value still names its collection:
    a ``source_type`` enum holding ``cluster`` does not hide ``clusters`` in ``create_cluster``."""
    toks = _after_verb(tokens(spec.name))
    named: list[tuple[int, CollectionSchema]] = []
    skip_to = 0
    for i, tok in enumerate(toks):
        if i < skip_to:
            continue
        phrase = _phrase_collection(toks, i, schema)  # delivery_stream before stream
        coll: CollectionSchema | None
        if phrase is not None:
            coll, skip_to = phrase
        elif tok in FILLER or tok in VERBS:
            continue
        else:  # an enum value (``pending``) names no collection: it only qualifies the noun
            coll = _collection_for_token(tok, schema)
        if coll is not None and all(coll is not c for _, c in named):
            named.append((i, coll))
    return toks, named


def _after_verb(toks: list[str]) -> list[str]:
    """The words of a name without its verb: the first word, or the verb a ``Noun_Verb``
    name puts later (``JobCollections_ListBySubscription`` keeps ``job collections``)."""
    if len(toks) > 1 and toks[0] not in VERBS:
        later = next((i for i, t in enumerate(toks[1:], 1) if t in VERBS), None)
        if later is not None:
            return toks[:later] + toks[later + 1 :]
    return toks[1:] or toks


def _phrase_collection(
    toks: list[str], i: int, schema: StateSchema
) -> tuple[CollectionSchema, int] | None:
    """The collection named by several words of the name from ``toks[i]`` on
    (``DeleteDeliveryStream``: ``delivery_streams``, not ``streams``), and where they end."""
    for n in (3, 2):
        if i + n <= len(toks):
            coll = _collection_for_token("_".join(toks[i : i + n]), schema)
            if coll is not None:
                return coll, i + n
    return None


def target_collection(spec: ToolSpec, schema: StateSchema) -> CollectionSchema | None:
    """The collection a tool acts on: a noun of its name, else the collection of an id param.

    Words of the name that name no collection (``pending`` in ``cancel_pending_order``)
    qualify the noun: skipped. Without parameters, a later noun whose records the first one
    owns is the target (:func:`_owned_by`). When the name holds several collection nouns, the
    parameters say which one is acted on and which only qualify it
    (:func:`_qualified_target`); otherwise the first noun is the target.
    """
    toks, named = _named(spec, schema)
    if named and not spec.param_names:
        return _owned_by(named[0][1], toks[named[0][0] + 1 :], schema)
    if named:
        phrase = [(i, c) for i, c in named if not any(t in _PREPOSITIONS for t in toks[:i])]
        return _qualified_target(spec, phrase, schema) or named[0][1]
    for param in spec.param_names:
        coll = collection_of_key(param, schema)
        if coll is not None:
            return coll
    return None


def qualifier(spec: ToolSpec, schema: StateSchema, coll: CollectionSchema | None) -> str | None:
    """The attribute a noun before the target's in the name requires set, when no parameter
    gives it: ``pay_shop_invoice(invoice_id)`` acts on an invoice whose ``shop_id`` (a
    reference to ``shops``) is set, ``search_shop_invoice(client_id)`` lists only those."""
    if coll is None or not spec.param_names:
        return None
    toks, named = _named(spec, schema)
    for i, other in named:
        if other is coll or any(t in _PREPOSITIONS for t in toks[:i]):
            return None
        for attr in coll.attributes:
            if attr.references == other.name and attr.name not in spec.param_names:
                return attr.name
    return None


#: words after which a noun is the object of a preposition (``get_bills_for_customer``: bills)
_PREPOSITIONS = frozenset({"by", "for", "of", "with", "from", "to", "in", "on"})


def _qualified_target(
    spec: ToolSpec, named: list[tuple[int, CollectionSchema]], schema: StateSchema
) -> CollectionSchema | None:
    """Of several collection nouns in a tool's name, the one it acts on (``None``: no rule).

    * a tool taking the key of one of them acts on that record, the other nouns qualify it:
      ``pay_shop_invoice(invoice_id)`` pays an invoice (of a shop), not a shop;
    * a create takes the keys of the records it refers to, not the key of the record it makes:
      ``open_shop_invoice(shop_id, client_id)`` makes an invoice, the last noun whose key is
      not a parameter;
    * without any of their keys, two adjacent nouns are a compound whose head is the second:
      ``search_shop_invoice(client_id)`` searches invoices.

    Only the nouns before a preposition count: ``get_invoices_for_client(client_id)`` gets
    invoices (the client is the preposition's object).
    """
    if len(named) < 2:
        return None
    keyed = {c.name for p in spec.param_names if (c := collection_of_key(p, schema)) is not None}
    given = [c for _, c in named if c.name in keyed]
    if verb_class(spec)[0] == "create":
        made = [c for _, c in named if c.name not in keyed]
        return made[-1] if given and made else None
    if given:
        return given[0]
    for (i, _), (j, later) in itertools.pairwise(named):
        if j == i + 1:
            return later
    return None


def _owned_by(owner: CollectionSchema, rest: list[str], schema: StateSchema) -> CollectionSchema:
    """For a tool without parameters, ``<owner noun> ... <noun>``: the later noun's collection
    when its records reference the owner (``get_user_all_orders()`` lists the orders of a
    user: orders), else the owner."""
    for tok in rest:
        coll = _collection_for_token(tok, schema)
        if (
            coll is not None
            and coll.name != owner.name
            and any(a.references == owner.name for a in coll.attributes)
        ):
            return coll
    return owner


def collection_of_key(param: str, schema: StateSchema) -> CollectionSchema | None:
    """The collection whose primary key a parameter names (``order_id`` -> ``orders``)."""
    base = id_base(param)
    for coll in schema.collections:
        if names_key(base, coll):
            return coll
    return None


def names_key(base: str, coll: CollectionSchema) -> bool:
    """Whether a parameter (snake case, ``id_base``) names a record of ``coll`` by its key: the
    key itself, ``<noun>_id``, the key after the noun or the noun's last words
    (``job_name`` or ``account_name`` for ``services_accounts`` keyed by ``name``), or the
    bare noun of a collection keyed by ``name`` (``deployment``: the deployment's name)."""
    noun = singular(coll.name)
    key = snake(coll.primary_key)
    if base in (coll.primary_key.lower(), f"{noun}_id") or (key == "name" and base == noun):
        return True
    return key != "id" and noun_field(base, noun, key)


def noun_field(base: str, noun: str, field: str) -> bool:
    """Whether ``base`` is ``field`` after the noun or the noun's last words (``job_name``,
    ``account_name`` for the ``name`` of a ``services_account``)."""
    if not base.endswith(f"_{field}"):
        return False
    head = base[: -len(field) - 1]
    return f"_{noun}".endswith(f"_{head}")


def key_param(spec: ToolSpec, coll: CollectionSchema | None) -> str | None:
    """The parameter holding the primary key of ``coll``, if the tool has one."""
    if coll is None:
        return None
    for param in spec.param_names:
        if names_key(param.lower(), coll) or names_key(id_base(param), coll):  # camelCase too
            return param
    if "id" in spec.param_names:
        return "id"
    return None


def verb_class(spec: ToolSpec) -> tuple[ToolClass | None, str]:
    """The class the verb of the tool's name says, and that verb (``None, ""`` if none)."""
    toks = tokens(spec.name)
    if toks[:1] and toks[0] in BATCH and toks[1:2] and toks[1] in VERBS:
        toks = toks[1:]  # BatchGetWidget: the verb after the batch word
    if not toks:
        return None, ""
    if toks[0] in VERBS:
        return VERBS[toks[0]], toks[0]
    for tok in toks[1:]:
        if tok in VERBS and VERBS[tok] not in ("lookup", "list"):
            return VERBS[tok], tok
    return None, ""


def name_verb(spec: ToolSpec) -> str:
    """The verb of a tool's name: the one :func:`verb_class` finds (``instore_cancel_book`` ->
    ``cancel``), else the name's first word."""
    found = verb_class(spec)[1]
    toks = tokens(spec.name)
    return found or (toks[0] if toks else "")


def adjust_class(cls: ToolClass | None, spec: ToolSpec, has_key: bool) -> tuple[ToolClass, str]:
    """Reconcile the verb's class with the read/write hint and the parameters."""
    toks = tokens(spec.name)
    plural_noun = any(t.endswith("s") and singular(t) != t for t in toks[1:] if t not in FILLER)
    if cls is None:
        if spec.access == "read":
            return ("lookup" if has_key else "list"), "no known verb; read hint"
        return ("update" if has_key and spec.access == "write" else "transition"), "no known verb"
    if cls in ("lookup", "list") and spec.access == "write":
        return "update", "read verb but write hint"
    if cls in ("create", "update", "delete", "transition") and spec.access == "read":
        return ("lookup" if has_key else "list"), "write verb but read hint"
    if cls == "lookup" and not has_key and plural_noun and "id" not in toks:
        return "list", "lookup verb on a plural noun without a key"
    if cls == "lookup" and toks[:1] and toks[0] in BATCH:
        return "list", "batch lookup: lists the records named"
    if cls == "generic" and spec.access == "write":
        return "transition", "generic verb with write hint"
    return cls, "verb"


def _named_instead(
    spec: ToolSpec, schema: StateSchema, coll: CollectionSchema
) -> tuple[CollectionSchema, str | None]:
    """For a change whose name's noun is no record the call names
    (``IncreaseReplicationFactor(ClusterName)``, ``EnableMonitoring(StreamName)``), the record
    its one required key parameter names: the cluster, the stream. ``(coll, None)`` unless the
    docs describe nothing of the noun's collection (no description, no attribute with one: a
    word of the name, not a documented record) and exactly one other collection's key is
    required."""
    if coll.description or any(a.description for a in coll.attributes):
        return coll, None
    named = {
        c.name: (c, p)
        for c in schema.collections
        if c is not coll and (p := key_param(spec, c)) is not None and p in spec.required
    }
    if len(named) != 1:
        return coll, None
    return next(iter(named.values()))


def param_refs(
    spec: ToolSpec, schema: StateSchema, coll: CollectionSchema | None, key: str | None
) -> dict[str, str]:
    """Scalar parameters holding another record's key: ``add_review(customer_id)`` -> customers."""
    out: dict[str, str] = {}
    props = spec.parameters.get("properties", {})
    for param in spec.param_names:
        if param == key or (props.get(param) or {}).get("type") not in (None, "string", "integer"):
            continue
        ref = collection_of_key(param, schema)
        if ref is not None and (coll is None or ref.name != coll.name):
            out[param] = ref.name
    return out


def tool_scope(spec: ToolSpec, schema: StateSchema) -> ToolScope:
    """The class, collection, key parameter and references of ``spec`` over ``schema``."""
    verb_cls, verb = verb_class(spec)
    coll = target_collection(spec, schema)
    key = key_param(spec, coll)
    cls, why = adjust_class(verb_cls, spec, key is not None)
    if key is None and coll is not None and cls in ("update", "transition"):
        coll, key = _named_instead(spec, schema, coll)
        cls, why = adjust_class(verb_cls, spec, key is not None)
    reason = f"{why} {verb!r}" if verb else why
    return ToolScope(
        tool=spec.name,
        cls=cls,
        collection=coll.name if coll else None,
        key_param=key,
        refs=param_refs(spec, schema, coll, key),
        qualifier=qualifier(spec, schema, coll),
        reason=reason.strip(),
    )


#: First name words of a read tool (when the docs give no read/write hint).
_READ_VERBS = READ_VERBS | {
    "check",
    "verify",
    "inspect",
    "filter",
    "calculate",
    "compute",
    "estimate",
}


def tool_access(tool: ToolSpec) -> str:
    """``read`` or ``write``: the documented hint, else a guess from the verb of the name."""
    if tool.access is not None:
        return tool.access
    said = snake_words(tool.name)  # DescribeBudgets: describe; BatchGetWidget: get
    verb = said[1] if len(said) > 1 and said[0] in BATCH else said[0]
    return "read" if verb in _READ_VERBS else "write"
