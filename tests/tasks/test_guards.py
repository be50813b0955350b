"""Stated guards in instantiation: facts chosen to meet them, refused calls never sent, and
failed calls probed again only when choosing again can help."""

from __future__ import annotations

import copy
import random
from typing import Any

import pytest

from autoforge.tasks.blueprints.blueprint import Blueprint, CallNode, FactRef, FactSpec, OutputRef
from autoforge.tasks.gold.failures import blames_given, mentioned
from autoforge.tasks.gold.instantiate import FactChooser, GoldFailure, execute
from autoforge.tasks.gold.plausible import breach, call_guards, guarded_facts
from autoforge.tasks.states.repair import set_value


def _get_then_cancel(spec: Any) -> Blueprint:
    """Look an order up by the id the user gives, then cancel the order the lookup returned."""
    reason = spec.tool("cancel_order").parameters["properties"]["reason"]
    return Blueprint(
        nodes=[
            CallNode(id="c0", tool="get_order", args={"order_id": FactRef(name="order_id")}),
            CallNode(id="c1", tool="cancel_order",
                     args={"order_id": OutputRef(node="c0", path=["order_id"]),
                           "reason": FactRef(name="reason")}),
        ],
        facts=[
            FactSpec(name="order_id", role="entity", collection="orders", attribute="order_id"),
            FactSpec(name="reason", json_schema=reason),
        ],
    )  # fmt: skip


class _Counting:
    """An episode that records the tools it was asked to run."""

    def __init__(self, episode: Any) -> None:
        self._episode = episode
        self.tools: list[str] = []

    def call(self, name: str, arguments: Any) -> Any:
        self.tools.append(name)
        return self._episode.call(name, arguments)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._episode, name)


def test_call_guards_are_the_rules_the_policy_states(bookstore_env: Any) -> None:
    # "Only `pending` orders can be cancelled or have their shipping address changed."
    guards = call_guards(bookstore_env.spec, data=bookstore_env.initial_state)
    assert set(guards) == {"cancel_order", "update_shipping_address", "add_review"}  # writes
    for tool in ("cancel_order", "update_shipping_address"):
        (status,) = guards[tool]
        assert (status.param, status.collection, status.attribute, status.allowed) == (
            "order_id", "orders", "status", ("pending",))  # fmt: skip
    # add_review: "may review each book only once" (its description)
    (unique,) = guards["add_review"]
    assert (unique.collection, unique.fields) == ("reviews", ("customer_id", "book_id"))
    policy = "Only `pending` orders can be cancelled."  # the second action no longer named
    spec = bookstore_env.spec.model_copy(update={"policy": policy})
    assert set(call_guards(spec, data=bookstore_env.initial_state)) == {"cancel_order",
                                                                         "add_review"}  # fmt: skip


def test_breach_refuses_what_the_guard_code_refuses(bookstore_env: Any) -> None:
    guards = call_guards(bookstore_env.spec, data=bookstore_env.initial_state)
    state = bookstore_env.initial_state
    shipped = next(k for k, o in state["orders"].items() if o["status"] == "shipped")
    pending = next(k for k, o in state["orders"].items() if o["status"] == "pending")
    found = breach(guards["cancel_order"], {"order_id": shipped, "reason": "other"}, state)
    assert found is not None and found.key == shipped and shipped in found.message
    assert breach(guards["cancel_order"], {"order_id": pending, "reason": "other"}, state) is None
    assert breach(guards["cancel_order"], {"order_id": "ORD-0", "reason": "other"}, state) is None
    review = next(iter(state["reviews"].values()))
    taken = {"customer_id": review["customer_id"], "book_id": review["book_id"], "rating": 3}
    assert breach(guards["add_review"], taken, state) is not None
    mine = {r["book_id"] for r in state["reviews"].values()
            if r["customer_id"] == review["customer_id"]}  # fmt: skip
    other = next(b for b in state["books"] if b not in mine)
    assert breach(guards["add_review"], {**taken, "book_id": other}, state) is None
    # the real tool agrees: the refused call fails, the admitted one succeeds
    episode = bookstore_env.episode(state=state)
    assert not episode.call("cancel_order", {"order_id": shipped, "reason": "other"}).ok
    assert episode.call("cancel_order", {"order_id": pending, "reason": "other"}).ok


