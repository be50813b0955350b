"""Templates for what the docs make explicit, on a helpdesk API (not shaped like the bookstore
or tau): chosen when every parameter's meaning is documented, not chosen when one is open."""

from __future__ import annotations

from typing import Any

from autoforge.env import Environment
from autoforge.env.artifact.spec import EnvironmentSpec
from autoforge.synth.modelcode.codegen import from_source
from autoforge.synth.modelcode.functions import complete_draft, skeleton_for
from autoforge.synth.modelcode.repair import crash_hints
from autoforge.synth.pipeline import Phase1, _job, _phase1_data
from autoforge.synth.rulecode.doc_rules import DocRule, covered_by_rules
from autoforge.synth.rulecode.doc_templates import documented_list, list_filters, qualified_field
from autoforge.synth.rulecode.open_effects import unmodelled
from autoforge.synth.state.infer import data_to_state, field_paths, infer_schema
from autoforge.tooldocs import ToolDocs
from autoforge.tooldocs.spec import ToolSpec

DATA: dict[str, Any] = {
    "queues": {
        "Q-1": {"queue_id": "Q-1", "name": "Billing", "capacity": 3},
        "Q-2": {"queue_id": "Q-2", "name": "Hardware", "capacity": 5},
    },
    "tickets": {
        f"TK-{i}": {
            "ticket_id": f"TK-{i}",
            "subject": subject,
            "assignee": assignee,
            "priority": priority,
            "escalated": i % 2 == 0,
            "queue_id": "Q-1" if i < 3 else "Q-2",
            "state": state,
            "note": "",
            "seats": [{"queue_id": "Q-1", "count": 2}],
        }
        for i, (subject, assignee, priority, state) in enumerate(
            [
                ("Printer jams daily", "ana", 2, "open"),
                ("Refund for invoice 7", "bo", 1, "open"),
                ("Laptop will not boot", "ana", 3, "closed"),
                ("Printer out of toner", "cy", 1, "waiting"),
            ],
            start=1,
        )
    },
}


def _param(typ: str, desc: str, **extra: Any) -> dict[str, Any]:
    return {"type": typ, "description": desc, **extra}


def _spec(name: str, desc: str, params: dict[str, Any], required: list[str]) -> ToolSpec:
    return ToolSpec(
        name=name,
        description=desc,
        parameters={"type": "object", "properties": params, "required": required},
    )


LIST = _spec(
    "list_tickets",
    "List tickets. Returns the matching tickets sorted by ticket id.",
    {
        "subject": _param("string", "Part of the subject (case-insensitive)."),
        "assignee": _param("string", "Login of the agent the ticket is assigned to."),
        "max_priority": _param("integer", "Only tickets of at most this priority."),
        "escalated_only": _param("boolean", "Only escalated tickets."),
    },
    [],
)
AMBIGUOUS = _spec(
    "list_tickets",
    "List tickets, most relevant first.",
    {"near": _param("string", "Tickets near this one.")},
    [],
)


def _phase1(*tools: ToolSpec, policy: str = "") -> tuple[ToolDocs, Phase1]:
    docs = ToolDocs(domain="helpdesk", tools=list(tools), policy=policy)
    return docs, _phase1_data(docs, DATA)


def _run(source: str, spec: ToolSpec, args: dict[str, Any]) -> Any:
    state, _ = data_to_state(DATA)
    env_spec = EnvironmentSpec(name="t", tools=[spec], state_schema=infer_schema(state))
    env = Environment.from_parts(
        env_spec, from_source(source, spec.name).source, initial_state=state
    )
    ep = env.episode()
    obs = ep.call(spec.name, args)
    return obs.result if obs.ok else obs.error_kind, ep


