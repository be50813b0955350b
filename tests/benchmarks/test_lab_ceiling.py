"""The derivability ceiling on tiny hand-made domains: an outcome is derivable only when its
names and string values are stated by the data, the docs, the policy or the call itself."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from lab.ceiling import (
    Vocabulary,
    bench_ceiling,
    sentences,
    task_ceiling,
    vocabulary,
    words,
)

from autoforge.synth.fidelity.bench import Bench, BenchAction, BenchTask
from autoforge.tooldocs import phrase_in

DATA = {"orders": {"#O1001": {"order_id": "#O1001", "status": "pending", "total": 10.0}}}
DOCS: dict[str, Any] = {
    "policy": "Only pending orders can be cancelled. The order status becomes 'cancelled'.",
    "tools": [
        {
            "name": "cancel_order",
            "description": "Cancel an order and record the cancellation reason.",
            "parameters": {"properties": {"order_id": {"type": "string"}}},
        },
        {"name": "get_order", "description": "Get an order.", "parameters": {}},
    ],
}


def _vocab() -> Vocabulary:
    return vocabulary(DATA, DOCS)


def _write(path_tail: str, new: Any) -> dict[str, Any]:
    return {"op": "replace", "path": ["orders", "#O1001", path_tail], "old": None, "new": new}


def _cancel(*diff: dict[str, Any]) -> BenchTask:
    action = BenchAction("cancel_order", {"order_id": "#O1001"}, oracle_error=False)
    return BenchTask(id="t", actions=[action], diff=list(diff))


def test_an_action_writing_an_undocumented_field_is_not_derivable() -> None:
    result = task_ceiling(_cancel(_write("refund_ledger_code", "x")), _vocab(), set(), "phrase")
    assert not result.derivable
    assert [g.label() for g in result.gaps] == [
        "attribute: refund_ledger_code",
        "value: x",
    ]


def test_documented_fields_and_values_are_derivable() -> None:
    # "status" is a data key, "cancelled" a policy word, "cancel_reason" the docs' phrase
    # "cancellation reason", "#O1002" has a data id's shape, the date is a timestamp
    task = _cancel(
        _write("status", "cancelled"),
        _write("cancel_reason", "2024-05-01T10:00:00"),
        _write("order_id", "#O1002"),
    )
    result = task_ceiling(task, _vocab(), set(), "phrase")
    assert result.derivable and result.gaps == []
    assert result.derivable_actions == 1


def test_a_task_with_one_non_derivable_action_is_not_derivable() -> None:
    good = BenchAction("get_order", {"order_id": "#O1001"}, False, '{"status": "pending"}')
    bad = BenchAction("get_order", {"order_id": "#O1001"}, False, '{"status": "Shipped OK"}')
    task = BenchTask(id="t", actions=[good, bad], diff=[])
    result = task_ceiling(task, _vocab(), set(), "phrase")
    assert not result.derivable
    assert (result.actions, result.derivable_actions) == (2, 1)
    assert [g.label() for g in result.gaps] == ["result value: Shipped OK"]


def test_a_gap_is_listed_once_per_task() -> None:
    twice = _cancel(_write("refund_ledger_code", 1), _write("refund_ledger_code", 2))
    result = task_ceiling(twice, _vocab(), set(), "phrase")
    assert [g.label() for g in result.gaps] == ["attribute: refund_ledger_code"]


def test_call_arguments_and_earlier_calls_make_values_derivable() -> None:
    write = BenchAction("set_note", {"order_id": "#O1001", "note": "leave at door"}, False)
    read = BenchAction("get_order", {"order_id": "#O1001"}, False, '{"status": "leave at door"}')
    task = BenchTask(id="t", actions=[write, read], diff=[_write("status", "leave at door")])
    assert task_ceiling(task, _vocab(), set(), "phrase").derivable


def test_result_keys_and_python_literal_results_are_judged() -> None:
    action = BenchAction("get_order", {}, False, "{'status': True, 'eta_bucket': 3}")
    result = task_ceiling(BenchTask(id="t", actions=[action], diff=[]), _vocab(), set(), "phrase")
    assert [g.label() for g in result.gaps] == ["result key: eta_bucket"]


def test_a_refusal_is_derivable_from_a_stated_rule_or_a_missing_record() -> None:
    ruled = BenchAction("cancel_order", {"order_id": "#O1001"}, oracle_error=True)
    missing = BenchAction("get_order", {"order_id": "#O9999"}, oracle_error=True)
    unstated = BenchAction("ship_order", {"order_id": "#O1001"}, oracle_error=True)
    vocab = _vocab()
    for action, ok in ((ruled, True), (missing, True), (unstated, False)):
        task = BenchTask(id="t", actions=[action], diff=[])
        assert task_ceiling(task, vocab, set(), "phrase").derivable is ok, action.name


def test_phrase_mode_needs_consecutive_words_the_sentence_mode_does_not() -> None:
    text = sentences("The reason the order was cancelled is kept.")
    assert phrase_in(words("cancelled_order"), text, "sentence")
    assert not phrase_in(words("cancelled_order"), text, "phrase")
    assert phrase_in(words("orderReason"), sentences("Order reasons are kept."), "phrase")
    assert not phrase_in(("ord",), sentences("an order"), "phrase")  # a prefix under four letters
    assert phrase_in(("cancel",), sentences("a cancellation"), "phrase")
    assert not phrase_in(("cancel",), sentences("a cancellation"), "exact")
    assert phrase_in(words("cancel_reason"), sentences("Cancel reason: kept."), "exact")


def test_the_task_own_initial_state_counts_as_data() -> None:
    action = BenchAction("get_order", {}, False, '{"note": "hello there"}')
    plain = BenchTask(id="t", actions=[action], diff=[])
    own = BenchTask(
        id="t", actions=[action], diff=[], initial={"orders": {"a": {"note": "hello there"}}}
    )
    assert not task_ceiling(plain, _vocab(), set(), "phrase").derivable
    assert task_ceiling(own, _vocab(), set(), "phrase").derivable


@pytest.mark.parametrize("mode", ["exact", "phrase", "sentence"])
def test_bench_ceiling_is_the_share_of_replayable_derivable_tasks(mode: str) -> None:
    ok = _cancel(_write("status", "cancelled"))
    bad = _cancel(_write("refund_ledger_code", 1))
    skipped = BenchTask(id="s", actions=[], diff=[_write("zzz", 1)], skipped="no oracle replay")
    ok.id, bad.id = "ok", "bad"
    bench = Bench(path=Path("."), state=DATA, tasks=[ok, bad, skipped], writes={"cancel_order"})
    report = bench_ceiling(bench, _vocab(), mode)  # type: ignore[arg-type]
    assert (report.tasks, report.derivable_tasks, report.ceiling) == (2, 1, 0.5)
    assert report.derivable_ids() == {"ok"}
    assert report.top_gaps == {"attribute: refund_ledger_code": 1}
    assert report.sole_gaps == {"refund_ledger_code": 1}
    assert report.ceiling_without_result_values == 0.5  # the gap is a name, not a reply text


def test_the_ceiling_without_result_values_counts_tasks_only_reply_texts_block() -> None:
    reply = BenchAction("get_order", {"order_id": "#O1001"}, False, "Shipped OK")
    task = BenchTask(id="r", actions=[reply], diff=[])
    bench = Bench(path=Path("."), state=DATA, tasks=[task])
    report = bench_ceiling(bench, _vocab())
    assert (report.ceiling, report.ceiling_without_result_values) == (0.0, 1.0)
