"""A limit on how many records of a kind one record may hold ("refused when the keeper already
has 2 open crates"), and phrases that single a child out instead, which set no limit."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from autoforge.env.artifact.behaviour import ParamInfo, ToolBehaviour
from autoforge.synth.behaviour.children import child_limits
from autoforge.synth.behaviour.compile import _check_lines
from autoforge.synth.behaviour.data import Context, DataEvidence
from autoforge.tooldocs import ToolSpec

DATA: dict[str, Any] = {
    "keepers": {"K1": {"keeper_id": "K1"}, "K2": {"keeper_id": "K2"}},
    "crates": {
        "C1": {"crate_id": "C1", "keeper_id": "K1", "status": "open", "label": "a"},
        "C2": {"crate_id": "C2", "keeper_id": "K1", "status": "open", "label": "b"},
        "C3": {"crate_id": "C3", "keeper_id": "K2", "status": "open", "label": "c"},
        "C4": {"crate_id": "C4", "keeper_id": "K2", "status": "shipped", "label": "d"},
    },
}
TB = ToolBehaviour(
    tool="add_crate", kind="create", collection="crates",
    params=[ParamInfo(name="keeper_id", references="keepers"), ParamInfo(name="label")],
)  # fmt: skip


class ToolError(Exception):
    pass


def _limits(text: str) -> list[Any]:
    ctx = Context(ev=DataEvidence.of(DATA), policy="")
    ctx.schemas["crates"] = {"status": {"enum": ["open", "shipped"]}}
    return child_limits(ToolSpec(name="add_crate", description=text), TB, ctx)


def _refused(text: str, keeper: str) -> bool:
    code = "\n".join(line for c in _limits(text) for line in _check_lines(c, TB))
    try:
        exec(code, {"ToolError": ToolError, "state": copy.deepcopy(DATA), "keeper_id": keeper})
    except ToolError:
        return True
    return False


def test_a_count_of_children_in_a_status_is_a_limit() -> None:
    text = "Refused when the keeper does not exist or when the keeper already has 2 open crates."
    (check,) = _limits(text)
    assert (check.collection, check.via, check.values, check.high) == (
        "crates",
        "keeper_id",
        ["open"],
        2.0,
    )
    assert _refused(text, "K1") and not _refused(text, "K2")


def test_a_child_in_a_status_named_after_the_noun() -> None:
    text = "A keeper who already has a crate that is `shipped` cannot add another."
    assert _refused(text, "K2") and not _refused(text, "K1")


@pytest.mark.parametrize(
    "text",
    [
        "Refused when the keeper already has an open crate with the same label.",
        "Refused when the keeper already has an open crate for that day.",
        "The keeper already has 2 open crates, as the list shows.",  # no refusal
    ],
)
def test_a_child_singled_out_or_no_refusal_sets_no_limit(text: str) -> None:
    assert _limits(text) == []


def test_a_status_after_the_noun_counts_and_a_qualified_actor_sets_no_limit() -> None:
    text = "Refused when the keeper already has 2 crates open."
    (check,) = _limits(text)
    assert check.values == ["open"]
    ctx = Context(ev=DataEvidence.of(DATA), policy="")
    ctx.schemas["crates"] = {"status": {"enum": ["open", "shipped"]}}
    tb = TB.model_copy(update={"kind": "action", "collection": "crates", "id_param": "crate_id"})
    said = "Moving an `open` crate to a keeper who already has 2 crates open is refused."
    assert child_limits(ToolSpec(name="add_crate", description=said), tb, ctx) == []
