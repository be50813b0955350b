"""The user's side of a task: intent, question and persona, carrying only user-known facts.

The deterministic :class:`TemplateWriter` phrases the goals from the blueprint: one sentence per
state-changing call ("cancel the order with the highest total among the orders of your
account, reason: found_cheaper") and one question per required output ("how many orders
there are"). Selections made by reasoning nodes are described by their criterion, never by the
value they select, so the agent has to do the reasoning. An LLM writer plugs in through the
:class:`ScenarioWriter` protocol; whatever writes the text, :func:`missing_facts` checks that
every fact the blueprint needs appears in the scenario.
"""

from __future__ import annotations

import random
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Any, Protocol

from autoforge.env import EnvironmentSpec, StateSchema, tool_access
from autoforge.tasks.blueprint import (
    Binding,
    Blueprint,
    CallNode,
    FactRef,
    ListBinding,
    ObjectBinding,
    OutputRef,
    ReasoningRef,
    ReasonNode,
)
from autoforge.tasks.merge import user_collection
from autoforge.tasks.model import GoldCall, RequiredOutput, UserScenario
from autoforge.tasks.reasoning import CMP_WORDS, field_words
from autoforge.tasks.schema import Leaf, entity_of, names_record, output_leaves, singular

PERSONAS = (
    "You are polite and brief, and answer only what you are asked.",
    "You are in a hurry and want everything done in one go.",
    "You are detail-oriented and double-check what the agent tells you.",
    "You are friendly and chatty, but you stick to your request.",
    "You are a little unsure of yourself and ask the agent to confirm things.",
)


_OPENERS = ("Hi!", "Hello!", "Hi there.", "Good morning.", "")
#: Several phrasings per goal kind (a state change, a question), chosen per task seed.
_GOAL_PHRASES = (
    "I'd like to {g}.", "Could you {g}?", "Please {g}.", "I need to {g}.",
    "Can you help me {g}?", "I want to {g}.",
)  # fmt: skip
_ASK_PHRASES = (
    "Can you tell me {a}?", "I'd also like to know {a}.", "Could you check {a} for me?",
    "And please let me know {a}.",
)  # fmt: skip
#: Questions that open a request (nothing asked before them: no "also", no "and").
_FIRST_ASK_PHRASES = ("Can you tell me {a}?", "Could you check {a} for me?")
#: A detail the user adds that no sentence used (a reference a lookup needs).
_ASIDE_PHRASES = (
    "For reference, my {n} is {v}.", "My {n} is {v}, in case you need it.",
    "If it helps, the {n} is {v}.", "The {n} is {v}.",
)  # fmt: skip


@dataclass(frozen=True)
class ScenarioRequest:
    """What a writer may use: the spec, the blueprint and the user-known fact values.

    ``hidden``: renderings of values the agent must find out itself (required outputs, ids it
    looks up); a writer must not put them in the text (see :func:`hidden_values`).
    """

    spec: EnvironmentSpec
    blueprint: Blueprint
    facts: dict[str, Any]
    seed: int = 0
    hidden: tuple[str, ...] = ()


class ScenarioWriter(Protocol):
    """Writes a :class:`UserScenario` for a task; must mention every fact it is given."""

    name: str

    def write(self, request: ScenarioRequest) -> UserScenario:
        """The scenario (intent, question, persona, known/unknown info)."""
        ...


def fact_text(value: Any) -> str:
    """A fact value as the user would say it (an address as its parts, comma-separated)."""
    if isinstance(value, dict):
        return ", ".join(fact_text(v) for v in value.values() if v not in (None, ""))
    if isinstance(value, list):
        return ", ".join(fact_text(v) for v in value)
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, float):
        return f"{value:.2f}"
    return str(value)


_SNAKE = re.compile(r"^[a-z]+(?:_[a-z]+)+$")


def spoken(value: Any) -> str:
    """A fact as a person says it: ``found_cheaper`` -> ``found cheaper`` (the agent maps it
    back to the documented value), everything else as :func:`fact_text`."""
    text = fact_text(value)
    return text.replace("_", " ") if isinstance(value, str) and _SNAKE.match(value) else text


