"""The faster paths of task generation read the same data as the slower ones they replace."""

from __future__ import annotations

import random
from typing import Any

from autoforge.tasks.blueprints.facts import FactChooser, _LazyState


def _cancelled(env: Any) -> Any:
    episode = env.episode()
    obs = episode.call("cancel_order", {"order_id": "ORD-8", "reason": "other"})
    assert obs.ok, obs.content
    return episode


def test_peek_gives_the_committed_collection_without_copying(bookstore_env: Any) -> None:
    episode = _cancelled(bookstore_env)
    peeked = episode.peek("orders")
    assert peeked == dict(episode.state["orders"].items())  # the same data as the copying view
    assert peeked["ORD-8"]["status"] == "cancelled"  # the committed change is there
    assert peeked["ORD-9"] is episode.peek("orders")["ORD-9"]  # shared, not copied
    assert episode.state["orders"]["ORD-9"] is not episode.state["orders"]["ORD-9"]


def test_fact_choice_reads_the_state_after_a_write_through_peek(bookstore_env: Any) -> None:
    episode = _cancelled(bookstore_env)
    chooser = FactChooser(bookstore_env.spec, episode, random.Random(0))
    chooser.note_entities("cancel_order", {"order_id": "ORD-8"}, {}, wrote=True)
    plain = chooser.plain()
    assert isinstance(plain, _LazyState)
    assert plain["orders"] == episode.peek("orders")
    assert plain["orders"]["ORD-9"] is episode.peek("orders")["ORD-9"]


class _NoPeek:
    """An episode-like object with only the protocol's ``state`` (no ``peek``)."""

    def __init__(self, episode: Any) -> None:
        self.state = episode.state


def test_lazy_state_copies_through_state_where_an_episode_cannot_peek(bookstore_env: Any) -> None:
    episode = _cancelled(bookstore_env)
    lazy = _LazyState(_NoPeek(episode))
    assert lazy["orders"] == episode.peek("orders")
    assert lazy["orders"]["ORD-9"] is not episode.peek("orders")["ORD-9"]
