"""The read path: what a read call costs beyond the tool, with the same guarantees.

The JSON text of results is built by an encoder made once (not per call) and must be exactly
``json.dumps``'s; base records are copied from ``marshal`` bytes cached per base state, which
must never carry one episode's (or one failed call's) change into another read; validators
compiled once keep rejecting bad arguments; nothing a caller gets back aliases the state.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from typing import Any

import pytest

from autoforge.env import Environment
from autoforge.env.state import cow
from autoforge.env.state.values import json_encoder, to_jsonable
from autoforge.tooldocs.spec import ToolSpec


@pytest.fixture
def trusted_shop(shop_parts: Any, shop_initial: dict[str, Any]) -> Environment:
    spec, source = shop_parts
    return Environment.from_parts(spec, source, shop_initial, trusted=True)


_VALUES = [
    {"b": 1, "a": [1.5, -0.0, 1e16, None, True, 'x\u00e9\u2603\n"q"']},
    [float("nan"), float("inf"), {"k": {"n": [{}]}}],
    "just a string \u00e9",
    12.25,
    {"1": 2, "ä": {"z": 1, "y": [False]}},
]


@pytest.mark.parametrize("value", _VALUES)
@pytest.mark.parametrize(
    "options",
    [
        {},
        {"separators": (",", ":")},
        {"sort_keys": True, "separators": (",", ":"), "ensure_ascii": False},
    ],
)
def test_the_prebuilt_encoder_writes_what_json_dumps_writes(
    value: Any, options: dict[str, Any]
) -> None:
    encode = json_encoder(**options)
    assert encode(value) == json.dumps(value, **options)
    assert encode(value) == encode(value)  # no state kept between calls


def test_the_prebuilt_encoder_uses_its_default_hook_and_refuses_what_json_refuses() -> None:
    from types import MappingProxyType

    encode = json_encoder(default=to_jsonable)
    view = MappingProxyType({"a": [1, 2]})
    assert encode({"v": view}) == json.dumps({"v": {"a": [1, 2]}})
    with pytest.raises(TypeError):
        json_encoder()({"s": {1, 2}})
    with pytest.raises(ValueError):
        json_encoder(allow_nan=False)(float("nan"))
    looped: dict[str, Any] = {}
    looped["self"] = looped
    with pytest.raises(RecursionError):
        encode(looped)


def test_a_result_that_contains_itself_is_a_crash_and_the_next_call_works(
    env_factory: Any, schema_obj: Any
) -> None:
    env = env_factory(
        """
        def loop(state):
            out = {"a": 1}
            out["me"] = out
            return out

        def fine(state):
            return {"ok": True}
        """,
        [
            ToolSpec(name="loop", parameters=schema_obj({})),
            ToolSpec(name="fine", parameters=schema_obj({})),
        ],
        trusted=True,
    )
    ep = env.episode()
    obs = ep.call("loop")
    assert obs.error_kind == "crash" and "not JSON" in obs.content
    assert ep.call("fine").result == {"ok": True}


def _count_dumps(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    calls = [0]
    real: Callable[..., bytes] = cow._marshal_dumps

    def counting(value: Any, version: int) -> bytes:
        calls[0] += 1
        return real(value, version)

    monkeypatch.setattr(cow, "_marshal_dumps", counting)
    return calls


def test_a_base_record_read_again_is_not_marshalled_again(
    trusted_shop: Environment, monkeypatch: pytest.MonkeyPatch
) -> None:
    calls = _count_dumps(monkeypatch)
    monkeypatch.setattr(cow, "_FRESH", {})  # no equal record seen before in this process
    first, second = trusted_shop.episode(), trusted_shop.episode()
    assert first.call("get_item", {"item_id": "i1"}).ok
    assert calls[0] == 3  # the base bytes, a fresh copy's bytes, the check at commit
    calls[0] = 0
    assert second.call("get_item", {"item_id": "i1"}).ok  # another episode of the same base
    assert first.call("get_item", {"item_id": "i1"}).ok
    assert calls[0] == 2  # one quick unchanged check per call: the base bytes are shared


def test_a_change_of_type_only_is_still_a_change(env_factory: Any, schema_obj: Any) -> None:
    env = env_factory(
        """
        def swap(state, to):
            record = state["items"]["a"]
            record["v"] = {"int": 1, "float": 1.0, "bool": True}[to]
            return "ok"

        def touch(state):
            keep = state["items"]["a"]["tags"]
            return len(keep)
        """,
        [
            ToolSpec(name="swap", parameters=schema_obj({"to": {"type": "string"}}, ["to"])),
            ToolSpec(name="touch", parameters=schema_obj({})),
        ],
        {"items": {"a": {"v": True, "tags": ["x"]}}},
        trusted=True,
    )
    ep = env.episode()
    base = ep.state_hash()
    assert ep.call("touch").result == 1
    assert ep.diff() == [] and ep.state_hash() == base
    assert ep.call("swap", {"to": "bool"}).ok
    assert ep.diff() == [] and ep.state_hash() == base
    assert ep.call("swap", {"to": "int"}).ok
    assert ep.diff() == [{"op": "replace", "path": ["items", "a", "v"], "old": True, "new": 1}]
    assert ep.state_hash() != base
    assert ep.call("swap", {"to": "float"}).ok
    assert ep.diff()[0]["new"] == 1.0 and type(ep.snapshot()["items"]["a"]["v"]) is float


@pytest.mark.parametrize("trusted", [True, False])
def test_the_shared_base_copies_never_carry_a_change(
    shop_parts: Any, shop_initial: dict[str, Any], trusted: bool
) -> None:
    spec, source = shop_parts
    env = Environment.from_parts(spec, source, shop_initial, trusted=trusted)
    writer, reader = env.episode(), env.episode()
    base_hash = reader.state_hash()
    assert writer.call("get_item", {"item_id": "i1"}).result["price"] == 12.5  # fills the cache
    assert writer.call("set_price", {"item_id": "i1", "price": 99}).ok
    failed = writer.call("restock", {"item_id": "i3", "amount": -100})  # mutates, then raises
    assert failed.error_kind == "tool_error"
    assert writer.call("get_item", {"item_id": "i1"}).result["price"] == 99
    assert writer.call("get_item", {"item_id": "i3"}).result["stock"] == 7
    assert reader.call("get_item", {"item_id": "i1"}).result["price"] == 12.5
    assert reader.state_hash() == base_hash
    writer.reset()
    assert writer.call("get_item", {"item_id": "i1"}).result["price"] == 12.5
    assert writer.state_hash() == base_hash
    assert env.initial_state == shop_initial


def test_top_level_values_are_copied_from_the_cache_without_sharing(
    env_factory: Any, schema_obj: Any
) -> None:
    env = env_factory(
        """
        def push(state, tag):
            tags = state["tags"]
            tags.append(tag)
            state["tags"] = tags
            return len(tags)

        def tags(state):
            return state["tags"]
        """,
        [
            ToolSpec(name="push", parameters=schema_obj({"tag": {"type": "string"}}, ["tag"])),
            ToolSpec(name="tags", parameters=schema_obj({})),
        ],
        {"tags": ["a"]},
        trusted=True,
    )
    one, two = env.episode(), env.episode()
    assert one.call("push", {"tag": "b"}).result == 2
    assert two.call("tags").result == ["a"]
    assert two.call("push", {"tag": "c"}).result == 2
    assert one.call("tags").result == ["a", "b"]


@pytest.mark.parametrize("trusted", [True, False])
def test_the_caller_cannot_change_the_state_through_what_it_gets_back(
    shop_parts: Any, shop_initial: dict[str, Any], trusted: bool
) -> None:
    spec, source = shop_parts
    env = Environment.from_parts(spec, source, shop_initial, trusted=trusted)
    ep = env.episode()
    before = ep.state_hash()
    record = ep.call("get_item", {"item_id": "i2"}).result
    record["price"] = 0
    record["tags"].append("hacked")
    viewed = ep.state["items"]["i2"]
    viewed["stock"] = 1000
    ep.snapshot()["items"]["i2"]["name"] = "changed"
    arguments = {"item_id": "i2"}
    again = ep.call("get_item", arguments).result
    assert again == shop_initial["items"]["i2"]
    assert ep.state_hash() == before
    assert arguments == {"item_id": "i2"}


@pytest.mark.parametrize("trusted", [True, False])
def test_compiled_validators_keep_rejecting_bad_arguments(
    shop_parts: Any, shop_initial: dict[str, Any], trusted: bool
) -> None:
    spec, source = shop_parts
    env = Environment.from_parts(spec, source, shop_initial, trusted=trusted)
    ep = env.episode()
    for _ in range(50):
        assert ep.call("restock", {"item_id": "i1", "amount": 1}).ok
    hash_after_good_calls = ep.state_hash()
    for bad in (
        {"item_id": "i1", "amount": "1"},
        {"item_id": "i1", "amount": 1.5},
        {"item_id": "i1", "amount": True},
        {"item_id": "i1"},
        {"item_id": 1, "amount": 1},
        {"item_id": "i1", "amount": 1, "extra": 0},
    ):
        obs = ep.call("restock", bad)
        assert obs.error_kind == "invalid_arguments", bad
    assert ep.call("set_price", {"item_id": "i1", "price": -1}).error_kind == "invalid_arguments"
    assert ep.state_hash() == hash_after_good_calls


def _random_record(rng: random.Random, depth: int = 0) -> Any:
    floats = [86.0, -0.0, 0.0, 10.05, 54.04, 1e16, 1e-05, 2.5e-07, 100.0, 0.5, 3.0]
    texts = ["e-mail 1.0,", "v1.0]", "1e+5", "x.0", "NaN?", "10.05", "e-", ".0", "a1e-"]
    kind = rng.randrange(6 if depth < 3 else 4)
    if kind == 0:
        return rng.choice(floats) * rng.choice([1, -1, 10, 0.1])
    if kind == 1:
        return rng.choice(texts)
    if kind == 2:
        return rng.randrange(-5, 1000)
    if kind == 3:
        return rng.choice([True, False, None])
    if kind == 4:
        return [_random_record(rng, depth + 1) for _ in range(rng.randrange(4))]
    return {rng.choice(texts) + str(i): _random_record(rng, depth + 1) for i in range(4)}


def test_the_canonical_prefilter_never_misses_a_float_to_fix() -> None:
    from autoforge.env.state.values import canonical, canonical_json

    rng = random.Random(7)
    for _ in range(600):
        value = {"r": _random_record(rng)}
        strict = json.dumps(
            canonical(value),
            sort_keys=True,
            separators=(",", ":"),
            ensure_ascii=False,
            allow_nan=False,
        )
        assert canonical_json(value) == strict, value


def test_a_changed_record_is_encoded_once_for_its_check_and_its_digest(
    trusted_shop: Environment, monkeypatch: pytest.MonkeyPatch
) -> None:
    from autoforge.env import state_hash
    from autoforge.env.state import values

    encodes = [0]

    def counting(real: Callable[[Any], str]) -> Callable[[Any], str]:
        def encode(value: Any) -> str:
            encodes[0] += 1
            return real(value)

        return encode

    monkeypatch.setattr(values, "_ENCODE", counting(values._ENCODE))
    monkeypatch.setattr(cow, "_encode", counting(cow._encode))
    ep = trusted_shop.episode()
    ep.state_hash()
    encodes[0] = 0
    assert ep.call("set_price", {"item_id": "i2", "price": 31.5}).ok
    digest = ep.state_hash()
    assert encodes[0] == 1  # the commit's check; the hash reuses its text's digest
    assert digest == state_hash(ep.snapshot())
    record = ep._state._children["items"]._over["i2"]
    assert record["price"] == 31.5


def test_a_write_that_is_not_json_is_still_refused(env_factory: Any, schema_obj: Any) -> None:
    env = env_factory(
        """
        def put(state, kind):
            record = state["items"]["a"]
            if kind == "loop":
                record["self"] = record
            elif kind == "set":
                record["tags"] = {1, 2}
            else:
                record["n"] = 2
            return "ok"
        """,
        [ToolSpec(name="put", parameters=schema_obj({"kind": {"type": "string"}}, ["kind"]))],
        {"items": {"a": {"n": 1}}},
        trusted=True,
    )
    ep = env.episode()
    before = ep.state_hash()
    for kind in ("loop", "set"):
        obs = ep.call("put", {"kind": kind})
        assert obs.error_kind == "crash" and "not JSON" in obs.content, obs
        assert ep.state_hash() == before
    assert ep.call("put", {"kind": "ok"}).ok
    assert ep.snapshot() == {"items": {"a": {"n": 2}}}