def _tokens(value: Any) -> Iterator[str]:
    if isinstance(value, dict):
        for v in value.values():
            yield from _tokens(v)
    elif isinstance(value, list):
        for v in value:
            yield from _tokens(v)
    elif value is not None and value != "":
        yield fact_text(value)


def missing_facts(scenario: UserScenario, facts: dict[str, Any]) -> list[str]:
    """Names of the facts whose value (every part of it) the scenario text does not contain
    (a ``snake_case`` value also counts when said in words: ``found cheaper``)."""
    text = f"{scenario.question}\n{scenario.known_info}".lower()
    loose = text.replace("_", " ")
    return [
        name
        for name, value in facts.items()
        if any(t.lower() not in text and t.lower().replace("_", " ") not in loose
               for t in _tokens(value))
    ]  # fmt: skip


def hidden_values(
    outputs: Iterable[RequiredOutput], calls: Iterable[GoldCall], facts: dict[str, Any]
) -> tuple[str, ...]:
    """What the agent must find out, as text: every rendering of each required output and
    every scalar argument of a gold call that is not a user fact (an order id the agent looks
    up). Booleans are left out (``yes``/``no`` are ordinary words)."""
    known = {t.lower() for value in facts.values() for t in _tokens(value)}
    found: dict[str, None] = {}
    for out in outputs:
        if not isinstance(out.value, bool):
            for text in (out.text, *out.alternatives):
                found[text] = None
    for call in calls:
        for value in _scalars(call.arguments):
            found[fact_text(value)] = None
    return tuple(t for t in found if t and t.lower() not in known)


def _scalars(value: Any) -> Iterator[str | int | float]:
    if isinstance(value, dict):
        for item in value.values():
            yield from _scalars(item)
    elif isinstance(value, list):
        for item in value:
            yield from _scalars(item)
    elif isinstance(value, str | int | float) and not isinstance(value, bool):
        yield value


def words(name: str) -> str:
    """``update_shipping_address`` -> ``update shipping address``."""
    return name.replace("_", " ").replace("-", " ").strip()


def label(name: str) -> str:
    """An argument's name as a person says it before a value: without a trailing ``id``
    (``payment_method_id`` -> ``payment method``, ``new_item_ids`` -> ``new item``); a bare
    ``id`` stays."""
    said = words(name).split()
    if len(said) > 1 and said[-1].lower() in ("id", "ids"):
        said = said[:-1]
    return " ".join(said)


def _listed_noun(tool: str) -> str:
    """What a listing tool lists, from its name without the verb: ``search_hotel_order`` ->
    ``hotel order``, ``search_books`` -> ``book``."""
    said = [w for w in words(tool).split()[1:] if w not in ("all", "by", "my")]
    if not said:
        return "result"
    return " ".join([*said[-2:-1], singular(said[-1])])


def _enumerate(parts: list[str]) -> str:
    """``a``, ``a and b``, ``a, b and c``."""
    return parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " and " + parts[-1]


