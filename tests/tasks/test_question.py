"""The template writer: only user-known facts, all of them, selections described not revealed."""

from __future__ import annotations

from typing import Any

from autoforge.lexicon import EVERYDAY
from autoforge.tasks.blueprints.blueprint import Blueprint, ReasonNode
from autoforge.tasks.model import UserScenario
from autoforge.tasks.scenario.question import ScenarioRequest, TemplateWriter
from autoforge.tasks.scenario.spoken import fact_text, missing_facts


def test_template_scenarios_carry_facts_not_answers(generated: Any, bookstore_env: Any) -> None:
    tasks, _ = generated
    for task in tasks:
        scenario = task.scenario
        assert scenario.writer == "template" and scenario.intent and scenario.persona
        assert not missing_facts(scenario, task.user_facts)
        text = scenario.question
        # values the agent must find out are not given away
        for out in task.required_outputs:
            if out.text not in {fact_text(v) for v in task.user_facts.values()}:
                assert f" {out.text} " not in f" {text} ", (out, text)
        # every state-changing call is asked for (by its verb or the everyday word for it,
        # "change" for update), in the first person
        for call in task.gold_calls:
            if call.writes:
                verb = call.name.split("_")[0]
                assert EVERYDAY.get(verb, verb) in text.lower()
        assert " my " in f" {text.lower()} " or " i " in f" {text.lower()} "
        # no "(key: value; ...)" lists, no internal keys of records the user does not hold
        assert "; " not in text and ": " not in text
        for call in task.gold_calls:
            for name in ("customer_id", "book_id"):
                value = call.arguments.get(name)
                if isinstance(value, str):
                    assert value not in text, (name, value, text)
        # reasoning selections are described by their criterion
        for node in task.blueprint.reasoning:
            if node.spec.op in ("argmax", "argmin") and node.id not in task.blueprint.outputs:
                best = "highest" if node.spec.op == "argmax" else "lowest"
                assert best in text


def test_writer_is_deterministic(generated: Any, bookstore_env: Any) -> None:
    task = generated[0][0]
    request = ScenarioRequest(
        spec=bookstore_env.spec, blueprint=task.blueprint, facts=task.user_facts, seed=task.seed
    )
    assert TemplateWriter().write(request) == task.scenario


def test_missing_facts() -> None:
    scenario = UserScenario(intent="i", question="My email is a@b.c; ship to 1 Elm St, Lyon.")
    facts = {"email": "a@b.c", "address": {"street": "1 Elm St", "city": "Lyon"}, "rating": 4}
    assert missing_facts(scenario, facts) == ["rating"]
    partial = {"address": {"street": "1 Elm St", "city": "Paris"}}
    assert missing_facts(scenario, partial) == ["address"]
    assert fact_text(19.5) == "19.50" and fact_text({"a": "x", "b": None}) == "x"


def test_reasoning_nodes_have_nouns(generated: Any) -> None:
    for task in generated[0]:
        for node in task.blueprint.nodes:
            if isinstance(node, ReasonNode):
                assert node.noun and node.noun != "s"


_CANCEL_VIA_LOOKUP = {
    "nodes": [
        {"kind": "call", "id": "c0", "tool": "get_order",
         "args": {"order_id": {"kind": "user_fact", "name": "order_id"}}, "walk": 0},
        {"kind": "call", "id": "c1", "tool": "cancel_order",
         "args": {"order_id": {"kind": "output", "node": "c0", "path": ["order_id"]},
                  "reason": {"kind": "user_fact", "name": "reason"}}, "walk": 0},
    ],
    "facts": [
        {"name": "order_id", "role": "entity", "json_schema": {"type": "string"},
         "collection": "orders", "attribute": "order_id"},
        {"name": "reason", "role": "value", "json_schema": {"type": "string"}},
    ],
    "outputs": [],
    "walks": [["get_order", "cancel_order"]],
}  # fmt: skip


