"""How the template writer words a request, on a made-up kennel domain (no benchmark names).

Each rule reads the domain at hand (collection nouns, the qualifier in a listing tool's name,
field names, verbs of tool names): the user's own records are "my kennel stays", free text is
quoted, a change of one field is "edit the <field> of X to V", a new booking taken off a
chosen record is "a new ... for the same A and B as X", a payment is "pay for", a field of a
write's result never names the tool, a named record said again is "that <noun>".
"""

from __future__ import annotations

from typing import Any

from autoforge.env.artifact.spec import Attribute, CollectionSchema, EnvironmentSpec, StateSchema
from autoforge.lexicon import API_VERBS, SPOKEN_VERBS, VERBS, quoted, verb_first
from autoforge.tasks.blueprints.blueprint import Blueprint
from autoforge.tasks.scenario.question import ScenarioRequest, TemplateWriter
from autoforge.tasks.scenario.spoken import missing_facts
from autoforge.tooldocs.spec import ToolSpec

_STAY = {"stay_id": {"type": "string"}, "kennel_id": {"type": "string"},
         "run_id": {"type": "string"}, "date": {"type": "string"},
         "nights": {"type": "integer"}, "note": {"type": "string"},
         "status": {"type": "string"}}  # fmt: skip
_STAYS = {"type": "array", "items": {"type": "object", "properties": _STAY}}


def _tool(name: str, params: list[str], access: str, returns: Any = None) -> ToolSpec:
    props = {p: {"type": "string"} for p in params}
    return ToolSpec(name=name, parameters={"type": "object", "properties": props},
                    required=params, access=access, returns=returns)  # fmt: skip


def _spec() -> EnvironmentSpec:
    def coll(name: str, key: str, *refs: str, **extra: str) -> CollectionSchema:
        attrs = [Attribute(name=key, type="id")]
        attrs += [Attribute(name=r, type="id", references=f"{r[:-3]}s") for r in refs]
        attrs += [Attribute(name=n, type=t) for n, t in extra.items()]  # type: ignore[arg-type]
        return CollectionSchema(name=name, primary_key=key, attributes=attrs)

    state = StateSchema(collections=[
        coll("owners", "owner_id", email="string"),
        coll("kennels", "kennel_id"), coll("runs", "run_id", "kennel_id"),
        coll("stays", "stay_id", "owner_id", "kennel_id", "run_id", date="string",
             nights="integer", note="string", status="string"),
        coll("bookings", "booking_id", "owner_id", "kennel_id", "run_id", total="number"),
    ])  # fmt: skip
    booking = {"type": "object", "properties": {"booking_id": {"type": "string"},
                                                "total": {"type": "number"}}}  # fmt: skip
    tools = [
        _tool("search_kennel_stay", ["owner_id"], "read", _STAYS),
        _tool("get_owner_all_stays", [], "read", _STAYS),
        _tool("pay_kennel_stay", ["stay_id"], "write", {"type": "object", "properties": _STAY}),
        _tool("edit_kennel_stay", ["stay_id", "new_note"], "write"),
        _tool("create_pet_stay_booking", ["owner_id", "kennel_id", "run_id"], "write", booking),
        _tool("cancel_pet_booking", ["booking_id", "reason"], "write"),
    ]
    return EnvironmentSpec(name="kennel", tools=tools, state_schema=state)


_OWNER = {"name": "owner_id", "role": "entity", "json_schema": {"type": "string"},
          "collection": "owners", "attribute": "owner_id"}  # fmt: skip


def _fact(name: str, role: str = "value") -> dict[str, Any]:
    return {"name": name, "role": role, "json_schema": {"type": "string"}}


def _ask(nodes: list[dict[str, Any]], facts: list[dict[str, Any]], values: dict[str, Any],
         outputs: tuple[str, ...] = ()) -> str:  # fmt: skip
    bp = Blueprint.model_validate({"nodes": nodes, "facts": [_OWNER, *facts],
                                   "outputs": list(outputs), "walks": [[]]})  # fmt: skip
    request = ScenarioRequest(spec=_spec(), blueprint=bp, facts={"owner_id": "O-1", **values})
    scenario = TemplateWriter().write(request)
    assert missing_facts(scenario, request.facts) == [], scenario.question
    return scenario.question


