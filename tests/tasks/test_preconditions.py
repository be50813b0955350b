"""Documented preconditions beyond one record's status: transition/event tables, rules on all
of a record's children, and eligibility through a linking record; read from a small API of our
own, checked on calls, and used to choose records and values."""

from __future__ import annotations

import random
from typing import Any

from autoforge.env.artifact.spec import Attribute, CollectionSchema, EnvironmentSpec, StateSchema
from autoforge.tasks.blueprints.blueprint import Blueprint, CallNode, FactRef, FactSpec, OutputRef
from autoforge.tasks.blueprints.facts import FactChooser
from autoforge.tasks.gold.preconditions import (
    ChildrenRule,
    LinkRule,
    StatusRule,
    TableRule,
    preconditions,
)
from autoforge.tooldocs import markdown_tables as tables
from autoforge.tooldocs.spec import ToolSpec

POLICY = """# Lending desk

Loans move along this table (anything else is refused):

| current state | may move to |
|---|---|
| requested | approved, rejected |
| approved | returned |
| returned | (none) |
| rejected | (none) |

- **Closing**: a shelf can be closed only when all of its loans are returned or rejected.
- **Restocking**: only `open` shelves (a `closed` one is refused); restocked shelves stay open.
- Ratings: a member may rate a title only if they borrowed it in a returned loan.
"""

STATES = ["requested", "approved", "returned", "rejected"]


def _coll(name: str, key: str, *attrs: Attribute) -> CollectionSchema:
    return CollectionSchema(name=name, primary_key=key,
                            attributes=[Attribute(name=key, type="id"), *attrs])  # fmt: skip


def _tool(name: str, props: dict[str, Any], access: str = "write") -> ToolSpec:
    return ToolSpec(name=name, description="", access=access,  # type: ignore[arg-type]
                    parameters={"type": "object", "properties": props,
                                "required": list(props)})  # fmt: skip


def _spec(policy: str = POLICY) -> EnvironmentSpec:
    schema = StateSchema(collections=[
        _coll("members", "member_id", Attribute(name="name")),
        _coll("titles", "title_id", Attribute(name="name")),
        _coll("shelves", "shelf_id", Attribute(name="status", type="enum",
                                               enum=["open", "closed"])),
        _coll("loans", "loan_id", Attribute(name="shelf_id", references="shelves"),
              Attribute(name="member_id", references="members"),
              Attribute(name="items", type="array"),
              Attribute(name="state", type="enum", enum=STATES)),
        _coll("ratings", "rating_id", Attribute(name="member_id", references="members"),
              Attribute(name="title_id", references="titles"), Attribute(name="stars")),
    ])  # fmt: skip
    tools = [
        _tool("move_loan", {"loan_id": {"type": "string"},
                            "state": {"type": "string", "enum": STATES}}),
        _tool("close_shelf", {"shelf_id": {"type": "string"}}),
        _tool("restock_shelf", {"shelf_id": {"type": "string"}}),
        _tool("rate_title", {"member_id": {"type": "string"}, "title_id": {"type": "string"},
                             "stars": {"type": "integer"}}),
        _tool("get_loan", {"loan_id": {"type": "string"}}, access="read"),
    ]  # fmt: skip
    return EnvironmentSpec(name="desk", tools=tools, state_schema=schema, policy=policy)


def _loan(key: str, shelf: str, member: str, state: str, titles: list[str]) -> dict[str, Any]:
    return {"loan_id": key, "shelf_id": shelf, "member_id": member, "state": state,
            "items": [{"title_id": t} for t in titles]}  # fmt: skip


def _data() -> dict[str, Any]:
    loans = [
        _loan("L1", "S1", "M1", "requested", ["T1"]),
        _loan("L2", "S1", "M1", "approved", ["T2"]),
        _loan("L3", "S2", "M2", "returned", ["T1", "T3"]),
        _loan("L4", "S2", "M1", "rejected", ["T3"]),
        _loan("L5", "S3", "M1", "returned", ["T2"]),
    ]
    return {
        "members": {m: {"member_id": m, "name": m.lower()} for m in ("M1", "M2")},
        "titles": {t: {"title_id": t, "name": t.lower()} for t in ("T1", "T2", "T3")},
        "shelves": {s: {"shelf_id": s, "status": "open"} for s in ("S1", "S2", "S3")},
        "loans": {loan["loan_id"]: loan for loan in loans},
        "ratings": {"R1": {"rating_id": "R1", "member_id": "M2", "title_id": "T3", "stars": 4}},
    }