def test_documented_list_filters_as_the_docs_say() -> None:
    state, _ = data_to_state(DATA)
    schema = infer_schema(state)
    coll = schema.collection("tickets")
    assert coll is not None
    paths = field_paths(state["tickets"].values())
    ops = {f.param: f.op for f in list_filters(LIST, coll, paths) or []}
    assert ops == {
        "subject": "contains_ci",  # "Part of the subject (case-insensitive)"
        "assignee": "eq",  # nothing says partial: exact
        "max_priority": "le",
        "escalated_only": "true",
    }
    source = documented_list(LIST, coll, paths)
    assert source is not None
    got, _ = _run(source, LIST, {"subject": "PRINTER"})
    assert [t["ticket_id"] for t in got] == ["TK-1", "TK-4"]
    got, _ = _run(source, LIST, {"assignee": "an"})  # no substring match for an exact field
    assert got == []
    got, _ = _run(source, LIST, {"max_priority": 1, "escalated_only": True})
    assert [t["ticket_id"] for t in got] == ["TK-2", "TK-4"]


def test_list_template_is_not_chosen_when_a_parameter_or_the_order_is_open() -> None:
    state, _ = data_to_state(DATA)
    coll = infer_schema(state).collection("tickets")
    assert coll is not None
    paths = field_paths(state["tickets"].values())
    assert documented_list(AMBIGUOUS, coll, paths) is None  # "near": no documented meaning
    by_relevance = LIST.model_copy(update={"description": "List tickets sorted by relevance."})
    assert documented_list(by_relevance, coll, paths) is None  # no attribute "relevance"
    flag = _spec("list_tickets", "List.", {"urgent_only": _param("boolean", "Urgent.")}, [])
    assert documented_list(flag, coll, paths) is None  # no attribute "urgent"


CLOSE = _spec(
    "close_ticket",
    "Close a ticket that is still open. Closed tickets cannot be closed again.",
    {"ticket_id": _param("string", "Id of the ticket.")},
    ["ticket_id"],
)


def test_documented_transition_is_a_complete_draft_with_its_guard() -> None:
    docs, p1 = _phase1(CLOSE)
    job, _ = _job(CLOSE, p1, docs, None)
    code = complete_draft(job)
    assert code is not None
    got, _ = _run(code.source, CLOSE, {"ticket_id": "TK-1"})
    assert got["state"] == "closed"  # a status value the data shows
    refused, _ = _run(code.source, CLOSE, {"ticket_id": "TK-4"})  # "waiting": not open
    assert refused == "tool_error"


def test_transition_to_a_status_nobody_names_goes_to_the_model() -> None:
    spec = _spec(
        "escalate_ticket",
        "Escalate a ticket that is still open.",
        {"ticket_id": _param("string", "Id of the ticket.")},
        ["ticket_id"],
    )
    docs, p1 = _phase1(spec)
    job, _ = _job(spec, p1, docs, None)
    assert complete_draft(job) is None  # "escalateed" is a guess: neither data nor docs say it


def test_transition_with_an_effect_the_state_holds_goes_to_the_model() -> None:
    spec = CLOSE.model_copy(
        update={"description": CLOSE.description + " The queue capacity is increased by one."}
    )
    docs, p1 = _phase1(spec)
    job, _ = _job(spec, p1, docs, None)
    assert complete_draft(job) is None
    assert "capacity is increased" in skeleton_for(job)  # still a TODO for the model


def test_effect_on_something_the_state_does_not_hold_is_no_todo() -> None:
    state, _ = data_to_state(DATA)
    schema = infer_schema(state)
    assert unmodelled("the customer is notified by text message", schema)
    assert not unmodelled("the queue capacity is increased", schema)


def test_entries_go_back_into_the_named_field() -> None:
    spec = _spec(
        "close_ticket",
        "Close a ticket that is still open. Its queues go back into capacity.",
        {"ticket_id": _param("string", "Id of the ticket.")},
        ["ticket_id"],
    )
    docs, p1 = _phase1(spec)
    job, _ = _job(spec, p1, docs, None)
    code = complete_draft(job)
    assert code is not None
    _, ep = _run(code.source, spec, {"ticket_id": "TK-1"})
    assert ep.snapshot()["queues"]["Q-1"]["capacity"] == 5  # 3 + the entry's count 2


