"""Docs without result schemas (a rules-only design): a search's result is read as the records
its name heads (``search_clinic_visit`` lists visits, not clinics), so the user's own records it
lists are named by a condition, never by their key; and a list a noun of the name qualifies
(a clinic's visits) feeds only calls about such records (paying a clinic visit, not a lab
visit). A made-up domain: users, clinics, labs and the visits to them."""

from __future__ import annotations

import re
from typing import Any

import pytest

from autoforge.env import Environment
from autoforge.env.artifact.spec import Attribute, CollectionSchema, EnvironmentSpec, StateSchema
from autoforge.lexicon import assumed_returns
from autoforge.tasks import pipeline
from autoforge.tasks.blueprints.blueprint import OutputRef, ReasoningRef
from autoforge.tasks.gold.failures import GoldFailure
from autoforge.tasks.graph.dependency import build_graph
from autoforge.tasks.pipeline import generate_tasks
from autoforge.tasks.scenario.knowledge import knowledge
from autoforge.tooldocs.spec import ToolSpec

_CLINIC_TOOLS = '''
def _search(state, user_id, kind):
    if user_id not in state["users"]:
        raise ToolError(f"user {user_id} not found")
    return [v for v in state["visits"].values()
            if v["user_id"] == user_id and v.get(kind) is not None]


def search_clinic_visit(state, user_id, status=None):
    """The user's clinic visits."""
    return [v for v in _search(state, user_id, "clinic_id")
            if status is None or v["status"] == status]


def search_lab_visit(state, user_id, status=None):
    """The user's lab visits."""
    return [v for v in _search(state, user_id, "lab_id")
            if status is None or v["status"] == status]


def _pay(state, visit_id, kind):
    visit = state["visits"].get(visit_id)
    if visit is None or visit.get(kind) is None:
        raise ToolError(f"no such visit: {visit_id}")
    visit["status"] = "paid"
    return visit


def pay_clinic_visit(state, visit_id):
    """Pay a clinic visit."""
    return _pay(state, visit_id, "clinic_id")


def pay_lab_visit(state, visit_id):
    """Pay a lab visit."""
    return _pay(state, visit_id, "lab_id")


def _cancel(state, visit_id, user_id, kind):
    visit = state["visits"].get(visit_id)
    if visit is None or visit.get(kind) is None or visit["user_id"] != user_id:
        raise ToolError(f"no such visit: {visit_id}")
    visit["status"] = "cancelled"
    return visit


def cancel_clinic_visit(state, visit_id, user_id):
    """Cancel a clinic visit."""
    return _cancel(state, visit_id, user_id, "clinic_id")


def cancel_lab_visit(state, visit_id, user_id):
    """Cancel a lab visit."""
    return _cancel(state, visit_id, user_id, "lab_id")


def create_clinic_visit(state, clinic_id, room_id, user_id):
    """Book a clinic visit."""
    if clinic_id not in state["clinics"] or room_id not in state["rooms"]:
        raise ToolError("no such clinic or room")
    key = f"V-new{len(state['visits'])}"
    state["visits"][key] = {"visit_id": key, "user_id": user_id, "clinic_id": clinic_id,
                            "room_id": room_id, "lab_id": None, "date": None, "fee": None,
                            "status": "open"}
    return state["visits"][key]
'''


def _clinic_env() -> Environment:
    """Visits of a user to a clinic or to a lab; no tool documents its result."""

    def coll(name: str, key: str, *attrs: Attribute) -> CollectionSchema:
        return CollectionSchema(name=name, primary_key=key,
                                attributes=[Attribute(name=key, type="id"), *attrs])  # fmt: skip

    visits = coll("visits", "visit_id",
                  Attribute(name="user_id", type="id", references="users"),
                  Attribute(name="clinic_id", type="id", references="clinics", nullable=True),
                  Attribute(name="lab_id", type="id", references="labs", nullable=True),
                  Attribute(name="room_id", type="id", references="rooms", nullable=True),
                  Attribute(name="date", type="string"), Attribute(name="fee", type="integer"),
                  Attribute(name="status", type="string"))  # fmt: skip
    schema = StateSchema(collections=[coll("users", "user_id"), coll("clinics", "clinic_id"),
                                      coll("labs", "lab_id"), coll("rooms", "room_id"),
                                      visits])  # fmt: skip

    def tool(name: str, access: str, *params: str, required: int = 1) -> ToolSpec:
        props = {p: {"type": "string", "description": p.replace("_", " ")} for p in params}
        return ToolSpec(name=name, description=name.replace("_", " "), access=access,
                        parameters={"type": "object", "properties": props,
                                    "required": list(params[:required])})  # fmt: skip

    tools = [tool("search_clinic_visit", "read", "user_id", "status"),
             tool("search_lab_visit", "read", "user_id", "status"),
             tool("pay_clinic_visit", "write", "visit_id"),
             tool("pay_lab_visit", "write", "visit_id"),
             tool("cancel_clinic_visit", "write", "visit_id", "user_id", required=2),
             tool("cancel_lab_visit", "write", "visit_id", "user_id", required=2),
             tool("create_clinic_visit", "write", "clinic_id", "room_id", "user_id",
                  required=3)]  # fmt: skip
    state: dict[str, Any] = {"users": {}, "clinics": {}, "labs": {"L1": {"lab_id": "L1"}},
                             "rooms": {}, "visits": {}}  # fmt: skip
    for n in range(4):
        state["clinics"][f"C{n}"] = {"clinic_id": f"C{n}"}
        state["rooms"][f"R{n}"] = {"room_id": f"R{n}"}
    for u in range(5):
        state["users"][f"U{u}"] = {"user_id": f"U{u}"}
        for v in range(4):
            key = f"V-{u}{v}"
            clinic = v % 2 == 0
            state["visits"][key] = {
                "visit_id": key, "user_id": f"U{u}",
                "clinic_id": f"C{(u + v) % 4}" if clinic else None,
                "room_id": f"R{(u * v) % 4}" if clinic else None,
                "lab_id": None if clinic else "L1", "date": f"2024-0{1 + v}-1{u}",
                "fee": 10 * (1 + (u + 3 * v) % 7), "status": "open"}  # fmt: skip
    spec = EnvironmentSpec(name="clinic", tools=tools, state_schema=schema)
    return Environment.from_parts(spec, _CLINIC_TOOLS, state)


