"""Writes that act for the signed-in user change that user's own records: the record a task's
write names is chosen among them, and S0 gives the signed-in user enough of them to choose from.

A made-up lending library: members sign in (``get_my_loans()`` lists "the current member's
loans"); ``return_loan(loan_id)`` names no member, so it acts for the signed-in member and
refuses another member's loan, as the API it describes would.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from autoforge.env import Environment
from autoforge.env.artifact.spec import Attribute, CollectionSchema, EnvironmentSpec, StateSchema
from autoforge.lexicon import add_session, signed_in
from autoforge.tasks.blueprints.blueprint import Blueprint, CallNode, FactRef, FactSpec, OutputRef
from autoforge.tasks.gold.instantiate import instantiate
from autoforge.tasks.gold.plausible import owned_facts
from autoforge.tasks.states.population import StateGenerator
from autoforge.tooldocs.spec import ToolSpec

_LIBRARY_TOOLS = '''
def _me(state):
    me = (state.get("session", {}).get("session") or {}).get("member_id")
    if me is None:
        raise ToolError("no member is signed in")
    return me


def get_my_loans(state):
    """The signed-in member's loans."""
    me = _me(state)
    return [loan for loan in state["loans"].values() if loan["member_id"] == me]


def get_loan(state, loan_id):
    """A loan by its id."""
    loan = state["loans"].get(loan_id)
    if loan is None:
        raise ToolError(f"loan {loan_id} not found")
    return loan


def return_loan(state, loan_id):
    """Return a loan of the signed-in member."""
    loan = state["loans"].get(loan_id)
    if loan is None:
        raise ToolError(f"loan {loan_id} not found")
    if loan["member_id"] != _me(state):
        raise ToolError(f"loan {loan_id} does not belong to the signed-in member")
    loan["status"] = "returned"
    return loan


def transfer_loan(state, member_id, loan_id):
    """Move a loan to another member (staff only)."""
    loan = state["loans"].get(loan_id)
    if loan is None or member_id not in state["members"]:
        raise ToolError(f"loan {loan_id} or member {member_id} not found")
    loan["member_id"] = member_id
    return loan
'''


def _param(name: str) -> dict[str, Any]:
    return {"type": "string", "description": name.replace("_", " ")}


def _tool(name: str, description: str, access: str, *params: str, many: bool = False) -> ToolSpec:
    fields = ("loan_id", "member_id", "title", "status")
    loan = {"type": "object", "properties": {p: _param(p) for p in fields}}
    return ToolSpec(
        name=name, description=description, access=access,
        parameters={"type": "object", "properties": {p: _param(p) for p in params},
                    "required": list(params)},
        returns={"type": "array", "items": loan} if many else loan,
    )  # fmt: skip


def _library(session: bool = True) -> Environment:
    """Twelve members, 36 loans spread evenly over them; the session collection when the docs
    show a signed-in member (``session``)."""
    members = CollectionSchema(name="members", primary_key="member_id", attributes=[
        Attribute(name="member_id", type="id"), Attribute(name="email", type="string"),
        Attribute(name="loans", type="array", references="loans")])  # fmt: skip
    loans = CollectionSchema(name="loans", primary_key="loan_id", attributes=[
        Attribute(name="loan_id", type="id"),
        Attribute(name="member_id", type="id", references="members"),
        Attribute(name="title", type="string"),
        Attribute(name="status", type="string")])  # fmt: skip
    tools = [
        _tool("get_my_loans", "List all loans of the current member.", "read", many=True),
        _tool("get_loan", "Get a loan.", "read", "loan_id"),
        _tool("return_loan", "Return a loan.", "write", "loan_id"),
        _tool("transfer_loan", "Move a loan to a member.", "write", "member_id", "loan_id"),
    ]
    schema = StateSchema(collections=[members, loans])
    if session:
        assert add_session(schema, tools) is not None  # get_my_loans() acts for the member
    state: dict[str, Any] = {"members": {}, "loans": {}}
    for m in range(12):
        key = f"M{m}"
        state["members"][key] = {"member_id": key, "email": f"m{m}@x.org", "loans": []}
        for n in range(3):
            loan = f"L{m}-{n}"
            state["loans"][loan] = {"loan_id": loan, "member_id": key, "title": f"Book {m}{n}",
                                    "status": "out"}  # fmt: skip
            state["members"][key]["loans"].append(loan)
    spec = EnvironmentSpec(name="library", tools=tools, state_schema=schema)
    return Environment.from_parts(spec, _LIBRARY_TOOLS, state)


def _look_up_then_return() -> Blueprint:
    """Look a loan up by the id the user gives, then return the loan the lookup gave."""
    return Blueprint(
        nodes=[
            CallNode(id="c0", tool="get_loan", args={"loan_id": FactRef(name="loan_id")}),
            CallNode(id="c1", tool="return_loan",
                     args={"loan_id": OutputRef(node="c0", path=["loan_id"])}),
        ],
        facts=[FactSpec(name="loan_id", role="entity", collection="loans", attribute="loan_id")],
    )  # fmt: skip


def test_the_fact_a_write_for_the_signed_in_user_changes_must_be_theirs() -> None:
    """``return_loan(loan_id)`` names no member: its loan, reached through ``get_loan``, must
    belong to the signed-in member; a write naming the member, or no session, constrains
    nothing."""
    bp = _look_up_then_return()
    assert owned_facts(bp, _library().spec) == {"loan_id": "member_id"}
    assert owned_facts(bp, _library(session=False).spec) == {}
    transfer = Blueprint(
        nodes=[CallNode(id="c0", tool="transfer_loan",
                        args={"member_id": FactRef(name="member_id"),
                              "loan_id": FactRef(name="loan_id")})],
        facts=[FactSpec(name="loan_id", role="entity", collection="loans", attribute="loan_id"),
               FactSpec(name="member_id", role="entity", collection="members",
                        attribute="member_id")],
    )  # fmt: skip
    assert owned_facts(transfer, _library().spec) == {}


def test_the_signed_in_user_owns_a_share_of_each_collection_of_users_records() -> None:
    env = _library()
    generator = StateGenerator(env.spec, examples=env.initial_state)
    for seed in range(10):
        state = generator.sample(random.Random(seed))
        me = signed_in(state, env.spec.state_schema)
        assert me is not None and me in state["members"]
        loans = state["loans"]
        mine = sorted(k for k, r in loans.items() if r["member_id"] == me)
        assert len(mine) >= min(len(loans), max(4, len(loans) // 3)), (len(mine), len(loans))
        for key, member in state["members"].items():  # the members' key lists still agree
            assert sorted(member["loans"]) == sorted(
                k for k, r in loans.items() if r["member_id"] == key)  # fmt: skip


@pytest.mark.parametrize("seed", range(12))
def test_a_write_for_the_signed_in_user_acts_on_one_of_their_records(seed: int) -> None:
    """One run on one S0 (no retries that could stumble on the right record): the chosen loan
    is the signed-in member's, so ``return_loan`` succeeds. Before, a loan of any member was
    chosen and the write refused it in most runs."""
    env = _library()
    generator = StateGenerator(env.spec, examples=env.initial_state)
    inst = instantiate(_look_up_then_return(), env, seed, generator=generator, retries=1)
    me = signed_in(inst.initial_state, env.spec.state_schema)
    (returned,) = [c.arguments["loan_id"] for c in inst.run.calls if c.name == "return_loan"]
    assert inst.initial_state["loans"][returned]["member_id"] == me
