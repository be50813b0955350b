"""Arguments drawn from related records: the item a write acts on comes from the order it
acts on and is named by description; its replacement from the catalogue that lists it; an
undocumented read still has a result shape, so the graph gets edges."""

from __future__ import annotations

import re
from typing import Any

from autoforge.env import Environment
from autoforge.env.artifact.spec import Attribute, CollectionSchema, EnvironmentSpec, StateSchema
from autoforge.lexicon import assumed_returns
from autoforge.tasks.blueprints.reasoning import ReasoningSpec, degeneracy
from autoforge.tasks.blueprints.related import map_keys, paired_values, replacements
from autoforge.tasks.graph.dependency import build_graph
from autoforge.tasks.pipeline import generate_tasks
from autoforge.tooldocs.spec import ToolSpec

_SHOP_TOOLS = '''
def get_order(state, order_id):
    """Details of an order."""
    order = state["orders"].get(order_id)
    if order is None:
        raise ToolError(f"order {order_id} not found")
    return order


def exchange_items(state, order_id, item_ids, new_item_ids):
    """Exchange items of an order for other variants of the same product."""
    order = state["orders"].get(order_id)
    if order is None:
        raise ToolError(f"order {order_id} not found")
    lines = {line["item_id"]: line for line in order["items"]}
    for old, new in zip(item_ids, new_item_ids):
        if old not in lines:
            raise ToolError(f"{old} is not in order {order_id}")
        product = state["products"].get(lines[old]["product_id"]) or {}
        if new not in product.get("variants", {}) or new == old:
            raise ToolError(f"{new} is not another variant of {old}")
    order["status"] = "exchange requested"
    return order
'''


def _string(**extra: Any) -> dict[str, Any]:
    return {"type": "string", **extra}


def _shop_env() -> Any:
    """Orders whose item lines name products; products with variants keyed by item id."""
    orders = CollectionSchema(name="orders", primary_key="order_id", attributes=[
        Attribute(name="order_id", type="id"), Attribute(name="status", type="string"),
        Attribute(name="items", type="array")])  # fmt: skip
    products = CollectionSchema(name="products", primary_key="product_id", attributes=[
        Attribute(name="product_id", type="id"), Attribute(name="name", type="string"),
        Attribute(name="variants", type="object")])  # fmt: skip
    ids = {"type": "array", "items": _string()}
    tools = [
        ToolSpec(name="get_order", access="read",
                 parameters={"type": "object", "properties": {"order_id": _string()},
                             "required": ["order_id"]}),
        ToolSpec(name="exchange_items", access="write",
                 parameters={"type": "object", "properties": {
                     "order_id": _string(), "item_ids": ids, "new_item_ids": ids},
                     "required": ["order_id", "item_ids", "new_item_ids"]}),
    ]  # fmt: skip
    names = ["Desk Lamp", "Water Bottle", "Backpack", "Kettle"]
    prods = {f"P{p}": {"product_id": f"P{p}", "name": names[p],
                       "variants": {f"{p}{v}0": {"item_id": f"{p}{v}0", "price": 10 + v}
                                    for v in range(3)}}
             for p in range(4)}  # fmt: skip
    state = {
        "products": prods,
        "orders": {f"#W{o}": {"order_id": f"#W{o}", "status": "delivered",
                              "items": [{"item_id": f"{p}{o % 3}0", "product_id": f"P{p}",
                                         "name": names[p], "price": 10 + o % 3}
                                        for p in range(o % 4, o % 4 + 2 if o % 4 < 3 else 4)]}
                   for o in range(10)},
    }  # fmt: skip
    spec = EnvironmentSpec(name="shop", tools=tools,
                           state_schema=StateSchema(collections=[products, orders]))  # fmt: skip
    return Environment.from_parts(spec, _SHOP_TOOLS, state)


def test_a_write_takes_the_item_from_the_order_it_acts_on_named_by_description() -> None:
    env = _shop_env()
    tasks, stats = generate_tasks(env, 8, "any", seed=0)
    exchanges = [(t, c) for t in tasks for c in t.gold_calls if c.name == "exchange_items"]
    assert exchanges, stats.rejected
    for task, call in exchanges:
        order = task.initial_state["orders"][call.arguments["order_id"]]
        lines = {line["item_id"]: line for line in order["items"]}
        old, new = call.arguments["item_ids"][0], call.arguments["new_item_ids"][0]
        assert old in lines  # drawn from the order's own items
        variants = task.initial_state["products"][lines[old]["product_id"]]["variants"]
        assert new in variants and new != old  # another variant of the same product
        text = task.scenario.question
        assert old not in text and lines[old]["name"] in text, text  # said by its name
        assert call.arguments["item_ids"] != call.arguments["new_item_ids"]


