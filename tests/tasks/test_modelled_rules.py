"""The behaviour model's checks bind gold calls: a status the compiled tool requires of the
record a key names, of a record that record refers to, and a date window, each chooses the
records a task may name and refuses a call that breaks it (a small lending API written
here)."""

from __future__ import annotations

from typing import Any

from autoforge.env import (
    Attribute,
    BehaviourModel,
    Check,
    CollectionSchema,
    EnvironmentSpec,
    StateSchema,
    ToolBehaviour,
)
from autoforge.tasks.gold.modelled import model_guards, modelled_rules
from autoforge.tasks.gold.plausible import breach
from autoforge.tasks.gold.preconditions import Preconditions


def _spec() -> EnvironmentSpec:
    loans = CollectionSchema(
        name="loans",
        primary_key="loan_id",
        attributes=[
            Attribute(name="loan_id", type="id"),
            Attribute(name="status", type="string", enum=["open", "returned", "lost"]),
            Attribute(name="member_id", type="id"),
            Attribute(name="due_on", type="date"),
        ],
    )
    members = CollectionSchema(
        name="members",
        primary_key="member_id",
        attributes=[
            Attribute(name="member_id", type="id"),
            Attribute(name="standing", type="string"),
        ],
    )
    return EnvironmentSpec(
        name="lending", tools=[], state_schema=StateSchema(collections=[loans, members])
    )


STATE: dict[str, Any] = {
    "meta": {"today": "2026-03-10"},
    "members": {"M1": {"member_id": "M1", "standing": "good"},
                "M2": {"member_id": "M2", "standing": "barred"}},
    "loans": {
        "L1": {"loan_id": "L1", "status": "open", "member_id": "M1", "due_on": "2026-03-20"},
        "L2": {"loan_id": "L2", "status": "returned", "member_id": "M1", "due_on": "2026-03-20"},
        "L3": {"loan_id": "L3", "status": "open", "member_id": "M2", "due_on": "2026-03-20"},
        "L4": {"loan_id": "L4", "status": "open", "member_id": "M1", "due_on": "2026-03-01"},
    },
}  # fmt: skip


def _model() -> BehaviourModel:
    checks = [
        Check(kind="exists", param="loan_id", collection="loans"),
        Check(kind="status_in", collection="loans", attribute="status", values=["open"],
              sentence="Only an open loan can be renewed."),
        Check(kind="status_not_in", collection="members", attribute="standing", via="member_id",
              values=["barred"], sentence="Barred members cannot renew."),
        Check(kind="date_window", collection="loans", attribute="due_on", values=[">=", 0],
              sentence="A loan past its due date cannot be renewed."),
        # only when the optional argument is given: stays with the tool
        Check(kind="status_in", collection="loans", attribute="status", values=["lost"],
              when_given="note"),
    ]  # fmt: skip
    renew = ToolBehaviour(tool="renew_loan", kind="action", collection="loans",
                          id_param="loan_id", checks=checks, today="2026-03-10")  # fmt: skip
    return BehaviourModel(tools=[renew])


def test_a_status_the_tool_requires_becomes_a_guard() -> None:
    guards = model_guards(_model(), _spec(), STATE)
    assert [(g.param, g.collection, g.allowed) for g in guards["renew_loan"]] == [
        ("loan_id", "loans", ("open",))
    ]
    assert breach(guards["renew_loan"], {"loan_id": "L2"}, STATE) is not None
    assert breach(guards["renew_loan"], {"loan_id": "L1"}, STATE) is None


def test_a_referenced_status_and_a_date_window_narrow_the_keys_and_refuse() -> None:
    rules = modelled_rules(_model(), _spec(), STATE)
    pre = Preconditions(guards=model_guards(_model(), _spec(), STATE), rules=rules)
    # L3's member is barred, L4 is past due; L2 is returned (the guard, checked on the call)
    assert pre.keys("renew_loan", "loan_id", {}, "loans", STATE) == {"L1", "L2"}
    assert pre.check("renew_loan", {"loan_id": "L3"}, STATE) is not None
    assert pre.check("renew_loan", {"loan_id": "L4"}, STATE) is not None
    assert pre.check("renew_loan", {"loan_id": "L2"}, STATE) is not None
    assert pre.check("renew_loan", {"loan_id": "L1"}, STATE) is None


def test_no_model_no_rules() -> None:
    assert model_guards(None, _spec(), STATE) == {} and modelled_rules(None, _spec(), STATE) == {}


def test_a_list_that_must_hold_items_narrows_the_keys() -> None:
    state = {"baskets": {"B1": {"basket_id": "B1", "lines": [{"sku": "a"}]},
                         "B2": {"basket_id": "B2", "lines": []}}}  # fmt: skip
    check = Check(kind="min_items", collection="baskets", attribute="lines", low=1)
    tb = ToolBehaviour(tool="check_out", kind="action", collection="baskets",
                       id_param="basket_id", checks=[check])  # fmt: skip
    pre = Preconditions(rules=modelled_rules(BehaviourModel(tools=[tb]), _spec(), state))
    assert pre.keys("check_out", "basket_id", {}, "baskets", state) == {"B1"}
    assert pre.check("check_out", {"basket_id": "B2"}, state) is not None
