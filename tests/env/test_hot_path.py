"""The per-call hot path: what a call costs beyond the tool itself, with the same guarantees.

A stream of calls must not wake the watchdog thread once per call (a thread switch and a GIL
hand-off, more than a read call itself), the memory baseline of a call is taken when it
starts, ``copy.deepcopy`` in tool code is the fast one with ``deepcopy``'s semantics, and a
forked process gets a watchdog of its own without a ``getpid`` per call.
"""

from __future__ import annotations

import copy
import json
import os
import time
import types
from typing import Any

import pytest

from autoforge.env.calls.limits import CallTimeout, Watchdog, call_limited, watchdog
from autoforge.env.isolation import guards
from autoforge.env.isolation.sandbox import make_builtins
from autoforge.tooldocs.spec import ToolSpec


def _counting(dog: Watchdog) -> list[int]:
    """Count the watchdog's wake-ups requested by ``start``."""
    count = [0]
    notify = dog._cond.notify

    def counted(n: int = 1) -> None:
        count[0] += 1
        notify(n)

    dog._cond.notify = counted  # type: ignore[method-assign]
    return count


@pytest.mark.parametrize("memory_mb", [None, 512.0])
def test_a_stream_of_calls_does_not_wake_the_watchdog_per_call(memory_mb: float | None) -> None:
    dog = Watchdog()
    wakes = _counting(dog)
    for _ in range(40):
        token = dog.start(2.0, memory_mb)
        assert token is not None
        dog.stop(token)
        time.sleep(0.002)  # the watchdog thread gets the GIL between calls
    assert wakes[0] <= 3, f"{wakes[0]} wake-ups for 40 calls"


@pytest.mark.parametrize("memory_mb", [None, 512.0])
def test_back_to_back_calls_do_not_ping_pong_with_the_watchdog(memory_mb: float | None) -> None:
    dog = Watchdog()
    wakes = _counting(dog)
    for _ in range(3000):  # the watchdog runs between them whenever it gets the GIL
        token = dog.start(2.0, memory_mb)
        assert token is not None
        dog.stop(token)
    assert wakes[0] <= 5, f"{wakes[0]} wake-ups for 3000 calls"


def test_a_deadline_earlier_than_the_next_wake_still_wakes_the_watchdog() -> None:
    dog = Watchdog()
    token = dog.start(5.0)
    assert token is not None
    dog.stop(token)
    time.sleep(0.01)
    wakes = _counting(dog)
    token = dog.start(0.001)  # earlier than anything it planned to wake for
    assert token is not None
    dog.stop(token)
    assert wakes[0] == 1


def test_the_memory_baseline_is_taken_when_the_call_starts() -> None:
    if not os.path.exists("/proc/self/statm"):
        pytest.skip("needs /proc")
    dog = Watchdog()
    token = dog.start(2.0, 100.0)
    assert token is not None
    try:
        assert token.rss0 is not None and token.rss0 > 0
    finally:
        dog.stop(token)


def test_timeouts_still_fire_during_a_stream_of_calls() -> None:
    def spin() -> None:
        while True:
            pass

    for _ in range(20):
        assert call_limited(len, ([],), {}, 2.0) == (False, 0, None)
    start = time.monotonic()
    timed_out, _, error = call_limited(spin, (), {}, 0.2)
    assert timed_out and isinstance(error, CallTimeout)
    assert time.monotonic() - start < 1.5


@pytest.mark.skipif(not hasattr(os, "fork"), reason="needs fork")
def test_a_forked_child_gets_its_own_watchdog() -> None:
    parent = watchdog()
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:  # pragma: no cover - runs in the child
        try:
            ok = watchdog() is not parent
            timed_out, _, _ = call_limited(time.sleep, (5,), {}, 0.2)
            os.write(write, b"1" if ok and timed_out else b"0")
        finally:
            os._exit(0)
    os.close(write)
    answer = os.read(read, 1)
    os.waitpid(pid, 0)
    os.close(read)
    assert answer == b"1"
    assert watchdog() is parent


def _payloads() -> list[Any]:
    shared = [1, 2]
    cyclic: list[Any] = ["x"]
    cyclic.append(cyclic)
    return [
        {"a": True, "b": 1, "c": 1.0, "d": -0.0, "e": None, "f": "é", "g": [1, {"h": [2]}]},
        {"x": shared, "y": shared},
        cyclic,
        {"big": 10**40, "t": (1, 2), "s": {3}},
    ]


@pytest.mark.parametrize("value", _payloads())
def test_sandbox_deepcopy_matches_copy_deepcopy(value: Any) -> None:
    ours = guards._deepcopy(value)
    assert ours is not value
    assert repr(ours) == repr(copy.deepcopy(value))
    if isinstance(value, dict) and "x" in value:
        assert ours["x"] is ours["y"] and ours["x"] is not value["x"]  # sharing kept
    if isinstance(value, list):
        assert ours[1] is ours  # the cycle kept


def test_sandbox_deepcopy_falls_back_for_what_marshal_refuses() -> None:
    frozen = types.MappingProxyType({"a": [1]})
    nested = {"m": frozen}
    with pytest.raises(TypeError):
        copy.deepcopy(nested)  # the standard library refuses it too: same behaviour
    with pytest.raises(TypeError):
        guards._deepcopy(nested)
    memo: dict[int, Any] = {}
    assert guards._deepcopy([1, [2]], memo) == [1, [2]] and memo  # memo given: the real one


def test_tool_code_gets_the_fast_deepcopy(env_factory: Any, schema_obj: Any) -> None:
    module = make_builtins()["__import__"]("copy")
    assert module.deepcopy is guards._deepcopy
    env = env_factory(
        """
        import copy

        def twin(state):
            shared = [1, True]
            out = copy.deepcopy({"a": shared, "b": shared})
            out["a"].append(2)
            return {"b": out["b"], "bools": [v is True for v in out["a"]]}
        """,
        [ToolSpec(name="twin", parameters=schema_obj({}))],
    )
    assert env.episode().call("twin").result == {
        "b": [1, True, 2],
        "bools": [False, True, False],
    }


@pytest.mark.parametrize(
    "value",
    [
        {"a": 86.0},
        {"a": [1e16, 1e-05]},
        {"a": -0.0},
        {"a": float("nan"), "b": float("inf")},
        {"a": 1.5, "b": "e-mail 1.0,"},
        {"price": 54.04, "text": "no float to fix"},
    ],
)
def test_canonical_json_prefilter_keeps_the_canonical_form(value: Any) -> None:
    from autoforge.env.state.values import canonical, canonical_json

    strict = json.dumps(
        canonical(value), sort_keys=True, separators=(",", ":"), ensure_ascii=False, allow_nan=False
    )
    assert canonical_json(value) == strict