class _Describer:
    """Noun phrases for bindings and calls of one blueprint, from the user's point of view."""

    def __init__(self, request: ScenarioRequest) -> None:
        self.spec = request.spec
        self.bp = request.blueprint
        self.facts = request.facts
        self.user = user_collection(request.spec.state_schema)
        #: each selection's full description -> its noun, for :func:`refer_back`
        self.selections: dict[str, str] = {}

    def fact(self, ref: FactRef, *, labelled: bool = False) -> str:
        """A fact as the user says it: ``order ORD-3``, or ``ORD-3`` after a label.

        ``labelled``: the text already names the field (``order id: ...``), so an entity id
        goes bare; "order id: order ORD-3" made a 1.5B agent call ``cancel_order("order ORD-3")``.
        """
        spec = self.bp.fact(ref.name)
        value = spoken(self.facts.get(ref.name))
        if spec.collection is not None and spec.collection == self.user:
            return "my account"
        if spec.role == "entity" and spec.collection and not labelled:
            return f"{singular(spec.collection)} {value}"
        return value

    def labelled(self, name: str, binding: Binding) -> str:
        """``the reason found_cheaper``: a field's words and its binding (no ``key: value``)."""
        value = self.binding(binding, labelled=True)
        node = self.bp.node(binding.node) if isinstance(binding, ReasoningRef) else None
        branch = isinstance(node, ReasonNode) and node.spec.op == "branch"
        return f"{label(name)} {value}" if isinstance(binding, FactRef) or branch else value

    def named(self, call: CallNode, entity: str | None) -> str:
        """A record found by a finder, named by what the user holds: ``the book "Orbitfall"``."""
        noun = singular(entity) if entity else "one"
        parts = []
        for name, binding in call.args.items():
            value = self.binding(binding)
            plain = names_record(name)
            parts.append(f'"{value}"' if plain else f"with {words(name)} {value}")
        return f"the {noun} " + " and ".join(parts)

    def identity(self) -> str:
        """``My email is ...``: the facts that identify the user, said up front."""
        parts = [
            f"my {words(f.attribute or f.name if f.role != 'entity' else f.name)} is "
            f"{fact_text(self.facts[f.name])}"
            for f in self.bp.facts
            if f.collection == self.user and f.role in ("entity", "attribute", "reference")
            and f.name in self.facts
        ]  # fmt: skip
        parts = list(dict.fromkeys(parts))  # the same detail reached by two lookups: once
        if not parts:
            return ""
        text = ", ".join(parts[:-1]) + (" and " if len(parts) > 1 else "") + parts[-1]
        return text[0].upper() + text[1:] + "."

    def binding(self, binding: Binding, *, labelled: bool = False) -> str:
        """A binding as a noun phrase (``labelled``: after a field name, see :meth:`fact`)."""
        if isinstance(binding, FactRef):
            return self.fact(binding, labelled=labelled)
        if isinstance(binding, ListBinding):
            return " and ".join(self.binding(b) for b in binding.items)
        if isinstance(binding, ObjectBinding):
            return ", ".join(self.labelled(k, b) for k, b in binding.fields.items())
        node = self.bp.node(binding.node)
        if isinstance(node, ReasonNode):
            return self.picked_part(node, binding.path)
        return self.output(node, OutputRef(node=binding.node, path=binding.path), labelled)

    def picked_part(self, node: ReasonNode, path: list[Any]) -> str:
        """A reasoning result, or a reference read off the record it picked: ``the shop of
        the invoice with the highest total among ...`` (not the invoice itself)."""
        said = self.reasoning(node)
        name = next((str(s) for s in reversed(path) if isinstance(s, str)), "")
        entity = entity_of(name, None, self.spec.state_schema) if name else None
        if entity is None or singular(entity) == node.noun or entity == self.user:
            return said
        return f"the {singular(entity)} of {said}"

    def subject(self, call: CallNode) -> str:
        """What a call is about: the entity it is keyed by, or its search criteria."""
        for name, binding in call.args.items():
            if entity_of(name, None, self.spec.state_schema) or isinstance(binding, FactRef):
                return self.binding(binding)
        return f"the {words(call.tool)} results"

    def output(self, call: CallNode, ref: OutputRef, labelled: bool = False) -> str:
        if not ref.path:
            return self.subject(call)
        name = next((str(s) for s in reversed(ref.path) if isinstance(s, str)), "")
        state = self.spec.state_schema
        entity = entity_of(name, None, state) if name else None
        if entity and entity == self.user:
            return "my account"
        if call.id.startswith("f") and entity is not None:  # a finder: named by what the
            return self.named(call, entity)  # user holds
        same = _entity_binding(call.args, entity, self.spec) if entity else None
        if same is not None:
            # the call's own subject: "order ORD-3", "the book ordered"
            return self.binding(same, labelled=labelled)
        leaf = next((x for x in output_leaves(self.spec.tool(call.tool), state)
                     if x.path == ".".join(str(p) for p in ref.path)), None)  # fmt: skip
        made = not _acts_on(call, leaf, state)  # else a reference held by the record acted on
        if tool_access(self.spec.tool(call.tool)) == "write" and (made or not entity):
            if entity:
                return f"the new {singular(entity)}"  # the record the request creates
            record = singular(leaf.record_of) if leaf and leaf.record_of else "result"
            return f"the {words(name)} of the {record} from the '{words(call.tool)}' request"
        noun = singular(entity) if entity else words(name or "result")
        subject = self.subject(call)
        return f"the {noun} on {subject}" if subject == "my account" else f"the {noun} of {subject}"

    def items(self, binding: Binding) -> str:
        if isinstance(binding, OutputRef):
            call = self.bp.node(binding.node)
            assert isinstance(call, CallNode)
            if binding.path:
                return f"the {field_words(binding.path)} of {self.subject(call)}"
            noun = _listed_noun(call.tool)
            if not call.args:
                return f"all the {noun}s you have"
            said = [self.labelled(k, b) for k, b in call.args.items()]
            own = {"my account", *(f"{label(k)} my account" for k in call.args)}
            mine = [c for c in said if c in own]
            criteria = _enumerate([c for c in said if c not in mine]) if len(mine) < len(
                said) else ""  # fmt: skip
            if mine:  # the user's own records: "the orders on my account (with ...)"
                return f"the {noun}s on my account" + (f" with {criteria}" if criteria else "")
            return f"the {noun}s with {criteria}"
        return self.binding(binding)

    def list_order(self, binding: Binding) -> str:
        """``oldest first`` / ``newest first`` when the docs say how a listed field is sorted."""
        if not isinstance(binding, OutputRef) or not binding.path:
            return ""
        call = self.bp.node(binding.node)
        if not isinstance(call, CallNode):
            return ""
        node: Any = self.spec.tool(call.tool).returns or {}
        for seg in binding.path:
            node = (node.get("properties") or {}).get(seg, {}) if isinstance(seg, str) else node
        text = str(node.get("description", "")).lower() if isinstance(node, dict) else ""
        if "oldest first" in text:
            return "oldest first"
        if "newest first" in text or "most recent first" in text:
            return "newest first"
        return ""

    def reasoning(self, node: ReasonNode) -> str:
        """A reasoning node in words; a selection's description is recorded so that a later
        mention of it can be said as a short reference (:func:`refer_back`)."""
        said = self._reasoning(node)
        spec = node.spec
        if spec.op in ("argmax", "argmin", "filter") or (
            spec.op == "lookup" and spec.field and isinstance(spec.field[0], int)
        ):
            self.selections[said] = node.noun
        return said

    def _reasoning(self, node: ReasonNode) -> str:
        spec, noun, inputs = node.spec, node.noun, node.inputs
        field = field_words(spec.field)
        if spec.op in ("argmax", "argmin"):
            best = "highest" if spec.op == "argmax" else "lowest"
            return f"the {noun} with the {best} {field} among {self.items(inputs['items'])}"
        if spec.op == "filter" and spec.take == "named":
            value = self.binding(inputs["value"])
            owner = self.items(inputs["items"]).rsplit(" of ", 1)[-1]
            said = f"the {value}" if names_record(field) else f"the {value} {noun}"
            return f"{said} {'on' if owner == 'my account' else 'in'} {owner}"
        if spec.op == "filter":
            value = self.binding(inputs["value"])
            cmp = CMP_WORDS[spec.cmp or "eq"]
            return f"the {noun} whose {field} {cmp} {value} among {self.items(inputs['items'])}"
        if spec.op == "lookup" and spec.field and isinstance(spec.field[0], int):
            order = self.list_order(inputs["value"])
            last = spec.field[0] == -1
            if order:
                which = "most recent" if (order == "oldest first") == last else "oldest"
                owner = self.items(inputs["value"]).rsplit(" of ", 1)[-1]
                return f"the {which} {noun} on {owner}" if owner == "my account" else (
                    f"the {which} {noun} of {owner}")  # fmt: skip
            which = "last" if last else "first"
            listed = self.items(inputs["value"])
            if listed.endswith(" of my account"):
                return f"the {which} {noun} listed on my account"
            return f"the {which} {noun} listed in {listed}"
        if spec.op == "lookup":
            return f"the {field} of {self.binding(inputs['value'])}"
        if spec.op == "count":
            items = self.items(inputs["items"])
            listed, _, owner = items.partition(" of ")
            if owner and listed.startswith("the ") and " among " not in listed:
                where = "on my account" if owner == "my account" else f"in {owner}"
                return f"how many {noun}s there are {where}"  # not "in the order ids of ..."
            if items.startswith((f"the {noun}s on ", f"the {noun}s with ")):
                return f"how many {noun}s there are {items.removeprefix(f'the {noun}s ')}"
            return f"how many {noun}s there are in {items}"
        if spec.op in ("sum", "average"):
            kind = "total" if spec.op == "sum" else "average"
            return f"the {kind} {field} of {self.items(inputs['items'])}"
        if spec.op == "compare":
            left, right = self.binding(inputs["left"]), self.binding(inputs["right"])
            return f"{left} {CMP_WORDS[spec.cmp or 'eq']} {right}"
        cond = self.bp.node(inputs["condition"].node)  # type: ignore[union-attr]
        assert isinstance(cond, ReasonNode)
        return (
            f"{self.binding(inputs['then'])} if {self.reasoning(cond)}, "
            f"otherwise {self.binding(inputs['else'])}"
        )

    def verb(self, tool: str) -> str:
        """A tool's name as the user's verb phrase: everyday verbs (``modify`` -> ``change``)
        and the user's own record as ``my`` (``modify user address`` -> ``change my
        address``), so the request does not spell the tool's name."""
        nouns = {singular(c.name) for c in self.spec.state_schema.collections}
        parts = verb_first(words(tool).split(), nouns)
        user = singular(self.user) if self.user else None
        parts = [_EVERYDAY.get(parts[0], parts[0]), *("my" if p == user else p
                                                        for p in parts[1:])]  # fmt: skip
        return " ".join(parts)

    def goal(self, call: CallNode) -> str:
        """What a state-changing call does, as a verb phrase in the user's words:
        ``cancel order ORD-3 with the reason found_cheaper``, ``place an order for ...``."""
        verb = self.verb(call.tool)
        subject, about, details, new_value = "", "", [], ""
        parts = self.parts(call)
        for name, binding in call.args.items():
            if name in parts:
                continue
            text = self.labelled(name, binding)
            if text in ("my account", f"{words(name)} my account", f"{label(name)} my account"):
                continue  # the user's own record: implied by who is asking
            entity = entity_of(name, None, self.spec.state_schema)
            if not subject and (entity or not isinstance(binding, FactRef)):
                subject, about = self.binding(binding), singular(entity) if entity else ""
            elif words(name).split()[-1] == verb.split()[-1] and not new_value:
                new_value = self.binding(binding)  # change the address ... to <the address>
            else:
                details.append(text)
        inner = verb.split()[1:-1]
        makes = verb_first(words(call.tool).split(), set())[0] in _CREATE_VERBS
        if subject and about in inner and makes:  # make hotel order -> make a new order for
            tail = verb.split()[inner.index(about) + 2 :]  # the hotel of ...
            subject, details = _same_as(subject, details)
            verb = f"{verb.split()[0]} a new {' '.join(tail)} for {subject}"
        elif subject and about in inner:  # change pending order address -> change the address
            tail = verb.split()[inner.index(about) + 2 :]  # of order #W1 (the record's part)
            verb = f"{verb.split()[0]} the {' '.join(tail)} of {subject}"
        elif subject:
            noun = verb.split(" ")[-1]
            if subject.startswith(noun + " ") and verb.endswith(noun):
                verb = f"{verb}{subject[len(noun) :]}"  # cancel order ORD-3
            elif " " in verb and re.match(rf"(the|my) ([\w-]+ ){{0,2}}{re.escape(noun)}\b",
                                          subject):  # fmt: skip
                verb = f"{verb.split(' ', 1)[0]} {subject}"  # cancel (pending) the last order
            elif len(verb.split()) == 2:  # place order -> place an order for ...
                head, noun = verb.split()
                verb = f"{head} {'an' if noun[0] in 'aeiou' else 'a'} {noun} for {subject}"
            elif len(verb.split()) > 2:  # change shipping address -> change the shipping
                head, rest = verb.split(" ", 1)  # address of order ORD-3
                verb = f"{head} the {rest} of {subject}"
            else:
                verb = f"{verb} for {subject}"
        if parts:  # address1, city, zip...: the parts of one value, said as one
            verb += " to " + self.said_as_one(call, parts)
        elif new_value:  # the value the named field gets
            verb += " to " + new_value
        if subject:  # the record is named once: "the Laptop", not "... among the items of it"
            details = [d.replace(f" in {subject}", "") for d in details]
        if details:
            verb += ", with " + _enumerate(details)
        return verb

    def said_as_one(self, call: CallNode, parts: list[str]) -> str:
        """The parts as one phrase: ``the address on my account`` when they are read from one
        object, else their values as one comma list."""
        first = call.args[parts[0]]
        if isinstance(first, OutputRef):
            return self.binding(OutputRef(node=first.node, path=first.path[:1]))
        return ", ".join(self.binding(call.args[n]) for n in parts)

    def parts(self, call: CallNode) -> list[str]:
        """The arguments that are parts of one value the user states (``address1, address2,
        city, state, country, zip``): three or more plain facts that name no record; empty
        otherwise. Said as one comma list ("to 12 Main St, Apt 3, Springfield, IL, US,
        62701"), not as "address1 ... and address2 ... and city ..."."""
        state = self.spec.state_schema
        names = []
        tops = {(b.node, b.path[0]) for b in call.args.values()
                if isinstance(b, OutputRef) and len(b.path) == 2}  # fmt: skip
        for node, top in tops:  # address1, city, zip read from one object: "my address"
            same = [n for n, b in call.args.items() if isinstance(b, OutputRef)
                    and len(b.path) == 2 and (b.node, b.path[0]) == (node, top)]  # fmt: skip
            if len(same) >= 3:
                return same
        for name, binding in call.args.items():
            if not isinstance(binding, FactRef) or entity_of(name, None, state):
                continue
            owner = self.bp.fact(binding.name).collection
            if (owner is None or owner != self.user) and isinstance(
                self.facts.get(binding.name), str
            ):  # the user's own details (their email) are said as who they are
                names.append(name)
        return names if len(names) >= 3 else []