def test_guarded_fact_choice_skips_records_the_rule_forbids(bookstore_env: Any) -> None:
    spec, state = bookstore_env.spec, bookstore_env.initial_state
    bp = _get_then_cancel(spec)
    guards = call_guards(spec, data=state)
    guarded = guarded_facts(bp, guards)  # the fact reaches cancel_order through get_order
    assert [g.attribute for g in guarded["order_id"]] == ["status"]
    fact = bp.fact("order_id")
    statuses = {o["status"] for o in state["orders"].values()}
    assert "pending" in statuses and len(statuses) > 1  # the choice matters

    def chosen(with_guards: bool) -> set[str]:
        out = set()
        for seed in range(30):
            episode = bookstore_env.episode(state=state)
            chooser = FactChooser(spec, episode, random.Random(seed), base_state=state,
                                  guarded=guarded if with_guards else {})  # fmt: skip
            key = chooser.for_call(fact, "get_order", {})
            out.add(state["orders"][key]["status"])
        return out

    assert chosen(True) == {"pending"}
    assert chosen(False) != {"pending"}  # without the guard other statuses come up


def test_refused_call_is_not_sent_and_names_its_repair(bookstore_env: Any) -> None:
    spec = bookstore_env.spec
    state = copy.deepcopy(bookstore_env.initial_state)
    shipped = next(k for k, o in state["orders"].items() if o["status"] == "shipped")
    bp = _get_then_cancel(spec)
    episode = _Counting(bookstore_env.episode(state=state))
    chooser = FactChooser(spec, episode, random.Random(0), base_state=state,
                          guards=call_guards(spec, data=state))  # fmt: skip
    with pytest.raises(GoldFailure) as err:
        execute(bp, spec, episode, {"order_id": shipped, "reason": "other"}, chooser)
    assert episode.tools == ["get_order"]  # cancel_order was refused on the host
    assert err.value.reason == "gold_error" and err.value.node == "c1"
    assert err.value.fix == ("orders", shipped, "status", "pending")
    history: dict[Any, Any] = {}
    assert set_value(state, *err.value.fix, history) == "changed"
    assert state["orders"][shipped]["status"] == "pending"
    run = execute(bp, spec, bookstore_env.episode(state=state), {"order_id": shipped,
                                                                 "reason": "other"})  # fmt: skip
    assert [c.name for c in run.calls] == ["get_order", "cancel_order"]
    assert set_value(state, "orders", shipped, "status", "delivered", history) == "conflict"
    assert set_value(state, "orders", shipped, "status", "pending", history) == "unchanged"


def test_a_failed_call_is_probed_again_only_when_that_can_help() -> None:
    args = {"order_id": "ORD-1307", "reason": "found_cheaper"}
    # the error is about the order an earlier step gave, not the reason chosen for this call
    assert blames_given(args, ["found_cheaper"], "Error: order ORD-1307 is shipped")
    assert not blames_given(args, ["found_cheaper"], "Error: reason found_cheaper not allowed")
    assert not blames_given(args, ["found_cheaper"], "Error: something went wrong")
    # a short number the message names as a word counts as named (for the probe)
    assert mentioned(4, "not enough stock: 1 left, 4 requested", words=True)
    assert not mentioned(4, "not enough stock: 14 left", words=True)
    assert not mentioned(4, "1 left, 4 requested")  # blame keeps its three-character rule