def _out(node: str, *path: str) -> dict[str, Any]:
    return {"kind": "output", "node": node, "path": list(path)}


def _pick(node: str = "r0") -> dict[str, Any]:
    return {"kind": "reasoning", "node": node, "path": ["stay_id"]}


_MINE = {"kind": "call", "id": "c0", "tool": "search_kennel_stay",
         "args": {"owner_id": {"kind": "user_fact", "name": "owner_id"}}}  # fmt: skip
_ALL = {"kind": "call", "id": "c0", "tool": "get_owner_all_stays", "args": {}}


def _reason(op: str, field: str, **more: Any) -> dict[str, Any]:
    inputs = {"items": _out("c0")}
    if op == "filter":
        inputs["value"] = {"kind": "user_fact", "name": "wanted"}
    return {"kind": "reasoning", "id": "r0", "noun": "stay", "inputs": inputs,
            "spec": {"op": op, "field": [field], **more}}  # fmt: skip


def _pay(node: str = "r0") -> dict[str, Any]:
    return {"kind": "call", "id": "c1", "tool": "pay_kennel_stay", "args": {"stay_id": _pick(node)}}


def test_the_users_own_records_are_my_records_named_as_the_listing_names_them() -> None:
    """ "my kennel stay with the highest nights", not "the stay with ... among the kennel
    stays on my account"; a listing named after the user's collection (``get_owner_all_
    stays``) is "my stays", never "the owner stays you have"; a payment is "pay for"."""
    text = _ask([_MINE, _reason("argmax", "nights"), _pay()], [], {})
    assert "pay for my kennel stay with the highest nights" in text, text
    assert "among" not in text and "on my account" not in text
    text = _ask([_ALL, _reason("argmin", "nights"), _pay()], [], {})
    assert "pay for my stay with the lowest nights" in text, text
    assert "owner stay" not in text and "you have" not in text


def test_a_condition_on_the_users_records_and_a_count_of_them() -> None:
    """ "my kennel stay whose status is late", "my kennel stay dated 2025-01-02" (a field
    called date), "how many kennel stays I have"."""
    facts = [_fact("wanted", "predicate")]
    text = _ask([_MINE, _reason("filter", "status", cmp="eq", take="only"), _pay()], facts,
                {"wanted": "late"})  # fmt: skip
    assert "pay for my kennel stay whose status is late" in text, text
    text = _ask([_MINE, _reason("filter", "date", cmp="eq", take="only"), _pay()], facts,
                {"wanted": "2025-01-02"})  # fmt: skip
    assert "pay for my kennel stay dated 2025-01-02" in text, text
    count = {"kind": "reasoning", "id": "r1", "noun": "stay", "inputs": {"items": _out("c0")},
             "spec": {"op": "count"}}  # fmt: skip
    text = _ask([_MINE, count], [], {}, outputs=("r1",))
    assert "how many kennel stays I have" in text, text


def test_free_text_is_quoted_and_one_changed_field_is_said_as_change_its_field_to() -> None:
    """A note is quoted (where it ends is clear) and one new value of an edit is "edit the
    note of that stay to "..."" (``new_note`` said as its field, the stay referred back)."""
    edit = {
        "kind": "call",
        "id": "c2",
        "tool": "edit_kennel_stay",
        "args": {"stay_id": _pick(), "new_note": {"kind": "user_fact", "name": "note"}},
    }
    facts = [_fact("wanted", "predicate"), _fact("note")]
    values = {"wanted": "Walk him twice a day.", "note": "Feed the dog at noon please"}
    text = _ask([_MINE, _reason("filter", "note", cmp="eq", take="only"), _pay(), edit],
                facts, values)  # fmt: skip
    assert 'my kennel stay whose note is "Walk him twice a day."' in text, text
    assert 'edit the note of that stay to "Feed the dog at noon please"' in text, text
    assert "new note" not in text and '.".' not in text
    assert quoted("late") == "late" and quoted("12 Main St") == "12 Main St"
    assert quoted("2025-01-02T10:00:00") == "2025-01-02T10:00:00"