def request_on(tool: str, collection: str, key: str) -> str:
    """A request to run ``tool`` on the record ``key`` of ``collection``, in the user's words
    and without its arguments (a request the policy refuses needs none):
    ``cancel_order`` -> ``cancel order ORD-3``; ``update_shipping_address`` -> ``change the
    shipping address of order ORD-3``."""
    noun = singular(collection).replace("_", " ")
    parts = verb_first(words(tool).split(), set(noun.split()))
    verb = [_EVERYDAY.get(parts[0], parts[0]), *parts[1:]]
    last = noun.split()[-1]
    if len(verb) == 1:
        return f"{verb[0]} {noun} {key}"
    if verb[-1] == last:
        return f"{' '.join(verb)} {key}"
    if last in verb[1:-1]:  # modify pending order address: the words after the record's noun
        verb = [verb[0], "the", *verb[verb.index(last, 1) + 1 :]]
        return f"{' '.join(verb)} of {noun} {key}"
    if len(verb) == 2:  # add review -> add a review for book B-1
        article = "an" if verb[1][0] in "aeiou" else "a"
        return f"{verb[0]} {article} {verb[1]} for {noun} {key}"
    return f"{verb[0]} the {' '.join(verb[1:])} of {noun} {key}"


#: Verbs of tool names and the everyday verb a person uses instead.
_EVERYDAY = {
    "modify": "change", "update": "change", "create": "make", "delete": "remove",
    "get": "look up", "retrieve": "look up", "fetch": "look up", "set": "change",
}  # fmt: skip


