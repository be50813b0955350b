"""What the user knows, values from the domain, plausible sequences (issue: tasks a real user
would bring)."""

from __future__ import annotations

import random
from typing import Any

from autoforge.tasks.gold.plausible import call_guards, implausible, stated_rules
from autoforge.tasks.model import GoldCall
from autoforge.tasks.scenario.knowledge import knowledge
from autoforge.tasks.states.domain import domains, enum_from_text, out_of_domain
from autoforge.tasks.states.population import StateGenerator


def test_holdings_follow_the_docs(bookstore_env: Any) -> None:
    know = knowledge(bookstore_env.spec, bookstore_env.initial_state)
    held = {(h.collection, h.attribute): h.held for h in know.holdings.values()}
    # found by find_customer_by_email / search_books: internal keys
    assert held[("customers", "customer_id")] is False
    assert held[("books", "book_id")] is False
    # what finders take, and references a person is handed
    assert held[("customers", "email")] and held[("books", "title")]
    assert held[("orders", "order_id")] and held[("coupons", "code")]
    assert not held[("books", "stock")]
    finder = know.finder("customers")
    assert finder is not None and finder.tool == "find_customer_by_email"
    assert finder.params == ("email",) and finder.key_path == ("customer_id",)
    rows = know.report()
    assert all(r["reason"] for r in rows) and len(rows) == len(know.holdings)


def test_internal_keys_never_reach_the_user(generated: Any, bookstore_env: Any) -> None:
    tasks, stats = generated
    assert stats.knowledge, "the holdings are reported with the generation statistics"
    for task in tasks:
        text = f"{task.scenario.question} {task.scenario.known_info} {task.scenario.intent}"
        for call in task.gold_calls:
            for name in ("customer_id", "book_id"):
                if isinstance(call.arguments.get(name), str):
                    assert call.arguments[name] not in text
        # the agent finds those keys with the tools: no user fact holds one
        for fact in task.blueprint.facts:
            if fact.name in task.user_facts:
                assert fact.collection not in ("customers", "books") or fact.role != "entity"


def test_enums_from_descriptions() -> None:
    assert enum_from_text("Why, either 'no longer needed' or 'ordered by mistake'.") == [
        "no longer needed", "ordered by mistake"]  # fmt: skip
    assert enum_from_text("Order status, one of pending, shipped or delivered.") == [
        "pending", "shipped", "delivered"]  # fmt: skip
    assert enum_from_text("The status of the order.") == []


def test_generated_states_stay_in_the_observed_domain(bookstore_env: Any) -> None:
    """A string ``status`` (no enum in the schema, as a weak synthesizer writes it) takes the
    values the sample data shows, never invented ones like "calm-50"."""
    spec = bookstore_env.spec.model_copy(deep=True)
    orders = spec.state_schema.collection("orders")
    status = orders.attribute("status")
    status.type, status.enum = "string", None
    found = domains(spec, bookstore_env.initial_state)
    observed = {o["status"] for o in bookstore_env.initial_state["orders"].values()}
    assert found.allowed("orders", "status") == observed
    generator = StateGenerator(spec, bookstore_env.initial_state)
    for seed in range(3):
        state = generator.sample(random.Random(seed))
        assert not out_of_domain(state, found)
        emails = [c["email"] for c in state["customers"].values()]
        assert all("@" in e for e in emails) and len(set(emails)) == len(emails)


def test_policy_eligibility_and_terminal_writes(bookstore_env: Any) -> None:
    spec = bookstore_env.spec
    rules = stated_rules(bookstore_env)
    assert any(r.tool == "cancel_order" and r.attribute == "status" and r.allowed == ["pending"]
               for r in rules)  # fmt: skip
    rules = call_guards(spec, rules, bookstore_env.initial_state)
    state = {"orders": {"ORD-1": {"order_id": "ORD-1", "status": "delivered"},
                        "ORD-2": {"order_id": "ORD-2", "status": "pending"}}}  # fmt: skip
    cancel = GoldCall(node="c0", name="cancel_order", arguments={"order_id": "ORD-2",
                                                                  "reason": "other"})  # fmt: skip
    redirect = GoldCall(node="c1", name="update_shipping_address",
                        arguments={"order_id": "ORD-2", "address": {}})  # fmt: skip
    assert implausible(spec, rules, state, [cancel]) == ""
    assert implausible(spec, rules, state, [cancel, redirect]) == "after_terminal"
    old = cancel.model_copy(update={"arguments": {"order_id": "ORD-1", "reason": "other"}})
    assert implausible(spec, rules, state, [old]) == "ineligible"


