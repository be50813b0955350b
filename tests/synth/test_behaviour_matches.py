"""Two records a call reaches must agree on an attribute both hold ("The van must be in the
customer's area", "the same area as the customer"): a ``same_value`` check the compiled tool
enforces; data that shows stored calls joining records that differ gives no rule (a small
delivery API written here)."""

from __future__ import annotations

import copy
from typing import Any

from doc_tools import guard_refuses  # type: ignore[import-not-found]

from autoforge.env import ParamInfo, ToolBehaviour
from autoforge.synth.behaviour.compile import _check_lines
from autoforge.synth.behaviour.data import Context, DataEvidence
from autoforge.synth.behaviour.matches import match_checks

DATA: dict[str, Any] = {
    "customers": {"C1": {"customer_id": "C1", "area": "north"},
                  "C2": {"customer_id": "C2", "area": "south"}},
    "vans": {"V1": {"van_id": "V1", "area": "north"}, "V2": {"van_id": "V2", "area": "south"}},
    "drops": {"D1": {"drop_id": "D1", "customer_id": "C1", "van_id": "V1"}},
}  # fmt: skip


def _tool() -> ToolBehaviour:
    params = [ParamInfo(name="customer_id", references="customers"),
              ParamInfo(name="van_id", references="vans")]  # fmt: skip
    return ToolBehaviour(tool="plan_drop", kind="create", collection="drops", params=params)


def _checks(sentence: str, data: dict[str, Any]) -> list[Any]:
    return match_checks(_tool(), [sentence], Context(ev=DataEvidence.of(data), policy=""))


def test_the_records_must_agree_on_the_named_attribute() -> None:
    (c,) = _checks("The van must be in the customer's area.", DATA)
    assert (c.kind, c.collection, c.via, c.attribute) == ("same_value", "vans", "param:van_id",
                                                          "area")  # fmt: skip
    (same,) = _checks("A drop's van must work in the same area as the customer.", DATA)
    assert same.attribute == "area"
    code = "\n".join(_check_lines(c, _tool()))
    for van, ok in (("V1", True), ("V2", False)):
        assert guard_refuses(code, state=DATA, customer_id="C1", van_id=van) is not ok


def test_no_rule_without_the_words_or_against_the_data() -> None:
    assert _checks("The van is washed daily.", DATA) == []
    data = copy.deepcopy(DATA)
    data["drops"]["D2"] = {"drop_id": "D2", "customer_id": "C1", "van_id": "V2"}
    assert _checks("The van must be in the customer's area.", data) == []