def test_a_new_record_taken_off_a_chosen_one_and_a_field_of_its_result() -> None:
    """A booking whose kennel and run are read off one chosen stay is "make a new pet stay
    booking for the same kennel and run as that stay"; a field of the booking it returns is
    "the total of the new booking", never the tool's name."""
    book = {"kind": "call", "id": "c2", "tool": "create_pet_stay_booking", "args": {
        "owner_id": {"kind": "user_fact", "name": "owner_id"},
        "kennel_id": {"kind": "reasoning", "node": "r0", "path": ["kennel_id"]},
        "run_id": {"kind": "reasoning", "node": "r0", "path": ["run_id"]}}}  # fmt: skip
    total = {"kind": "reasoning", "id": "r1", "noun": "booking",
             "inputs": {"value": _out("c2", "total")}, "spec": {"op": "lookup"}}  # fmt: skip
    text = _ask([_MINE, _reason("argmax", "nights"), _pay(), book, total], [], {},
                outputs=("r1",))  # fmt: skip
    assert "make a new pet stay booking for the same kennel and run as that stay" in text, text
    assert "the total of the new booking" in text, text
    assert "create" not in text and "request" not in text


def test_the_verbs_of_tool_names_have_one_owner() -> None:
    """The writer's verbs are the tool classifier's action verbs plus the spoken ones it has
    no class for; its computations and fillers are no verbs in a name."""
    assert not SPOKEN_VERBS & {w for w, c in VERBS.items() if c not in ("compute", "generic")}
    assert {"cancel", "modify", "pay", "book", "buy"} <= API_VERBS
    assert not {"total", "all", "log"} & API_VERBS
    assert verb_first(["cart", "total", "refresh"], set()) == ["cart", "total", "refresh"]
    assert verb_first(["kennel", "buy", "treat"], {"treat"}) == ["buy", "kennel", "treat"]


def test_a_record_is_never_described_by_an_empty_value() -> None:
    """ "my kennel stay whose status is None" describes nothing: a filter value is never
    empty, and with no other value that singles a stay out the choice is not offered (a
    counted ``degenerate`` rejection)."""
    import random

    import pytest

    from autoforge.tasks.blueprints.blueprint import FactSpec, ReasonNode
    from autoforge.tasks.blueprints.facts import FactChooser
    from autoforge.tasks.gold.instantiate import GoldFailure

    node = ReasonNode.model_validate(_reason("filter", "status", cmp="eq", take="only"))
    fact = FactSpec.model_validate(_fact("wanted", "predicate"))

    def chosen(statuses: list[Any], seed: int) -> Any:
        chooser = FactChooser(spec=_spec(), episode=None, rng=random.Random(seed))  # type: ignore[arg-type]
        stays = [{"stay_id": f"S-{i}", "status": s} for i, s in enumerate(statuses)]
        return chooser.for_reasoning(fact, node, {"items": stays})

    assert {chosen([None, "late", "ok", "ok", ""], seed) for seed in range(12)} == {"late"}
    with pytest.raises(GoldFailure, match="no value"):
        chosen([None, "ok", "ok", ""], 0)
    every = node.model_copy(update={"spec": node.spec.model_copy(update={"take": "all"})})
    chooser = FactChooser(spec=_spec(), episode=None, rng=random.Random(0))  # type: ignore[arg-type]
    stays = [{"status": s} for s in (None, None, "ok", "late", "late")]
    assert {chooser.for_reasoning(fact, every, {"items": stays}) for _ in range(12)} == {
        "ok", "late"}  # fmt: skip
