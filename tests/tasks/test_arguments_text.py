"""arguments_text writes the text json.dumps(..., sort_keys=True) writes, telling values apart."""

from __future__ import annotations

import json
import math

import pytest

from autoforge.tasks.gold.primed import arguments_text

CASES = [
    {"plot_id": "P-7", "rows": 3, "organic": True, "yield_kg": 2.5},
    {"b": [1, 1.0, True, None], "a": {"z": "ünïcode", "y": [{"k": "v"}]}},
    ["no", "object"],
    "plain",
    {"ratio": math.inf, "missing": math.nan},
    {},
]


@pytest.mark.parametrize("value", CASES)
def test_same_text_as_json_dumps_sorted(value: object) -> None:
    assert arguments_text(value) == json.dumps(value, sort_keys=True)


def test_tells_true_one_and_one_point_zero_apart_but_not_key_order() -> None:
    texts = {arguments_text({"n": v}) for v in (True, 1, 1.0)}
    assert len(texts) == 3
    assert arguments_text({"a": 1, "b": 2}) == arguments_text({"b": 2, "a": 1})


def test_refuses_what_json_refuses() -> None:
    with pytest.raises(TypeError):
        arguments_text({"when": object()})
