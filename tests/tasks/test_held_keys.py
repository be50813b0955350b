"""Nested values copied from the data stay consistent with their record and its owner.

A made-up kayak rental: each ``member`` holds a keyed map of ``wallets``; each ``rental``
lists its ``boats``, the ``returns`` of some of those boats, and ``charges`` naming the
wallet they were paid from, always one of the renting member's own. Generated rentals must
still charge a wallet their member holds and return boats they rented, and no two members
hold one wallet.
"""

from __future__ import annotations

import random
from typing import Any

from autoforge.env.artifact.spec import Attribute, CollectionSchema, EnvironmentSpec, StateSchema
from autoforge.tasks.blueprints.held import HeldKey, held_keys
from autoforge.tasks.states.population import StateGenerator


def _data() -> dict[str, Any]:
    rng = random.Random(5)
    members: dict[str, Any] = {}
    for i in range(12):
        wallets = {f"w{rng.randint(10**5, 10**6)}": {"kind": "card"} for _ in range(2)}
        members[f"M-{100 + i}"] = {"member_id": f"M-{100 + i}", "wallets": wallets}
    rentals: dict[str, Any] = {}
    for i in range(24):
        member = f"M-{100 + i % 12}"
        boats = [f"B{rng.randint(10, 99)}" for _ in range(3)]
        rentals[f"R-{500 + i}"] = {
            "rental_id": f"R-{500 + i}",
            "member_id": member,
            "boats": [{"boat_id": b, "hours": 2} for b in boats],
            "returns": [{"boat_ids": boats[:2]}] if i % 2 else [],
            "charges": [{"wallet_id": rng.choice(sorted(members[member]["wallets"])),
                         "amount": 30}],
        }  # fmt: skip
    return {"members": members, "rentals": rentals}


def _spec() -> EnvironmentSpec:
    members = CollectionSchema(name="members", primary_key="member_id", attributes=[
        Attribute(name="member_id", type="id"),
        Attribute(name="wallets", type="object")])  # fmt: skip
    rentals = CollectionSchema(name="rentals", primary_key="rental_id", attributes=[
        Attribute(name="rental_id", type="id"),
        Attribute(name="member_id", type="id", references="members"),
        Attribute(name="boats", type="array"), Attribute(name="returns", type="array"),
        Attribute(name="charges", type="array")])  # fmt: skip
    schema = StateSchema(collections=[members, rentals])
    return EnvironmentSpec(name="kayaks", tools=[], state_schema=schema)


def test_a_field_naming_an_entry_of_the_owner_s_map_is_found_in_the_data() -> None:
    found = held_keys(_spec().state_schema, _data())
    assert found == [HeldKey("rentals", "charges", "wallet_id", "member_id", "members", "wallets")]


def test_generated_records_charge_their_own_member_s_wallets_and_return_rented_boats() -> None:
    generator = StateGenerator(_spec(), _data())
    charges = returned = 0
    for seed in range(3):
        held = [w for m in generator.generate(random.Random(seed))["members"].values()
                for w in m["wallets"]]  # fmt: skip
        assert held and len(held) == len(set(held))  # no wallet held by two members
        for state in (
            generator.generate(random.Random(seed)),
            generator.sample(random.Random(seed)),
        ):
            for rental in state["rentals"].values():
                wallets = state["members"][rental["member_id"]]["wallets"]
                for charge in rental["charges"]:
                    assert charge["wallet_id"] in wallets
                    charges += 1
                rented = {b["boat_id"] for b in rental["boats"]}
                for ret in rental["returns"]:
                    assert set(ret["boat_ids"]) <= rented
                    returned += 1
    assert charges and returned
