"""benchmarks/task_quality.py: what counts as stated verbatim, as session-given, as a selection."""

from __future__ import annotations

import sys
from pathlib import Path
from types import SimpleNamespace

from autoforge.tasks.blueprints.blueprint import (
    Blueprint,
    CallNode,
    FactRef,
    OutputRef,
    ReasoningRef,
    ReasonNode,
)
from autoforge.tasks.blueprints.reasoning import ReasoningSpec

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))

import task_quality


def test_session_given_values_are_counted_apart_and_never_as_verbatim() -> None:
    calls = [("search_orders", {"user_id": "U1", "status": "paid"}),
             ("cancel_order", {"order_id": "O-7", "user_id": "U1"})]  # fmt: skip
    text = "Cancel my paid order please."
    by_arg: dict[str, list[int]] = {}
    assert task_quality.verbatim(calls, text, by_arg) == (1, 4, 0, 3)
    assert by_arg["search_orders.status"] == [1, 1] and by_arg["cancel_order.user_id"] == [0, 1]
    assert task_quality.session_given(calls, text, {"user_id": "U1"}) == 2
    assert task_quality.session_given(calls, text, {}) == 0
    # a value the user also says is verbatim, not session-given
    assert task_quality.session_given(calls, "I am U1", {"user_id": "U1"}) == 0


def test_a_snake_case_value_said_in_words_counts_as_stated() -> None:
    """The template writer says ``ordered_by_mistake`` as "ordered by mistake": the user
    still states the value, so it counts as verbatim (the share is not lowered by rewording)."""
    calls = [("cancel_order", {"order_id": "O-1", "reason": "ordered_by_mistake"})]
    assert task_quality.verbatim(calls, "Cancel O-1, I ordered by mistake.") == (2, 2, 1, 1)
    assert task_quality.verbatim(calls, "Cancel it, I ordered it by mistake.") == (0, 2, 0, 1)


def _picked_by(field: str) -> SimpleNamespace:
    """A task whose review's book is the only search result with ``field`` = a value."""
    search = CallNode(id="c0", tool="search_books", args={"genre": FactRef(name="genre")})
    pick = ReasonNode(id="r0", spec=ReasoningSpec(op="filter", field=[field], cmp="eq",
                                                  take="only"),
                      inputs={"items": OutputRef(node="c0"), "value": FactRef(name="v")},
                      noun="book")  # fmt: skip
    review = CallNode(id="c1", tool="add_review",
                      args={"book_id": ReasoningRef(node="r0", path=["book_id"])})  # fmt: skip
    return SimpleNamespace(blueprint=Blueprint(nodes=[search, pick, review]), required_outputs=[])


def test_selection_share_does_not_count_a_filter_on_the_records_own_name() -> None:
    """The metric: "the book whose title is X among the romance books" is no selection (it
    names the book); "the only book by author Y among them" still is one."""
    assert task_quality.has_selection(_picked_by("author"), {"add_review"})
    assert not task_quality.has_selection(_picked_by("title"), {"add_review"})