def test_labelled_ids_go_bare_subjects_keep_their_noun(bookstore_env: Any) -> None:
    """ "cancel order ORD-3" (the noun once, never "order id: order ORD-3", which an agent
    copied into the call), also when the id reaches the call through an earlier lookup's
    output; the other arguments in words, not as a ``key: value`` list."""
    bp = Blueprint.model_validate(_CANCEL_VIA_LOOKUP)
    facts = {"order_id": "ORD-1718", "reason": "other"}
    request = ScenarioRequest(spec=bookstore_env.spec, blueprint=bp, facts=facts)
    question = TemplateWriter().write(request).question
    assert "cancel order ORD-1718, with reason other" in question
    assert "order order" not in question and "id: " not in question


def test_generated_questions_never_repeat_the_noun_after_its_label(bookstore_env: Any) -> None:
    from autoforge.tasks.pipeline import generate_tasks

    tasks, _ = generate_tasks(bookstore_env, 12, "easy", seed=0)
    seen_entity = False
    for task in tasks:
        for fact in task.blueprint.facts:
            if fact.role == "entity" and fact.collection and fact.name in task.user_facts:
                seen_entity = True
                noun = fact.collection.rstrip("s")
                value = fact_text(task.user_facts[fact.name])
                assert f"id: {noun} {value}" not in task.scenario.question, task.scenario.question
    assert seen_entity


def test_requests_use_everyday_verbs_and_say_the_parts_of_one_value_as_one() -> None:
    """No tool names: ``update_shipping_address`` is asked as "change the shipping address of
    order ORD-1", flat parts of one value (street, city, zip) as one comma list, never
    "street X and city Y and ..."."""
    from autoforge.env.artifact.spec import (
        Attribute,
        CollectionSchema,
        EnvironmentSpec,
        StateSchema,
    )
    from autoforge.tooldocs.spec import ToolSpec

    parts = ("street", "city", "zip", "country")
    props = {n: {"type": "string"} for n in ("order_id", *parts)}
    tool = ToolSpec(name="update_shipping_address", description="Change an order's address.",
                    parameters={"type": "object", "properties": props},
                    required=list(props), access="write")  # fmt: skip
    orders = CollectionSchema(name="orders", primary_key="order_id",
                              attributes=[Attribute(name="order_id", type="id")])  # fmt: skip
    spec = EnvironmentSpec(name="t", tools=[tool], state_schema=StateSchema(collections=[orders]))
    bp = Blueprint.model_validate({
        "nodes": [{"kind": "call", "id": "c0", "tool": tool.name, "walk": 0,
                   "args": {n: {"kind": "user_fact", "name": n} for n in props}}],
        "facts": [{"name": "order_id", "role": "entity", "json_schema": {"type": "string"},
                   "collection": "orders", "attribute": "order_id"}]
        + [{"name": n, "role": "value", "json_schema": {"type": "string"}} for n in parts],
        "walks": [[tool.name]],
    })  # fmt: skip
    facts = {"order_id": "ORD-1", "street": "12 Main St", "city": "Springfield",
             "zip": "62701", "country": "US"}  # fmt: skip
    question = TemplateWriter().write(ScenarioRequest(spec=spec, blueprint=bp, facts=facts))
    text = question.question
    assert "change the shipping address of order ORD-1 to 12 Main St, Springfield, 62701, US" in (
        text
    ), text
    assert "update" not in text.lower() and " and city" not in text


