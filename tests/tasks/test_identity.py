"""The user's identity (email, name of the user record in play) for the simulated user."""

from __future__ import annotations

from typing import Any

from autoforge.tasks.model import GoldCall
from autoforge.tasks.scenario.identity import user_identity


def test_identity_via_a_referencing_record(bookstore_env: Any) -> None:
    state = bookstore_env.initial_state
    order_id, order = next(iter(state["orders"].items()))
    customer = state["customers"][order["customer_id"]]
    calls = [GoldCall(node="c0", name="cancel_order", arguments={"order_id": order_id})]
    found = user_identity(bookstore_env.spec.state_schema, state, calls)
    assert found == {"name": customer["name"], "email": customer["email"]}


def test_identity_needs_exactly_one_user(bookstore_env: Any) -> None:
    state, schema = bookstore_env.initial_state, bookstore_env.spec.state_schema
    first, second = list(state["customers"])[:2]
    direct = [GoldCall(node="c0", name="get_customer", arguments={"customer_id": first})]
    assert user_identity(schema, state, direct)["email"] == state["customers"][first]["email"]
    both = [*direct, GoldCall(node="c1", name="get_customer", arguments={"customer_id": second})]
    assert user_identity(schema, state, both) == {}
    books = [GoldCall(node="c0", name="search_books", arguments={"genre": "mystery"})]
    assert user_identity(schema, state, books) == {}


def test_generated_tasks_give_the_user_their_identity_not_the_request(bookstore_env: Any) -> None:
    from autoforge.tasks.pipeline import generate_tasks

    tasks, _ = generate_tasks(bookstore_env, 12, "easy", seed=0)
    cancels = [t for t in tasks if [c.name for c in t.gold_calls] == ["cancel_order"]]
    assert cancels
    for task in cancels:
        order = task.initial_state["orders"][task.gold_calls[0].arguments["order_id"]]
        email = task.initial_state["customers"][order["customer_id"]]["email"]
        assert task.user_identity["email"] == email
        assert email not in task.scenario.question  # known to the user, not in the request
        assert task.known_facts()["email"] == email