def test_partial_update_and_move_change_only_what_is_given() -> None:
    spec = _spec(
        "move_ticket",
        "Move a ticket to another queue and optionally reassign it.",
        {
            "ticket_id": _param("string", "Id of the ticket."),
            "destination_queue_id": _param("string", "Queue to move it to."),
            "assignee": _param("string", "New assignee."),
        },
        ["ticket_id", "destination_queue_id"],
    )
    docs, p1 = _phase1(spec)
    coll = p1.schema.collection("tickets")
    assert coll is not None and qualified_field(coll, "destination_queue_id") == "queue_id"
    job, _ = _job(spec, p1, docs, None)
    code = complete_draft(job)
    assert code is not None
    got, _ = _run(code.source, spec, {"ticket_id": "TK-1", "destination_queue_id": "Q-2"})
    assert got["queue_id"] == "Q-2" and got["assignee"] == "ana"  # not given: unchanged
    assert set(got) == set(DATA["tickets"]["TK-1"])  # no new attribute
    unknown, _ = _run(code.source, spec, {"ticket_id": "TK-1", "destination_queue_id": "Q-9"})
    assert unknown == "tool_error"


def test_refusal_sentences_already_guarded_are_covered() -> None:
    rule = DocRule(
        tool="close_ticket",
        kind="status",
        param="ticket_id",
        collection="tickets",
        attribute="state",
        allowed=["open"],
        sentence="Close a ticket that is still open.",
        source="description",
    )
    statuses = ["open", "closed", "waiting"]
    assert covered_by_rules("Closed tickets cannot be closed again.", [rule], statuses)
    assert not covered_by_rules("Open tickets cannot be closed.", [rule], statuses)
    assert not covered_by_rules(
        "Closed tickets cannot be reopened and the fee is refunded.", [rule], statuses
    )


def test_crash_hints_point_at_the_line_and_the_record_that_has_the_key() -> None:
    state, _ = data_to_state(DATA)
    code = "def f(state, ticket_id):\n    t = state['tickets'][ticket_id]\n    return t['capacity']"
    hints = crash_hints(code, ["runs: f failed: KeyError: 'capacity'"], state, {"x": 1})
    assert len(hints) == 1
    assert "return t['capacity']" in hints[0] and "queues records" in hints[0]
    none = crash_hints(code, ["runs: f failed: KeyError: 'colour'"], state, {})
    assert "No record and no argument" in none[0]


def test_create_draft_reads_each_named_record_and_is_never_a_fallback() -> None:
    from autoforge.synth.modelcode.create_draft import CREATE_TODO
    from autoforge.synth.modelcode.functions import _try_skeleton
    from autoforge.synth.modelcode.prompts import tool_doc

    entry = {"type": "object", "properties": {"queue_id": {"type": "string"}, "count": {}}}
    spec = _spec(
        "create_ticket",
        "Create a ticket. Its priority is the total of the queues' capacity.",
        {
            "subject": _param("string", "Subject."),
            "seats": _param("array", "Queues to book.", items=entry),
        },
        ["subject", "seats"],
    )
    docs, p1 = _phase1(spec)
    job, c = _job(spec, p1, docs, None)
    assert c.cls == "create" and not c.plain
    draft = skeleton_for(job)
    assert CREATE_TODO in draft and "priority is the total" in draft  # the effect is a TODO
    assert "queue = state.get('queues', {}).get(str(entry.get('queue_id')))" in draft
    assert _try_skeleton(job) == (None, [])  # an unfinished create is no tool
    unknown, _ = _run(draft, spec, {"subject": "x", "seats": [{"queue_id": "Q-9", "count": 1}]})
    assert unknown == "tool_error"
    got, _ = _run(draft, spec, {"subject": "x", "seats": [{"queue_id": "Q-1", "count": 1}]})
    assert got["ticket_id"] == "TK-5" and got["subject"] == "x"  # next key, field stored
    assert "array of object {queue_id: string, count: any}" in tool_doc(spec)


