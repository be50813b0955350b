"""The bounded session store: limits, idle eviction (with a fake clock), isolation of ids."""

from __future__ import annotations

import pytest

from autoforge.serve.errors import TooManySessions, UnknownEpisode
from autoforge.serve.sessions import SessionStore


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def test_open_get_close_roundtrip() -> None:
    store: SessionStore[dict[str, int]] = SessionStore(4, 60)
    made: list[int] = []
    session = store.open(lambda: {"n": len(made)}, task_id="t", seed=3)
    assert store.get(session.id) is session
    assert (session.task_id, session.seed) == ("t", 3)
    assert store.close(session.id) is session
    with pytest.raises(UnknownEpisode, match="POST /episodes"):
        store.get(session.id)
    assert len(store) == 0


def test_ids_are_unique_and_unguessable() -> None:
    store: SessionStore[None] = SessionStore(500, 60)
    ids = {store.open(lambda: None).id for _ in range(300)}
    assert len(ids) == 300
    assert all(len(i) >= 16 for i in ids)


def test_full_store_refuses_with_retry_hint_and_does_not_build_the_episode() -> None:
    clock = Clock()
    store: SessionStore[None] = SessionStore(2, 60, clock=clock)
    store.open(lambda: None)
    clock.now += 10
    store.open(lambda: None)
    built: list[int] = []
    with pytest.raises(TooManySessions) as info:
        store.open(lambda: built.append(1))
    assert built == []
    assert info.value.status == 429
    assert info.value.extra["retry_after_s"] == 50.0  # the oldest idles out 60 s after its use
    assert "DELETE" in info.value.message


def test_idle_sessions_are_evicted_to_make_room() -> None:
    clock = Clock()
    store: SessionStore[str] = SessionStore(2, 60, clock=clock)
    old = store.open(lambda: "old")
    clock.now += 30
    kept = store.open(lambda: "kept")
    clock.now += 31  # old idle 61 s, kept 31 s
    new = store.open(lambda: "new")
    assert {s.id for s in store} == {kept.id, new.id}
    assert store.evicted == 1
    with pytest.raises(UnknownEpisode):
        store.get(old.id)


def test_use_refreshes_idleness() -> None:
    clock = Clock()
    store: SessionStore[None] = SessionStore(3, 60, clock=clock)
    session = store.open(lambda: None)
    for _ in range(5):
        clock.now += 50
        store.get(session.id)
    assert store.evict_idle() == []
    clock.now += 60
    assert store.evict_idle() == [session.id]


def test_bad_limits_are_rejected() -> None:
    with pytest.raises(ValueError):
        SessionStore(0, 60)
    with pytest.raises(ValueError):
        SessionStore(1, 0)


def test_owner_quota_evicts_the_owners_idle_session_first() -> None:
    clock = Clock()
    store: SessionStore[None] = SessionStore(10, 60, clock=clock, max_per_owner=2)
    old = store.open(lambda: None, owner="a")
    clock.now += 50
    store.open(lambda: None, owner="a")
    with pytest.raises(TooManySessions, match="quota") as info:
        store.open(lambda: None, owner="a")
    assert info.value.extra["max_per_token"] == 2
    other = store.open(lambda: None, owner="b")  # another owner is not affected
    clock.now += 15  # the first session of "a" is now idle past 60 s
    store.open(lambda: None, owner="a")
    assert old.id not in {s.id for s in store} and store.get(other.id, "b") is other
    with pytest.raises(UnknownEpisode):
        store.get(other.id, "a")  # ids are bound to their owner


def test_call_log_keeps_the_latest_calls_within_bytes() -> None:
    from autoforge.serve.sessions import LogLimits, Session, bounded_entry

    session: Session[None] = Session("s", None, None, None, 0.0, 0.0)
    limits = LogLimits(max_calls=3, max_bytes=10_000, max_value_bytes=100)
    obs = {"ok": True, "content": "c" * 500, "error_kind": None}
    for i in range(5):
        session.log(bounded_entry("t", {"n": i, "blob": "x" * 1000}, obs, 0.0, 100), limits)
    assert [c.arguments["n"] for c in session.calls] == [2, 3, 4]
    assert session.calls[0].arguments["blob"] == "<truncated: 1002 bytes>"
    assert session.calls[0].content.endswith("<truncated: 500 bytes>")
    assert (session.n_calls, session.log_dropped) == (5, 2)
    tight = LogLimits(max_calls=100, max_bytes=500, max_value_bytes=100)
    for _ in range(10):
        session.log(bounded_entry("t", {"v": "y" * 90}, obs, 0.0, 100), tight)
    assert session.log_bytes <= 500 and len(session.calls) >= 1
