"""Writes made once a number reaches a bound ("When amount_paid reaches the total the bill
becomes `settled`; otherwise it becomes `partial`"), read after the tool's other writes, on
the target or on a record it reaches."""

from __future__ import annotations

import copy
from typing import Any

from autoforge.env.artifact.behaviour import Effect, ParamInfo, ToolBehaviour
from autoforge.synth.behaviour.compile import _effect_lines
from autoforge.synth.behaviour.data import Context, DataEvidence
from autoforge.synth.behaviour.reached import reached_sets, without_replaced
from autoforge.tooldocs import ToolSpec

DATA: dict[str, Any] = {
    "clients": {"C1": {"client_id": "C1", "strike_count": 2, "status": "good"}},
    "bills": {
        "B1": {"bill_id": "B1", "client_id": "C1", "total": 50.0, "amount_paid": 20.0,
               "status": "partial", "settled_on": None},
        "B2": {"bill_id": "B2", "client_id": "C1", "total": 10.0, "amount_paid": 0.0,
               "status": "open", "settled_on": None},
    },
}  # fmt: skip
TEXT = (
    "When amount_paid reaches the total the bill becomes `settled` and `settled_on` = today; "
    "otherwise it becomes `partial`. The client's `strike_count` goes up by one. When the count "
    "reaches 3 the client's status becomes `barred`."
)
TB = ToolBehaviour(
    tool="pay_bill", kind="action", collection="bills", id_param="bill_id",
    params=[ParamInfo(name="bill_id", references="bills"), ParamInfo(name="amount")],
)  # fmt: skip


def _ctx() -> Context:
    ctx = Context(ev=DataEvidence.of(DATA), policy="")
    ctx.schemas["bills"] = {"status": {"enum": ["open", "partial", "settled"]}}
    ctx.schemas["clients"] = {"status": {"enum": ["good", "barred"]}}
    return ctx


def _pay(bill: str, amount: float) -> dict[str, Any]:
    reached = reached_sets(ToolSpec(name="pay_bill", description=TEXT), TB, _ctx())
    plain = Effect(
        kind="set", collection="bills", fields={"status": {"source": "const", "const": "partial"}}
    )  # type: ignore[dict-item]
    effects = without_replaced([plain], reached) + reached
    state = copy.deepcopy(DATA)
    rec = state["bills"][bill]
    rec["amount_paid"] += amount  # the tool's other writes come first
    state["clients"]["C1"]["strike_count"] += 1
    code = "\n".join(line for e in effects for line in _effect_lines(e, TB))
    exec(code, {"state": state, "_rec": rec, "_today": "2031-01-02"})
    return state


def test_reaching_the_bound_sets_the_status_and_stamp_otherwise_the_other() -> None:
    paid = _pay("B1", 30.0)["bills"]["B1"]
    assert (paid["status"], paid["settled_on"]) == ("settled", "2031-01-02")
    part = _pay("B2", 4.0)["bills"]["B2"]
    assert (part["status"], part["settled_on"]) == ("partial", None)


def test_a_count_reaching_a_number_changes_a_reached_record() -> None:
    assert _pay("B2", 1.0)["clients"]["C1"]["status"] == "barred"
    effects = reached_sets(ToolSpec(name="pay_bill", description=TEXT), TB, _ctx())
    client = next(e for e in effects if e.collection == "clients")
    assert (client.record, client.when) == ("via:client_id", ["strike_count", ">=", 3.0])
