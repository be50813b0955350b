"""An action that adds one line to its target's list: the line's fields as the data's lines
show them (arguments, copies of the referenced record, a running number, a product), merged
into the line for the same record when the docs say its quantity is increased, and the
target's sum over its lines recomputed."""

from __future__ import annotations

import copy
from typing import Any

from autoforge.env.artifact.behaviour import ParamInfo, ToolBehaviour
from autoforge.synth.behaviour.compile import _effect_lines
from autoforge.synth.behaviour.data import Context, DataEvidence
from autoforge.synth.behaviour.lines import one_line
from autoforge.tooldocs import ToolSpec


def _line(n: int, item: str, qty: int, price: float) -> dict[str, Any]:
    return {"n": n, "item_id": item, "qty": qty, "price": price, "amount": round(qty * price, 2)}


DATA: dict[str, Any] = {
    "items": {
        "I1": {"item_id": "I1", "label": "Rope", "price": 2.5},
        "I2": {"item_id": "I2", "label": "Hook", "price": 1.2},
    },
    "kits": {
        "K1": {"kit_id": "K1", "lines": [_line(1, "I1", 2, 2.5)], "lines_sum": 5.0},
        "K2": {"kit_id": "K2", "lines": [_line(1, "I2", 1, 1.2), _line(2, "I1", 3, 2.5)],
               "lines_sum": 8.7},
        "K3": {"kit_id": "K3", "lines": [], "lines_sum": 0.0},
    },
}  # fmt: skip
TB = ToolBehaviour(
    tool="add_item", kind="action", collection="kits", id_param="kit_id",
    params=[ParamInfo(name="kit_id", references="kits"),
            ParamInfo(name="item_id", references="items"), ParamInfo(name="qty")],
)  # fmt: skip


def _run(text: str, kit: str, item: str, qty: int) -> dict[str, Any]:
    effects = one_line(
        ToolSpec(name="add_item", description=text),
        TB,
        Context(ev=DataEvidence.of(DATA), policy=""),
    )
    state = copy.deepcopy(DATA)
    code = "\n".join(line for e in effects for line in _effect_lines(e, TB))
    exec(code, {"state": state, "_rec": state["kits"][kit], "item_id": item, "qty": qty})
    return dict(state["kits"][kit])


def test_a_new_line_takes_the_data_s_fields_and_the_sum_follows() -> None:
    kit = _run("Adds `qty` units of an item to the kit.", "K2", "I2", 4)
    assert kit["lines"][-1] == {"n": 3, "item_id": "I2", "qty": 4, "price": 1.2, "amount": 4.8}
    assert kit["lines_sum"] == 13.5


def test_a_line_for_the_same_record_is_merged_when_the_docs_say_so() -> None:
    merged = _run(
        "If the item is already in the kit, its line's quantity is increased.", "K1", "I1", 2
    )
    assert merged["lines"] == [_line(1, "I1", 4, 2.5)] and merged["lines_sum"] == 10.0
    kept = _run("Adds a line for the item.", "K1", "I1", 2)
    assert len(kept["lines"]) == 2 and kept["lines_sum"] == 10.0


def test_no_line_without_a_count_parameter() -> None:
    tb = TB.model_copy(update={"params": TB.params[:2]})
    ctx = Context(ev=DataEvidence.of(DATA), policy="")
    assert one_line(ToolSpec(name="add_item", description="Adds an item."), tb, ctx) == []
