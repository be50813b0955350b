"""benchmarks/task_quality.py: session-given arguments are counted apart from verbatim ones."""

from __future__ import annotations

import sys
from pathlib import Path

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
