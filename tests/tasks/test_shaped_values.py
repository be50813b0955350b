"""A list or object argument takes a value the data's records hold under the same name, when
it fits the argument's schema (the lines of an existing request), not invented words."""

from __future__ import annotations

from typing import Any

from autoforge.tasks.blueprints.related import shaped_values

LINES = {
    "type": "array",
    "items": {
        "type": "object",
        "required": ["kind", "count"],
        "properties": {"kind": {"type": "string"}, "count": {"type": "integer", "maximum": 6}},
    },
}
STATE: dict[str, Any] = {
    "requests": {
        "R1": {"request_id": "R1", "lines": [{"kind": "sofa", "count": 2}]},
        "R2": {"request_id": "R2", "lines": []},
        "R3": {"request_id": "R3", "lines": [{"kind": "bed", "count": 9}]},
        "R4": {"request_id": "R4", "lines": "none"},
    },
    "kinds": {"sofa": {"code": "sofa", "lines": 3}},
}


def test_the_data_s_own_lines_that_fit_the_schema_are_offered() -> None:
    assert shaped_values(STATE, "lines", LINES) == [[{"kind": "sofa", "count": 2}]]


def test_no_value_for_a_scalar_schema_or_an_unseen_name() -> None:
    assert shaped_values(STATE, "lines", {"type": "integer"}) == []
    assert shaped_values(STATE, "items", LINES) == []
