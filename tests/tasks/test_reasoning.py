"""Each reasoning operator: its value, its failure modes and its degeneracy check."""

from __future__ import annotations

from typing import Any

import pytest

from autoforge.tasks.blueprints.reasoning import (
    ReasoningError,
    ReasoningSpec,
    compare,
    degeneracy,
    describe,
    evaluate,
    get_path,
)

BOOKS = [
    {"id": "B1", "price": 12.5, "genre": "fantasy", "info": {"pages": 300}},
    {"id": "B2", "price": 30.0, "genre": "mystery", "info": {"pages": 120}},
    {"id": "B3", "price": 7.25, "genre": "fantasy", "info": {"pages": 210}},
]


def run(op: str, inputs: dict[str, Any], **kw: Any) -> tuple[Any, str | None]:
    spec = ReasoningSpec(op=op, **kw)  # type: ignore[arg-type]
    result = evaluate(spec, inputs)
    return result, degeneracy(spec, inputs, result)


def test_argmax_argmin() -> None:
    assert run("argmax", {"items": BOOKS}, field=["price"]) == (BOOKS[1], None)
    assert run("argmin", {"items": BOOKS}, field=["info", "pages"]) == (BOOKS[1], None)
    tie = [*BOOKS, {"id": "B4", "price": 30.0}]
    assert run("argmax", {"items": tie}, field=["price"])[1] == "argmax is not unique"
    assert run("argmax", {"items": BOOKS[:1]}, field=["price"])[1]
    with pytest.raises(ReasoningError):
        evaluate(ReasoningSpec(op="argmax", field=["price"]), {"items": []})
    with pytest.raises(ReasoningError):
        evaluate(ReasoningSpec(op="argmax", field=["genre"]), {"items": BOOKS})


def test_filter_all_and_only() -> None:
    kept, problem = run("filter", {"items": BOOKS, "value": "fantasy"}, field=["genre"], cmp="eq")
    assert [b["id"] for b in kept] == ["B1", "B3"] and problem is None
    only, problem = run(
        "filter", {"items": BOOKS, "value": "mystery"}, field=["genre"], take="only"
    )
    assert only == BOOKS[1] and problem is None
    cheap, _ = run("filter", {"items": BOOKS, "value": 13}, field=["price"], cmp="lt")
    assert [b["id"] for b in cheap] == ["B1", "B3"]
    assert run("filter", {"items": BOOKS, "value": 100}, field=["price"], cmp="lt")[1]  # keeps all
    assert run("filter", {"items": BOOKS, "value": "x"}, field=["genre"])[1]  # keeps none
    with pytest.raises(ReasoningError, match="exactly one"):
        evaluate(
            ReasoningSpec(op="filter", field=["genre"], take="only"),
            {"items": BOOKS, "value": "fantasy"},
        )


def test_count_sum_average() -> None:
    assert run("count", {"items": BOOKS}) == (3, None)
    assert run("sum", {"items": BOOKS}, field=["price"]) == (49.75, None)
    assert run("average", {"items": BOOKS}, field=["price"]) == (16.58, None)
    assert run("count", {"items": BOOKS[:1]})[1]
    with pytest.raises(ReasoningError):
        evaluate(ReasoningSpec(op="average", field=["price"]), {"items": []})


def test_compare_and_branch() -> None:
    assert run("compare", {"left": 30.0, "right": 20}, cmp="gt") == (True, None)
    assert run("compare", {"left": "Fantasy", "right": "fantasy"}, cmp="eq")[0] is True
    assert compare(["a", "b"], "contains", "b") and compare("Salt Atlas", "contains", "atlas")
    with pytest.raises(ReasoningError):
        compare("abc", "lt", 3)
    branch = {"condition": True, "then": "found_cheaper", "else": "other"}
    assert run("branch", branch) == ("found_cheaper", None)
    assert run("branch", {**branch, "condition": False})[0] == "other"
    assert run("branch", {**branch, "else": "found_cheaper"})[1]  # both sides equal
    with pytest.raises(ReasoningError):
        evaluate(ReasoningSpec(op="branch"), {**branch, "condition": "yes"})


def test_lookup_and_paths() -> None:
    assert run("lookup", {"value": BOOKS[0]}, field=["info", "pages"]) == (300, None)
    assert run("lookup", {"value": ["o1", "o2"]}, field=[-1]) == ("o2", None)
    assert run("lookup", {"value": ["o1"]}, field=[0])[1]  # positional pick of a single element
    assert get_path({"a": [{"b": 1}]}, ["a", 0, "b"]) == 1
    with pytest.raises(ReasoningError):
        get_path({"a": 1}, ["b"])
    with pytest.raises(ReasoningError, match="missing"):
        evaluate(ReasoningSpec(op="compare"), {"left": 1})


def test_descriptions() -> None:
    assert describe(ReasoningSpec(op="argmax", field=["unit_price"]), "book") == (
        "the book with the highest unit price"
    )
    assert "whose genre is" in describe(ReasoningSpec(op="filter", field=["genre"], take="only"))
    assert describe(ReasoningSpec(op="count"), "order") == "how many orders there are"
