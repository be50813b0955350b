"""Records nothing finds from what a person holds are named by a condition over the list a tool
gives of the user's own records, never by their key; the user's account key, when nothing else
identifies the user, is the one id the user gives."""

from __future__ import annotations

import re
from typing import Any

from autoforge.env import Environment
from autoforge.env.artifact.spec import Attribute, CollectionSchema, EnvironmentSpec, StateSchema
from autoforge.tasks.blueprints.blueprint import OutputRef, ReasoningRef
from autoforge.tasks.graph.merge import user_collection
from autoforge.tasks.model import GoldCall
from autoforge.tasks.pipeline import generate_tasks
from autoforge.tasks.scenario.identity import several_users
from autoforge.tasks.scenario.knowledge import knowledge
from autoforge.tooldocs.spec import ToolSpec

_TRIP_TOOLS = '''
def list_my_bookings(state, user_id):
    """The user's bookings."""
    if user_id not in state["users"]:
        raise ToolError(f"user {user_id} not found")
    return [b for b in state["bookings"].values() if b["user_id"] == user_id]


def get_booking(state, booking_id):
    """Details of a booking."""
    booking = state["bookings"].get(booking_id)
    if booking is None:
        raise ToolError(f"booking {booking_id} not found")
    return booking


def cancel_booking(state, booking_id):
    """Cancel a booking."""
    booking = state["bookings"].get(booking_id)
    if booking is None:
        raise ToolError(f"booking {booking_id} not found")
    booking["status"] = "cancelled"
    return booking
'''


def _string(description: str) -> dict[str, Any]:
    return {"type": "string", "description": description}


def _trip_env() -> Environment:
    """Users known by their id alone; bookings that only a per-user listing reveals (no
    tool finds a booking from something a person holds)."""
    users = CollectionSchema(name="users", primary_key="user_id",
                             attributes=[Attribute(name="user_id", type="id")])  # fmt: skip
    bookings = CollectionSchema(name="bookings", primary_key="booking_id", attributes=[
        Attribute(name="booking_id", type="id"),
        Attribute(name="user_id", type="id", references="users"),
        Attribute(name="city", type="string"), Attribute(name="nights", type="integer"),
        Attribute(name="status", type="string")])  # fmt: skip
    record = {"type": "object", "properties": {
        "booking_id": _string("Booking ID"), "user_id": _string("User ID"),
        "city": _string("City"), "nights": {"type": "integer"},
        "status": _string("Status")}}  # fmt: skip

    def tool(name: str, param: str, access: str, returns: dict[str, Any]) -> ToolSpec:
        params = {"type": "object", "properties": {param: _string(param.replace("_", " "))},
                  "required": [param]}  # fmt: skip
        return ToolSpec(name=name, description=name.replace("_", " "), access=access,
                        parameters=params, returns=returns)  # fmt: skip

    tools = [tool("list_my_bookings", "user_id", "read", {"type": "array", "items": record}),
             tool("get_booking", "booking_id", "read", record),
             tool("cancel_booking", "booking_id", "write", record)]  # fmt: skip
    cities = ["Lisbon", "Oslo", "Kyoto", "Quito", "Perth"]
    state: dict[str, Any] = {"users": {}, "bookings": {}}
    for u in range(6):
        state["users"][f"U{u}"] = {"user_id": f"U{u}"}
        for b in range(3):
            key = f"BK-{u}{b}"
            state["bookings"][key] = {"booking_id": key, "user_id": f"U{u}",
                                      "city": cities[(u + b) % 5], "nights": 1 + (u * 3 + b) % 7,
                                      "status": "confirmed"}  # fmt: skip
    spec = EnvironmentSpec(name="trips", tools=tools,
                           state_schema=StateSchema(collections=[users, bookings]))  # fmt: skip
    return Environment.from_parts(spec, _TRIP_TOOLS, state)


def test_a_key_only_a_listing_of_the_users_records_gives_is_internal() -> None:
    env = _trip_env()
    know = knowledge(env.spec, env.initial_state)
    held = {(h.collection, h.attribute): h for h in know.holdings.values()}
    booking = held[("bookings", "booking_id")]
    assert booking.held is False and "list_my_bookings" in booking.reason
    lister = know.lister("bookings")
    assert lister is not None and (lister.tool, lister.list_path, lister.field) == (
        "list_my_bookings", "", "booking_id")  # fmt: skip
    user = held[("users", "user_id")]
    assert user.held is True and "account key" in user.reason
    assert know.internal_key("bookings") and not know.internal_key("users")


def test_the_users_records_are_named_by_a_condition_never_by_their_key() -> None:
    env = _trip_env()
    tasks, stats = generate_tasks(env, 10, "medium", seed=0)
    assert tasks, stats.rejected
    by_condition = 0
    for task in tasks:
        text = f"{task.scenario.question} {task.scenario.known_info} {task.scenario.intent}"
        keys = {c.arguments["booking_id"] for c in task.gold_calls if "booking_id" in c.arguments}
        assert not any(re.search(rf"\b{re.escape(k)}\b", text) for k in keys), text
        for node in task.blueprint.calls:
            bound = node.args.get("booking_id")
            if node.tool == "cancel_booking" and isinstance(bound, ReasoningRef):
                by_condition += 1
            assert not (isinstance(bound, OutputRef) and bound.path == []), "a key is chosen"
        users = {c.arguments["user_id"] for c in task.gold_calls if "user_id" in c.arguments}
        assert len(users) <= 1  # one user per task: the account the user gives
    assert by_condition, "some cancellation targets a booking chosen by a condition"


