"""The one extractor of the rules the docs, the policy and the parameter schemas state.

A rule is kept only when it is stated about a tool and names values the domain has:

* **status** -- "Only `pending` orders can be cancelled", "An order can only be returned if its
  status is 'delivered'", "Cancel an order that is still pending", "Shipped, delivered or
  already cancelled orders cannot be cancelled": the record the
  tool's key parameter names must (not) be in those statuses; the values must be enum values of
  the collection's status attribute (or, in data mode, the values the records show), and a
  policy sentence must name the tool's action;
* **range** -- a parameter's JSON-schema ``minimum``/``maximum``, or a sentence naming the
  parameter with "from 1 to 5" / "between 1 and 5";
* **enum** -- a parameter's JSON-schema ``enum``, or a sentence about the tool's action that
  names the parameter and lists two or more quoted values ("a reason (`a`, `b` or `c`)");
* **unique** -- a create whose docs say it may happen "only once" ("may review each book only
  once"): no record of the collection may already hold the same values of the parameters
  that name other records (``customer_id`` + ``book_id``).

Each :class:`~autoforge.env.DocRule` (the model, owned by the environment artifact) keeps the
sentence it came from. Synthesis writes them into the tools as guards
(:mod:`autoforge.synth.rulecode.doc_rules`) and records them as a :class:`~autoforge.env.RuleSet`
(``rules.json``); task generation reads that artifact to choose records a call may act on and
requests the policy refuses (:mod:`autoforge.tasks.gold.plausible`). An environment without the
artifact (written by hand, like the bundled bookstore) gets its rules from :func:`rules_of`: the
same extractor over its own spec.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, Protocol

from autoforge.env import (
    Attribute,
    CollectionSchema,
    DocRule,
    EnvDir,
    EnvironmentSpec,
    RuleSet,
    StateSchema,
)
from autoforge.lexicon.toolscope import READ_CLASSES, tool_scope
from autoforge.tooldocs import ONCE_ONLY, ToolSpec, named_statuses, singular, tokens


class Scope(Protocol):
    """What the extractor needs to know about a tool
    (:class:`~autoforge.lexicon.toolscope.ToolScope`,
    or synthesis's ``Classification``): its class, collection, key parameter and references."""

    @property
    def cls(self) -> str: ...

    @property
    def collection(self) -> str | None: ...

    @property
    def key_param(self) -> str | None: ...

    @property
    def refs(self) -> dict[str, str]: ...


def sentences(text: str) -> list[str]:
    """Sentences of Markdown-ish text, with emphasis and list markers removed."""
    body = re.sub(r"^\s*#.*$", "", text.replace("**", ""), flags=re.MULTILINE)
    out: list[str] = []
    for para in re.split(r"\n\s*\n|\n\s*[-*] ", body):
        flat = " ".join(para.split()).strip(" -*")
        out += [s.strip() for s in re.split(r"(?<=[.!?])\s+(?=[A-Z`'\"])", flat) if s.strip()]
    return out


def _plain(sentence: str) -> str:
    return re.sub(r"[`'\"]", "", sentence.lower())


def status_rank(name: str) -> int:
    """Sort key for attributes that may hold a record's status: one named exactly status or
    state (0) before one that only holds the word (1, ``deposit_status``)."""
    return 0 if name.lower() in ("status", "state") else 1


def status_attribute(coll: CollectionSchema, enum: bool = False) -> Attribute | None:
    """The attribute that holds a record's status (with ``enum``, only one with documented
    values): one named exactly status or state first, then the first whose name holds
    "status" (``deposit_status`` is a status of something else when ``status`` exists)."""
    attrs = sorted(coll.attributes, key=lambda a: status_rank(a.name))
    return next((a for a in attrs if ("status" in a.name or a.name == "state")
                 and (a.enum or not enum)), None)  # fmt: skip


def status_values(
    coll: CollectionSchema, state: Any = None, stated: Sequence[str] = ()
) -> tuple[str, list[str]] | None:
    """The status attribute of ``coll`` and its values: the schema's enum, else the distinct
    values the data shows (few records make no enum, yet their statuses are still known), then
    ``stated``, the statuses the docs name (:func:`docs_statuses`), not already among them.
    An attribute named exactly status or state comes before one that only holds the word
    (``deposit_status``)."""
    attrs = sorted(coll.attributes, key=lambda a: status_rank(a.name))
    for attr in attrs:
        if "status" not in attr.name and attr.name != "state":
            continue
        if attr.enum:
            return attr.name, list(attr.enum)
        records = (state or {}).get(coll.name) or {}
        # only string values are statuses: a field named like one may hold an object
        strings = (r.get(attr.name) for r in records.values() if isinstance(r, dict))
        values = sorted({v for v in strings if isinstance(v, str)})
        seen = {v.casefold() for v in values}
        values += [v for v in dict.fromkeys(stated) if v.casefold() not in seen]
        if values:
            return attr.name, values
    return None


def docs_statuses(
    scoped: Iterable[tuple[ToolSpec, str | None]], policy: str | None = None
) -> dict[str, list[str]]:
    """Per collection: the statuses the docs name for its records (:func:`named_statuses`),
    from the descriptions of the tools acting on it (``scoped``: each tool with its
    collection) and the policy sentences naming its records. Where neither schema nor data
    closes a status, these are its known values: a rule naming them can be read."""
    out: dict[str, list[str]] = {}
    for tool, coll in scoped:
        if coll is not None:
            out.setdefault(coll, []).extend(named_statuses(tool.description))
    for sentence in sentences(policy or ""):
        low = sentence.lower()
        for coll, found in out.items():
            noun = singular(coll).replace("_", " ")
            if re.search(rf"\b{re.escape(noun)}s?\b", low):
                found.extend(named_statuses(sentence))
    return {coll: list(dict.fromkeys(found)) for coll, found in out.items() if found}


def _values_in(fragment: str, values: list[str]) -> list[str]:
    """The status values a list fragment ("shipped, delivered or already cancelled") names."""
    words = re.split(r",\s*|\s+or\s+|\s+and\s+|\s+nor\s+", fragment)
    found: list[str] = []
    for word in words:
        word = re.sub(r"^(already|still|not yet|in)\s+", "", word.strip())
        match = next((v for v in values if v.lower() == word), None)
        if match is None:
            return []
        found.append(match)
    return found


def record_words(schema: StateSchema) -> frozenset[str]:
    """Words that name a kind of record of the state (``orders``, ``order``): a tool's name
    holds them beside its action (``place_order``), and a sentence mentioning the record names
    no action of the tool."""
    return frozenset(
        w for coll in schema.collections for t in tokens(coll.name) for w in (t, singular(t))
    )


def _action_named(sentence: str, spec: ToolSpec, noun: str, records: Iterable[str] = ()) -> bool:
    """Whether a sentence names the tool's action: its verb's stem or another word of its name
    that is neither ``noun`` nor a word of ``records`` (:func:`record_words`)."""
    skip = {noun, singular(noun), *records}
    toks = [t for t in tokens(spec.name) if t not in skip]
    verb = toks[0][:5] if toks else ""
    if verb and re.search(rf"\b{re.escape(verb)}", sentence):
        return True
    return any(len(t) > 3 and t in sentence for t in toks[1:])


def _without_asides(sentence: str) -> str:
    """``sentence`` without its bracketed asides (innermost first)."""
    out = sentence
    while True:
        shorter = re.sub(r"\([^()]*\)", " ", out)
        if shorter == out:
            return out
        out = shorter


def _verb_named(word: str, spec: ToolSpec, noun: str) -> bool:
    """Whether ``word`` ("cancelled") is the action of a word of the tool's name (``cancel``)."""
    toks = [t for t in tokens(spec.name) if t not in (noun, singular(noun))]
    # a silent final e leaves the stem ("close" -> "closing")
    return any(len(t) > 3 and word.startswith(t.removesuffix("e")[:5]) for t in toks)


def _clause_named(
    text: str, spec: ToolSpec, noun: str, records: Iterable[str], source: str
) -> bool:
    """Whether the clause ``text`` opens names the tool's action (a description's always
    does): "only reserved ones can be cancelled; ... must be returned" is cancelling's rule."""
    clause = _without_asides(re.split(r"[;:]", text)[0])
    return source == "description" or _action_named(clause, spec, noun, records)


def _before_contrast(text: str) -> str:
    """``text`` up to a contrast or a dash: what follows it is allowed, not refused ("cannot
    borrow ..., but can still pay", "cannot be paid - settle the balance first")."""
    return re.split(r",?\s+\bbut\b|;\s*however\b|\bexcept\b|\s[\u2014\u2013-]\s", text)[0]


def _status_rule(
    spec: ToolSpec,
    coll: CollectionSchema,
    key: str,
    sentence: str,
    source: str,
    state: Any,
    stated: Sequence[str] = (),
    records: Iterable[str] = (),
) -> DocRule | None:
    found = status_values(coll, state, stated)
    if found is None:
        return None
    attr, values = found
    low = _plain(sentence)
    noun = singular(coll.name).replace("_", " ")
    vals = "|".join(re.escape(v.lower()) for v in sorted(values, key=len, reverse=True))
    items = rf"((?:(?:already |still )?(?:{vals})(?:,\s*|\s+or\s+(?:in\s+)?|\s+and\s+)?)+)"
    # a bracketed aside ("(...; it must be cancelled instead)") does not say whose rule it is
    named = source == "description" or _action_named(_without_asides(low), spec, noun, records)
    base: dict[str, Any] = dict(
        tool=spec.name, kind="status", param=key, collection=coll.name, attribute=attr
    )
    only = re.search(rf"\bonly {items} {re.escape(noun)}s? (?:can|may)\b", low)
    named_only = only is not None and _clause_named(
        low[only.start() :], spec, noun, records, source
    )
    if only and named_only and (allowed := _values_in(only.group(1).strip(), values)):
        return DocRule(**base, allowed=allowed, sentence=sentence, source=source)  # type: ignore[arg-type]
    field = re.escape(attr.replace("_", " "))
    cond = re.search(rf"\b{re.escape(noun)}s? can only be (\w+) if its {field} is ({vals})\b", low)
    if (
        cond
        and _verb_named(cond.group(1), spec, noun)
        and (allowed := _values_in(cond.group(2), values))
    ):
        return DocRule(**base, allowed=allowed, sentence=sentence, source=source)  # type: ignore[arg-type]
    said = _in_status_rule(spec, low, noun, rf"(?:{field}|status|state)", items, values, named)
    if said is not None:
        allowed, forbidden = said
        base.update(allowed=allowed, forbidden=forbidden)
        return DocRule(**base, sentence=sentence, source=source)  # type: ignore[arg-type]
    # an aside's "(paying one that is already paid fails)" names the failing state, not a list
    still = re.search(rf"\b(?:that|which) (?:is|are) (?:still )?{items}", _without_asides(low))
    if still and "already" in still.group(0):
        still = None
    if still and source == "description":  # every value listed: "that is a, b or c"
        # the separator after the last value ("a, b or c, giving ...") is not a value
        allowed = _values_in(re.sub(r"(,|\s+or|\s+and)$", "", still.group(1).strip()), values)
        return DocRule(**base, allowed=allowed, sentence=sentence, source=source)  # type: ignore[arg-type]
    never = re.search(rf"{items} {re.escape(noun)}s? (?:can ?not|can't|may not|cannot)\b", low)
    # what is refused, without the statuses before "cannot": those are the case, not the
    # action ("collected orders cannot be cancelled" names cancelling, not collecting)
    refused = low[: never.start()] + " " + _before_contrast(low[never.end() :]) if never else ""
    named_there = source == "description" or _action_named(
        _without_asides(refused), spec, noun, records
    )
    if never and named_there and (forbidden := _values_in(never.group(1).strip(), values)):
        return DocRule(**base, forbidden=forbidden, sentence=sentence, source=source)  # type: ignore[arg-type]
    return None


_REFUSING = (
    r"(?:prohibited from|forbidden (?:from|to)|not allowed to|can ?not|can't|may not|must not|"
    r"do not|never)"
)


_ENSURING = r"(?:ensure|make sure|check|verify)(?: that)?"


def _in_status_rule(
    spec: ToolSpec, low: str, noun: str, status: str, items: str, values: list[str], named: bool
) -> tuple[list[str], list[str]] | None:
    """``(allowed, forbidden)`` of a sentence that says which statuses the tool's records may
    (not) be in: "prohibited from canceling orders that are already in cancelled status" (the
    verb is the tool's), "only cancel orders that are in pending status", "ensure order status
    is not cancelled" (a precondition of the tool: its description, or naming its action)."""
    rec = rf"{re.escape(noun)}s? (?:that|which) (?:are|is|have been|has been) "
    rec += r"(?:already |still )?(?:in )?"
    refuse = re.search(rf"\b{_REFUSING} (\w+) (?:(?:an?|the|any) )?{rec}{items}", low)
    if refuse and _verb_named(refuse.group(1), spec, noun):
        forbidden = _values_in(refuse.group(2).strip(), values)
        return ([], forbidden) if forbidden else None
    passive = re.search(rf"\b{rec}{items}(?: {status})? {_REFUSING} be (\w+)", low)
    if passive and _verb_named(passive.group(2), spec, noun):
        forbidden = _values_in(passive.group(1).strip(), values)
        return ([], forbidden) if forbidden else None
    only = re.search(rf"\bonly (\w+) (?:the )?{rec}{items}", low)
    if only and _verb_named(only.group(1), spec, noun):
        allowed = _values_in(only.group(2).strip(), values)
        return (allowed, []) if allowed else None
    noun_re = re.escape(noun)
    ensure = re.search(
        rf"\b{_ENSURING} (?:the |its )?(?:{noun_re} )?{status} is (not )?{items}", low
    )
    if ensure and named and (found := _values_in(ensure.group(2).strip(), values)):
        return ([], found) if ensure.group(1) else (found, [])
    must = re.search(rf"\b{noun_re} {status} must be {items}", low)
    if must and named and (found := _values_in(must.group(1).strip(), values)):
        return found, []
    return None


def _schema_rules(spec: ToolSpec) -> list[DocRule]:
    out: list[DocRule] = []
    for param, prop in spec.parameters.get("properties", {}).items():
        prop = prop or {}
        if prop.get("enum"):
            out.append(
                DocRule(
                    tool=spec.name,
                    kind="enum",
                    param=param,
                    allowed=list(prop["enum"]),
                    sentence=f"{param}: enum {prop['enum']}",
                    source="parameter schema",
                )
            )
        if prop.get("type") in ("integer", "number") and ("minimum" in prop or "maximum" in prop):
            out.append(
                DocRule(
                    tool=spec.name,
                    kind="range",
                    param=param,
                    low=float(prop["minimum"]) if "minimum" in prop else None,
                    high=float(prop["maximum"]) if "maximum" in prop else None,
                    sentence=f"{param}: "
                    + ", ".join(f"{b} {prop[b]}" for b in ("minimum", "maximum") if b in prop),
                    source="parameter schema",
                )
            )
    return out


_RANGE = re.compile(r"\b(?:from|between) (-?\d+(?:\.\d+)?) (?:to|and) (-?\d+(?:\.\d+)?)\b")


_QUOTED = re.compile(r"`([^`]+)`|'([^']+)'|\"([^\"]+)\"")


def _listed_after(sentence: str, param: str) -> list[str]:
    """Quoted values in parentheses right after the parameter's name: "a reason (`a`, `b`)"."""
    for word in _param_words(param):
        m = re.search(rf"\b{re.escape(word)}\s*\(([^()]*)\)", sentence, re.IGNORECASE)
        if m is None:
            continue
        rest = _QUOTED.sub("", m.group(1))
        if re.sub(r",|\bor\b|\band\b|\s", "", rest):
            continue  # not only quoted values
        return [next(x for x in q if x) for q in _QUOTED.findall(m.group(1))]
    return []


def _param_words(param: str) -> list[str]:
    base = param.replace("_", " ")
    return [base, f"{base}s", f"{singular(base)}s"]


def _text_rules(spec: ToolSpec, sentence: str, source: str) -> list[DocRule]:
    """Range and enum rules a sentence states about one of the tool's parameters."""
    low = sentence.lower()
    props = spec.parameters.get("properties", {})
    out: list[DocRule] = []
    for param, prop in props.items():
        prop = prop or {}
        if not any(re.search(rf"\b{re.escape(w)}\b", low) for w in _param_words(param)):
            continue
        rng = _RANGE.search(low)
        if rng and prop.get("type") in ("integer", "number"):
            lo, hi = float(rng.group(1)), float(rng.group(2))
            out.append(
                DocRule(
                    tool=spec.name, kind="range", param=param, low=lo, high=hi,
                    sentence=sentence, source=source,  # type: ignore[arg-type]
                )
            )  # fmt: skip
        values = _listed_after(sentence, param)
        if len(values) >= 2 and prop.get("type") in (None, "string") and not prop.get("enum"):
            out.append(
                DocRule(
                    tool=spec.name, kind="enum", param=param, allowed=values,
                    sentence=sentence, source=source,  # type: ignore[arg-type]
                )
            )  # fmt: skip
    return out


def extract_rules(
    spec: ToolSpec,
    c: Scope,
    schema: StateSchema,
    policy: str | None = None,
    state: Any = None,
    stated: Mapping[str, Sequence[str]] | None = None,
) -> list[DocRule]:
    """Every precondition the docs state about ``spec`` (see the module docstring); status
    values come from the schema or, in data mode, from the records in ``state``, and from
    ``stated``, per collection the statuses the docs name (:func:`docs_statuses`)."""
    coll = schema.collection(c.collection) if c.collection else None
    rules = _schema_rules(spec)
    texts = [(s, "description") for s in sentences(spec.description)]
    texts += [(s, "policy") for s in sentences(policy or "")]
    write = c.cls not in READ_CLASSES
    records = record_words(schema)
    for sentence, source in texts:
        if coll is not None and c.cls == "create" and ONCE_ONLY.search(sentence):
            unique = _unique_rule(spec, c, coll, sentence, source)
            if unique is not None and (
                source == "description" or _action_named(_plain(sentence), spec, "", records)
            ):
                rules.append(unique)
        if coll is not None and c.key_param is not None and write:
            said = (stated or {}).get(coll.name, ())
            rule = _status_rule(spec, coll, c.key_param, sentence, source, state, said, records)
            if rule is not None:
                rules.append(rule)
        if source == "description" or _action_named(_plain(sentence), spec, "", records):
            rules += _text_rules(spec, sentence, source)
    return _dedupe(rules)


def _unique_rule(
    spec: ToolSpec, c: Scope, coll: CollectionSchema, sentence: str, source: str
) -> DocRule | None:
    names = {a.name for a in coll.attributes}
    fields = [p for p in spec.param_names if p in c.refs and p in names]
    if not fields:
        return None
    return DocRule(
        tool=spec.name, kind="unique", param=fields[0], collection=coll.name, fields=fields,
        sentence=sentence, source=source,  # type: ignore[arg-type]
    )  # fmt: skip


def _dedupe(rules: list[DocRule]) -> list[DocRule]:
    """One rule per (kind, param): the first stated wins; an allowed set beats a forbidden one."""
    out: dict[tuple[str, str], DocRule] = {}
    for rule in rules:
        key = (rule.kind, rule.param)
        have = out.get(key)
        if have is None or (have.kind == "status" and not have.allowed and rule.allowed):
            out[key] = rule
    return list(out.values())


def environment_rules(spec: EnvironmentSpec, state: Mapping[str, Any] | None = None) -> RuleSet:
    """The rules the docs and policy of ``spec`` state about its tools, extracted now (for an
    environment directory without ``rules.json``); status values from the schema or ``state``."""
    schema = spec.state_schema
    scopes = [(tool, tool_scope(tool, schema)) for tool in spec.tools]
    stated = docs_statuses([(t, sc.collection) for t, sc in scopes], spec.policy)
    rules = [
        rule
        for tool, scope in scopes
        for rule in extract_rules(tool, scope, schema, spec.policy, state, stated)
    ]
    return RuleSet(origin="extracted", rules=rules)


def rules_of(env: Any) -> RuleSet:
    """The rules of a loaded environment: those synthesis recorded (``rules.json``), else
    extracted from its spec and initial state by :func:`environment_rules`."""
    recorded = getattr(env, "recorded_rules", None)
    if isinstance(recorded, RuleSet):
        return recorded
    return environment_rules(env.spec, env.initial_state)


def dir_rules(env_dir: EnvDir) -> RuleSet:
    """The rules of an environment directory, without running its tools: ``rules.json``, else
    extracted from its spec and initial state."""
    recorded = env_dir.read_rules()
    if recorded is not None:
        return recorded
    parts = env_dir.read()
    return environment_rules(parts.spec, parts.initial_state)