def test_a_named_element_may_be_the_only_one_a_condition_may_not() -> None:
    one = {"items": [{"name": "Kettle"}], "value": "Kettle"}
    named = ReasoningSpec(op="filter", field=["name"], cmp="eq", take="named")
    only = ReasoningSpec(op="filter", field=["name"], cmp="eq", take="only")
    assert degeneracy(named, one, one["items"][0]) is None
    assert degeneracy(only, one, one["items"][0]) is not None


def test_related_identifiers_from_maps_and_catalogues() -> None:
    user = {"user_id": "u1", "payment_methods": {"paypal_1": {"source": "paypal"},
                                                 "card_2": {"source": "card"}}}  # fmt: skip
    assert sorted(map_keys(user, "payment_method_id")) == ["card_2", "paypal_1"]
    assert list(map_keys(user, "item_id")) == []
    partial = {"order_id": "#W1", "item_ids": ["100"]}
    assert list(paired_values("new_item_ids", partial)) == [("item_id", {"'100'"})]
    state = {
        "orders": {"#W1": {"items": [{"item_id": "100"}, {"item_id": "200"}]}},
        "products": {"P1": {"variants": {"100": {"item_id": "100"}, "110": {"item_id": "110"}}},
                     "P2": {"variants": {"200": {"item_id": "200"}}}},
    }  # fmt: skip
    found = replacements(state, {"orders"}, "item_id", {"'100'"}, str, set())
    assert list(found.values()) == ["110"]  # not the order's other item, not itself
    assert replacements(state, {"orders"}, "item_id", {"'100'"}, str, {"'110'"}) == {}


def _travel_spec() -> EnvironmentSpec:
    """A rules-only design of travel docs without result schemas: orders kept per kind."""

    def coll(name: str, key: str, *attrs: str, refs: dict[str, str] | None = None) -> Any:
        refs = refs or {}
        others = [Attribute(name=a, type="string", references=refs.get(a)) for a in attrs]
        return CollectionSchema(
            name=name, primary_key=key, attributes=[Attribute(name=key, type="id"), *others]
        )

    refs = {"user_id": "users", "order_id": "orders"}
    state = StateSchema(collections=[
        coll("hotels", "hotel_id", "user_id", "order_id", "date", "status", refs=refs),
        coll("flights", "flight_id", "user_id", "order_id", "date", "status", refs=refs),
        coll("users", "user_id"), coll("orders", "order_id"),
    ])  # fmt: skip

    def tool(name: str, *params: str) -> ToolSpec:
        props = {p: _string() for p in params}
        return ToolSpec(name=name, access="read",
                        parameters={"type": "object", "properties": props,
                                    "required": list(params[:1])})  # fmt: skip

    tools = [
        tool("get_hotel_info", "hotel_id"),
        tool("search_hotel_order", "user_id", "date"),
        tool("get_hotel_order_detail", "order_id"),
        tool("search_flight_order", "user_id"),
        tool("get_flight_order_detail", "order_id"),
        tool("find_user_id_by_email", "email"),
    ]
    return EnvironmentSpec(name="travel", tools=tools, state_schema=state)


def test_undocumented_reads_return_what_the_designed_state_says() -> None:
    spec = _travel_spec()
    state = spec.state_schema
    search = assumed_returns(spec.tool("search_hotel_order"), state)
    assert search is not None and search["type"] == "array"
    assert "hotel_id" in search["items"]["properties"]
    detail = assumed_returns(spec.tool("get_hotel_order_detail"), state)
    assert detail is not None and "hotel_id" in detail["properties"]  # not the bare orders
    info = assumed_returns(spec.tool("get_hotel_info"), state)
    assert info is not None and "order_id" in info["properties"]
    assert assumed_returns(spec.tool("find_user_id_by_email"), state) is None  # returns the id


