"""Writes the behaviour model reads beyond a target's own fields, run as synthesized code on a
small API written for this test: cascades onto the records that refer to the target, a counter
on the record each of them refers to, a choice parameter that decides the status, a parameter
that becomes a related record's attribute, an appended line that merges by its key, and the
verb forms that move a counter."""

from __future__ import annotations

import asyncio
import copy
import json
from pathlib import Path
from typing import Any

import pytest

from autoforge.cli.llm import llm_config_from_options
from autoforge.env import Environment
from autoforge.env.artifact.behaviour import Value
from autoforge.llm import LLMClient
from autoforge.synth.behaviour.counters import _amount
from autoforge.synth.pipeline import SynthOptions, synthesize
from autoforge.tooldocs import load_docs

HERE = Path(__file__).parent / "behaviour_apis"


@pytest.fixture(scope="module")
def studio(tmp_path_factory: pytest.TempPathFactory) -> tuple[Environment, dict[str, Any]]:
    out = tmp_path_factory.mktemp("studio") / "env"
    docs = load_docs([HERE / "studio_openapi.yaml"])
    data = json.loads((HERE / "studio_db.json").read_text())
    policy = (HERE / "studio_policy.md").read_text()
    client = LLMClient.scripted([], config=llm_config_from_options(llm_model="none"))
    asyncio.run(synthesize(docs, out, client, data=data, options=SynthOptions(policy=policy)))
    return Environment.load(out), data


def _call(env: Environment, data: dict[str, Any], tool: str, **args: Any) -> tuple[bool, Any]:
    ep = env.episode(state=copy.deepcopy(data))
    obs = ep.call(tool, args)
    return obs.ok, ep.snapshot()


def test_every_child_in_a_named_status_takes_the_new_one_and_moves_its_counter(
    studio: Any,
) -> None:
    env, data = studio
    ok, state = _call(env, data, "hold_session", session_id="SE1")
    assert ok and state["sessions"]["SE1"]["status"] == "held"
    su = state["signups"]
    assert su["SU1"]["status"] == "absent" and state["members"]["ME1"]["misses"] == 1
    assert su["SU2"]["status"] == "dropped" and su["SU2"]["dropped_on"] == "2026-03-10"
    # "dropped with a full refund": the waiting signup's credit_paid goes back to its member
    paid = data["signups"]["SU2"]["credit_paid"]
    assert state["members"]["ME2"]["credit"] == data["members"]["ME2"]["credit"] + paid
    assert su["SU3"] == data["signups"]["SU3"]  # attended: not named, untouched
    assert su["SU4"] == data["signups"]["SU4"]  # another session's signup
    assert state["members"]["ME2"]["misses"] == data["members"]["ME2"]["misses"]  # was waiting
    # "no attended signup": refused while a signup of the session is attended
    assert not _call(env, data, "call_off_session", session_id="SE1")[0]
    ok, state = _call(env, data, "call_off_session", session_id="SE2")
    assert ok and state["signups"]["SU4"]["status"] == "dropped"
    assert state["signups"]["SU1"] == data["signups"]["SU1"]


def test_a_choice_parameter_decides_the_status_with_its_stamp(studio: Any) -> None:
    env, data = studio
    for verdict, status in (("grant", "granted"), ("deny", "denied")):
        ok, state = _call(env, data, "review_request", request_id="RQ1", verdict=verdict)
        assert ok and state["requests"]["RQ1"]["status"] == status
        assert state["requests"]["RQ1"]["decided_on"] == "2026-03-10"


def test_a_parameter_becomes_the_attribute_of_the_record_it_is_said_to_become(
    studio: Any,
) -> None:
    env, data = studio
    ok, state = _call(env, data, "grade_signup", signup_id="SU3", level=4)
    assert ok and state["members"]["ME3"]["level"] == 4
    assert state["signups"]["SU3"] == data["signups"]["SU3"]


def test_an_appended_line_merges_by_its_key_and_the_stock_goes_down(studio: Any) -> None:
    env, data = studio
    ok, state = _call(env, data, "add_kit", session_id="SE3", item_id="IT1", count=3)
    assert ok and state["sessions"]["SE3"]["kit"] == [{"item_id": "IT1", "count": 5}]
    assert state["items"]["IT1"]["stock"] == 2
    ok, state = _call(env, data, "add_kit", session_id="SE1", item_id="IT1", count=1)
    assert ok and state["sessions"]["SE1"]["kit"] == [{"item_id": "IT1", "count": 1}]
    assert not _call(env, data, "add_kit", session_id="SE1", item_id="IT1", count=6)[0]


def test_counter_verbs_in_their_other_forms() -> None:
    params = ["loan_id", "qty"]
    one = Value(source="const", const=1)
    assert _amount("Lowers `loans_out` by one.", "loans_out", params) == (-1, one)
    assert _amount("The `count` goes up by one.", "count", params) == (1, one)
    assert _amount("It reduces `stock` by 2.", "stock", params) == (
        -1,
        Value(source="const", const=2),
    )
    s = "`qty` may not exceed the part's `stock`, which goes down by `qty`."
    assert _amount(s, "stock", params) == (-1, Value(source="param", name="qty"))
    assert _amount("`qty` is logged; `stock` goes down.", "stock", params) is None


