"""Writes and rules stated in plain words, read without a model, end to end on an invented
boat-yard API: an amount with no "by" ("Adds to `paid_so_far`"), a credit the tool's name
places ("Credits `amount`" on ``load_credit``), a status entered once an amount reaches its
goal (the data shows which), a rule about one optional parameter, a run of statuses joined by
"or in", a value set in one code span (```yard: south```), a reference set from the
parameter it ends with, "refused for <status> <noun>s", a policy section's counters (a
multiple in words; not one about some calls only: "A rushed closing adds ..."), and a
statuses list that names another tool's verb ("closed ... jobs cannot be voided" is not
closing's rule), ``new_date`` setting the ``haul_date`` the description names, an action
allowed only on the record's own day, "`moved_on` (today)", "Adds `extra` places (1 to 9) to
`free_spots`", and a date every record of a collection without a status holds being today on
a new one."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest

from autoforge.cli.llm import llm_config_from_options
from autoforge.env import Environment
from autoforge.llm import LLMClient
from autoforge.synth.options import SynthOptions
from autoforge.synth.pipeline import synthesize
from autoforge.tooldocs import load_docs


def _ref(name: str) -> dict[str, Any]:
    return {"$ref": f"#/components/schemas/{name}"}


def _op(op_id: str, summary: str, desc: str, body: dict[str, Any] | None, reply: str,
        path_param: str) -> dict[str, Any]:  # fmt: skip
    op: dict[str, Any] = {
        "operationId": op_id, "summary": summary, "description": desc,
        "parameters": [{"name": path_param, "in": "path", "required": True,
                        "schema": {"type": "string"}}],
        "responses": {"200": {"description": "ok",
                              "content": {"application/json": {"schema": _ref(reply)}}}},
    }  # fmt: skip
    if body is not None:
        op["requestBody"] = {"required": True, "content": {"application/json": {"schema": body}}}
    return op


def _obj(props: dict[str, Any], required: list[str] | None = None) -> dict[str, Any]:
    return {"type": "object", "properties": props, "required": required or []}


_SCHEMAS = {
    "Account": _obj({"acct_id": {"type": "string"}, "name": {"type": "string"},
                     "status": {"type": "string", "enum": ["active", "frozen"]},
                     "store_credit": {"type": "number"}}),
    "Bill": _obj({"bill_id": {"type": "string"}, "acct_id": {"type": "string"},
                  "job_id": {"type": "string"},
                  "kind": {"type": "string", "enum": ["deposit", "final"]},
                  "amount": {"type": "number"}, "paid_so_far": {"type": "number"},
                  "status": {"type": "string", "enum": ["unpaid", "cleared"]}}),
    "Berth": _obj({"berth_id": {"type": "string"}, "capacity": {"type": "integer"},
                   "free_spots": {"type": "integer"}}),
    "Job": _obj({"job_id": {"type": "string"}, "acct_id": {"type": "string"},
                 "pay_status": {"type": "string", "enum": ["due", "settled"]},
                 "status": {"type": "string",
                            "enum": ["queued", "hauled", "closed", "void", "parked"]},
                 "yard": {"type": "string", "enum": ["north", "south"]},
                 "slip_berth_id": {"type": "string", "nullable": True},
                 "notes": {"type": "string"}, "express": {"type": "boolean"},
                 "hull_len": {"type": "number"},
                 "haul_date": {"type": "string", "format": "date"},
                 "moved_on": {"type": "string", "format": "date", "nullable": True}}),
    "Log": _obj({"log_id": {"type": "string"}, "job_id": {"type": "string"},
                 "text": {"type": "string"},
                 "kind": {"type": "string", "enum": ["note", "alert"]},
                 "logged_on": {"type": "string", "format": "date"}}),
}  # fmt: skip

_PATHS = {
    "/bills/{bill_id}/payments": {"post": _op(
        "pay_bill", "Pay towards a bill",
        "Only `unpaid` bills. Adds to paid_so_far and lowers the account's store_credit; a "
        "payment that covers the bill marks it `cleared`.",
        _obj({"amount": {"type": "number"}}, ["amount"]), "Bill", "bill_id")},
    "/accounts/{acct_id}/credit": {"post": _op(
        "load_credit", "Load store credit onto an account",
        "Credits `amount`. Refused for frozen accounts.",
        _obj({"amount": {"type": "number"}}, ["amount"]), "Account", "acct_id")},
    "/jobs/{job_id}": {"patch": _op(
        "edit_job", "Edit a job",
        "Only a job that is still `queued` or in `hauled` can be edited. `express` is only "
        "accepted while the job is `queued`.",
        _obj({"notes": {"type": "string"}, "express": {"type": "boolean"}}), "Job", "job_id")},
    "/jobs/{job_id}/slip": {"put": _op(
        "assign_slip", "Put a job on a berth", "Sets `yard: south` and `slip_berth_id`.",
        _obj({"berth_id": {"type": "string"}}, ["berth_id"]), "Job", "job_id")},
    "/jobs/{job_id}/haul": {"post": _op(
        "haul_job", "Haul a boat out", "Only `queued` jobs. Sets status `hauled`.",
        None, "Job", "job_id")},
    "/jobs/{job_id}/void": {"post": _op(
        "void_job", "Void a job", "Sets status `void`.", None, "Job", "job_id")},
    "/berths": {"post": {
        "operationId": "add_berth", "summary": "Add a berth",
        "description": "Adds a berth (next id) with `free_spots` = `capacity` = `spots`.",
        "requestBody": {"required": True, "content": {"application/json": {
            "schema": _obj({"spots": {"type": "integer"}}, ["spots"])}}},
        "responses": {"201": {"description": "ok",
                              "content": {"application/json": {"schema": _ref("Berth")}}}}}},
    "/jobs/{job_id}/bill": {"post": _op(
        "bill_job", "Bill a job", "Creates a `final` bill for the job.", None, "Bill",
        "job_id")},
    "/jobs/{job_id}/reopen": {"post": _op(
        "reopen_job", "Reopen a job", "void -> queued.", None, "Job", "job_id")},
    "/jobs/{job_id}/park": {"post": _op(
        "mark_parked", "Record that the boat waits ashore", "Only `queued` jobs.", None,
        "Job", "job_id")},
    "/jobs/{job_id}/flag": {"post": _op(
        "flag_job", "Flag a job's owner", "Marks the account `frozen`.", None, "Job",
        "job_id")},
    "/accounts/{acct_id}/activation": {"post": _op(
        "activate_account", "Lift a freeze", "Only `frozen` accounts.", None, "Account",
        "acct_id")},
    "/jobs/{job_id}/move": {"post": _op(
        "move_job", "Move a haul-out to another day",
        "On success `haul_date` changes and sets `moved_on` (today).",
        _obj({"new_date": {"type": "string", "format": "date"}}, ["new_date"]), "Job",
        "job_id")},
    "/jobs/{job_id}/launch": {"post": _op(
        "launch_job", "Put the boat back in the water",
        "Only `hauled` jobs, and only on the job's haul date itself.", None, "Job", "job_id")},
    "/jobs/{job_id}/prep": {"post": _op(
        "prep_job", "Prepare a haul-out", "Only `queued` jobs; best done only on the day before "
        "the haul date.", None, "Job", "job_id")},
    "/berths/{berth_id}/spots": {"post": _op(
        "widen_berth", "Open more places on a berth", "Adds `extra` places (1 to 9) to "
        "`free_spots`.", _obj({"extra": {"type": "integer"}, "max_len": {"type": "integer"}},
                              ["extra"]), "Berth", "berth_id")},
    "/logs": {"post": {
        "operationId": "add_log", "summary": "Log a note on a job",
        "description": "Writes a log entry of kind `note` for the job.",
        "requestBody": {"required": True, "content": {"application/json": {
            "schema": _obj({"job_id": {"type": "string"}, "text": {"type": "string"}},
                           ["job_id", "text"])}}},
        "responses": {"201": {"description": "ok",
                              "content": {"application/json": {"schema": _ref("Log")}}}}}},
    "/jobs/{job_id}/close": {"post": _op(
        "close_job", "Close a finished job", "Sets status `closed`.", None, "Job", "job_id")},
}  # fmt: skip

_POLICY = """# Yard desk

