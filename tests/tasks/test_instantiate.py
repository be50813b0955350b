"""Instantiation: generated states, lazily chosen facts, gold runs, non-degenerate reasoning."""

from __future__ import annotations

import random
from typing import Any

import pytest

from autoforge.env.artifact.spec import EnvironmentSpec
from autoforge.tasks.blueprints.blueprint import (
    Blueprint,
    CallNode,
    FactRef,
    FactSpec,
    OutputRef,
    ReasoningRef,
    ReasonNode,
)
from autoforge.tasks.blueprints.reasoning import ReasoningSpec, degeneracy, evaluate
from autoforge.tasks.gold.instantiate import GoldFailure, blame, execute, instantiate, render
from autoforge.tasks.states.population import StateGenerator, copy_json, value_for


@pytest.fixture(scope="module")
def generator(bookstore_env: Any) -> StateGenerator:
    return StateGenerator(bookstore_env.spec, bookstore_env.initial_state)


def test_generated_state_is_consistent(
    generator: StateGenerator, bookstore_spec: EnvironmentSpec
) -> None:
    state = generator.generate(random.Random(7))
    assert state == generator.generate(random.Random(7))  # seeded
    assert state != generator.generate(random.Random(8))
    for coll in bookstore_spec.state_schema.collections:
        records = state[coll.name]
        assert len(records) >= 8
        for key, record in records.items():
            assert record[coll.primary_key] == key
            assert set(record) == {a.name for a in coll.attributes}
            for attr in coll.attributes:
                value = record[attr.name]
                if attr.references and value is not None:
                    assert value in state[attr.references], (coll.name, attr.name, value)
                if attr.enum and value is not None:
                    assert value in attr.enum
    emails = [c["email"] for c in state["customers"].values()]
    assert len(set(emails)) == len(emails) and all("@" in e for e in emails)
    # nested item lines point at generated books and copy their titles
    for order in state["orders"].values():
        assert order["items"]
        for line in order["items"]:
            assert line["title"] == state["books"][line["book_id"]]["title"]
    # every customer has several orders: lists worth reasoning over
    per_customer = [
        sum(o["customer_id"] == c for o in state["orders"].values()) for c in state["customers"]
    ]
    assert min(per_customer) >= 2


def test_pool_and_perturbation(generator: StateGenerator) -> None:
    rng = random.Random(1)
    a = generator.sample(rng)
    base = next(
        b
        for i in range(generator.pool_size)
        if (b := generator.base(i)).keys() == a.keys()
        and b["customers"].keys() == a["customers"].keys()
    )
    assert a is not base and a != base  # a perturbed copy
    assert copy_json(base) == base


def test_value_for_uses_names_and_bounds() -> None:
    rng = random.Random(0)
    assert 1 <= value_for("rating", {"type": "integer", "minimum": 1, "maximum": 5}, rng) <= 5
    assert 1 <= value_for("quantity", {"type": "integer", "minimum": 1}, rng) <= 4
    assert value_for("reason", {"type": "string", "enum": ["a", "b"]}, rng) in ("a", "b")
    address = value_for(
        "address",
        {
            "type": "object",
            "properties": {
                "street": {"type": "string"},
                "city": {"type": "string"},
                "postal_code": {"type": "string"},
                "country": {"type": "string"},
            },
        },
        rng,
    )
    assert set(address) == {"street", "city", "postal_code", "country"}
    assert address["postal_code"].isdigit() and len(address["country"]) == 2
    assert "@" in value_for("email", {"type": "string"}, rng)