def refer_back(texts: list[str], selections: dict[str, str]) -> list[str]:
    """``texts`` (said in order) with each selection described once: a later mention of the
    selection said last for its noun becomes ``that <noun>`` ("pay the order whose date is
    2025-07-29 among my hotel orders" ... "cancel that order"), as a person refers back. A
    mention after another selection, a named record (``order ORD-7``) or a new record of the
    same noun stays in full, as ``that`` would be ambiguous there; the first mention, which
    states the facts, always does."""
    if not selections:
        return texts
    pattern = re.compile("|".join(re.escape(p) for p in sorted(selections, key=len, reverse=True)))
    said: set[str] = set()
    last: dict[str, str] = {}

    def note(phrase: str) -> None:
        forget(phrase)
        for inner in pattern.finditer(phrase, 1):  # selections inside it are described too
            said.add(inner.group())
            last[selections[inner.group()]] = inner.group()
        said.add(phrase)
        last[selections[phrase]] = phrase

    def forget(gap: str) -> str:
        for noun in [n for n in last if re.search(rf"\b{re.escape(n)} \S*\d", gap)]:
            del last[noun]  # "order ORD-7" named in between: "that order" is ambiguous
        return gap

    def swap(text: str) -> str:
        out: list[str] = []
        at = 0
        for match in pattern.finditer(text):
            gap = forget(text[at : match.start()])
            phrase, noun = match.group(), selections[match.group()]
            if phrase in said and last.get(noun) == phrase:
                out += [gap, f"that {noun}"]
            else:
                note(phrase)
                out += [gap, phrase]
            at = match.end()
        out.append(forget(text[at:]))
        for noun in [n for n in last if re.search(rf"\ba new {re.escape(n)}\b", text)]:
            del last[noun]  # after "make a new order", "that order" could be the new one
        return "".join(out)

    return [swap(text) for text in texts]