def test_an_undocumented_search_lists_the_records_its_name_heads() -> None:
    """``search_clinic_visit(user_id)`` lists visits (the head of "clinic visit"), as the
    synthesized tool does; the first noun (clinics) would leave the result unread."""
    spec = _clinic_env().spec
    found = assumed_returns(spec.tool("search_clinic_visit"), spec.state_schema)
    assert found is not None and found["type"] == "array"
    assert {"visit_id", "date", "fee"} <= set(found["items"]["properties"])
    alls = ToolSpec(name="get_user_all_visits", access="read",
                    parameters={"type": "object", "properties": {}})  # fmt: skip
    listed = assumed_returns(alls, spec.state_schema)  # lists visits, not users
    assert listed is not None and "visit_id" in listed["items"]["properties"]


def test_a_qualified_list_serves_only_calls_about_its_kind_of_record() -> None:
    env = _clinic_env()
    state = env.spec.state_schema
    know = knowledge(env.spec, env.initial_state)
    held = {(h.collection, h.attribute): h.held for h in know.holdings.values()}
    assert held[("visits", "visit_id")] is False  # a listing reveals it: internal
    assert {(x.tool, x.qualifier) for x in know.listers["visits"]} == {
        ("search_clinic_visit", "clinic_id"), ("search_lab_visit", "lab_id")}  # fmt: skip
    lab = know.lister("visits", None, env.spec.tool("pay_lab_visit"), state)
    assert lab is not None and lab.tool == "search_lab_visit"
    graph = build_graph(env.spec)
    same = graph.edge("search_clinic_visit", "pay_clinic_visit")
    assert same is not None and same.mapping_for("visit_id") is not None
    other = graph.edge("search_clinic_visit", "pay_lab_visit")
    assert other is None or other.mapping_for("visit_id") is None


def test_visits_acted_on_are_chosen_by_a_condition_over_a_list_of_their_kind(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    env = _clinic_env()
    failed: list[str] = []
    run = pipeline.instantiate

    def recorded(*args: Any, **kwargs: Any) -> Any:
        try:
            return run(*args, **kwargs)
        except GoldFailure as exc:
            failed.append(f"{exc.reason}: {exc.detail}")
            raise

    monkeypatch.setattr(pipeline, "instantiate", recorded)
    tasks, stats = generate_tasks(env, 8, "medium", seed=0)
    assert tasks, stats.rejected
    # no lab visit is paid or cancelled with a clinic visit's key: no visit tool refuses a
    # gold call (an argument a nullable field left empty is another, rarer failure)
    refused = [f for f in failed if f.startswith("gold_error") and "invalid arguments" not in f]
    assert not refused, refused
    chosen = 0
    for task in tasks:
        text = f"{task.scenario.question} {task.scenario.known_info} {task.scenario.intent}"
        visits = task.initial_state["visits"]
        for call in task.gold_calls:
            key = call.arguments.get("visit_id")
            if key is None:
                continue
            assert not re.search(rf"\b{re.escape(key)}\b", text), text
            kind = "clinic_id" if "clinic" in call.name else "lab_id"
            assert visits[key][kind] is not None, (call.name, visits[key])
        chosen += any(
            isinstance(n.args.get("visit_id"), ReasoningRef)
            for n in task.blueprint.calls
            if n.tool.startswith(("pay_", "cancel_"))
        )
    assert chosen, "some write targets a visit chosen by a condition"


def test_a_booking_takes_its_clinic_and_room_off_one_visit_of_the_users() -> None:
    """A booking's clinic and room are read off one visit picked by a condition (said "a new
    visit for the same clinic and room as the visit ..."), never off two; the user's own key
    is never picked off one of their visits (it is theirs) nor said ("with user my
    account")."""
    env = _clinic_env()
    tasks, stats = generate_tasks(env, 12, "medium", seed=1)
    booked = 0
    for task in tasks:
        text = f"{task.scenario.question} {task.scenario.intent}"
        assert "user my account" not in text, text
        creates = [n for n in task.blueprint.calls if n.tool == "create_clinic_visit"]
        said = re.findall(r"the same clinic and room as (?:the|that|my) (?:clinic )?visit",
                          task.scenario.question)  # fmt: skip
        assert len(said) >= len(creates), text  # "that visit": one chosen before
        assert "the visit of the clinic" not in text, text  # a booking is a new visit
        for node in task.blueprint.calls:
            user = node.args.get("user_id")
            assert not isinstance(user, ReasoningRef), (node.tool, user)
            if node.tool != "create_clinic_visit":
                continue
            clinic, room = node.args["clinic_id"], node.args["room_id"]
            # read off the picked visit, or off the write's result on that one visit
            if isinstance(clinic, ReasoningRef | OutputRef) and isinstance(room, type(clinic)):
                assert clinic.node == room.node, node.args
                booked += 1
    assert booked, stats.rejected