def test_hard_tasks_include_refusals(bookstore_env: Any) -> None:
    from autoforge.tasks.pipeline import generate_tasks
    from autoforge.tasks.scenario.question import request_on

    tasks, _ = generate_tasks(bookstore_env, 10, "hard", seed=0)
    refusals = [t for t in tasks if "refusal" in t.meta]
    assert refusals and len(refusals) < len(tasks)
    for task in refusals:
        key = task.meta["refusal"]["key"]
        assert key in task.scenario.question
        tool = task.meta["refusal"]["tool"]
        said = request_on(tool, task.meta["refusal"]["collection"], key)  # the user's words
        assert said in task.scenario.question and tool not in task.scenario.question
        record = task.initial_state["orders"][key]
        assert record["status"] != "pending"  # the policy forbids it
        assert all(key not in str(c.arguments) for c in task.gold_calls)  # S* leaves it alone


def test_a_refused_request_is_said_in_the_users_words() -> None:
    from autoforge.lexicon import request_on

    assert request_on("cancel_order", "orders", "O-1") == "cancel order O-1"
    assert request_on("update_shipping_address", "orders", "O-1") == (
        "change the shipping address of order O-1"
    )
    assert request_on("modify_pending_order_address", "orders", "O-1") == (
        "change the address of order O-1"
    )
    assert request_on("add_review", "books", "B-1") == "add a review for book B-1"
    assert request_on("delete", "pets", "P-1") == "remove pet P-1"


def test_report_shows_sample_requests_first(generated: Any) -> None:
    from autoforge.forge.report import _samples, sample_tasks

    tasks = list(generated[0])
    easy = tasks[0].model_copy(update={"meta": {**tasks[0].meta, "difficulty": "easy"}})
    picked = sample_tasks([*tasks, easy], limit=3)
    assert len(picked) == 3 and easy in picked  # every level gets a turn
    evil = easy.model_copy(
        update={"scenario": easy.scenario.model_copy(update={"question": "<script>x</script>"})}
    )
    html = _samples([evil])
    assert "Sample requests" in html and "<script>" not in html and "&lt;script&gt;" in html


def test_rule_judge_takes_no_separator_for_a_typo() -> None:
    """Requests now open with the user's email; its local part ("ana.lee") differs from the
    name fact ("Ana Lee") only by a separator, which the rule judge flagged as a mistyped fact."""
    from autoforge.rollout.meu import one_off

    assert one_off("my email is ana.lee@example.com", "Ana Lee") is None
    assert one_off("my order is ORD-1235", "ORD-1234") == "ORD-1235"  # a real typo still is


_PROFILE_TOOLS = """
def find_user_id_by_email(state, email):
    for key, user in state["users"].items():
        if user["email"] == email:
            return key
    raise ToolError("user not found")


def get_user_details(state, user_id):
    if user_id not in state["users"]:
        raise ToolError("user not found")
    return state["users"][user_id]


def modify_order_address(state, order_id, address1, city, zip):
    if order_id not in state["orders"]:
        raise ToolError("order not found")
    state["orders"][order_id]["address"] = {"address1": address1, "city": city, "zip": zip}
    return state["orders"][order_id]


def modify_user_address(state, user_id, address1, city, zip):
    if user_id not in state["users"]:
        raise ToolError("user not found")
    state["users"][user_id]["address"] = {"address1": address1, "city": city, "zip": zip}
    return state["users"][user_id]
"""