#: Common verbs of API operation names: a tool named ``<prefix>_cancel_book`` is asked with
#: "cancel" when its first word is none of these.
_API_VERBS = frozenset(_EVERYDAY) | {
    "add", "apply", "approve", "assign", "book", "buy", "cancel", "change", "check", "close",
    "confirm", "edit", "exchange", "find", "list", "make", "move", "open", "order", "pay",
    "place", "post", "purchase", "rate", "redeem", "refund", "register", "reject", "remove",
    "renew", "rent", "request", "reserve", "reset", "return", "review", "schedule", "search",
    "send", "submit", "subscribe", "track", "transfer", "unsubscribe", "upgrade",
}  # fmt: skip
#: First words of tool names that make a new record ("make a new order for ...").
_CREATE_VERBS = frozenset({"create", "make", "add", "place", "new", "open", "submit"})


def verb_first(parts: list[str], nouns: set[str]) -> list[str]:
    """A tool name's words with its verb first: ``instore cancel book`` -> ``cancel instore
    book`` when the first word is no common API verb and a later one is (a word that names a
    record of the environment, ``book`` among books, counts as a noun there)."""
    if not parts or parts[0] in _API_VERBS:
        return parts
    at = next((i for i, p in enumerate(parts[1:], 1) if p in _API_VERBS and p not in nouns), None)
    return parts if at is None else [parts[at], *parts[:at], *parts[at + 1 :]]