def test_a_change_the_docs_say_is_recorded_moves_the_number_and_logs_one_entry(
    studio: Any,
) -> None:
    env, data = studio
    ok, state = _call(env, data, "top_up_member", member_id="ME2", amount=10)
    before = data["members"]["ME2"]["credit"]
    assert ok and state["members"]["ME2"]["credit"] == round(before + 10, 2)
    new = [p for k, p in state["payments"].items() if k not in data["payments"]]
    last = max(int(k[2:]) for k in data["payments"])
    assert new == [
        {
            "payment_id": f"PA{last + 1:03d}",
            "member_id": "ME2",
            "kind": "top_up",
            "amount": 10.0,
            "credit_after": round(before + 10, 2),
            "paid_on": "2026-03-10",
        }
    ]
    # "debits `credit_paid`": the signup's amount comes off its member's credit, logged negative
    ok, state = _call(env, data, "charge_signup", signup_id="SU2")
    member = data["signups"]["SU2"]["member_id"]
    after = round(data["members"][member]["credit"] - 7.5, 2)
    assert ok and state["members"][member]["credit"] == after
    (entry,) = [p for k, p in state["payments"].items() if k not in data["payments"]]
    assert (entry["kind"], entry["amount"], entry["credit_after"]) == ("fee", -7.5, after)


def test_a_life_cycle_stamp_is_entered_with_its_status_and_kept_after() -> None:
    from autoforge.synth.behaviour.data import DataEvidence, entered_with

    rows = [("draft", None, None)] * 3 + [("sent", "2026-01-02", None)] * 3
    rows += [("done", "2026-01-02", "2026-01-05")] * 4
    data = {
        "letters": {
            f"L{i}": {"letter_id": f"L{i}", "status": st, "sent_on": a, "done_on": b}
            for i, (st, a, b) in enumerate(rows)
        }
    }
    ev = DataEvidence.of(data)
    assert entered_with(ev, "letters", "status", "sent") == ["sent_on"]
    assert entered_with(ev, "letters", "status", "done") == ["done_on"]
    assert entered_with(ev, "letters", "status", "draft") == []


def test_a_new_records_value_composed_from_a_referenced_record_or_the_arguments() -> None:
    from autoforge.env.artifact.behaviour import ParamInfo, ToolBehaviour
    from autoforge.synth.behaviour.data import Context, DataEvidence
    from autoforge.synth.behaviour.values import value_code as _value
    from autoforge.synth.behaviour.writes import composed_fields
    from autoforge.tooldocs import ToolSpec

    data = {
        "boards": {"BD1": {"board_id": "BD1", "code": "OPS", "next_no": 4, "crew": ["U1"]}},
        "cards": {"CA1": {"card_id": "CA1", "board_id": "BD1", "ref": "OPS-3", "crew": []}},
        "users": {"U1": {"user_id": "U1"}, "U2": {"user_id": "U2"}},
    }
    spec = ToolSpec(
        name="add_card",
        description=(
            "Its `ref` is the board code, a slash and the board's `next_no`. The card's `crew`"
            " is the owner first, then the given `crew` in order (the owner is not repeated)."
        ),
        parameters={"type": "object", "properties": {"board_id": {}, "owner_id": {}, "crew": {}}},
    )
    tb = ToolBehaviour(
        tool="add_card", kind="create", collection="cards",
        params=[ParamInfo(name="board_id", references="boards"),
                ParamInfo(name="owner_id", references="users"), ParamInfo(name="crew")],
    )  # fmt: skip
    got = composed_fields(spec, tb, Context(ev=DataEvidence.of(data), policy=""))
    assert sorted(got) == ["crew", "ref"]
    scope = {"state": data, "board_id": "BD1", "owner_id": "U2", "crew": ["U1", "U2"]}
    assert eval(_value(got["ref"]), scope) == "OPS/4"
    assert eval(_value(got["crew"]), scope) == ["U2", "U1"]


def test_a_copied_amount_moves_onto_a_record_and_is_refunded_back(studio: Any) -> None:
    env, data = studio
    ok, state = _call(env, data, "join_session", member_id="ME2", session_id="SE2")
    new = next(s for k, s in state["signups"].items() if k not in data["signups"])
    assert ok and new["credit_paid"] == 7.5 and new["status"] == "confirmed"
    assert state["members"]["ME2"]["credit"] == data["members"]["ME2"]["credit"] - 7.5
    ok, state = _call(env, data, "join_session", member_id="ME1", session_id="SE2")
    new = next(s for k, s in state["signups"].items() if k not in data["signups"])
    assert ok and new["credit_paid"] == 0  # "0 on the guest tier"
    assert state["members"]["ME1"]["credit"] == data["members"]["ME1"]["credit"]
    ok, state = _call(env, data, "drop_signup", signup_id="SU4")
    back = data["signups"]["SU4"]["credit_paid"]
    assert ok and state["members"]["ME1"]["credit"] == data["members"]["ME1"]["credit"] + back


