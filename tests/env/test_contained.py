"""Contained episodes (the default): same observations and states as inline, shared worker."""

from __future__ import annotations

from typing import Any

import pytest

from autoforge.env import Environment
from autoforge.env.isolation.contained import ContainedEpisode
from autoforge.tooldocs.spec import ToolSpec

CALLS = [
    ("get_item", {"item_id": "i1"}),
    ("set_price", {"item_id": "i1", "price": 3.5}),
    ("add_item", {"name": "kite", "price": 9, "tags": ["toy"], "kind": "toy"}),
    ("delete_item", {"item_id": "i2"}),
    ("get_item", {"item_id": "nope"}),
    ("set_price", {"item_id": "i1", "price": -1}),
    ("list_items", {}),
]


def test_contained_matches_inline_call_for_call(shop_parts: Any, shop_initial: Any) -> None:
    contained = Environment.from_parts(*shop_parts, shop_initial)
    inline = Environment.from_parts(*shop_parts, shop_initial, trusted=True)
    a, b = contained.episode(), inline.episode()
    assert isinstance(a, ContainedEpisode) and not isinstance(b, ContainedEpisode)
    for tool, args in CALLS:
        x, y = a.call(tool, args), b.call(tool, args)
        assert (x.ok, x.content, x.error_kind, x.result) == (
            y.ok,
            y.content,
            y.error_kind,
            y.result,
        )
    assert a.state_hash() == b.state_hash() and a.diff() == b.diff()
    assert a.snapshot() == b.snapshot()
    assert dict(a.state["items"]) == dict(b.state["items"])
    a.reset()
    b.reset()
    batch = a.call_many(CALLS)
    single = [b.call(t, args) for t, args in CALLS]
    assert [o.content for o in batch] == [o.content for o in single]
    assert a.state_hash() == b.state_hash()


def test_episodes_share_one_worker_and_stay_apart(shop_parts: Any, shop_initial: Any) -> None:
    env = Environment.from_parts(*shop_parts, shop_initial)
    first, second = env.episode(), env.episode(mode="inline")  # inline needs trusted=True
    assert isinstance(second, ContainedEpisode)
    first.call("set_price", {"item_id": "i1", "price": 1})
    second.call("set_price", {"item_id": "i1", "price": 2})
    assert first.call("get_item", {"item_id": "i1"}).result["price"] == 1
    assert second.call("get_item", {"item_id": "i1"}).result["price"] == 2
    pid = env._runtime.worker.pid
    derived = env.with_initial_state(shop_initial)
    third = derived.episode()
    assert third.call("get_item", {"item_id": "i1"}).result["price"] != 1
    assert env._runtime.worker.pid == pid  # derived environments share the worker
    env._runtime.retire()  # a killed worker: every episode continues from its mirror
    assert first.call("get_item", {"item_id": "i1"}).result["price"] == 1
    assert second.call("get_item", {"item_id": "i1"}).result["price"] == 2
    second.reset()  # sent to the worker with the next call
    assert second.call("get_item", {"item_id": "i1"}).result["price"] == 12.5
    assert second.snapshot() == shop_initial
    assert first.call("get_item", {"item_id": "i1"}).result["price"] == 1


def test_an_owned_initial_state_is_used_without_a_copy(shop_parts: Any, shop_initial: Any) -> None:
    env = Environment.from_parts(*shop_parts, shop_initial)
    state = {name: dict(records) for name, records in shop_initial.items()}
    owned, copied = env.with_initial_state(state, owned=True), env.with_initial_state(state)
    name = next(iter(state))
    assert owned.initial_state[name] is state[name]  # handed over, not copied
    assert copied.initial_state[name] is not state[name]
    assert copied.initial_state == owned.initial_state == shop_initial
    episode = owned.episode()  # the worker's decoded copy is handed over too
    assert episode.call("set_price", {"item_id": "i1", "price": 3}).ok
    assert episode.call("get_item", {"item_id": "i1"}).result["price"] == 3
    assert owned.initial_state == shop_initial  # the base itself is never changed
    assert owned.episode().call("get_item", {"item_id": "i1"}).result["price"] == 12.5