def _cheapest_order_bp() -> Blueprint:
    """Look the customer up, take the order of theirs with the highest total, cancel it."""
    return Blueprint(
        nodes=[
            CallNode(id="c0", tool="find_customer_by_email", args={"email": FactRef(name="email")}),
            CallNode(id="c1", tool="search_books", args={"genre": FactRef(name="genre")}),
            ReasonNode(
                id="r0",
                spec=ReasoningSpec(op="argmax", field=["price"]),
                inputs={"items": OutputRef(node="c1")},
                noun="book",
            ),
            ReasonNode(
                id="r1",
                spec=ReasoningSpec(op="filter", field=["title"], take="only"),
                inputs={"items": OutputRef(node="c1"), "value": FactRef(name="title")},
                noun="book",
            ),
            CallNode(
                id="c2",
                tool="add_review",
                args={
                    "customer_id": OutputRef(node="c0", path=["customer_id"]),
                    "book_id": ReasoningRef(node="r1", path=["book_id"]),
                    "rating": FactRef(name="rating"),
                },
            ),
            ReasonNode(
                id="r2", spec=ReasoningSpec(op="count"), inputs={"items": OutputRef(node="c1")}
            ),
        ],
        facts=[
            FactSpec(name="email", role="attribute", collection="customers", attribute="email"),
            FactSpec(name="genre", role="attribute", collection="books", attribute="genre"),
            FactSpec(name="title", role="predicate", json_schema={"type": "string"}),
            FactSpec(
                name="rating",
                role="value",
                json_schema={"type": "integer", "minimum": 1, "maximum": 5},
            ),
        ],
        outputs=["r2"],
    )


def test_instantiation_guarantees(bookstore_env: Any, generator: StateGenerator) -> None:
    bp = _cheapest_order_bp()
    for seed in range(5):
        try:
            inst = instantiate(bp, bookstore_env, seed, generator=generator, attempts=3, retries=8)
        except GoldFailure:
            continue
        run, s0 = inst.run, inst.initial_state
        facts = run.facts
        assert set(facts) == {"email", "genre", "title", "rating"}
        assert facts["email"] in {c["email"] for c in s0["customers"].values()}
        books = run.values["c1"]
        assert len(books) >= 2 and all(b["genre"] == facts["genre"] for b in books)
        # argmax unique, filter picks exactly one of several, count over several
        for node_id in ("r0", "r1", "r2"):
            node = bp.node(node_id)
            assert isinstance(node, ReasonNode)
            inputs = {"items": books, "value": facts.get("title")}
            assert degeneracy(node.spec, inputs, evaluate(node.spec, inputs)) is None
        assert [c.name for c in run.calls] == [
            "find_customer_by_email",
            "search_books",
            "add_review",
        ]
        tracked = execute(
            bp,
            bookstore_env.spec,
            bookstore_env.episode(state=s0),
            facts,
            initial_hash=inst.initial_hash,
        )
        assert tracked.calls[-1].writes and not tracked.calls[0].writes
        assert inst.initial_hash != run.final_hash
        # replaying with the chosen facts reproduces the run exactly; S0 was not touched
        replay = execute(bp, bookstore_env.spec, bookstore_env.episode(state=s0), facts)
        assert replay.final_hash == run.final_hash and replay.values == run.values
        assert bookstore_env.episode(state=s0).state_hash() == inst.initial_hash
        return
    pytest.fail("no seed instantiated the review blueprint")


def test_replay_without_facts_fails_and_blame_names_the_culprit(bookstore_env: Any) -> None:
    bp = _cheapest_order_bp()
    with pytest.raises(GoldFailure) as err:
        execute(bp, bookstore_env.spec, bookstore_env.episode(), {})
    assert err.value.reason == "missing_fact" and err.value.node == "c0"
    failure = GoldFailure(
        "gold_error", "c2 add_review: customer C-9 already reviewed book B-3", node="c2"
    )
    failure.facts = {"email": "x@example.com", "genre": "fantasy", "title": "B-3", "rating": 4}
    assert blame(bp, failure) == {"title": "'B-3'"}  # the value the message names
    failure.detail = "something else went wrong"
    assert set(blame(bp, failure)) == {"email", "genre", "title", "rating"}


def test_render() -> None:
    assert render(19.9) == ("19.90", ["19.9"])
    assert render(3) == ("3", [])
    assert render("found_cheaper") == ("found_cheaper", ["found cheaper"])
    assert render(True)[0] == "yes"
