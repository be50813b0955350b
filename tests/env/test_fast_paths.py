"""Fast paths of the runtime's hot loop, held to what the slow paths give.

The sandbox protocol's line parser must read every line exactly as ``json`` does; the memo of
checked record digests must never let through a record the check refuses; an episode that
changed nothing hashes as its base, computed once; the scan loop of the copy-on-write state
must behave as a plain dict does, whatever the tool does to the collection while it iterates.
"""

from __future__ import annotations

import copy
import json
import marshal
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from autoforge.env import Environment, state_hash
from autoforge.env.isolation import worker
from autoforge.env.runtime import Observation
from autoforge.env.state import cow, hashing, values
from autoforge.tooldocs.spec import ToolSpec

_ODD_LINES = [
    b"[NaN, Infinity, -Infinity, 1.5]",
    b"[1e400, -1e400, 5e-324, -0.0, 0.1]",
    b"[18446744073709551616, -9223372036854775809, 123456789012345678901234567890]",
    b"[9999999999999999999, -9999999999999999999, 1234567890123456789.5]",
    b'{"a": "\\ud800", "b": "\\udfff x"}',
    b'{"a": 1, "b": 2, "a": 3}',
    b'{"text": "a run of digits 12345678901234567890 in a string", "n": 7}',
    b' [1, "\\u00e9\\u2603", {"k": null}] ',
]


def _exact(value: Any) -> bytes:
    """Type-exact bytes of a decoded value (NaN equals NaN, 1 differs from 1.0)."""
    return marshal.dumps(value, 2)


@pytest.mark.parametrize("line", _ODD_LINES)
def test_protocol_lines_decode_exactly_as_json_does(line: bytes) -> None:
    assert _exact(worker.loads(line)) == _exact(json.loads(line.decode()))


@pytest.mark.parametrize("line", [b"[1]x", b"", b"\xff", b"[" * 3000 + b"]" * 3000])
def test_a_line_json_refuses_is_still_refused(line: bytes) -> None:
    with pytest.raises((ValueError, RecursionError)):
        json.loads(line.decode())
    with pytest.raises((ValueError, RecursionError)):
        worker.loads(line)


_JSON = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats(allow_nan=True, allow_infinity=True)
    | st.text(),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(), inner, max_size=4),
    max_leaves=20,
)


@settings(max_examples=300, deadline=None)
@given(_JSON)
def test_any_protocol_line_decodes_as_json_decodes_it(value: Any) -> None:
    line = worker.dumps(value).rstrip(b"\n")
    assert _exact(worker.loads(line)) == _exact(json.loads(line.decode()))


@pytest.mark.parametrize("line", _ODD_LINES)
def test_result_texts_decode_exactly_as_json_does(line: bytes) -> None:
    text = line.decode()
    assert _exact(values.json_loads_text(text)) == _exact(json.loads(text))


def test_a_result_text_utf8_cannot_carry_goes_to_json() -> None:
    text = '["\ud800"]'  # a lone surrogate in the text itself, not escaped
    assert values.json_loads_text(text) == json.loads(text)


@settings(max_examples=200, deadline=None)
@given(_JSON)
def test_an_observation_result_is_what_json_reads_from_its_content(value: Any) -> None:
    content = json.dumps(value)
    obs = Observation("t", True, content)
    assert _exact(obs.result) == _exact(json.loads(content))


def test_ordinary_lines_take_the_fast_parser(monkeypatch: pytest.MonkeyPatch) -> None:
    pytest.importorskip("orjson")  # optional: without it every line goes to json
    fast = values._fast_loads
    assert fast is not None
    used: list[bytes] = []

    def spy(line: bytes) -> Any:
        used.append(line)
        return fast(line)

    monkeypatch.setattr(values, "_fast_loads", spy)
    line = worker.dumps({"op": "call", "tool": "t", "args": {"x": [1, 2.5, None]}, "pre": []})
    assert worker.loads(line) == {"op": "call", "tool": "t", "args": {"x": [1, 2.5, None]},
                                  "pre": []}  # fmt: skip
    assert len(used) == 1
    assert worker.loads(b"[12345678901234567890123]") == [12345678901234567890123]
    assert len(used) == 1  # a long number goes straight to json


