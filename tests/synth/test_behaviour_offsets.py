"""Date offsets the data shows and no sentence states, on data written for this test: an
invoice is due 14 days after it is issued; a subscription renews a term after it starts, the
term's length set by its plan; a trial ends after its own number of days. A create that sets
the first date computes the second; a date only some records carry is not an offset."""

from __future__ import annotations

import copy
from typing import Any

from autoforge.env import Value
from autoforge.synth.behaviour.data import DataEvidence
from autoforge.synth.behaviour.dates import days_after_expr, helper_lines
from autoforge.synth.behaviour.offsets import DateOffset, learn_offsets, offset_values


def _plus(day: str, n: int) -> str:
    y, m, d = (int(x) for x in day.split("-"))
    import datetime as dt

    return (dt.date(y, m, d) + dt.timedelta(days=n)).isoformat()


def _data() -> dict[str, Any]:
    plans = {"PL1": {"plan_id": "PL1", "term": "month"}, "PL2": {"plan_id": "PL2", "term": "year"},
             "PL3": {"plan_id": "PL3", "term": "month"}}  # fmt: skip
    length = {"month": 30, "year": 365}
    subs, invoices, trials = {}, {}, {}
    for i in range(12):
        start = _plus("2026-01-03", 7 * i)
        plan = f"PL{i % 3 + 1}"
        subs[f"S{i}"] = {"sub_id": f"S{i}", "plan_id": plan, "started_on": start,
                         "renews_on": _plus(start, length[plans[plan]["term"]]),
                         "cancelled_on": _plus(start, 3) if i % 4 == 0 else None}  # fmt: skip
        invoices[f"I{i}"] = {"invoice_id": f"I{i}", "issued_on": start, "due_on": _plus(start, 14)}
        trials[f"T{i}"] = {"trial_id": f"T{i}", "begins": start, "days": 5 + i % 4,
                           "ends": _plus(start, 5 + i % 4)}  # fmt: skip
    return {"meta": {"today": "2026-06-01"}, "plans": plans, "subscriptions": subs,
            "invoices": invoices, "trials": trials}  # fmt: skip


def test_fixed_keyed_and_own_number_offsets_are_learned() -> None:
    got = {(o.collection, o.start, o.end): o for o in learn_offsets(DataEvidence.of(_data()))}
    assert got[("invoices", "issued_on", "due_on")].days == 14
    sub = got[("subscriptions", "started_on", "renews_on")]
    assert (sub.key, sub.via, sub.table) == (
        "term",
        ("plan_id", "plans"),
        {"month": 30, "year": 365},
    )
    assert got[("trials", "begins", "ends")].by == "days"
    # cancelled_on is 3 days after the start wherever it is set, but few records carry it
    assert ("subscriptions", "started_on", "cancelled_on") not in got


def test_an_offset_that_does_not_hold_is_not_learned() -> None:
    data = _data()
    for k, inv in data["invoices"].items():  # due dates scattered
        inv["due_on"] = _plus(inv["issued_on"], 10 + int(k[1:]))
    assert not [o for o in learn_offsets(DataEvidence.of(data)) if o.collection == "invoices"]


def _run(off: DateOffset, new: dict[str, Any], data: dict[str, Any]) -> Any:
    scope: dict[str, Any] = {"state": data, "_new": new}
    exec("\n".join(helper_lines()), scope)
    return eval(days_after_expr(f"new:{off.start}", off.days_value()), scope)


def test_a_create_computes_the_later_date_from_the_earlier() -> None:
    data = _data()
    ev = DataEvidence.of(data)
    fields = {"sub_id": Value(source="new_id"), "plan_id": Value(source="param", name="plan_id"),
              "started_on": Value(source="today"), "renews_on": Value(source="const"),
              "cancelled_on": Value(source="const")}  # fmt: skip
    got = offset_values(ev, "subscriptions", fields, {"plan_id"})
    assert set(got) == {"renews_on"}
    (sub,) = [o for o in learn_offsets(ev) if o.end == "renews_on"]
    state = copy.deepcopy(data)
    assert _run(sub, {"plan_id": "PL2", "started_on": "2026-06-01"}, state) == "2027-06-01"
    assert _run(sub, {"plan_id": "PL9", "started_on": "2026-06-01"}, state) is None
    # a later date the call gives itself is left as given
    assert offset_values(ev, "subscriptions", fields, {"plan_id", "renews_on"}) == {}
