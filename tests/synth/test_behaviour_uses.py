"""Counters of a tool's uses on its record: each accepted call adds one, and a bound the docs
state (a sentence, or the schema's ``maximum``) refuses a call on a record already at it."""

from __future__ import annotations

from typing import Any

from autoforge.env.artifact.behaviour import Effect, ParamInfo, ToolBehaviour, Value
from autoforge.synth.behaviour.compile import _check_lines
from autoforge.synth.behaviour.data import Context, DataEvidence
from autoforge.synth.behaviour.uses import use_counters
from autoforge.tooldocs import ToolSpec


class ToolError(Exception):
    pass


DATA: dict[str, Any] = {
    "permits": {
        "P1": {"permit_id": "P1", "status": "issued", "extension_count": 0, "fee": 10},
        "P2": {"permit_id": "P2", "status": "issued", "extension_count": 3, "fee": 10},
    }
}


def _tb(name: str = "extend_permit") -> ToolBehaviour:
    return ToolBehaviour(
        tool=name, kind="action", collection="permits", id_param="permit_id",
        params=[ParamInfo(name="permit_id", references="permits")],
    )  # fmt: skip


def _ctx(policy: str = "", maximum: int | None = None) -> Context:
    ctx = Context(ev=DataEvidence.of(DATA), policy=policy)
    count: dict[str, Any] = {"type": "integer", "minimum": 0}
    if maximum is not None:
        count["maximum"] = maximum
    ctx.schemas["permits"] = {"extension_count": count, "fee": {"type": "integer"}}
    return ctx


def _refused(checks: list[Any], tb: ToolBehaviour, permit: str) -> bool:
    code = "\n".join(line for c in checks for line in _check_lines(c, tb))
    env = {
        "ToolError": ToolError,
        "state": DATA,
        "permit_id": permit,
        "_rec": DATA["permits"][permit],
    }
    try:
        exec(code, env)
    except ToolError:
        return True
    return False


def test_a_counter_named_by_the_verb_counts_up_and_a_stated_bound_refuses() -> None:
    spec = ToolSpec(
        name="extend_permit", description="A permit can be extended three times at most."
    )
    tb = _tb()
    checks, effects = use_counters(spec, tb, _ctx())
    (effect,) = effects
    assert (effect.kind, effect.attribute, effect.value) == (
        "increment", "extension_count", Value(source="const", const=1))  # fmt: skip
    (check,) = checks
    assert (check.attribute, check.values) == ("extension_count", ["<", 3])
    assert check.sentence.startswith("A permit can be extended")
    assert not _refused(checks, tb, "P1") and _refused(checks, tb, "P2")


def test_the_bound_comes_from_the_schema_or_from_already_done_n_times() -> None:
    spec = ToolSpec(name="extend_permit", description="Extend a permit.")
    checks, _ = use_counters(spec, _tb(), _ctx(maximum=2))
    assert [c.values for c in checks] == [["<", 2]]
    said = ToolSpec(
        name="extend_permit", description="Rejected if it has already been extended twice."
    )
    checks, _ = use_counters(said, _tb(), _ctx())
    assert [c.values for c in checks] == [["<", 2]]
    checks, effects = use_counters(spec, _tb(), _ctx())  # nothing bounds it: counted only
    assert checks == [] and [e.attribute for e in effects] == ["extension_count"]


def test_no_counter_for_another_verb_and_none_twice() -> None:
    spec = ToolSpec(name="revoke_permit", description="Revoke a permit; at most twice.")
    assert use_counters(spec, _tb("revoke_permit"), _ctx()) == ([], [])
    tb = _tb()  # already counted by a stated effect: only the bound is added
    tb.effects.append(Effect(kind="increment", collection="permits", attribute="extension_count",
                             value=Value(source="const", const=1)))  # fmt: skip
    checks, effects = use_counters(
        ToolSpec(name="extend_permit", description=""), tb, _ctx(maximum=2)
    )
    assert effects == [] and [c.values for c in checks] == [["<", 2]]


def test_a_bound_read_from_one_alternative_carries_that_alternative_only() -> None:
    """ "Rejected if it is revoked, has already been extended twice, or the fee is unpaid": the
    bound carries "has already been extended twice"; the other alternatives stay unenforced
    (a check carrying the whole list made the tool look complete)."""
    text = "Rejected if it is revoked, has already been extended twice, or the fee is unpaid."
    checks, _ = use_counters(ToolSpec(name="extend_permit", description=text), _tb(), _ctx())
    (check,) = checks
    assert check.values == ["<", 2] and "extended twice" in check.sentence
    assert "revoked" not in check.sentence and "unpaid" not in check.sentence