def test_the_seccomp_layer_is_a_core_dependency_and_a_missing_one_is_named_as_such(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The README's install (no dev extra) must carry the seccomp layer; and where pyseccomp
    is absent, the worker (past its descriptor limit, where a module search fails with EMFILE)
    reports it as not installed rather than as a load error."""
    import builtins
    import sys
    import tomllib
    from pathlib import Path

    from autoforge.env.isolation import boundary

    project = tomllib.loads((Path(__file__).parents[2] / "pyproject.toml").read_text())
    assert any(d.startswith("pyseccomp") for d in project["project"]["dependencies"])

    real_import = builtins.__import__

    def emfile(name: str, *args: object, **kwargs: object) -> object:
        if name == "pyseccomp":
            raise OSError(24, "Too many open files")
        return real_import(name, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.delitem(sys.modules, "pyseccomp", raising=False)
    monkeypatch.setattr(builtins, "__import__", emfile)
    with pytest.raises(ImportError):
        boundary._seccomp()


def _again(episode: Any, calls: list[tuple[str, Any]], times: int) -> tuple[Any, Any]:
    observed, reruns = episode.call_many_again(calls, times)
    return observed, reruns


def _seen(observed: list[Any]) -> list[tuple[Any, ...]]:
    return [(o.ok, o.content, o.error_kind, o.result) for o in observed]


def test_a_batch_run_again_equals_runs_call_by_call(shop_parts: Any, shop_initial: Any) -> None:
    """Every run of ``call_many_again`` (failing calls included) observes and ends as a run
    call by call from the same start does, in one round trip."""
    contained = Environment.from_parts(*shop_parts, shop_initial)
    inline = Environment.from_parts(*shop_parts, shop_initial, trusted=True)
    reference = inline.episode()
    single = _seen([reference.call(t, args) for t, args in CALLS])
    assert any(not ok for ok, *_ in single)  # errors inside the batch: reported the same way
    episode = contained.episode()
    sent: list[Any] = []
    real = contained._runtime.request
    contained._runtime.request = lambda ep, msg, t: sent.append(msg["op"]) or real(ep, msg, t)
    observed, reruns = _again(episode, CALLS, 2)
    assert sent == ["again"]
    assert _seen(observed) == single and episode.state_hash() == reference.state_hash()
    assert [(_seen(r.observations), r.final_hash) for r in reruns] == [
        (single, reference.state_hash())
    ] * 2
    with pytest.raises(ValueError):  # only from the start state: reruns start there
        episode.call_many_again(CALLS, 1)


def test_a_rerun_that_answers_differently_is_replayed_on_its_own_mirror(
    shop_parts: Any, shop_initial: Any
) -> None:
    """A further run whose replies differ from the first's (here: a worker that wrote
    another price the second time) gets its own observations and its own final state."""
    contained = Environment.from_parts(*shop_parts, shop_initial)
    calls = [("set_price", {"item_id": "i1", "price": 3.5}), ("get_item", {"item_id": "i1"})]
    real = contained._runtime.request

    def other_price(ep: Any, msg: Any, t: float) -> Any:
        runs = real(ep, msg, t)
        runs[1][0][3][0][3]["price"] = 4.0  # the change the second run's write committed
        runs[1][1][1] = runs[1][1][1].replace("3.5", "4.0")
        return runs

    contained._runtime.request = other_price
    episode = contained.episode()
    observed, reruns = _again(episode, calls, 1)
    inline = Environment.from_parts(*shop_parts, shop_initial, trusted=True)
    reference = inline.episode()
    reference.call("set_price", {"item_id": "i1", "price": 4.0})
    assert observed[1].result["price"] == 3.5
    assert reruns[0].observations[1].result["price"] == 4.0
    assert reruns[0].final_hash == reference.state_hash() != episode.state_hash()


def test_limits_hold_in_a_batch_run_again(env_factory: Any, schema_obj: Any) -> None:
    """A call past its time limit is a timeout observation in every run of the batch, and
    the calls after it still run (in the same worker)."""
    tools = [
        ToolSpec(name="spin", parameters=schema_obj({})),
        ToolSpec(name="echo", parameters=schema_obj({"x": {"type": "integer"}}, ["x"])),
    ]
    source = """
    def spin(state):
        while True:
            pass

    def echo(state, x):
        return x
    """
    env = env_factory(source, tools, {}, call_timeout_s=0.2)
    episode = env.episode()
    observed, reruns = _again(episode, [("spin", {}), ("echo", {"x": 3})], 1)
    for run in (observed, reruns[0].observations):
        assert [o.error_kind for o in run] == ["timeout", None]
        assert run[1].result == 3


@pytest.mark.parametrize("mode", ["isolated", "contained"])
def test_a_record_made_and_dropped_in_one_episode_leaves_the_base_state(mode: str) -> None:
    """A key created by one call and deleted by the next is absent from the base: the worker
    reports it as back to the base, which must delete it rather than crash."""
    from autoforge.env import Environment, EnvironmentSpec
    from autoforge.tooldocs import ToolSpec

    key = {"type": "object", "properties": {"k": {"type": "string"}}, "required": ["k"]}
    tools = [ToolSpec(name="put", parameters=key), ToolSpec(name="drop", parameters=key)]
    source = (
        "def put(state, k):\n    state.setdefault('items', {})[k] = {'k': k}\n    return k\n"
        "def drop(state, k):\n    return state['items'].pop(k)\n"
    )
    env = Environment.from_parts(EnvironmentSpec(name="t", tools=tools), source, {"items": {}})
    ep = env.episode(mode=mode)  # type: ignore[arg-type]
    start = ep.state_hash()
    assert ep.call("put", {"k": "a"}).ok
    dropped = ep.call("drop", {"k": "a"})
    assert dropped.ok, dropped.content
    assert ep.state_hash() == start and ep.snapshot() == {"items": {}}
