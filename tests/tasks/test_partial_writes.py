"""Write tools the behaviour model marks partial never carry gold calls."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace

from autoforge.env import BehaviourModel, ToolBehaviour
from autoforge.tasks.graph.dependency import ToolEdge, ToolGraph, ToolNode, without_tools
from autoforge.tasks.pipeline import _partial_writes, behaviour_of


def _graph() -> ToolGraph:
    nodes = [
        ToolNode(name="list_items", access="read"),
        ToolNode(name="order_item", access="write"),
        ToolNode(name="rename_item", access="write"),
    ]
    edges = [
        ToolEdge(source="list_items", target="order_item", mappings=[], reason="r"),
        ToolEdge(source="list_items", target="rename_item", mappings=[], reason="r"),
    ]
    return ToolGraph(env_id="x", nodes=nodes, edges=edges)


def test_partial_tools_leave_the_graph_with_their_edges(tmp_path: Path) -> None:
    BehaviourModel(
        tools=[
            ToolBehaviour(tool="order_item", kind="create", partial=True, compiled=True,
                          unenforced=["Refused if the stock does not cover the quantity."]),
            ToolBehaviour(tool="rename_item", kind="update", compiled=True),
            # a template's code: its own guards are not visible to the behaviour model
            ToolBehaviour(tool="restock_item", kind="update", partial=True,
                          unenforced=["Refused if the item is discontinued."]),
        ]
    ).save(tmp_path)  # fmt: skip
    partial = _partial_writes(behaviour_of(SimpleNamespace(path=tmp_path)))  # type: ignore[arg-type]
    assert partial == {"order_item"}
    graph = without_tools(_graph(), partial)
    assert graph.writes() == {"rename_item"}
    assert [(e.source, e.target) for e in graph.edges] == [("list_items", "rename_item")]


def test_hand_written_environments_keep_every_tool(tmp_path: Path) -> None:
    assert _partial_writes(behaviour_of(SimpleNamespace(path=tmp_path))) == set()  # type: ignore[arg-type]
    assert _partial_writes(behaviour_of(SimpleNamespace())) == set()  # type: ignore[arg-type]
    assert without_tools(_graph(), set()).writes() == {"order_item", "rename_item"}


def test_generation_json_says_which_writes_were_left_out_and_what_was_cut() -> None:
    from autoforge.forge.generation import merge_stats
    from autoforge.tasks.pipeline import GenerationStats

    stats = GenerationStats(env_id="x", difficulty="medium", requested=3)
    assert "partial_writes" not in merge_stats(stats, 0)
    stats.partial_writes, stats.state_cuts = ["order_item"], {"children": 4}
    merged = merge_stats(stats, 0)
    assert merged["partial_writes"] == ["order_item"] and merged["state_cuts"] == {"children": 4}


def test_a_tool_caught_breaking_a_round_trip_gets_no_gold_calls(tmp_path: Path) -> None:
    BehaviourModel(
        tools=[
            # template code (not compiled) that the conformance check caught: left out anyway
            ToolBehaviour(tool="order_item", kind="create", broken="roundtrip: get misses it"),
            ToolBehaviour(tool="rename_item", kind="update"),
        ]
    ).save(tmp_path)
    assert _partial_writes(behaviour_of(SimpleNamespace(path=tmp_path))) == {"order_item"}  # type: ignore[arg-type]


def test_a_policy_rule_nothing_enforces_leaves_only_compiled_code_out(tmp_path: Path) -> None:
    said = ["An item is renamed only by its owner."]
    BehaviourModel(
        tools=[
            ToolBehaviour(tool="rename_item", kind="update", compiled=True, policy_rules=said,
                          policy_unenforced=said),
            # another stage wrote this code: what it enforces is not known here
            ToolBehaviour(tool="order_item", kind="create", policy_rules=said,
                          policy_unenforced=said),
        ]
    ).save(tmp_path)  # fmt: skip
    assert _partial_writes(behaviour_of(SimpleNamespace(path=tmp_path))) == {"rename_item"}  # type: ignore[arg-type]