def test_tables_are_read_without_their_rule_line() -> None:
    (table,) = tables(POLICY)
    assert table[0] == ["current state", "may move to"]
    assert table[1] == ["requested", "approved, rejected"] and len(table) == 5


def test_the_policy_gives_one_rule_of_each_kind() -> None:
    pre = preconditions(_spec(), {}, _data())
    (table,) = pre.rules["move_loan"]
    assert isinstance(table, TableRule) and (table.key, table.param) == ("loan_id", "state")
    assert table.pairs == {("approved", "requested"), ("rejected", "requested"),
                           ("returned", "approved")}  # fmt: skip
    (children,) = pre.rules["close_shelf"]
    assert isinstance(children, ChildrenRule)
    assert (children.child, children.link, children.allowed) == (
        "loans", "shelf_id", ("returned", "rejected"))  # fmt: skip
    (link,) = pre.rules["rate_title"]
    assert isinstance(link, LinkRule)
    assert (link.params, link.via, link.status) == (("member_id", "title_id"), "loans",
                                                    "returned")  # fmt: skip
    (status,) = pre.rules["restock_shelf"]  # "closed" comes after the parenthesis
    assert isinstance(status, StatusRule) and status.allowed == ("open",)
    assert "get_loan" not in pre.rules  # a read has no preconditions here


def test_a_table_with_unclear_columns_gives_no_rule() -> None:
    policy = POLICY.replace("current state", "state").replace("may move to", "others")
    assert "move_loan" not in preconditions(_spec(policy), {}, _data()).rules


def test_a_link_rule_the_data_contradicts_is_dropped() -> None:
    data = _data()
    data["ratings"]["R2"] = {"rating_id": "R2", "member_id": "M1", "title_id": "T1", "stars": 2}
    assert "rate_title" not in preconditions(_spec(), {}, data).rules  # M1 never returned T1


def test_check_refuses_what_the_rules_forbid() -> None:
    data, pre = _data(), preconditions(_spec(), {}, _data())
    assert pre.check("move_loan", {"loan_id": "L1", "state": "approved"}, data) is None
    found = pre.check("move_loan", {"loan_id": "L1", "state": "returned"}, data)
    assert found is not None and found.key == "L1" and "L1" in found.message
    assert found.guard.allowed == ("approved",)  # the status an S0 repair may set
    assert pre.check("close_shelf", {"shelf_id": "S2"}, data) is None  # returned + rejected
    assert pre.check("close_shelf", {"shelf_id": "S1"}, data) is not None
    assert pre.check("rate_title", {"member_id": "M2", "title_id": "T1"}, data) is None
    assert pre.check("rate_title", {"member_id": "M1", "title_id": "T1"}, data) is not None
    assert pre.check("move_loan", {"loan_id": "L9", "state": "approved"}, data) is None
    data["shelves"]["S3"]["status"] = "closed"
    assert pre.check("restock_shelf", {"shelf_id": "S3"}, data) is not None
    assert pre.check("restock_shelf", {"shelf_id": "S2"}, data) is None


def test_keys_and_values_narrow_to_valid_calls() -> None:
    data, pre = _data(), preconditions(_spec(), {}, _data())
    assert pre.keys("close_shelf", "shelf_id", {}, "shelves", data) == {"S2", "S3"}
    assert pre.keys("rate_title", "title_id", {"member_id": "M1"}, "titles", data) == {"T2"}
    assert pre.keys("move_loan", "loan_id", {"state": "returned"}, "loans", data) == {"L2"}
    assert pre.values("move_loan", "state", {"loan_id": "L1"}, data) == ["approved", "rejected"]
    assert pre.values("move_loan", "state", {}, data) is None


class _Episode:
    """An episode that accepts every call (the rules are the chooser's to meet)."""

    def __init__(self, state: dict[str, Any]) -> None:
        self.state = state