def test_checked_digests_are_memoised_and_never_pass_what_the_check_refuses(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(hashing, "_MEMO", {})
    monkeypatch.setattr(hashing, "_CHECKED", {})
    checked: list[Any] = []
    real = hashing.checked_canonical_json

    def counting(value: Any) -> str:
        checked.append(value)
        return real(value)

    monkeypatch.setattr(hashing, "checked_canonical_json", counting)
    record = {"price": 12.5, "tags": ["a"], "vip": True}
    first = hashing.checked_record_digest("k", record)
    assert hashing.checked_record_digest("k", copy.deepcopy(record)) == first
    assert first == hashing.record_digest("k", record)
    assert len(checked) == 1  # an equal record is not encoded again
    assert hashing.checked_record_digest("k", {**record, "vip": 1}) != first  # type-exact
    assert len(checked) == 2
    refused = {"tags": {1, 2}}
    hashing.record_digest("k", refused)  # the unchecked memo accepts a set (str() of it)
    for _ in range(2):
        with pytest.raises(TypeError):
            hashing.checked_record_digest("k", refused)


@pytest.fixture
def trusted_shop(shop_parts: Any, shop_initial: dict[str, Any]) -> Environment:
    spec, source = shop_parts
    return Environment.from_parts(spec, source, shop_initial, trusted=True)


@pytest.fixture
def combined(monkeypatch: pytest.MonkeyPatch) -> list[Any]:
    """The parts of every full state hash computed while the test runs (``cow.combine``)."""
    seen: list[Any] = []
    real = cow.combine

    def counting(parts: Any) -> str:
        seen.append(parts)
        return real(parts)

    monkeypatch.setattr(cow, "combine", counting)
    return seen


def test_an_unchanged_episode_hashes_as_its_base_computed_once(
    trusted_shop: Environment, combined: list[Any]
) -> None:
    base = state_hash(trusted_shop.initial_state)
    assert trusted_shop.episode().state_hash() == base
    assert len(combined) == 1
    ep = trusted_shop.episode()
    assert ep.call("get_item", {"item_id": "i1"}).ok
    assert ep.state_hash() == base
    assert len(combined) == 1  # a fresh or read-only episode reuses the base's hash
    price = ep.peek("items")["i1"]["price"]
    assert ep.call("set_price", {"item_id": "i1", "price": price + 1}).ok
    changed = ep.state_hash()
    assert changed != base and changed == state_hash(ep.snapshot())
    assert ep.call("set_price", {"item_id": "i1", "price": price}).ok  # back to the base value
    assert ep.state_hash() == base
    ep.reset()
    assert ep.state_hash() == base


def test_a_state_is_hashed_once_between_changes(
    trusted_shop: Environment, combined: list[Any]
) -> None:
    ep = trusted_shop.episode()
    price = ep.peek("items")["i1"]["price"]
    assert ep.call("set_price", {"item_id": "i1", "price": price + 1}).ok
    changed = ep.state_hash()
    assert ep.state_hash() == changed and len(combined) == 1
    assert ep.call("get_item", {"item_id": "i1"}).ok  # a read changes nothing
    assert ep.call("set_price", {"item_id": "nope", "price": 1}).error_kind == "tool_error"
    assert ep.state_hash() == changed and len(combined) == 1
    assert ep.call("set_price", {"item_id": "i1", "price": price + 2}).ok
    again = ep.state_hash()
    assert again not in (changed, state_hash(trusted_shop.initial_state))
    assert again == state_hash(ep.snapshot()) and len(combined) == 2
    mirror = trusted_shop.episode()
    mirror._state._apply(ep._state._committed_changes())  # as a contained episode's mirror
    assert mirror.state_hash() == again
    ep.reset()
    assert ep.state_hash() == state_hash(trusted_shop.initial_state)


@settings(max_examples=200, deadline=None)
@given(st.text(), _JSON)
def test_a_record_digest_from_its_fingerprint_bytes_is_its_digest(key: str, record: Any) -> None:
    raw = marshal.dumps(record, 2)
    assert hashing._PAIR + marshal.dumps(key, 2) + raw == marshal.dumps((key, record), 2)
    assert hashing.record_digest_of(key, record, raw) == hashing.record_digest(key, record)


def test_base_digests_reuse_the_fingerprint_bytes(
    shop_initial: dict[str, Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    plain = hashing.BaseDigests(shop_initial)
    printed = hashing.BaseDigests(shop_initial)
    assert printed.fingerprint() is printed.fingerprint() is not None
    marshalled: list[Any] = []
    real = hashing.record_digest
    monkeypatch.setattr(hashing, "record_digest", lambda k, v: marshalled.append(k) or real(k, v))
    for name in shop_initial:
        assert printed.collection(name) == plain.collection(name)
    assert len(marshalled) == sum(len(v) for v in shop_initial.values())  # the plain one only


_SCAN = """
def scan(state, mode):
    coll = state["items"]
    seen = []
    for key, record in coll.items():
        if mode == "set_later" and key == "a":
            coll["c"] = {"n": 99}
        if mode == "delete_later" and key == "a":
            del coll["b"]
        if mode == "add" and key == "a":
            coll["z"] = {"n": -1}
        seen.append([key, record["n"]])
    for record in coll.values():
        if mode == "bump":
            record["n"] += 1
        seen.append(record["n"])
    return seen
"""


def _scan_env(env_factory: Any, schema_obj: Any, state: dict[str, Any]) -> Environment:
    tool = ToolSpec(name="scan", parameters=schema_obj({"mode": {"type": "string"}}, ["mode"]))
    env: Environment = env_factory(_SCAN, [tool], copy.deepcopy(state), trusted=True)
    return env


_ITEMS = {"items": {"a": {"n": 1}, "b": {"n": 2}, "c": {"n": 3}}}


@pytest.mark.parametrize("mode", ["read", "set_later", "bump"])
def test_a_scan_sees_what_a_plain_dict_would_and_commits_the_same(
    env_factory: Any, schema_obj: Any, mode: str
) -> None:
    namespace: dict[str, Any] = {}
    exec(_SCAN, namespace)  # the same function on plain dicts: what the tool must see
    ep = _scan_env(env_factory, schema_obj, _ITEMS).episode()
    plain = copy.deepcopy(_ITEMS)
    assert ep.call("scan", {"mode": "bump"}).ok  # an earlier change under the scan
    namespace["scan"](plain, "bump")
    for _ in range(2):  # the second time the scan takes the spares the first one left
        expected = namespace["scan"](plain, mode)
        obs = ep.call("scan", {"mode": mode})
        assert obs.ok and obs.result == expected
        assert ep.snapshot() == plain
        assert ep.state_hash() == state_hash(plain)


@pytest.mark.parametrize(
    ("mode", "seen", "final"),
    [
        ("delete_later", [["a", 1], ["c", 3], 1, 3], {"a": {"n": 1}, "c": {"n": 3}}),
        ("add", [["a", 1], ["b", 2], ["c", 3], ["z", -1], 1, 2, 3, -1],
         {"a": {"n": 1}, "b": {"n": 2}, "c": {"n": 3}, "z": {"n": -1}}),
    ],
)  # fmt: skip
def test_a_scan_skips_what_the_tool_deleted_and_ends_with_what_it_added(
    env_factory: Any, schema_obj: Any, mode: str, seen: list[Any], final: dict[str, Any]
) -> None:
    ep = _scan_env(env_factory, schema_obj, _ITEMS).episode()
    obs = ep.call("scan", {"mode": mode})
    assert obs.ok and obs.result == seen
    assert ep.snapshot() == {"items": final}
