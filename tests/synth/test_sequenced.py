"""A change that "assigns the next <number>" sets that attribute to the value after the highest
the collection holds, in the data's pattern (prefix and zero-padded width, or integers); a
sentence whose attribute the data shows in no one pattern is left unread. Invented domain."""

from __future__ import annotations

from typing import Any

from autoforge.env import ToolBehaviour
from autoforge.synth.behaviour.data import Context, DataEvidence
from autoforge.synth.behaviour.sequenced import next_code, next_numbers, pattern
from autoforge.tooldocs import ToolSpec


def _ctx(values: list[Any]) -> Context:
    kennels = {f"K{i}": {"kennel_id": f"K{i}", "tag_code": v} for i, v in enumerate(values)}
    kennels["K9"] = {"kennel_id": "K9", "tag_code": None}  # not tagged yet
    return Context(ev=DataEvidence.of({"kennels": kennels}), policy="")


def _tool(description: str) -> tuple[ToolSpec, ToolBehaviour]:
    spec = ToolSpec(name="tag_kennel", description=description)
    return spec, ToolBehaviour(tool="tag_kennel", kind="action", collection="kennels",
                               id_param="kennel_id")  # fmt: skip


def test_the_next_number_continues_the_datas_pattern() -> None:
    ctx = _ctx(["TG000140", "TG000152", "TG000097"])
    spec, tb = _tool("Only for open kennels. Assigns the next tag code and opens the kennel.")
    [effect] = next_numbers(spec, tb, ctx)
    value = effect.fields["tag_code"]
    assert value.const == ["next", "kennels", "tag_code", "TG", 6, False]
    state = {"kennels": dict(ctx.ev.state["kennels"])}
    assert eval(next_code(*value.const[1:]), {"state": state}) == "TG000153"


def test_integers_and_backticked_names_are_read_too() -> None:
    ctx = _ctx([7, 3, 12])
    spec, tb = _tool("Gives the kennel the next `tag_code` in sequence.")
    [effect] = next_numbers(spec, tb, ctx)
    value = effect.fields["tag_code"]
    assert eval(next_code(*value.const[1:]), {"state": ctx.ev.state}) == 13


def test_no_one_pattern_no_effect() -> None:
    assert pattern(["TG01", "XY02"]) is None  # two prefixes: which one continues?
    assert pattern(["TG01", "free text"]) is None
    spec, tb = _tool("Assigns the next tag code.")
    assert next_numbers(spec, tb, _ctx(["TG01", "XY02"])) == []
    assert next_numbers(spec, tb, _ctx([])) == []  # no value to continue from
    spec, tb = _tool("Assigns the next vet on duty.")  # no attribute of that name
    assert next_numbers(spec, tb, _ctx(["TG01", "TG02"])) == []