def test_task_guards_are_the_recorded_rules_not_a_second_reading_of_the_policy(
    bookstore_env: Any, tmp_path: Any
) -> None:
    import shutil

    from autoforge.env import DocRule, EnvDir, RuleSet
    from autoforge.examples import example_path
    from autoforge.tasks.gold.plausible import stated_rules

    env_dir = EnvDir(tmp_path / "env")
    shutil.copytree(example_path("bookstore"), env_dir.root)
    parts = env_dir.read()
    # the policy still says "Only `pending` orders can be cancelled ..."; the artifact says
    # what synthesis enforced, and that is what task generation follows
    only = DocRule(tool="cancel_order", kind="status", param="order_id", collection="orders",
                   attribute="status", allowed=["shipped"], sentence="(recorded)",
                   source="policy")  # fmt: skip
    env_dir.write(parts.spec, parts.tools_source, parts.initial_state, RuleSet(rules=[only]))
    env = env_dir.load(trusted=True)
    guards = call_guards(env.spec, stated_rules(env), env.initial_state)
    assert set(guards) == {"cancel_order"}
    (guard,) = guards["cancel_order"]
    assert guard.allowed == ("shipped",) and "(recorded)" in guard.rule
    # without the artifact: the same extractor over the spec (what synthesis would record)
    assert set(call_guards(bookstore_env.spec, stated_rules(bookstore_env),
                           bookstore_env.initial_state)) == {"cancel_order",
                                                            "update_shipping_address",
                                                            "add_review"}  # fmt: skip


def test_a_rule_naming_forbidden_statuses_admits_the_other_statuses(bookstore_env: Any) -> None:
    from autoforge.env import DocRule

    spec, state = bookstore_env.spec, bookstore_env.initial_state
    rule = DocRule(tool="cancel_order", kind="status", param="order_id", collection="orders",
                   attribute="status", forbidden=["shipped", "delivered"], source="policy",
                   sentence="Shipped or delivered orders cannot be cancelled.")  # fmt: skip
    (guard,) = call_guards(spec, [rule], state)["cancel_order"]
    statuses = {o["status"] for o in state["orders"].values()}
    assert set(guard.allowed) == statuses - {"shipped", "delivered"} and guard.allowed
    shipped = next(k for k, o in state["orders"].items() if o["status"] == "shipped")
    assert breach([guard], {"order_id": shipped, "reason": "other"}, state) is not None


def test_a_forbidden_status_rule_without_records_takes_the_domain_values() -> None:
    """A docs-only environment starts without records: the statuses a rule naming only
    forbidden ones allows are the domain's (``values``); the guard refuses what the tool's guard
    refuses (the forbidden status) and admits the rest, an unset status too."""
    from autoforge.env import Attribute, CollectionSchema, DocRule, EnvironmentSpec, StateSchema
    from autoforge.tooldocs import ToolSpec

    tickets = CollectionSchema(name="tickets", primary_key="ticket_id", attributes=[
        Attribute(name="ticket_id", type="id"), Attribute(name="status"),
    ])  # fmt: skip
    params = {"type": "object", "properties": {"ticket_id": {"type": "string"}},
              "required": ["ticket_id"]}  # fmt: skip
    tool = ToolSpec(name="close_ticket", description="", parameters=params, access="write")
    spec = EnvironmentSpec(name="desk", tools=[tool],
                           state_schema=StateSchema(collections=[tickets]))  # fmt: skip
    rule = DocRule(tool="close_ticket", kind="status", param="ticket_id", collection="tickets",
                   attribute="status", forbidden=["closed"], source="description",
                   sentence="Do not close tickets already in closed status.")  # fmt: skip
    assert call_guards(spec, [rule], {}) == {}  # no records, no values: nothing to allow
    values = {("tickets", "status"): ["open", "closed", "open"]}
    (guard,) = call_guards(spec, [rule], {}, values)["close_ticket"]
    assert guard.allowed == ("open",) and guard.forbidden == ("closed",)
    state = {"tickets": {"T-1": {"ticket_id": "T-1", "status": "closed"},
                         "T-2": {"ticket_id": "T-2"}}}  # fmt: skip
    assert breach([guard], {"ticket_id": "T-1"}, state) is not None
    assert breach([guard], {"ticket_id": "T-2"}, state) is None  # unset: the tool accepts it
    assert guard.admits({"status": "open"}) and not guard.admits({"status": "closed"})
