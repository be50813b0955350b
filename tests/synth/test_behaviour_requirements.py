"""Requirements a tool's own sentences state: the status of a record it reaches ("the grower is
`active` and the plant is `listed`"), the ending of a text argument ("must end in .pdf or
.png"), and a number that must cover what the call takes off it ("refused when the balance is
lower"); each becomes a guard that refuses what breaks it and lets the rest through."""

from __future__ import annotations

from typing import Any

import pytest

from autoforge.env.artifact.behaviour import Effect, ParamInfo, ToolBehaviour, Value
from autoforge.synth.behaviour.arguments import argument_checks
from autoforge.synth.behaviour.compile import _check_lines, _cover_lines, _effect_lines
from autoforge.synth.behaviour.data import Context, DataEvidence
from autoforge.synth.behaviour.presumed import stated_requirements
from autoforge.synth.behaviour.transfers import cover_checks
from autoforge.tooldocs import ToolSpec

DATA: dict[str, Any] = {
    "regions": {
        "R1": {"region_id": "R1", "status": "open"},
        "R2": {"region_id": "R2", "status": "closed"},
    },
    "growers": {
        "G1": {"grower_id": "G1", "status": "active", "balance": 20.0, "region_id": "R1"},
        "G2": {"grower_id": "G2", "status": "suspended", "balance": 0.0, "region_id": "R2"},
    },
    "plants": {
        "P1": {"plant_id": "P1", "status": "listed"},
        "P2": {"plant_id": "P2", "status": "withdrawn"},
    },
    "orders": {"O1": {"order_id": "O1", "grower_id": "G1", "plant_id": "P1", "status": "open"}},
}


class ToolError(Exception):
    pass


def _create(*extra: ParamInfo) -> ToolBehaviour:
    params = [
        ParamInfo(name="grower_id", references="growers"),
        ParamInfo(name="plant_id", references="plants"),
        *extra,
    ]
    return ToolBehaviour(tool="place", kind="create", collection="orders", params=params)


def _ctx() -> Context:
    return Context(ev=DataEvidence.of(DATA), policy="")


def test_the_status_of_each_reached_record_a_sentence_requires() -> None:
    text = "To place one: the grower is `active` and the plant is `listed`."
    checks = stated_requirements(ToolSpec(name="place", description=text), _create(), _ctx(), [])
    got = {(c.kind, c.collection, c.via, tuple(c.values)) for c in checks}
    assert got == {
        ("status_in", "growers", "param:grower_id", ("active",)),
        ("status_in", "plants", "param:plant_id", ("listed",)),
    }


def test_has_to_be_requires_as_must_be_does() -> None:
    text = "The grower has to be `active`; the plant needs to be `listed`."
    checks = stated_requirements(ToolSpec(name="place", description=text), _create(), _ctx(), [])
    assert {(c.collection, tuple(c.values)) for c in checks} == {
        ("growers", ("active",)), ("plants", ("listed",))}  # fmt: skip


def test_must_exist_and_be_and_a_record_two_references_away() -> None:
    from autoforge.synth.behaviour.compile import _check_lines

    text = "The grower must exist and be `active` and belong to an open region."
    tb = _create()
    checks = stated_requirements(ToolSpec(name="place", description=text), tb, _ctx(), [])
    got = {(c.collection, tuple(c.values)) for c in checks}
    assert got == {("growers", ("active",)), ("regions", ("open",))}
    (far,) = [c for c in checks if c.collection == "regions"]
    assert far.via is not None and far.via.startswith("path:")
    for grower, refused in (("G1", False), ("G2", True)):
        scope = {"ToolError": ToolError, "state": DATA, "grower_id": grower}
        try:
            exec("\n".join(_check_lines(far, tb)), scope)
        except ToolError:
            assert refused
        else:
            assert not refused


@pytest.mark.parametrize(
    "text",
    [
        "If the grower is `suspended`, the order waits.",  # a condition
        "The plant is `withdrawn` afterwards.",  # an effect
        "The order is `open`.",  # the tool's own record: what it writes
    ],
)
def test_conditions_effects_and_the_own_record_require_nothing(text: str) -> None:
    spec = ToolSpec(name="place", description=text)
    assert stated_requirements(spec, _create(), _ctx(), []) == []