def test_a_read_of_a_users_records_by_the_users_key_returns_those_records() -> None:
    """``get_member_loans(member_id)`` takes a member's key but lists the member's loans (loans
    reference members); it was taken for the member record, whose attributes then fed later
    calls with fields the real result does not have."""
    members = CollectionSchema(
        name="members",
        primary_key="member_id",
        attributes=[Attribute(name="member_id", type="id"), Attribute(name="email", type="string")],
    )
    loans = CollectionSchema(name="loans", primary_key="loan_id", attributes=[
        Attribute(name="loan_id", type="id"),
        Attribute(name="member_id", type="id", references="members"),
        Attribute(name="title", type="string")])  # fmt: skip
    state = StateSchema(collections=[members, loans])

    def read(name: str) -> ToolSpec:
        return ToolSpec(
            name=name,
            access="read",
            parameters={
                "type": "object",
                "properties": {"member_id": _string()},
                "required": ["member_id"],
            },
        )

    listing = assumed_returns(read("get_member_loans"), state)
    assert listing is not None and listing["type"] == "array"
    assert set(listing["items"]["properties"]) == {"loan_id", "member_id", "title"}
    profile = assumed_returns(read("get_member_profile"), state)  # names no other collection
    assert profile is not None and set(profile["properties"]) == {"member_id", "email"}


def test_edges_without_documented_results() -> None:
    graph = build_graph(_travel_spec())
    pairs = {(e.source, e.target) for e in graph.edges}
    assert ("search_hotel_order", "get_flight_order_detail") in pairs  # [].order_id -> order_id
    assert ("get_hotel_info", "search_flight_order") in pairs  # user_id -> user_id
    mapping = graph.edge("search_hotel_order", "search_flight_order")
    assert mapping is not None and mapping.mappings[0].output == "[].user_id"


def test_requests_vary_and_never_read_like_calls(bookstore_env: Any) -> None:
    tasks, _ = generate_tasks(bookstore_env, 30, "medium", seed=3)
    tools = {t.name for t in bookstore_env.spec.tools}
    openings = set()
    for task in tasks:
        text = task.scenario.question
        assert not any(name in text for name in tools), text  # no tool names
        assert not re.search(r"\b[a-z_]+: \S", text), text  # no "key: value" lists
        assert " id " not in f" {text.lower()} " or "my" in text.lower()
        assert not text.startswith(("I'd also", "And ")), text
        first = re.split(r"(?<=[.?!]) ", text)
        openings.update(s.split(" ")[0] for s in first if not s.startswith("My email"))
    assert len(openings) >= 5, openings  # several phrasings, not one template


def test_a_first_question_has_no_also_and_asides_vary(bookstore_env: Any) -> None:
    from autoforge.lexicon import label
    from autoforge.tasks.blueprints.blueprint import Blueprint
    from autoforge.tasks.scenario.question import ScenarioRequest, TemplateWriter

    bp = Blueprint.model_validate({
        "nodes": [
            {"kind": "call", "id": "c0", "tool": "get_order", "walk": 0,
             "args": {"order_id": {"kind": "user_fact", "name": "order_id"}}},
            {"kind": "reasoning", "id": "r0", "noun": "order",
             "spec": {"op": "lookup", "field": ["status"]},
             "inputs": {"value": {"kind": "output", "node": "c0", "path": []}}},
        ],
        "facts": [{"name": "order_id", "role": "entity", "json_schema": {"type": "string"},
                   "collection": "orders", "attribute": "order_id"}],
        "outputs": ["r0"], "walks": [["get_order"]],
    })  # fmt: skip
    facts = {"order_id": "ORD-1", "coupon_code": "SAVE10", "gift_note": "for Sam"}
    for seed in range(8):
        request = ScenarioRequest(spec=bookstore_env.spec, blueprint=bp, facts=facts, seed=seed)
        text = TemplateWriter().write(request).question
        assert "also" not in text and not re.search(r"(?<![.?!] )\bAnd ", text), text
        asides = [s for s in re.split(r"(?<=[.?!]) ", text) if "SAVE10" in s or "Sam" in s]
        assert len(asides) == 2 and len({a.split(" ")[0] for a in asides}) == 2, text
    assert label("payment_method_id") == "payment method" and label("new_item_ids") == "new item"
    assert label("id") == "id"


def test_a_new_value_keeps_to_the_category_the_data_shows() -> None:
    from autoforge.tasks.blueprints.related import observed_category

    state = {"users": {str(i): {"address": {"country": "USA", "city": f"Town {i}"}}
                       for i in range(6)}}  # fmt: skip
    assert set(observed_category(state, "country")) == {"USA"}
    assert observed_category(state, "city") == []  # six towns: no category
