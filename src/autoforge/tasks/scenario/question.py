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
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from autoforge.env import EnvironmentSpec, StateSchema
from autoforge.lexicon import (
    CREATE_VERBS,
    EVERYDAY,
    QUOTED_STOP,
    Leaf,
    api_prefix,
    entity_of,
    enumerate_words,
    envelope_of,
    field_said,
    label,
    listed_noun,
    names_record,
    output_leaves,
    quoted,
    record_noun,
    refer_back,
    same_as,
    singular,
    tool_access,
    tool_scope,
    updates,
    verb_first,
    with_preposition,
    without_prefix,
    words,
)
from autoforge.lexicon import request_on as request_on
from autoforge.tasks.blueprints.blueprint import (
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
from autoforge.tasks.blueprints.reasoning import CMP_WORDS, field_words
from autoforge.tasks.graph.merge import user_collection
from autoforge.tasks.model import UserScenario
from autoforge.tasks.scenario.spoken import fact_text, missing_facts, spoken
from autoforge.tasks.states.domain import enum_from_text
from autoforge.tooldocs import plural

PERSONAS = (
    "You are polite and brief, and answer only what you are asked.",
    "You are in a hurry and want everything done in one go.",
    "You are detail-oriented and double-check what the agent tells you.",
    "You are friendly and chatty, but you stick to your request.",
    "You are a little unsure of yourself and ask the agent to confirm things.",
)


#: How a comparison on the date of an event reads ("created before 2025-01-01").
_EVENT_CMP = {"eq": "on", "lt": "before", "gt": "after", "le": "on or before", "ge": "on or after"}


def dated_event(path: Sequence[Any]) -> str:
    """The event a date field records, as its participle (``created_on`` -> ``created``,
    ``occurred_at`` -> ``occurred``), or ``""``. Why: "the comment whose created on is X" names
    the field, where a person says "the comment created on X"."""
    last = str(path[-1]) if path and not isinstance(path[-1], int) else ""
    found = re.fullmatch(r"([a-z]+ed)_(on|at|date)", last.lower())
    if not found:
        return ""
    verb = found.group(1)
    return f"that {verb}" if verb in _HAPPENED else verb  # "the event that occurred on X"


#: Participles of verbs that take no object: a record does them ("the event that occurred"),
#: nothing is done to it ("the comment created on X").
_HAPPENED = frozenset({"occurred", "happened", "arrived", "departed", "expired", "ended",
                       "lapsed", "elapsed", "failed", "landed"})  # fmt: skip


#: Last words of parameter names whose documented values say why the user asks.
MOTIVES = frozenset({"reason", "reasons", "cause", "note", "comment", "remark", "motive"})
#: Between a goal and a sentence said after it ("My reason is no longer needed.").
WHY = "\x00"

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
    ``described``: facts said by what sets their record apart instead of by value (an id
    the user would not know: ``color blue``,
    :func:`~autoforge.tasks.blueprints.alike.described_facts`).
    """

    spec: EnvironmentSpec
    blueprint: Blueprint
    facts: dict[str, Any]
    seed: int = 0
    hidden: tuple[str, ...] = ()
    described: dict[str, str] = field(default_factory=dict)


class ScenarioWriter(Protocol):
    """Writes a :class:`UserScenario` for a task; must mention every fact it is given."""

    name: str

    def write(self, request: ScenarioRequest) -> UserScenario:
        """The scenario (intent, question, persona, known/unknown info)."""
        ...


@dataclass
class _GoalArgs:
    """The arguments of a state-changing call, sorted by how :meth:`_Describer.goal` says
    them."""

    subject: str = ""  # the record acted on, said once
    about: str = ""  # the subject's collection (singular), when it is one
    new_value: str = ""  # the value the field the verb names gets ("change the address to")
    details: list[str] = field(default_factory=list)  # said after ", with"
    plain: list[str] = field(default_factory=list)  # the argument names of those details
    reasons: list[str] = field(default_factory=list)  # a stated why, said after the request


class _Describer:
    """Noun phrases for bindings and calls of one blueprint, from the user's point of view."""

    def __init__(self, request: ScenarioRequest) -> None:
        self.spec = request.spec
        self.bp = request.blueprint
        self.facts = request.facts
        self.described = request.described
        self.user = user_collection(request.spec.state_schema)
        #: the API's own name in front of every tool name, which a person does not say
        self.prefix = api_prefix([t.name for t in request.spec.tools])
        #: each selection's full description -> its noun, for :func:`refer_back`
        self.selections: dict[str, str] = {}
        #: each reasoning node's description, said the same way at every mention
        self._said: dict[str, str] = {}

    def named_tool(self, tool: str) -> str:
        """``tool``'s name as the request says it: without the API's name in front."""
        return without_prefix(tool, self.prefix)

    def fact(self, ref: FactRef, *, labelled: bool = False) -> str:
        """A fact as the user says it: ``order ORD-3``, or ``ORD-3`` after a label.

        ``labelled``: the text already names the field (``order id: ...``), so an entity id
        goes bare; "order id: order ORD-3" made a 1.5B agent call ``cancel_order("order ORD-3")``.
        """
        spec = self.bp.fact(ref.name)
        if ref.name in self.described:  # "the one with color blue"
            return f"the one with {self.described[ref.name]}"
        value = spoken(self.facts.get(ref.name))
        if self.is_mine(ref):
            return "my account"
        if spec.role == "entity" and spec.collection and not labelled:
            return f"{record_noun(spec.collection)} {value}"
        return value

    def is_mine(self, ref: FactRef) -> bool:
        """Whether a fact names the user's own record: its key, or the value a finder takes
        to find it. An ``attribute`` fact is a value to search by (a role several records
        share, see :meth:`~autoforge.tasks.blueprints.facts.FactChooser.record`): "the members
        with role qa", not "my members"."""
        spec = self.bp.fact(ref.name)
        return spec.collection is not None and spec.collection == self.user and spec.role in (
            "entity", "reference")  # fmt: skip

    def labelled(self, name: str, binding: Binding) -> str:
        """``the reason found_cheaper``: a field's words and its binding (no ``key: value``)."""
        if isinstance(binding, FactRef) and binding.name in self.described:
            return f"a {label(name)} ({self.described[binding.name]})"  # "a new item (color red)"
        value = self.binding(binding, labelled=True)
        node = self.bp.node(binding.node) if isinstance(binding, ReasoningRef) else None
        branch = isinstance(node, ReasonNode) and node.spec.op == "branch"
        return f"{label(name)} {quoted(value)}" if isinstance(binding, FactRef) or branch else value

    def named(self, call: CallNode, entity: str | None) -> str:
        """A record found by a finder, named by what the user holds: ``the book "Orbitfall"``."""
        noun = record_noun(entity) if entity else "one"
        parts = []
        for name, binding in call.args.items():
            if entity and not isinstance(binding, FactRef) and entity_of(
                    name, None, self.spec.state_schema) == entity:  # fmt: skip
                return self.binding(binding)  # its key picked by a condition: that condition
            value = self.binding(binding)
            plain = names_record(name)
            parts.append(f'"{value}"' if plain else f"with {words(name)} {quoted(value)}")
        said = f"the {noun} " + " and ".join(parts)
        if entity:  # said again, it is "that book" (:func:`refer_back`)
            self.selections[said] = noun
        return said

    def identity(self) -> str:
        """``My email is ...``: the facts that identify the user, said up front."""
        parts = [
            f"my {words(f.attribute or f.name if f.role != 'entity' else f.name)} is "
            f"{fact_text(self.facts[f.name])}"
            for f in self.bp.facts
            if self.is_mine(FactRef(name=f.name)) and f.name in self.facts
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
        return f"the {record_noun(entity)} of {said}"

    def subject(self, call: CallNode) -> str:
        """What a call is about: the entity it is keyed by, or its search criteria."""
        for name, binding in call.args.items():
            if entity_of(name, None, self.spec.state_schema) or isinstance(binding, FactRef):
                return self.binding(binding)
        return f"the {words(self.named_tool(call.tool))} results"

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
        holder = state.collection(leaf.record_of) if leaf is not None and leaf.record_of else None
        reads = tool_access(self.spec.tool(call.tool)) != "write"
        if holder is not None and holder.primary_key == name and reads:
            return self.subject(call)  # the key of the record read: the record itself
        if tool_access(self.spec.tool(call.tool)) == "write" and (made or not entity):
            if entity:
                return f"the new {record_noun(entity)}"  # the record the request creates
            if leaf is None or not leaf.record_of:
                return f"the resulting {words(name)}"  # "if the resulting total is ..."
            if made:  # a field of the record the request creates
                return f"the {words(name)} of the new {record_noun(leaf.record_of)}"
            return f"the {words(name)} of {self.subject(call)}"  # of the record acted on
        noun = record_noun(entity) if entity else words(name or "result")
        subject = self.subject(call)
        return f"the {noun} on {subject}" if subject == "my account" else f"the {noun} of {subject}"

    def items(self, binding: Binding) -> str:
        """A list as a noun phrase: ``my hotel orders``, ``my orders with status paid``,
        ``the books with genre fantasy``, ``the items of order ORD-3``."""
        if isinstance(binding, OutputRef):
            call = self.bp.node(binding.node)
            assert isinstance(call, CallNode)
            if binding.path and not self.enveloped(call, binding.path):
                return f"the {field_words(binding.path)} of {self.subject(call)}"
            noun = listed_noun(self.named_tool(call.tool))
            if not call.args:
                own = self.own_noun(binding)
                return f"all my {plural(own)}" if own else f"all the {plural(noun)} you have"
            said = [self.labelled(k, b) for k, b in call.args.items()]
            own_args = {"my account", *(f"{label(k)} my account" for k in call.args)}
            mine = [c for c in said if c in own_args]
            criteria = enumerate_words([c for c in said if c not in mine]) if len(mine) < len(
                said) else ""  # fmt: skip
            if mine:  # the user's own records: "my orders (with ...)"
                listed = f"my {plural(self._unowned(noun))}"
                return listed + (f" with {criteria}" if criteria else "")
            return f"the {plural(noun)} with {criteria}"
        return self.binding(binding)

    def own_noun(self, binding: Binding) -> str | None:
        """What a list of the user's own records, and nothing else, holds, as the noun said
        after "my": ``hotel order`` for ``search_hotel_order(<the user's key>)``, ``order``
        for an argument-less ``get_user_orders`` (named after the user's collection); None
        for any other list (a catalogue, a search with criteria, a part of one record)."""
        if not isinstance(binding, OutputRef):
            return None
        call = self.bp.node(binding.node)
        if not isinstance(call, CallNode) or (
            binding.path and not self.enveloped(call, binding.path)
        ):
            return None
        noun = listed_noun(self.named_tool(call.tool))
        if call.args:
            own = {"my account", *(f"{label(k)} my account" for k in call.args)}
            if any(self.labelled(k, b) not in own for k, b in call.args.items()):
                return None
            return self._unowned(noun)
        user = singular(self.user) if self.user else None
        return self._unowned(noun) if user and user in noun.split()[:-1] else None

    def enveloped(self, call: CallNode, path: list[Any]) -> bool:
        """Whether ``path`` is the field a list's documented reply holds its records (or their
        keys) in (``{"Kilns": [...]}``): the list itself, said by its records, not the field."""
        tool = self.spec.tool(call.tool)
        state = self.spec.state_schema
        scope = tool_scope(tool, state)
        coll = state.collection(scope.collection) if scope.collection else None
        env = envelope_of(tool.returns, coll, many=scope.cls == "list")
        return env is not None and env.kind != "record" and list(path) == [env.field]

    def _unowned(self, noun: str) -> str:
        """A listed noun without the user's collection in it (``user order`` -> ``order``):
        "my" says whose they are."""
        user = singular(self.user) if self.user else None
        rest = [w for w in noun.split() if w != user]
        return " ".join(rest) if rest else noun

    def mine(self, noun: str, binding: Binding) -> str | None:
        """The noun a record picked from a list of the user's own records goes by, after
        "my": the list's own noun when it names the same kind (``hotel order`` for an
        ``order``), else the record's; None when the list is not the user's own."""
        own = self.own_noun(binding)
        if own is None:
            return None
        return own if own.split()[-1] == noun.split()[-1] else noun

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
        said = self._said.get(node.id) or self._reasoning(node)
        self._said[node.id] = said
        spec = node.spec
        if spec.op in ("argmax", "argmin", "filter") or (
            spec.op == "lookup" and spec.field and isinstance(spec.field[0], int)
        ):
            self.selections[said] = words(node.noun)
        return said

    def _reasoning(self, node: ReasonNode) -> str:
        """:meth:`reasoning` before it is recorded: each operator said its own way."""
        spec, inputs = node.spec, node.inputs
        field = field_words(spec.field)
        if spec.op in ("argmax", "argmin", "filter"):
            return self._choice(node)
        if spec.op == "lookup" and spec.field and isinstance(spec.field[0], int):
            return self._position(node)
        if spec.op == "lookup":
            event = dated_event(spec.field)  # "the date task T-1 was created"
            if event:
                done = event[5:] if event.startswith("that ") else f"was {event}"
                return f"the date {self.binding(inputs['value'])} {done}"
            return f"the {field} of {self.binding(inputs['value'])}"
        if spec.op == "count":
            return self._count(node)
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

    def _choice(self, node: ReasonNode) -> str:
        """An ``argmax``, ``argmin`` or ``filter`` node: the item chosen, by its best field, by
        its name, or by a condition on a field."""
        spec, noun, inputs = node.spec, words(node.noun), node.inputs
        field = field_words(spec.field)
        event = dated_event(spec.field)
        if spec.op in ("argmax", "argmin") and event:  # "the comment created most recently"
            when = "most recently" if spec.op == "argmax" else "first"
            mine = self.mine(noun, inputs["items"])
            if mine:
                return f"my {mine} {event} {when}"
            return f"the {noun} {event} {when} among {self.items(inputs['items'])}"
        if spec.op in ("argmax", "argmin"):
            best = "highest" if spec.op == "argmax" else "lowest"
            mine = self.mine(noun, inputs["items"])
            if mine:  # "my hotel order with the lowest quantity"
                return f"my {mine} with the {best} {field}"
            return f"the {noun} with the {best} {field} among {self.items(inputs['items'])}"
        if spec.take == "named":
            value = self.binding(inputs["value"])
            owner = self.items(inputs["items"]).rsplit(" of ", 1)[-1]
            said = f"the {value}" if names_record(field) else f"the {value} {noun}"
            return f"{said} {'on' if owner == 'my account' else 'in'} {owner}"
        value = quoted(self.binding(inputs["value"]))
        cmp = CMP_WORDS[spec.cmp or "eq"]
        condition = f"whose {field} {cmp} {value}"
        if field == "date" and cmp == "is":  # "my order dated 2024-03-12"
            condition = f"dated {value}"
        elif event and spec.cmp in _EVENT_CMP:  # "the event that occurred on 2025-02-06"
            condition = f"{event} {_EVENT_CMP[spec.cmp]} {value}"
        mine = self.mine(noun, inputs["items"])
        if mine:  # "my hotel order whose status is paid"
            return f"my {mine} {condition}"
        return f"the {noun} {condition} among {self.items(inputs['items'])}"

    def _position(self, node: ReasonNode) -> str:
        """A ``lookup`` of the first or last item of a list: by age when the list's documented
        order says which end is newest, else by its place in the listing."""
        noun, inputs = words(node.noun), node.inputs
        order = self.list_order(inputs["value"])
        last = node.spec.field[0] == -1
        if order:
            which = "most recent" if (order == "oldest first") == last else "oldest"
            owner = self.items(inputs["value"]).rsplit(" of ", 1)[-1]
            return (
                f"my {which} {noun}" if owner == "my account" else f"the {which} {noun} of {owner}"
            )
        which = "last" if last else "first"
        listed = self.items(inputs["value"])
        if listed.endswith(" of my account"):
            return f"the {which} {noun} listed on my account"
        return f"the {which} {noun} listed in {listed}"

    def _count(self, node: ReasonNode) -> str:
        """A ``count`` node as "how many ... I have" or "how many ... there are ..."."""
        noun, inputs = words(node.noun), node.inputs
        own = self.own_noun(inputs["items"])
        if own is not None:  # "how many hotel orders I have"
            return f"how many {plural(own)} I have"
        items = self.items(inputs["items"])
        if items.startswith("my "):  # "how many orders with status paid I have"
            return f"how many {items[3:]} I have"
        if items == f"all the {plural(noun)} you have":
            return f"how many {plural(noun)} you have"
        listed, _, owner = items.partition(" of ")
        if owner and listed.startswith("the ") and " among " not in listed:
            where = "on my account" if owner == "my account" else f"in {owner}"
            return f"how many {plural(noun)} there are {where}"  # not "in the order ids of ..."
        if items.startswith((f"the {plural(noun)} on ", f"the {plural(noun)} with ")):
            rest = items.removeprefix(f"the {plural(noun)} ")
            return f"how many {plural(noun)} there are {rest}"
        return f"how many {plural(noun)} there are in {items}"

    def for_me(self, call: CallNode) -> bool:
        """Whether a call acts on the user's own record of the user's collection: it names
        no record of that collection, or names the user's (a member picked from a list is
        another person: "add a new member", not "add a new my")."""
        state = self.spec.state_schema
        user = self.user
        named = [b for k, b in call.args.items() if user and entity_of(k, None, state) == user]
        return all(self._names_me(b) for b in named)

    def _names_me(self, binding: Binding) -> bool:
        """A user fact naming the user, or a value read off a record where :meth:`output`
        says "my account"; a record picked by reasoning is someone else's."""
        if isinstance(binding, FactRef):
            return self.is_mine(binding)
        if isinstance(binding, OutputRef) and binding.path:
            name, state = str(binding.path[-1]), self.spec.state_schema
            if entity_of(name, None, state) == self.user:
                return True
            user = state.collection(self.user) if self.user else None
            call = self.bp.node(binding.node)
            if user is None or not isinstance(call, CallNode) or name != user.primary_key:
                return False
            if tool_scope(self.spec.tool(call.tool), state).collection != user.name:
                return False
            same = _entity_binding(call.args, user.name, self.spec)
            return same is not None and self._names_me(same)  # the key of the user's record read
        return False

    def verb(self, tool: str, *, mine: bool = True) -> str:
        """A tool's name as the user's verb phrase: everyday verbs (``modify`` -> ``change``)
        and, when ``mine``, the user's own record as ``my`` (``modify user address`` ->
        ``change my address``), so the request does not spell the tool's name."""
        nouns = {singular(c.name) for c in self.spec.state_schema.collections}
        parts = verb_first(words(self.named_tool(tool)).split(), nouns)
        user = singular(self.user) if self.user and mine else None
        parts = [EVERYDAY.get(parts[0], parts[0]), *("my" if p == user else p
                                                        for p in parts[1:])]  # fmt: skip
        return " ".join(parts)

    def goal(self, call: CallNode) -> str:
        """What a state-changing call does, as a verb phrase in the user's words:
        ``cancel order ORD-3 with the reason found_cheaper``, ``place an order for ...``."""
        verb = self.verb(call.tool, mine=self.for_me(call))
        parts = self.parts(call)
        args = self._goal_args(call, verb, parts)
        if args.subject:
            verb = self._act_on(call, verb, args)
        if parts:  # address1, city, zip...: the parts of one value, said as one
            verb += " to " + self.said_as_one(call, parts)
        elif args.new_value:  # the value the named field gets
            verb += " to " + args.new_value
        details = args.details
        if args.subject:  # the record is named once: "the Laptop", not "... among the items of it"
            details = [d.replace(f" in {args.subject}", "") for d in details]
        if details:
            verb += ", with " + enumerate_words(details)
        verb = with_preposition(verb)
        return verb + "".join(f"{WHY}{r}" for r in args.reasons)  # said after the request

    def _goal_args(self, call: CallNode, verb: str, parts: list[str]) -> _GoalArgs:
        """The arguments of ``call`` (but the ``parts`` of one value) sorted by how :meth:`goal`
        says them: the record acted on, the new value of the field the verb names, a stated
        why, or a detail; the user's own record is left out (implied by who is asking)."""
        args = _GoalArgs()
        for name, binding in call.args.items():
            if name in parts:
                continue
            text = self.labelled(name, binding)
            if text in ("my account", f"{words(name)} my account", f"{label(name)} my account"):
                continue  # the user's own record: implied by who is asking
            if self.motive(name, binding):  # said after: "My reason is no longer needed."
                said = quoted(self.binding(binding, labelled=True))
                args.reasons.append(f"my {label(name)} is {said}")
                continue
            entity = entity_of(name, None, self.spec.state_schema)
            if not args.subject and (entity or not isinstance(binding, FactRef)):
                args.subject = self.binding(binding)
                args.about = record_noun(entity) if entity else ""
            elif words(name).split()[-1] == verb.split()[-1] and not args.new_value:
                args.new_value = self.binding(binding)  # change the address ... to <the address>
            else:
                args.details.append(text)
                args.plain.append(name)
        return args

    def _act_on(self, call: CallNode, verb: str, args: _GoalArgs) -> str:
        """``verb`` with the record it acts on (``args.subject``) put in: ``cancel order ORD-3``,
        ``place an order for ...``, ``change the address of ...``. A single detail of an update
        becomes the field changed (``args.details`` and ``args.new_value`` change with it)."""
        subject, about, details = args.subject, args.about, args.details
        inner = verb.split()[1:-1]
        makes = verb_first(words(self.named_tool(call.tool)).split(), set())[0] in CREATE_VERBS
        at = _at(inner, about)
        if at is not None and makes:  # make hotel order -> make a new order for
            tail = verb.split()[at + 1 + len(about.split()) :]  # the hotel of ...
            args.subject, args.details = same_as(subject, details)
            return f"{verb.split()[0]} a new {' '.join(tail)} for {args.subject}"
        if makes and len(verb.split()) > 2 and re.match(r"the \w+ of ", subject):
            args.subject, args.details = same_as(subject, details)  # make shop order -> make a
            head, rest = verb.split(" ", 1)  # new shop order for the same shop and product as ...
            return f"{head} a new {rest} for {args.subject}"
        if len(args.plain) == 1 == len(details) and not args.new_value and updates(call.tool):
            name = args.plain[0]  # change order X, with note N -> change the note of X to N
            verb = f"{verb.split()[0]} the {field_said(name)} of {subject}"
            bound = call.args[name]  # a stated value may be free text; a description is not
            new_value = self.binding(bound, labelled=True)
            args.new_value = quoted(new_value) if isinstance(bound, FactRef) else new_value
            args.details = []
            return verb
        if at is not None:  # change pending order address -> change the address
            tail = verb.split()[at + 1 + len(about.split()) :]  # of order #W1 (its part)
            return f"{verb.split()[0]} the {' '.join(tail)} of {subject}"
        if about and verb.endswith(" " + about) and subject.startswith(about + " "):
            return f"{verb}{subject[len(about) :]}"  # remove named query Q-1
        noun = verb.split(" ")[-1]
        if subject.startswith(noun + " ") and verb.endswith(noun):
            return f"{verb}{subject[len(noun) :]}"  # cancel order ORD-3
        if " " in verb and re.match(rf"(the|my) ([\w-]+ ){{0,2}}{re.escape(noun)}\b", subject):
            return f"{verb.split(' ', 1)[0]} {subject}"  # cancel (pending) the last order
        if len(verb.split()) == 2:  # place order -> place an order for ...
            head, noun = verb.split()
            return f"{head} {'an' if noun[0] in 'aeiou' else 'a'} {noun} for {subject}"
        if len(verb.split()) > 2:  # change shipping address -> change the shipping
            head, rest = verb.split(" ", 1)  # address of order ORD-3
            return f"{head} the {rest} of {subject}"
        return f"{verb} for {subject}"

    def motive(self, name: str, binding: Binding) -> bool:
        """Whether an argument is the user's stated why: one of a documented list of values
        (an enum, or values its description lists) for a parameter named like a reason or
        remark (``reason``, ``cancel_reason``, ``note``), said after the request ("... cancel
        that order? My reason is no longer needed."), not as "with reason no longer needed"."""
        if not isinstance(binding, FactRef) or not label(name):
            return False
        fact = self.bp.fact(binding.name)
        listed = fact.json_schema.get("enum") or enum_from_text(fact.description)
        return bool(listed) and label(name).split()[-1] in MOTIVES

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


def _at(said: list[str], phrase: str) -> int | None:
    """Where the words of ``phrase`` start in ``said`` (None: they do not occur in a row)."""
    parts = phrase.split()
    for i in range(len(said) - len(parts) + 1):
        if parts and said[i : i + len(parts)] == parts:
            return i
    return None


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
        steps = [g.replace(WHY, ", as ") for g in goals] + [f"find out {a}" for a in asks]
        intent = _INTENT + _THEN.join(steps) + "."
        intent = intent.replace(" my ", " your ").replace(" me ", " you ")
        lines = [_goal_line(rng.choice(_GOAL_PHRASES), g) for g in goals]
        lines += [rng.choice(_ASK_PHRASES if lines else _FIRST_ASK_PHRASES).format(a=a)
                  for a in asks]  # fmt: skip
        described = request.described
        known = [described.get(k) or spoken(v) for k, v in request.facts.items()]
        opener = rng.choice(_OPENERS)
        question = " ".join(filter(None, [opener, describe.identity(), *lines]))
        question = QUOTED_STOP.sub(r"\1", question)  # 'to "Ring twice."' ends the sentence
        leftover = [k for k, v in request.facts.items() if k not in described
                    and k in missing_facts(UserScenario(intent=intent, question=question),
                                           {k: v})]  # fmt: skip
        if leftover:
            asides = rng.sample(_ASIDE_PHRASES, len(_ASIDE_PHRASES))  # a new phrase for each
            question += " " + " ".join(
                asides[i % len(asides)].format(n=words(n), v=fact_text(request.facts[n]))
                for i, n in enumerate(leftover)
            )
        unknown = _unknown(bp, describe)
        persona = random.Random(request.seed).choice(PERSONAS)
        if describe.user:
            persona = persona.replace("You are", f"You are a {record_noun(describe.user)},", 1)
        return UserScenario(
            intent=intent, question=question, persona=persona,
            known_info="; ".join(known), unknown_info=unknown, writer=self.name,
        )  # fmt: skip


_INTENT, _THEN = "You want the agent to ", "; then "


def intent_steps(intent: str) -> list[str]:
    """The steps of an intent the template writer wrote ("You want the agent to A; then B."),
    for the gate that rejects a request asking for the same thing twice; a rewritten intent
    that does not follow that form is one step."""
    return intent.removeprefix(_INTENT).removesuffix(".").split(_THEN)


def _goal_line(phrase: str, goal: str) -> str:
    """``phrase`` with ``goal``, and what the user says after it (:data:`WHY`) as sentences
    of their own ("Could you cancel that order? My reason is no longer needed.")."""
    request, *after = goal.split(WHY)
    return " ".join([phrase.format(g=request), *(f"{a[0].upper()}{a[1:]}." for a in after)])


def _unknown(bp: Blueprint, describe: _Describer) -> str | None:
    """What the user does not know: the entities the agent must find by reasoning."""
    selecting = ("argmax", "argmin", "filter", "lookup")
    nouns = sorted(
        {words(n.noun) for n in bp.reasoning if n.spec.op in selecting and n.id not in bp.outputs}
    )
    if not nouns:
        return None
    return "You do not know the ids of the " + ", ".join(plural(n) for n in nouns) + " involved."
