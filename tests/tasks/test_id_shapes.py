"""Generated keys take the shape the data's keys or the docs' examples show.

A made-up seed bank: ``growers`` keyed by their own name and four digits
(``ada_moss_4821``, mailed at ``ada.moss42@seeds.test``), ``packets`` keyed ``%PK`` and eight
digits, ``sowings`` counted up (``S-1``, ``S-2``...), ``labels`` named (``SUMMER5``,
``FROST12``), and, in a docs-only variant, ``trays`` whose key the docs show as "such as
'TRY-00042'", ``benches`` whose key parameter has a ``pattern``, and ``greenhouses`` and
``vents`` that reference each other.
"""

from __future__ import annotations

import random
import re
from typing import Any

from autoforge.env.artifact.spec import Attribute, CollectionSchema, EnvironmentSpec, StateSchema
from autoforge.lexicon import IdShape, from_examples, from_keys
from autoforge.tasks.states.population import StateGenerator
from autoforge.tooldocs.spec import ToolSpec

_FIRST = ["Ada", "Bo", "Cy", "Dee", "Eli", "Fay", "Gus", "Hal", "Ivy", "Jo"]
_LAST = ["Moss", "Reed", "Vale", "Fern", "Ash"]


def _data() -> dict[str, dict[str, Any]]:
    rng = random.Random(7)
    growers: dict[str, Any] = {}
    for i in range(20):
        first, last = _FIRST[i % 10], _LAST[i % 5]
        key = f"{first.lower()}_{last.lower()}_{rng.randint(1000, 9999)}"
        email = f"{first.lower()}.{last.lower()}{rng.randint(10, 99)}@seeds.test"
        growers[key] = {"grower_id": key, "name": {"first": first, "last": last}, "email": email}
    grower_keys = list(growers)
    packets = {
        (k := f"%PK{rng.randint(10**7, 10**8 - 1)}"): {
            "packet_id": k, "grower_id": grower_keys[i % 20], "crop": "kale"}
        for i in range(30)
    }  # fmt: skip
    sowings = {f"S-{i}": {"sowing_id": f"S-{i}", "packet_id": next(iter(packets))}
               for i in range(1, 13)}  # fmt: skip
    labels = {k: {"code": k} for k in ("SUMMER5", "FROST12", "SPRING20", "BULK40")}
    return {"growers": growers, "packets": packets, "sowings": sowings, "labels": labels}


def _coll(name: str, key: str, *extra: Attribute) -> CollectionSchema:
    return CollectionSchema(name=name, primary_key=key,
                            attributes=[Attribute(name=key, type="id"), *extra])  # fmt: skip


def _seed_bank() -> EnvironmentSpec:
    growers = _coll("growers", "grower_id", Attribute(name="name", type="object"),
                    Attribute(name="email", type="string"))  # fmt: skip
    packets = _coll("packets", "packet_id",
                    Attribute(name="grower_id", type="id", references="growers"),
                    Attribute(name="crop", type="string"))  # fmt: skip
    sowings = _coll("sowings", "sowing_id",
                    Attribute(name="packet_id", type="id", references="packets"))  # fmt: skip
    labels = _coll("labels", "code")
    schema = StateSchema(collections=[growers, packets, sowings, labels])
    return EnvironmentSpec(name="seedbank", tools=[], state_schema=schema)


def test_the_data_s_key_shape_is_read_where_the_keys_agree_on_it() -> None:
    data = _data()
    packets = from_keys(data["packets"])
    assert packets is not None and (packets.stem, packets.width) == ("%PK", 8)
    growers = from_keys(data["growers"])
    assert growers is not None and growers.width == 4
    assert growers.fields == (("name", "first"), ("name", "last")) and growers.sep == "_"
    counted = from_keys(data["sowings"])
    assert counted is not None and counted.width is None  # a counter: its width is no shape
    assert from_keys(data["labels"]) is None  # codes whose stems differ and spell no field


def test_generated_keys_follow_the_data_s_shape_and_references_hold() -> None:
    spec, data = _seed_bank(), _data()
    generator = StateGenerator(spec, data)
    for seed in range(3):
        state = generator.generate(random.Random(seed))
        assert state["packets"]
        assert all(re.fullmatch(r"%PK\d{8}", k) for k in state["packets"]), list(state["packets"])
        for key, grower in state["growers"].items():
            name = grower["name"]
            assert key == grower["grower_id"]
            first, last = name["first"].lower(), name["last"].lower()
            assert re.fullmatch(rf"{first}_{last}_\d{{4}}", key)
            assert re.fullmatch(rf"{first}\.{last}\d{{2}}@seeds\.test", grower["email"])
        assert {p["grower_id"] for p in state["packets"].values()} <= set(state["growers"])
        assert {s["packet_id"] for s in state["sowings"].values()} <= set(state["packets"])
        assert all(re.fullmatch(r"S-\d{3,4}", k) for k in state["sowings"])  # default draw
        assert all(k.startswith("SUMMER") for k in state["labels"])  # the first example's stem


def test_same_seed_same_keys() -> None:
    spec, data = _seed_bank(), _data()
    first = StateGenerator(spec, data).generate(random.Random(3))
    again = StateGenerator(spec, data).generate(random.Random(3))
    assert first == again


def _tool(name: str, params: dict[str, dict[str, Any]]) -> ToolSpec:
    return ToolSpec(name=name, description=name.replace("_", " "), access="read",
                    parameters={"type": "object", "properties": params})  # fmt: skip


def _docs_only() -> EnvironmentSpec:
    trays = _coll("trays", "tray_id")
    benches = _coll("benches", "bench_id")
    houses = _coll("greenhouses", "greenhouse_id",
                   Attribute(name="vent_id", type="id", references="vents"))  # fmt: skip
    vents = _coll("vents", "vent_id",
                  Attribute(name="greenhouse_id", type="id", references="greenhouses"))  # fmt: skip
    tools = [
        _tool("get_tray", {"tray_id": {"type": "string",
                                       "description": "The tray's id, such as 'TRY-00042'."}}),
        _tool("get_bench", {"bench_id": {"type": "string", "pattern": "^BN_[0-9]{6}$"}}),
    ]  # fmt: skip
    schema = StateSchema(collections=[trays, benches, houses, vents])
    return EnvironmentSpec(name="greenhouse", tools=tools, state_schema=schema)


def test_without_data_the_docs_examples_and_patterns_give_the_shape() -> None:
    assert from_examples(["^BN_[0-9]{6}$"]) == IdShape("BN_", 6)
    assert from_examples(["TRY-00042"]) == IdShape("TRY-", 5, "", True)
    state = StateGenerator(_docs_only()).generate(random.Random(0))
    assert state["trays"] and all(re.fullmatch(r"TRY-\d{5}", k) for k in state["trays"])
    assert all(re.fullmatch(r"BN_\d{6}", k) for k in state["benches"])
    # nothing documented: one shape for the whole collection, not a mix of widths
    assert all(re.fullmatch(r"GRE-\d{4}", k) for k in state["greenhouses"])


def test_references_in_a_cycle_name_records_of_their_target() -> None:
    state = StateGenerator(_docs_only()).generate(random.Random(1))
    vents, houses = state["vents"], state["greenhouses"]
    assert vents and houses
    refs = [h["vent_id"] for h in houses.values()] + [v["greenhouse_id"] for v in vents.values()]
    assert any(r is not None for r in refs)
    assert all(h["vent_id"] in vents for h in houses.values() if h["vent_id"] is not None)
    assert all(
        v["greenhouse_id"] in houses for v in vents.values() if v["greenhouse_id"] is not None
    )