@pytest.mark.parametrize(
    ("text", "value", "refused"),
    [
        ("`label_file` must end in .pdf or .png (any case).", "Tray.PNG", False),
        ("`label_file` must end in .pdf or .png (any case).", "tray.doc", True),
        ("`label_file` must end in `.pdf`, `.png` or `.gif`.", "tray.PDF", True),
        ("`label_file` must end in `.pdf`, `.png` or `.gif`.", "tray.gif", False),
    ],
)
def test_a_text_argument_must_end_as_stated(text: str, value: str, refused: bool) -> None:
    tb = _create(ParamInfo(name="label_file"))
    props = {"properties": {"label_file": {"type": "string"}}}
    spec = ToolSpec(name="place", description=text, parameters=props)
    (check,) = argument_checks(spec, tb, _ctx())
    scope = {"ToolError": ToolError, "label_file": value}
    try:
        exec("\n".join(_check_lines(check, tb)), scope)
    except ToolError:
        assert refused
    else:
        assert not refused


@pytest.mark.parametrize(
    ("text", "covered"),
    [
        ("The fee is taken off the grower's balance (refused when the balance is lower).", True),
        ("The grower's `balance` must be at least the fee; it is deducted at once.", True),
        ("The fee is taken off the grower's balance.", False),  # nothing said: may go below 0
    ],
)
def test_a_number_the_call_takes_from_must_cover_it(text: str, covered: bool) -> None:
    tb = _create(ParamInfo(name="fee"))
    tb.effects = [
        Effect(kind="increment", record="param:grower_id", collection="growers",
               attribute="balance", value=Value(source="param", name="-fee")),
    ]  # fmt: skip
    checks = cover_checks(ToolSpec(name="place", description=text), tb, _ctx())
    assert bool(checks) is covered
    if not covered:
        return
    for fee, refused in ((15.0, False), (25.0, True)):
        state = {"growers": {"G1": {"balance": 20.0}}}
        code = [ln for e in tb.effects for ln in _effect_lines(e, tb)] + _cover_lines(checks[0])
        scope = {"ToolError": ToolError, "state": state, "grower_id": "G1", "fee": fee}
        try:
            exec("\n".join(code), scope)
        except ToolError:
            assert refused
        else:
            assert not refused and state["growers"]["G1"]["balance"] == 20.0 - fee


@pytest.mark.parametrize(
    ("text", "wanted"),
    [
        ("An open order that has no label can have one printed.", [None]),
        ("Any order without a label may be relabelled.", [None]),
        ("Reprinting an order that has no label is accepted.", None),  # no requirement
    ],
)
def test_a_target_that_has_no_attribute_requires_it_empty(text: str, wanted: Any) -> None:
    from autoforge.synth.behaviour.presumed import empty_requirements

    orders = {"O1": {"order_id": "O1", "label": None}, "O2": {"order_id": "O2", "label": "L-1"}}
    data = {"orders": orders}
    tb = ToolBehaviour(tool="print", kind="action", collection="orders", id_param="order_id",
                       params=[ParamInfo(name="order_id", references="orders")])  # fmt: skip
    ctx = Context(ev=DataEvidence.of(data), policy="")
    checks = empty_requirements(ToolSpec(name="print", description=text), tb, ctx)
    if wanted is None:
        assert checks == []
    else:
        (c,) = checks
        assert (c.kind, c.attribute, c.values) == ("status_in", "label", wanted)


def test_a_capitalised_parameter_opening_the_sentence_must_not_be_blank() -> None:
    from autoforge.synth.behaviour.text import non_blank_params

    said = non_blank_params([("Name is trimmed and may not be blank.", "docs")], ["name", "note"])
    assert [n for n, _, _ in said] == ["name"]
    later = non_blank_params([("A Name may not be blank.", "docs")], ["name"])
    assert later == []  # a capitalised word inside the sentence is not the parameter