def _review_then_order(bookstore_env: Any) -> ScenarioRequest:
    """Two writes about one book chosen by a condition (the highest price of a genre)."""
    pick = {"kind": "reasoning", "node": "r0", "path": ["book_id"]}
    customer = {"kind": "user_fact", "name": "customer_id"}
    bp = Blueprint.model_validate({
        "nodes": [
            {"kind": "call", "id": "c0", "tool": "search_books", "walk": 0,
             "args": {"genre": {"kind": "user_fact", "name": "genre"}}},
            {"kind": "reasoning", "id": "r0", "noun": "book",
             "spec": {"op": "argmax", "field": ["price"]},
             "inputs": {"items": {"kind": "output", "node": "c0", "path": []}}},
            {"kind": "call", "id": "c1", "tool": "add_review", "walk": 0,
             "args": {"customer_id": customer, "book_id": pick,
                      "rating": {"kind": "user_fact", "name": "rating"}}},
            {"kind": "call", "id": "c2", "tool": "place_order", "walk": 0,
             "args": {"customer_id": customer, "items": {"kind": "list", "items": [
                 {"kind": "object", "fields": {
                     "book_id": pick, "quantity": {"kind": "user_fact", "name": "quantity"}}}]}}},
        ],
        "facts": [{"name": "genre", "role": "predicate", "json_schema": {"type": "string"}},
                  {"name": "customer_id", "role": "entity", "json_schema": {"type": "string"},
                   "collection": "customers", "attribute": "customer_id"},
                  {"name": "rating", "role": "value", "json_schema": {"type": "integer"}},
                  {"name": "quantity", "role": "value", "json_schema": {"type": "integer"}}],
        "walks": [["search_books", "add_review", "place_order"]],
    })  # fmt: skip
    facts = {"genre": "fantasy", "customer_id": "C-1", "rating": 5, "quantity": 2}
    return ScenarioRequest(spec=bookstore_env.spec, blueprint=bp, facts=facts)


def test_a_chosen_record_is_described_once_then_referred_back(bookstore_env: Any) -> None:
    """The second write about the same chosen book says "that book", as a person would, not
    the whole condition again; every fact is still stated (in the first mention)."""
    request = _review_then_order(bookstore_env)
    scenario = TemplateWriter().write(request)
    chosen = "the book with the highest price among the books with genre fantasy"
    assert scenario.question.count(chosen) == 1, scenario.question
    assert "place an order for that book, quantity 2" in scenario.question, scenario.question
    assert missing_facts(scenario, request.facts) == []


def test_a_reference_back_is_never_ambiguous() -> None:
    """``that order`` only for the order described last: after another chosen order, a
    named one (``order ORD-7``) or a new one, the condition is said again."""
    from autoforge.lexicon import refer_back

    top, late = "the order with the highest total", "the order whose status is late"
    picks = {top: "order", late: "order"}
    assert refer_back([f"pay {top}", f"cancel {top}"], picks) == [f"pay {top}", "cancel that order"]
    assert refer_back([f"pay {top}", f"pay {late}", f"cancel {top}"], picks)[2] == f"cancel {top}"
    assert refer_back([f"pay {top}", "ship order ORD-7", f"cancel {top}"], picks)[2] == (
        f"cancel {top}"
    )
    made = refer_back([f"make a new order for the hotel of {top}", f"cancel {top}"], picks)
    assert made[1] == f"cancel {top}"
    inner = {"the book with the highest price among the items of " + top: "book", top: "order"}
    said = refer_back([f"review {next(iter(inner))}", f"cancel {top}"], inner)
    assert said[1] == "cancel that order"  # described inside the first mention


def test_the_verb_of_a_tool_name_is_its_first_common_verb() -> None:
    """``instore_cancel_book`` is asked as "cancel ...", never "instore the book"; a word that
    names a record of the environment (``book`` among books) is a noun there."""
    from autoforge.lexicon import request_on, verb_first

    assert verb_first(["instore", "cancel", "book"], {"book"}) == ["cancel", "instore", "book"]
    assert verb_first(["hotel", "book", "room"], {"hotel", "room"})[0] == "book"
    assert verb_first(["shop", "book", "review"], {"book", "review"}) == ["shop", "book", "review"]
    assert verb_first(["get", "order"], set()) == ["get", "order"]
    assert request_on("instore_cancel_book", "books", "B-1") == "cancel instore book B-1"
    assert request_on("instore_modify_reservation", "reservations", "R-2") == (
        "change instore reservation R-2"
    )