def _same_as(subject: str, details: list[str]) -> tuple[str, list[str]]:
    """Parts read off one record, said once: ``the hotel of P`` with the detail ``the room of
    P`` -> ``the same hotel and room as P`` (the other details stay)."""
    head, sep, record = subject.partition(" of ")
    if not sep or not head.startswith("the "):
        return subject, details
    same = [d for d in details if d.startswith("the ") and d.endswith(f" of {record}")
            and " of " not in d[4 : -len(record) - 4]]  # fmt: skip
    if not same:
        return subject, details
    parts = [head[4:], *(d[4 : -len(record) - 4] for d in same)]
    rest = [d for d in details if d not in same]
    return f"the same {_enumerate(parts)} as {record}", rest


def _acts_on(call: CallNode, leaf: Leaf | None, state: StateSchema) -> bool:
    """Whether a write returns a record it was given the key of (a payment returns the order
    it paid), so that a field of its result is that record's (``the shop of invoice X``), not
    one of a record the request creates."""
    coll = state.collection(leaf.record_of) if leaf is not None and leaf.record_of else None
    return coll is not None and coll.primary_key in call.args


def _entity_binding(args: dict[str, Binding], entity: str, spec: EnvironmentSpec) -> Binding | None:
    """The (possibly nested) argument binding that holds a key of ``entity``, if any."""
    for name, binding in args.items():
        if isinstance(binding, ListBinding):
            for item in binding.items:
                if isinstance(item, ObjectBinding):
                    found = _entity_binding(item.fields, entity, spec)
                    if found is not None:
                        return found
        elif isinstance(binding, ObjectBinding):
            found = _entity_binding(binding.fields, entity, spec)
            if found is not None:
                return found
        elif entity_of(name, None, spec.state_schema) == entity:
            return binding
    return None