def test_a_lister_may_take_optional_filters_but_needs_nothing_but_the_users_key() -> None:
    env = _trip_env()
    record = env.spec.tool("get_booking").returns
    params = {"type": "object", "properties": {"user_id": _string("User ID"),
                                               "city": _string("City")}}  # fmt: skip
    optional = ToolSpec(name="search_bookings", access="read", parameters=params,
                        returns={"type": "array", "items": record})  # fmt: skip
    needs_city = optional.model_copy(
        update={"name": "bookings_in_city", "parameters": {**params, "required": ["city"]}}
    )
    spec = env.spec.model_copy(update={"tools": [t for t in env.spec.tools
                                                 if t.name != "list_my_bookings"]
                                       + [optional, needs_city]})  # fmt: skip
    know = knowledge(spec, env.initial_state)
    assert [x.tool for x in know.listers["bookings"]] == ["search_bookings"]


def test_a_task_that_passes_two_users_keys_is_about_two_accounts() -> None:
    """A user id read off another user's record and passed on would be worded "my account"
    while naming someone else's: such call lists are found (and rejected as
    ``several_users``)."""
    schema = _trip_env().spec.state_schema
    mine = GoldCall(node="f0", name="list_my_bookings", arguments={"user_id": "U1"})
    other = mine.model_copy(update={"node": "c1", "arguments": {"user_id": "U2"}})
    detail = GoldCall(node="c0", name="get_booking", arguments={"booking_id": "BK-20"})
    assert not several_users(schema, [mine, detail, mine])
    assert several_users(schema, [mine, detail, other])
    assert not several_users(StateSchema(collections=[]), [mine, other])  # no user collection


def test_a_tie_between_referenced_collections_goes_to_the_account_holder() -> None:
    """Orders reference their store and their user once each, and neither has a login
    field: the user is the collection named for a person, whatever the schema's order."""

    def coll(name: str, *refs: str) -> CollectionSchema:
        attrs = [Attribute(name=f"{name[:-1]}_id", type="id")]
        attrs += [Attribute(name=f"{r[:-1]}_id", type="id", references=r) for r in refs]
        return CollectionSchema(name=name, primary_key=f"{name[:-1]}_id", attributes=attrs)

    schema = StateSchema(collections=[coll("stores"), coll("users"),
                                      coll("orders", "stores", "users")])  # fmt: skip
    assert user_collection(schema) == "users"


_SESSION_TOOL = '''

def get_my_bookings(state):
    """The signed-in user's bookings."""
    return list(state["bookings"].values())
'''


def _session_env(by: str = "tool") -> Environment:
    """The trips environment where the docs show a session user: an argument-less tool that
    acts for the signed-in user (``by="tool"``), or the listing's ``user_id`` described as
    the logged-in user's (``by="param"``)."""
    env = _trip_env()
    tools = list(env.spec.tools)
    if by == "tool":
        record = env.spec.tool("get_booking").returns
        tools.append(ToolSpec(name="get_my_bookings", access="read",
                              description="All bookings of the signed-in user.",
                              returns={"type": "array", "items": record}))  # fmt: skip
    else:
        lister = env.spec.tool("list_my_bookings")
        params = {"type": "object", "required": ["user_id"], "properties": {
            "user_id": _string("ID of the currently logged-in user")}}  # fmt: skip
        tools[tools.index(lister)] = lister.model_copy(update={"parameters": params})
    spec = env.spec.model_copy(update={"tools": tools})
    code = _TRIP_TOOLS + (_SESSION_TOOL if by == "tool" else "")
    return Environment.from_parts(spec, code, env.initial_state)


def test_the_docs_show_a_session_user_by_a_tool_or_a_parameter() -> None:
    assert knowledge(_trip_env().spec).session is None  # nothing acts for a signed-in user
    for by, evidence in (("tool", "get_my_bookings()"), ("param", "logged-in")):
        know = knowledge(_session_env(by).spec)
        assert know.session is not None and evidence in know.session, know.session
        assert know.session_key()
        user = next(h for h in know.holdings.values() if h.attribute == "user_id"
                    and h.collection == "users")  # fmt: skip
        assert user.held is False and user.reason.startswith("session")


def test_the_session_users_key_goes_to_the_agent_never_into_the_users_words() -> None:
    """With a session user, the account key is episode context the agent is given (as an
    app knows who is signed in); the user neither says it nor is told it."""
    for env, session in ((_session_env(), True), (_trip_env(), False)):
        tasks, stats = generate_tasks(env, 8, "medium", seed=0)
        assert tasks, stats.rejected
        keyed = [t for t in tasks if any("user_id" in c.arguments for c in t.gold_calls)]
        assert keyed
        for task in keyed:
            user = next(c.arguments["user_id"] for c in task.gold_calls if "user_id" in c.arguments)
            text = f"{task.scenario.question} {task.scenario.known_info} {task.scenario.intent}"
            said = bool(re.search(rf"\b{re.escape(user)}\b", text))
            if session:
                assert task.session == {"user_id": user} and not said, text
                assert user not in task.user_facts.values()
                assert f"user_id: {user}" in task.with_session("POLICY")
                # a resumed run recognises the task (its id is its signature over all facts)
                facts = {**task.user_facts, **task.session}
                assert task.id.endswith(task.blueprint.signature(facts)[:12])
            else:
                assert not task.session and said, text