def test_parts_read_off_one_record_are_said_once() -> None:
    """A new booking of a chosen order's hotel and room: "the same hotel and room as <the
    order>", not "the hotel of <the order>, with the room of <the order>"."""
    from autoforge.lexicon import same_as

    order = "the order whose date is 2025-07-29 among the hotel orders on my account"
    subject, rest = same_as(f"the hotel of {order}", [f"the room of {order}", "quantity 2"])
    assert subject == f"the same hotel and room as {order}" and rest == ["quantity 2"]
    other = "the room of the order with the lowest total"
    assert same_as(f"the hotel of {order}", [other]) == (f"the hotel of {order}", [other])


def test_a_member_picked_from_a_list_is_not_the_user() -> None:
    """When the user's own collection is also what a tool adds (a member to a project), a
    member picked from a list filtered by a shared value is another person: "add a new
    member ... among the members with role qa", never "add a new my" or "my role is qa";
    the user's own key, given as a fact, still reads as "my"."""
    from autoforge.env.artifact.spec import (
        Attribute,
        CollectionSchema,
        EnvironmentSpec,
        StateSchema,
    )
    from autoforge.tooldocs.spec import ToolSpec

    def tool(name: str, props: list[str], access: str) -> ToolSpec:
        return ToolSpec(name=name, description=name, access=access,
                        parameters={"type": "object",
                                    "properties": {p: {"type": "string"} for p in props}},
                        required=props)  # fmt: skip

    members = CollectionSchema(name="members", primary_key="member_id", attributes=[
        Attribute(name="member_id", type="id"), Attribute(name="email", type="string"),
        Attribute(name="role", type="string")])  # fmt: skip
    projects = CollectionSchema(name="projects", primary_key="project_id", attributes=[
        Attribute(name="project_id", type="id"),
        Attribute(name="owner_id", type="id", references="members")])  # fmt: skip
    tools = [tool("list_members", ["role"], "read"),
             tool("add_project_member", ["project_id", "member_id"], "write"),
             tool("deactivate_member", ["member_id"], "write")]  # fmt: skip
    spec = EnvironmentSpec(name="t", tools=tools,
                           state_schema=StateSchema(collections=[members, projects]))  # fmt: skip
    pick = {"kind": "reasoning", "node": "r0", "path": ["member_id"]}
    bp = Blueprint.model_validate({
        "nodes": [
            {"kind": "call", "id": "c0", "tool": "list_members", "walk": 0,
             "args": {"role": {"kind": "user_fact", "name": "role"}}},
            {"kind": "reasoning", "id": "r0", "noun": "member",
             "spec": {"op": "lookup", "field": [0]},
             "inputs": {"value": {"kind": "output", "node": "c0", "path": []}}},
            {"kind": "call", "id": "c1", "tool": "add_project_member", "walk": 0,
             "args": {"project_id": {"kind": "user_fact", "name": "project_id"},
                      "member_id": pick}},
            {"kind": "call", "id": "c2", "tool": "deactivate_member", "walk": 1,
             "args": {"member_id": {"kind": "user_fact", "name": "member_id"}}},
        ],
        "facts": [{"name": "role", "role": "attribute", "json_schema": {"type": "string"},
                   "collection": "members", "attribute": "role"},
                  {"name": "project_id", "role": "entity", "json_schema": {"type": "string"},
                   "collection": "projects", "attribute": "project_id"},
                  {"name": "member_id", "role": "entity", "json_schema": {"type": "string"},
                   "collection": "members", "attribute": "member_id"}],
        "walks": [["list_members", "add_project_member"], ["deactivate_member"]],
    })  # fmt: skip
    facts = {"role": "qa", "project_id": "P-1", "member_id": "M-7"}
    text = TemplateWriter().write(ScenarioRequest(spec=spec, blueprint=bp, facts=facts)).question
    assert "new my" not in text and "my role" not in text.lower() and "my members" not in text
    assert "add a new member for project P-1" in text and "role qa" in text, text
    assert "deactivate my" in text, text