def test_prices_listed_beside_the_choices_are_added_where_the_docs_say() -> None:
    from autoforge.env.artifact.behaviour import ParamInfo, ToolBehaviour
    from autoforge.synth.behaviour.data import Context, DataEvidence
    from autoforge.synth.behaviour.values import value_code as _value
    from autoforge.synth.behaviour.writes import priced_choices
    from autoforge.tooldocs import ToolSpec

    data = {"cards": {"K1": {"card_id": "K1", "rides": 2, "paid": 0.0}}}
    spec = ToolSpec(
        name="load_card",
        description="`bundle` is 1 or 4 rides, priced 3.00 and 10.50. Adds the price to `paid`.",
        parameters={"type": "object", "properties": {"card_id": {}, "bundle": {}}},
    )
    tb = ToolBehaviour(
        tool="load_card", kind="action", collection="cards", id_param="card_id",
        params=[ParamInfo(name="card_id", references="cards"), ParamInfo(name="bundle")],
    )  # fmt: skip
    (eff,) = priced_choices(spec, tb, Context(ev=DataEvidence.of(data), policy=""))
    assert (eff.kind, eff.attribute) == ("increment", "paid")
    assert eff.value is not None and eval(_value(eff.value), {"bundle": 4}) == 10.5
    spec.description = "`bundle` is 1 or 4 rides. Adds the price to `paid`."
    assert priced_choices(spec, tb, Context(ev=DataEvidence.of(data), policy="")) == []


def test_a_table_keyed_by_a_parameter_guards_and_moves_the_record() -> None:
    from autoforge.env.artifact.behaviour import ParamInfo, ToolBehaviour
    from autoforge.synth.behaviour.data import Context, DataEvidence
    from autoforge.synth.behaviour.tables import keyed_tables
    from autoforge.tooldocs import ToolSpec

    policy = (
        "| step | only from | resulting state | also |\n|---|---|---|---|\n"
        "| pack | open | packed | `packed_on` = today |\n"
        "| ship | packed | shipped | `moves` + 1 |\n"
    )
    rows = [("open", None, 0), ("packed", "2026-01-01", 0), ("shipped", "2026-01-01", 1)]
    data = {
        "crates": {
            f"C{i}": {"crate_id": f"C{i}", "state": st, "packed_on": on, "moves": n}
            for i, (st, on, n) in enumerate(rows)
        }
    }
    spec = ToolSpec(
        name="scan_crate",
        description="",
        parameters={"type": "object", "properties": {"crate_id": {}, "step": {}}},
    )
    tb = ToolBehaviour(
        tool="scan_crate", kind="create", collection="scans",
        params=[ParamInfo(name="crate_id", references="crates"), ParamInfo(name="step")],
    )  # fmt: skip
    ctx = Context(ev=DataEvidence.of(data), policy=policy)
    checks, effects = keyed_tables(spec, tb, ctx)
    assert [(c.kind, c.via, c.table) for c in checks] == [
        ("keyed_from", "param:crate_id", {"pack": ["open"], "ship": ["packed"]})
    ]
    got = [(e.kind, e.attribute or sorted(e.fields), e.when) for e in effects]
    assert got == [
        ("set", ["state"], []),
        ("set", ["packed_on"], ["param:step", "pack"]),
        ("increment", "moves", ["param:step", "ship"]),
    ]


def test_no_model_is_asked_for_tools_the_behaviour_model_writes(tmp_path: Path) -> None:
    from autoforge.llm import RecordedRequest

    asked: list[str] = []

    def answer(req: RecordedRequest) -> Any:
        asked.append(req.purpose)
        return {"code": "raise ToolError('model code')"}

    client = LLMClient.scripted([answer] * 50)
    docs = load_docs([HERE / "studio_openapi.yaml"])
    data = json.loads((HERE / "studio_db.json").read_text())
    report = asyncio.run(synthesize(docs, tmp_path / "env", client, data=data))
    assert asked == []  # with every tool compiled, no synthesis call at all
    assert {t.source for t in report.tools} == {"behaviour"}


def test_a_counter_moved_by_an_amount_of_the_record_acted_on() -> None:
    """ "the member's `balance` goes down by the invoice amount": the amount is the invoice's
    own `amount`, not one; unknown words after "by" keep the old reading."""
    own = (["invoice", "invoices"], ["amount", "total"])
    text = "The invoice becomes paid; the member's `balance` goes down by the invoice amount."
    assert _amount(text, "balance", [], own) == (
        -1, Value(source="formula", const=["target", "amount", 1]))  # fmt: skip
    said = "The member's `balance` is reduced by the invoice's `total`."
    assert _amount(said, "balance", [], own) == (
        -1, Value(source="formula", const=["target", "total", 1]))  # fmt: skip
    assert _amount(text, "balance", []) == (-1, Value(source="const", const=1))
