"""EnvironmentSpec.tool answers from an index that follows changes to the tools list."""

from __future__ import annotations

import copy
import pickle

import pytest

from autoforge.env.artifact.spec import EnvironmentSpec
from autoforge.tooldocs import ToolSpec


def _spec(*names: str) -> EnvironmentSpec:
    return EnvironmentSpec(name="greenhouse", tools=[ToolSpec(name=n) for n in names])


def test_finds_each_tool_and_raises_for_unknown() -> None:
    spec = _spec("water_plant", "list_beds", "prune")
    assert [spec.tool(n).name for n in ("prune", "water_plant", "list_beds")] == [
        "prune",
        "water_plant",
        "list_beds",
    ]
    with pytest.raises(KeyError):
        spec.tool("harvest")


def test_first_of_a_shared_name_wins() -> None:
    spec = EnvironmentSpec(
        name="g", tools=[ToolSpec(name="a", description="1"), ToolSpec(name="a", description="2")]
    )
    assert spec.tool("a").description == "1"


def test_follows_append_remove_replace_and_rename() -> None:
    spec = _spec("water_plant", "list_beds")
    assert spec.tool("list_beds").name == "list_beds"
    spec.tools.append(ToolSpec(name="harvest"))
    assert spec.tool("harvest") is spec.tools[2]
    del spec.tools[0]
    assert spec.tool("list_beds") is spec.tools[0]
    with pytest.raises(KeyError):
        spec.tool("water_plant")
    spec.tools[1] = ToolSpec(name="compost")  # same length, element replaced
    with pytest.raises(KeyError):
        spec.tool("harvest")
    assert spec.tool("compost") is spec.tools[1]
    spec.tools[0].name = "sow"  # renamed in place
    with pytest.raises(KeyError):
        spec.tool("list_beds")
    assert spec.tool("sow") is spec.tools[0]
    spec.tools = [ToolSpec(name="weed")]  # list replaced
    assert spec.tool("weed") is spec.tools[0]
    with pytest.raises(KeyError):
        spec.tool("sow")


def test_index_stays_out_of_dumps_equality_and_copies() -> None:
    spec = _spec("water_plant", "list_beds")
    fresh = _spec("water_plant", "list_beds")
    spec.tool("list_beds")
    assert spec == fresh
    assert spec.model_dump() == fresh.model_dump()
    assert spec.model_dump_json() == fresh.model_dump_json()
    assert "index" not in spec.model_dump_json()
    for other in (
        spec.model_copy(),
        spec.model_copy(deep=True),
        copy.deepcopy(spec),
        pickle.loads(pickle.dumps(spec)),
        EnvironmentSpec.model_validate(spec.model_dump()),
    ):
        assert other == spec
        assert other.tool("list_beds") is other.tools[1]
    changed = spec.model_copy(update={"tools": [ToolSpec(name="prune")]})
    assert changed.tool("prune") is changed.tools[0]
    with pytest.raises(KeyError):
        changed.tool("list_beds")
    assert spec.tool("list_beds") is spec.tools[1]  # the original still answers from its list