def test_the_chooser_picks_records_and_values_the_rules_allow() -> None:
    spec, data = _spec(), _data()
    pre = preconditions(spec, {}, data)
    bp = Blueprint(
        nodes=[CallNode(id="c0", tool="get_loan", args={"loan_id": FactRef(name="loan_id")}),
               CallNode(id="c1", tool="move_loan",
                        args={"loan_id": OutputRef(node="c0", path=["loan_id"]),
                              "state": FactRef(name="state")})],
        facts=[FactSpec(name="loan_id", role="entity", collection="loans", attribute="loan_id"),
               FactSpec(name="state", json_schema={"type": "string", "enum": STATES})],
    )  # fmt: skip
    facts = pre.fact_keys(bp)
    assert facts == {"loan_id": [("move_loan", "loan_id")]}  # through get_loan's echo
    loans, states, titles = set(), set(), set()
    for seed in range(20):
        chooser = FactChooser(spec, _Episode(data), random.Random(seed),  # type: ignore[arg-type]
                              base_state=data, pre=pre, pre_facts=facts)  # fmt: skip
        loan = chooser.for_call(bp.facts[0], "get_loan", {})
        state = chooser.for_call(bp.facts[1], "move_loan", {"loan_id": loan})
        loans.add(loan)
        states.add((data["loans"][loan]["state"], state))
        rate = FactChooser(spec, _Episode(data), random.Random(seed),  # type: ignore[arg-type]
                           base_state=data, pre=pre,
                           pre_facts={"title_id": [("rate_title", "title_id")]})  # fmt: skip
        title = FactSpec(name="title_id", role="entity", collection="titles")
        titles.add(rate.for_call(title, "rate_title", {"member_id": "M1"}))
    assert loans == {"L1", "L2"}  # never a loan the table lets go nowhere
    assert states <= {("requested", "approved"), ("requested", "rejected"),
                      ("approved", "returned")}  # fmt: skip
    assert titles == {"T2"}  # the one title M1 returned


def test_new_values_come_from_the_data_column_unless_it_is_unique() -> None:
    spec, data = _spec(), _data()
    rooms = {"S1": "north", "S2": "north", "S3": "south"}
    for key, room in rooms.items():
        data["shelves"][key]["room"] = room
    room = FactSpec(name="room", json_schema={"type": "string"})
    name = FactSpec(name="name", json_schema={"type": "string"})
    for seed in range(10):
        chooser = FactChooser(spec, _Episode(data), random.Random(seed),  # type: ignore[arg-type]
                              base_state=data)  # fmt: skip
        assert chooser.for_call(room, "restock_shelf", {"shelf_id": "S1"}) == "south"
        drawn = chooser.for_call(name, "restock_shelf", {"shelf_id": "S1"})
        assert drawn not in {"m1", "m2", "t1", "t2", "t3"}  # unique values are not reused


def test_secret_facts_and_dated_fields_are_recognised() -> None:
    from autoforge.tasks.gold.gates import secret_facts
    from autoforge.tasks.scenario.question import dated_event

    assert secret_facts(["card_pin", "new_password", "pinned_note", "email", "otp"]) == [
        "card_pin", "new_password", "otp"]  # fmt: skip
    assert dated_event(["created_on"]) == "created"
    assert dated_event(["items", 0, "delivered_at"]) == "delivered"
    assert dated_event(["occurred_on"]) == "that occurred"  # the record did it
    assert dated_event(["due_date"]) == "" and dated_event(["status"]) == ""


def test_order_of_independent_writes_must_not_change_the_end_state(bookstore_env: Any) -> None:
    from autoforge.tasks.gold.gates import order_matters
    from autoforge.tasks.model import GoldCall
    from autoforge.tasks.runtime import bind_state

    state = bookstore_env.initial_state
    bound = bind_state(bookstore_env, state)

    def run(calls: list[GoldCall]) -> str:
        episode = bound.episode()
        assert all(episode.call(c.name, dict(c.arguments)).ok for c in calls)
        return episode.state_hash()

    def two(tool: str, first: dict[str, Any], second: dict[str, Any]) -> tuple[Any, list[Any]]:
        bp = Blueprint(nodes=[CallNode(id="c0", tool=tool, args={}),
                              CallNode(id="c1", tool=tool, args={})])  # fmt: skip
        calls = [GoldCall(node="c0", name=tool, arguments=first, writes=True),
                 GoldCall(node="c1", name=tool, arguments=second, writes=True)]  # fmt: skip
        return bp, calls

    pending = sorted(k for k, o in state["orders"].items() if o["status"] == "pending")[:2]
    bp, calls = two("cancel_order", {"order_id": pending[0], "reason": "other"},
                    {"order_id": pending[1], "reason": "other"})  # fmt: skip
    assert not order_matters(bound, bp, calls, run(calls))  # the same end either way
    received = [(o["customer_id"], line["book_id"]) for o in state["orders"].values()
                if o["status"] == "delivered" for line in o["items"]]  # fmt: skip
    reviewed = {(r["customer_id"], r["book_id"]) for r in state["reviews"].values()}
    (c1, b1), (c2, b2) = [pair for pair in dict.fromkeys(received) if pair not in reviewed][:2]
    bp, calls = two("add_review", {"customer_id": c1, "book_id": b1, "rating": 5},
                    {"customer_id": c2, "book_id": b2, "rating": 2})  # fmt: skip
    assert order_matters(bound, bp, calls, run(calls))  # review ids follow the order