class TemplateWriter:
    """The deterministic writer: template sentences from the blueprint, no LLM."""

    name = "template"

    def write(self, request: ScenarioRequest) -> UserScenario:
        """Intent, question and known info for the task of ``request``."""
        describe = _Describer(request)
        bp = request.blueprint
        writes = [c for c in bp.calls if tool_access(request.spec.tool(c.tool)) == "write"]
        goals = [describe.goal(c) for c in writes]
        asks = [describe.binding(ReasoningRef(node=o)) for o in bp.outputs]
        said = refer_back(goals + asks, describe.selections)
        goals, asks = said[: len(goals)], said[len(goals) :]
        rng = random.Random(request.seed)
        steps = goals + [f"find out {a}" for a in asks]
        intent = "You want the agent to " + "; then ".join(steps) + "."
        intent = intent.replace(" my ", " your ").replace(" me ", " you ")
        lines = [rng.choice(_GOAL_PHRASES).format(g=g) for g in goals]
        lines += [rng.choice(_ASK_PHRASES if lines else _FIRST_ASK_PHRASES).format(a=a)
                  for a in asks]  # fmt: skip
        known = [spoken(v) for v in request.facts.values()]
        opener = rng.choice(_OPENERS)
        question = " ".join(filter(None, [opener, describe.identity(), *lines]))
        leftover = [k for k, v in request.facts.items() if k in missing_facts(
            UserScenario(intent=intent, question=question), {k: v})]  # fmt: skip
        if leftover:
            asides = rng.sample(_ASIDE_PHRASES, len(_ASIDE_PHRASES))  # a new phrase for each
            question += " " + " ".join(
                asides[i % len(asides)].format(n=words(n), v=fact_text(request.facts[n]))
                for i, n in enumerate(leftover)
            )
        unknown = _unknown(bp, describe)
        persona = random.Random(request.seed).choice(PERSONAS)
        if describe.user:
            persona = persona.replace("You are", f"You are a {singular(describe.user)},", 1)
        return UserScenario(
            intent=intent, question=question, persona=persona,
            known_info="; ".join(known), unknown_info=unknown, writer=self.name,
        )  # fmt: skip


def _unknown(bp: Blueprint, describe: _Describer) -> str | None:
    """What the user does not know: the entities the agent must find by reasoning."""
    selecting = ("argmax", "argmin", "filter", "lookup")
    nouns = sorted(
        {n.noun for n in bp.reasoning if n.spec.op in selecting and n.id not in bp.outputs}
    )
    if not nouns:
        return None
    return "You do not know the ids of the " + ", ".join(f"{n}s" for n in nouns) + " involved."