Hauled, closed and already void jobs cannot be voided. Every bill the desk raises has
`paid_so_far` 0.0 and status `unpaid`.

## Closing (close_job)
- The account's store_credit goes up by twice the job's hull_len.
- A rushed closing adds 5 to the account's store_credit.
- void_job: the account's store_credit goes down by 1.
"""


def _data() -> dict[str, Any]:
    accounts = {f"A{i}": {"acct_id": f"A{i}", "name": f"Owner {i}",
                          "status": "frozen" if i == 3 else "active",
                          "store_credit": 100.0 + i} for i in range(1, 7)}  # fmt: skip
    bills = {}
    for i in range(1, 9):
        cleared = i % 2 == 0
        amount = 40.0 + i
        bills[f"B{i}"] = {"bill_id": f"B{i}", "acct_id": f"A{1 + i % 5}", "job_id": f"J{i}",
                          "kind": "deposit" if i < 4 else "final", "amount": amount,
                          "paid_so_far": amount if cleared else 10.0,
                          "status": "cleared" if cleared else "unpaid"}  # fmt: skip
    states = ["queued", "hauled", "closed", "void"]
    jobs = {f"J{i}": {"job_id": f"J{i}", "acct_id": f"A{1 + i % 5}", "pay_status": "due",
                      "status": states[(i - 1) % 4],
                      "yard": "north", "slip_berth_id": None, "notes": "", "express": False,
                      "hull_len": 8.0 + i, "haul_date": f"2031-03-{10 + i}", "moved_on": None}
            for i in range(1, 13)}  # fmt: skip
    logs = {f"L{i}": {"log_id": f"L{i}", "job_id": f"J{i}", "text": f"Checked hull {i}",
                      "kind": "alert" if i % 3 == 0 else "note",
                      "logged_on": f"2031-02-{10 + i}"} for i in range(1, 7)}  # fmt: skip
    berths = {f"S{i}": {"berth_id": f"S{i}", "capacity": 2, "free_spots": 2 - i % 2}
              for i in range(1, 5)}  # fmt: skip
    return {"meta": {"today": "2031-03-02"}, "accounts": accounts, "bills": bills,
            "berths": berths, "jobs": jobs, "logs": logs}  # fmt: skip


@pytest.fixture(scope="module")
def env(tmp_path_factory: pytest.TempPathFactory) -> Environment:
    root = tmp_path_factory.mktemp("yard")
    doc = root / "openapi.json"
    spec = {"openapi": "3.0.3", "info": {"title": "Boat yard", "version": "1"},
            "paths": _PATHS, "components": {"schemas": _SCHEMAS}}  # fmt: skip
    doc.write_text(json.dumps(spec), encoding="utf-8")
    client = LLMClient.scripted([], config=llm_config_from_options(llm_model="none"))
    asyncio.run(synthesize(load_docs([doc]), root / "env", client, data=_data(),
                           options=SynthOptions(policy=_POLICY)))  # fmt: skip
    return Environment.load(root / "env")


def _call(env: Environment, tool: str, **args: Any) -> tuple[bool, dict[str, Any]]:
    ep = env.episode(state=_data())
    obs = ep.call(tool, args)
    return obs.ok, ep.snapshot()


def test_a_payment_adds_to_the_bill_and_clears_it_only_when_covered(env: Environment) -> None:
    ok, state = _call(env, "pay_bill", bill_id="B1", amount=5.0)  # 41.00 due, 10.00 paid
    bill = state["bills"]["B1"]
    assert ok and bill["paid_so_far"] == 15.0 and bill["amount"] == 41.0
    assert bill["status"] == "unpaid"
    assert state["accounts"]["A2"]["store_credit"] == 97.0
    ok, state = _call(env, "pay_bill", bill_id="B1", amount=31.0)
    assert ok and state["bills"]["B1"]["status"] == "cleared"


def test_credit_goes_onto_the_balance_the_tool_names(env: Environment) -> None:
    ok, state = _call(env, "load_credit", acct_id="A1", amount=25.0)
    assert ok and state["accounts"]["A1"]["store_credit"] == 126.0
    assert not _call(env, "load_credit", acct_id="A3", amount=25.0)[0]  # frozen


def test_a_rule_on_one_optional_field_bounds_only_calls_that_give_it(env: Environment) -> None:
    # J1 queued, J2 hauled, J3 closed
    assert _call(env, "edit_job", job_id="J2", notes="keel scraped")[0]
    assert not _call(env, "edit_job", job_id="J2", express=True)[0]
    assert _call(env, "edit_job", job_id="J1", express=True)[0]
    assert not _call(env, "edit_job", job_id="J3", notes="late")[0]


def test_a_value_in_one_code_span_and_a_reference_from_its_parameter(env: Environment) -> None:
    ok, state = _call(env, "assign_slip", job_id="J1", berth_id="S2")
    job = state["jobs"]["J1"]
    assert ok and job["yard"] == "south" and job["slip_berth_id"] == "S2"


def test_a_status_list_naming_another_verb_is_not_that_tools_rule(env: Environment) -> None:
    assert _call(env, "close_job", job_id="J2")[0]  # "closed ... cannot be voided": not close's
    assert _call(env, "haul_job", job_id="J1")[0]
    assert not _call(env, "void_job", job_id="J2")[0]  # hauled jobs cannot be voided
    assert _call(env, "void_job", job_id="J1")[0]


def test_the_policy_section_moves_counters_but_not_another_tools_item(env: Environment) -> None:
    ok, state = _call(env, "close_job", job_id="J2")  # A3, hull 10
    assert ok and state["accounts"]["A3"]["store_credit"] == 103.0 + 20.0
    ok, state = _call(env, "void_job", job_id="J1")  # void's item is not close's
    assert ok


def test_a_record_opened_in_another_collection_gets_its_kind_and_start_values(
    env: Environment,
) -> None:
    ok, state = _call(env, "bill_job", job_id="J2")
    new = [b for k, b in state["bills"].items() if k not in _data()["bills"]]
    assert ok and len(new) == 1
    assert new[0]["job_id"] == "J2" and new[0]["kind"] == "final"
    assert new[0]["paid_so_far"] == 0.0 and new[0]["status"] == "unpaid"


def test_statuses_said_by_arrow_by_name_by_marking_and_by_verb(env: Environment) -> None:
    # the status is "status", not the first enum holding the word ("pay_status")
    ok, state = _call(env, "reopen_job", job_id="J4")  # void -> queued
    assert ok and state["jobs"]["J4"]["status"] == "queued"
    ok, state = _call(env, "mark_parked", job_id="J1")  # the name's remainder is a status
    assert ok and state["jobs"]["J1"]["status"] == "parked"
    ok, state = _call(env, "flag_job", job_id="J1")  # "marks the account `frozen`"
    assert ok and state["accounts"]["A2"]["status"] == "frozen"
    ok, state = _call(env, "activate_account", acct_id="A3")  # activate: active
    assert ok and state["accounts"]["A3"]["status"] == "active"


def test_a_chain_of_equalities_gives_each_attribute_the_value(env: Environment) -> None:
    ok, state = _call(env, "add_berth", spots=3)
    new = [b for k, b in state["berths"].items() if k not in _data()["berths"]]
    assert ok and len(new) == 1 and new[0]["capacity"] == 3 and new[0]["free_spots"] == 3


def test_a_new_value_goes_to_the_attribute_its_name_ends(env: Environment) -> None:
    ok, state = _call(env, "move_job", job_id="J1", new_date="2031-04-01")
    assert ok and state["jobs"]["J1"]["haul_date"] == "2031-04-01"
    assert state["jobs"]["J1"]["moved_on"] == _data()["meta"]["today"]  # "`moved_on` (today)"


def test_a_counted_argument_with_its_unit_and_range_is_added(env: Environment) -> None:
    ok, state = _call(env, "widen_berth", berth_id="S1", extra=3)  # "Adds `extra` places (..) to"
    assert ok and state["berths"]["S1"]["free_spots"] == _data()["berths"]["S1"]["free_spots"] + 3


def test_a_date_every_record_of_a_statusless_collection_holds_is_today(env: Environment) -> None:
    ok, state = _call(env, "add_log", job_id="J2", text="Keel scraped")
    new = [r for k, r in state["logs"].items() if k not in _data()["logs"]]
    assert ok and len(new) == 1 and new[0]["logged_on"] == _data()["meta"]["today"], new


def test_an_action_allowed_only_on_the_records_own_day(env: Environment) -> None:
    data = _data()
    data["jobs"]["J2"]["haul_date"] = data["meta"]["today"]  # J2 and J6 are hauled
    ep = env.episode(state=data)
    assert ep.call("launch_job", {"job_id": "J2"}).ok
    assert not ep.call("launch_job", {"job_id": "J6"}).ok  # its haul date is another day
    assert ep.call("prep_job", {"job_id": "J1"}).ok  # "the day before": not the record's day


def test_a_stamp_follows_the_status_the_record_moves_into() -> None:
    from autoforge.synth.behaviour.text import stamp_condition

    said = "`status: hauled` moves a `queued` job into hauled and sets `hauled_on` to today."
    assert stamp_condition(said, "hauled_on", ["queued", "hauled", "closed"]) == "hauled"
    said = "Moving to `closed` also sets `closed_on` to today."
    assert stamp_condition(said, "closed_on", ["queued", "hauled", "closed"]) == "closed"


def test_a_change_no_parameter_points_at_is_a_failed_tool_not_crashing_code() -> None:
    from autoforge.env import BehaviourModel, Effect, ParamInfo, ToolBehaviour, Value
    from autoforge.synth.behaviour.run import fill_missing
    from autoforge.tooldocs import ToolDocs, ToolSpec

    tb = ToolBehaviour(
        tool="set_rates", kind="update", collection="berths", id_param=None,
        params=[ParamInfo(name="rate", required=True, number=True)],
        effects=[Effect(kind="set", record="target", collection="berths", only_given=True,
                        fields={"rate": Value(source="param", name="rate")})],
    )  # fmt: skip
    docs = ToolDocs(tools=[ToolSpec(name="set_rates", description="Set the berth rate.")])
    [rec] = fill_missing(docs, [], BehaviourModel(tools=[tb]), {})
    assert rec.code is None and rec.report.status == "failed"
    assert "no parameter names the berths record" in rec.report.reason