def _profile_env() -> Any:
    """Users with an ``address`` object the docs give no fields for (no result schemas:
    only the data shows them), orders listed on the user, and flat address writers."""
    from autoforge.env import Environment
    from autoforge.env.artifact.spec import (
        Attribute,
        CollectionSchema,
        EnvironmentSpec,
        StateSchema,
    )
    from autoforge.tooldocs.spec import ToolSpec

    def tool(name: str, params: list[str], access: str) -> ToolSpec:
        props = {p: {"type": "string", "description": p} for p in params}
        schema = {"type": "object", "properties": props, "required": params}
        return ToolSpec(name=name, description=name.replace("_", " "), access=access,
                        parameters=schema, required=params)  # fmt: skip

    parts = ["address1", "city", "zip"]
    users = CollectionSchema(name="users", primary_key="user_id", attributes=[
        Attribute(name="user_id", type="id"), Attribute(name="email"),
        Attribute(name="address", type="object"),
        Attribute(name="orders", type="array", references="orders")])  # fmt: skip
    orders = CollectionSchema(name="orders", primary_key="order_id", attributes=[
        Attribute(name="order_id", type="id"), Attribute(name="user_id", type="id",
                                                          references="users"),
        Attribute(name="address", type="object")])  # fmt: skip
    tools = [tool("find_user_id_by_email", ["email"], "read"),
             tool("get_user_details", ["user_id"], "read"),
             tool("modify_order_address", ["order_id", *parts], "write"),
             tool("modify_user_address", ["user_id", *parts], "write")]  # fmt: skip
    rng = random.Random(3)
    state: dict[str, Any] = {"users": {}, "orders": {}}
    for i in range(6):
        home = {"address1": f"{i + 1} Elm St", "city": f"Town{i}", "zip": f"1000{i}"}
        state["users"][f"u{i}"] = {"user_id": f"u{i}", "email": f"u{i}@example.com",
                                   "address": home, "orders": []}  # fmt: skip
        for j in range(rng.randint(2, 3)):
            key = f"#W{i}{j}"
            state["orders"][key] = {"order_id": key, "user_id": f"u{i}",
                                    "address": {"address1": "PO Box 9", "city": "Far",
                                                "zip": "99999"}}  # fmt: skip
            state["users"][f"u{i}"]["orders"].append(key)
    spec = EnvironmentSpec(name="profile", tools=tools,
                           state_schema=StateSchema(collections=[users, orders]))  # fmt: skip
    return Environment.from_parts(spec, _PROFILE_TOOLS, state)


def test_flat_arguments_come_from_an_object_the_data_shows_on_the_users_record() -> None:
    """``modify_order_address(address1, city, zip)``: the data shows the user's ``address``
    holds those fields, so a request may say "the address on my account" (the agent reads
    it) instead of quoting every part; the user's own record is never given its own values."""
    from autoforge.tasks.pipeline import generate_tasks

    env = _profile_env()
    know = knowledge(env.spec, env.initial_state)
    assert know.nested[("users", "address")] == ("address1", "city", "zip")
    tasks, _ = generate_tasks(env, 12, "medium", seed=1)
    from_profile = 0
    for task in tasks:
        users = task.initial_state["users"]
        for call in task.gold_calls:
            args = call.arguments
            homes = [u["address"] for u in users.values()]
            same = {k: args[k] for k in ("address1", "city", "zip") if k in args} in homes
            if call.name == "modify_order_address" and same:
                from_profile += 1
                assert "the address on my account" in task.scenario.question
                assert args["address1"] not in task.scenario.question
            if call.name == "modify_user_address":
                assert {k: args[k] for k in ("address1", "city", "zip")} != (
                    users[args["user_id"]]["address"]
                )
    assert from_profile > 0


def test_medium_tasks_name_the_users_orders_mostly_by_a_condition(bookstore_env: Any) -> None:
    """An order the user owns is listed on their record (``get_customer`` gives its id), so a
    medium task names it mostly by its place in their list ("my most recent order") rather
    than by its number: at the preset's reasoning rate, as other conditions are. Over 60
    tasks the share of order ids the user recites was 0.37 when this was half as likely."""
    from autoforge.tasks.pipeline import generate_tasks

    stated = total = 0
    for seed in (1, 2):
        tasks, _ = generate_tasks(bookstore_env, 30, "medium", seed=seed)
        for task in tasks:
            text = f"{task.scenario.question} {task.scenario.known_info} {task.scenario.intent}"
            for call in task.gold_calls:
                if isinstance(call.arguments.get("order_id"), str):
                    total += 1
                    stated += call.arguments["order_id"] in text
    assert total >= 30 and stated / total <= 0.25, (stated, total)