GROUPED = """# Deliveries

Regions:
- region 1: north, east
- region 2: south
- region 3: west, centre

- **Rerouting**: the new `area` must be in the same region as the current one, and a route
  can be rerouted at most once (`reroute_count` goes from 0 to 1).
- Banned drivers cannot have their routes rerouted.
"""


def _routes() -> tuple[EnvironmentSpec, dict[str, Any]]:
    schema = StateSchema(collections=[
        _coll("drivers", "driver_id", Attribute(name="status", type="enum",
                                                enum=["active", "banned"])),
        _coll("routes", "route_id", Attribute(name="area"),
              Attribute(name="driver_id", references="drivers"),
              Attribute(name="reroute_count", type="integer"))])  # fmt: skip
    tools = [_tool("reroute", {"route_id": {"type": "string"}, "area": {"type": "string"}})]
    spec = EnvironmentSpec(name="routes", tools=tools, state_schema=schema, policy=GROUPED)
    rows = [("R1", "north", 0, "D1"), ("R2", "west", 1, "D1"), ("R3", "south", 0, "D1"),
            ("R4", "east", 0, "D2")]  # fmt: skip
    data = {"drivers": {"D1": {"driver_id": "D1", "status": "active"},
                        "D2": {"driver_id": "D2", "status": "banned"}},
            "routes": {r: {"route_id": r, "area": a, "reroute_count": n, "driver_id": d}
                       for r, a, n, d in rows}}  # fmt: skip
    return spec, data


def test_same_group_and_once_rules_hold_and_steer_the_values() -> None:
    spec, data = _routes()
    pre = preconditions(spec, {}, data)
    kinds = sorted(type(r).__name__ for r in pre.rules["reroute"])
    assert kinds == ["ForbiddenRule", "GroupRule", "StatusRule"]
    assert pre.check("reroute", {"route_id": "R4", "area": "north"}, data) is not None  # banned
    assert pre.keys("reroute", "route_id", {}, "routes", data) == {"R1", "R3"}
    assert pre.check("reroute", {"route_id": "R1", "area": "east"}, data) is None
    assert pre.check("reroute", {"route_id": "R1", "area": "west"}, data) is not None
    assert pre.check("reroute", {"route_id": "R2", "area": "centre"}, data) is not None  # twice
    assert pre.values("reroute", "area", {"route_id": "R1"}, data) == ["east", "north"]
    area = FactSpec(name="area", json_schema={"type": "string"})
    for seed in range(5):
        chooser = FactChooser(spec, _Episode(data), random.Random(seed),  # type: ignore[arg-type]
                              base_state=data, pre=pre)  # fmt: skip
        assert chooser.for_call(area, "reroute", {"route_id": "R1"}) == "east"  # not its own
        assert chooser.for_call(area, "reroute", {"route_id": "R3"}) == "south"  # the only one


def test_dates_of_events_are_asked_as_dates(bookstore_env: Any) -> None:
    from autoforge.tasks.blueprints.blueprint import ReasoningSpec, ReasonNode
    from autoforge.tasks.scenario.question import ScenarioRequest, TemplateWriter

    def asked(field: str) -> str:
        bp = Blueprint(
            nodes=[CallNode(id="c0", tool="get_order", args={"order_id": FactRef(name="oid")}),
                   ReasonNode(id="r0", spec=ReasoningSpec(op="lookup", field=[field]),
                              inputs={"value": OutputRef(node="c0", path=[])}, noun="order")],
            facts=[FactSpec(name="oid", role="entity", collection="orders")],
            outputs=["r0"],
        )  # fmt: skip
        request = ScenarioRequest(spec=bookstore_env.spec, blueprint=bp,
                                  facts={"oid": "ORD-1"}, seed=0)  # fmt: skip
        return TemplateWriter().write(request).question

    assert "the date order ORD-1 was shipped" in asked("shipped_on")
    assert "the date order ORD-1 arrived" not in asked("shipped_on")
    assert "the date order ORD-1 occurred" in asked("occurred_at")
    assert "the total of order ORD-1" in asked("total")  # other fields as before
