"""Start states shared by consecutive attempts: reused as asked, never changed by repairs."""

from __future__ import annotations

import json
import random
from typing import Any

from autoforge.tasks.blueprints.blueprint import Blueprint, CallNode, FactRef, FactSpec
from autoforge.tasks.gold.instantiate import Start, StartPool, instantiate
from autoforge.tasks.pipeline import generate_tasks
from autoforge.tasks.runtime import bind_state
from autoforge.tasks.states.population import StateGenerator, copy_json


def _cancel_blueprint(env: Any) -> Blueprint:
    reason = env.spec.tool("cancel_order").parameters["properties"]["reason"]
    return Blueprint(
        nodes=[CallNode(id="c0", tool="cancel_order",
                        args={"order_id": FactRef(name="order_id"),
                              "reason": FactRef(name="reason")})],
        facts=[FactSpec(name="order_id", role="entity", collection="orders",
                        attribute="order_id"),
               FactSpec(name="reason", json_schema=reason)],
    )  # fmt: skip


def test_pool_shares_a_start_for_as_many_uses_as_asked(bookstore_env: Any) -> None:
    generator = StateGenerator(bookstore_env.spec, bookstore_env.initial_state)
    pool = StartPool(bookstore_env, generator, uses=3)
    rng = random.Random(0)
    first = [pool.take(rng) for _ in range(3)]
    assert first[0] is first[1] is first[2]
    assert pool.take(rng) is not first[0]
    one = StartPool(bookstore_env, generator, uses=1)
    assert one.take(rng) is not one.take(rng)


def test_repairs_work_on_a_copy_of_the_shared_start(bookstore_env: Any) -> None:
    generator = StateGenerator(bookstore_env.spec, bookstore_env.initial_state)
    pool = StartPool(bookstore_env, generator, uses=50)
    state = generator.sample(random.Random(1))
    # no order can be cancelled without a repaired S0 (changed copies: records are shared)
    state["orders"] = {k: {**o, "status": "delivered"} for k, o in state["orders"].items()}
    start = pool._current = Start(state, bind_state(bookstore_env, state))
    before, start_hash = json.dumps(start.state, sort_keys=True), start.hash()
    pool._left = 50  # the same start for every attempt below
    repaired, kept = 0, []
    for seed in range(12):
        inst = instantiate(_cancel_blueprint(bookstore_env), bookstore_env, seed, starts=pool)
        kept.append(inst)
        if inst.initial_hash != start_hash:
            repaired += 1
            assert inst.initial_state is not start.state
        episode = bookstore_env.episode(state=inst.initial_state)
        assert episode.state_hash() == inst.initial_hash
        for call in inst.run.calls:
            assert episode.call(call.name, call.arguments).ok
        assert episode.state_hash() == inst.run.final_hash
    assert repaired > 0
    assert json.dumps(start.state, sort_keys=True) == before and start.hash() == start_hash
    for inst in kept:  # states handed to the runtime uncopied: none changed afterwards
        assert bookstore_env.episode(state=inst.initial_state).state_hash() == inst.initial_hash


def test_tasks_with_one_start_per_attempt_are_still_verifiable(bookstore_env: Any) -> None:
    tasks, stats = generate_tasks(bookstore_env, 4, "medium", seed=5, start_uses=1)
    assert len(tasks) == 4 and stats.accepted == 4
    for task in tasks:
        episode = bookstore_env.episode(state=task.initial_state)
        for call in task.gold_calls:
            assert episode.call(call.name, call.arguments).ok
        assert episode.state_hash() == task.final_state_hash


def test_starts_share_the_base_records_they_leave_unchanged(bookstore_env: Any) -> None:
    """A start's collections are its own, its records the base population's except those it
    changed (perturbed, given to the signed-in user); no start, run or S0 repair changes a
    base population."""
    generator = StateGenerator(bookstore_env.spec, bookstore_env.initial_state, pool_size=2)
    pristine = [copy_json(generator.base(i)) for i in range(2)]
    rng = random.Random(4)
    shared = changed = 0
    for _ in range(6):
        state = generator.sample(rng)
        base = next(b for b in (generator.base(0), generator.base(1))
                    if b["orders"].keys() == state["orders"].keys())  # fmt: skip
        for name, records in state.items():
            assert records is not base[name]  # collections: the start's own
            for key, record in records.items():
                if record is base[name].get(key):
                    shared += 1
                else:
                    changed += 1
    assert shared > 5 * changed > 0
    pool = StartPool(bookstore_env, generator, uses=2)
    for seed in range(12):  # runs and their S0 repairs
        instantiate(_cancel_blueprint(bookstore_env), bookstore_env, seed, starts=pool)
    assert [generator.base(i) for i in range(2)] == pristine