def test_repair_prompt_carries_the_hints() -> None:
    from autoforge.synth.modelcode.prompts import repair_messages

    msgs = repair_messages([], "def f(state): pass", ["runs: crash"], ["KeyError 'x' comes from"])
    assert "Where it fails:\n- KeyError 'x' comes from" in msgs[-1]["content"]
    assert "do not send the same function again" in msgs[-1]["content"]


def test_documented_list_leaves_big_id_keyed_maps_out() -> None:
    from autoforge.env.artifact.spec import Attribute, CollectionSchema

    coll = CollectionSchema(
        name="products",
        primary_key="product_id",
        attributes=[
            Attribute(name="product_id", type="id"),
            Attribute(name="name", type="string"),
            Attribute(name="variants", type="object", description="map from id to variant"),
        ],
    )
    spec = _spec("list_all_products", "List all products.", {}, [])
    source = documented_list(spec, coll, {"product_id": ["product_id"], "name": ["name"]})
    assert source is not None and "not in ['variants']" in source


MON, TUE = "2025-03-03", "2025-03-04"


def test_a_parameter_keying_a_per_value_map_filters_and_merges_its_entry() -> None:
    """A meeting-room API: each room has a ``days`` map from a day to that day's booking
    state; ``search_rooms(building, day)`` keeps the rooms with an entry for the day and
    returns each room as it stands on that day (the map replaced by the entry)."""
    rooms = {
        f"R{i}": {
            "room_id": f"R{i}",
            "building": building,
            "days": {d: {"state": "free", "seats": i} for d in days},
        }
        for i, (building, days) in enumerate(
            [("north", [MON, TUE]), ("north", [TUE]), ("south", [MON])], start=1
        )
    }
    state, _ = data_to_state({"rooms": rooms})
    coll = infer_schema(state).collection("rooms")
    assert coll is not None
    spec = _spec(
        "search_rooms",
        "Search the rooms of a building on a day.",
        {"building": _param("string", "Building name."), "day": _param("string", "The day.")},
        ["building"],
    )
    paths = field_paths(state["rooms"].values())
    assert [f.op for f in list_filters(spec, coll, paths) or []] == ["eq", "entry"]
    source = documented_list(spec, coll, paths)
    assert source is not None
    env = Environment.from_parts(
        EnvironmentSpec(name="t", tools=[spec], state_schema=infer_schema(state)),
        from_source(source, spec.name).source,
        initial_state=state,
    )
    out = env.episode().call("search_rooms", {"building": "north", "day": MON})
    assert out.ok
    assert out.result == [{"room_id": "R1", "building": "north", "state": "free", "seats": 1}]
    whole = env.episode().call("search_rooms", {"building": "south"})  # no day: whole records
    assert whole.result == [rooms["R3"]]
    # a parameter whose plural is no map attribute stays open: no template
    other = spec.model_copy(
        update={"name": "search_slots", "parameters": {**spec.parameters, "properties": {
            "building": _param("string", "Building name."), "slot": _param("string", "Slot.")
        }, "required": ["building"]}}
    )  # fmt: skip
    assert documented_list(other, coll, paths) is None


def test_list_twins_get_no_template() -> None:
    """Two list tools over the same collection with the same parameters differ by what their
    names and descriptions say (open vs. closed, direct vs. one-stop); one template would answer
    both alike, so neither gets it. A list tool without such a twin keeps its template."""
    from autoforge.synth.modelcode.functions import _try_template

    open_ = _spec(
        "list_open_tickets",
        "List the open tickets of an agent.",
        {"assignee": _param("string", "Login of the agent the ticket is assigned to.")},
        ["assignee"],
    )
    closed = open_.model_copy(
        update={
            "name": "list_closed_tickets",
            "description": "List the closed tickets of an agent.",
        }
    )
    docs, p1 = _phase1(open_, closed)
    job, c = _job(open_, p1, docs, None)
    assert c.cls == "list" and job.twins == ("list_closed_tickets",)
    assert _try_template(job) == (None, [])
    docs, p1 = _phase1(open_)
    job, _ = _job(open_, p1, docs, None)
    code, results = _try_template(job)
    assert job.twins == () and code is not None and results
