"""Random walks: lengths, parents, edges, ending on writes, start distributions, seeds, de-dup."""

from __future__ import annotations

import random

import pytest

from autoforge.env.artifact.spec import EnvironmentSpec
from autoforge.tasks.graph.dependency import ToolGraph, build_graph
from autoforge.tasks.graph.walks import Feasibility, Walk, WalkConfig, random_walk, random_walks


@pytest.fixture(scope="module")
def graph(bookstore_spec: EnvironmentSpec) -> ToolGraph:
    return build_graph(bookstore_spec)


def _check_walk(walk: Walk, graph: ToolGraph, config: WalkConfig) -> None:
    assert config.min_length <= len(walk.steps) <= config.max_length
    assert walk.steps[0].parent is None
    for index, step in enumerate(walk.steps[1:], start=1):
        assert step.parent is not None and 0 <= step.parent < index
        parent_tool = walk.steps[step.parent].tool
        edge = graph.edge(parent_tool, step.tool)
        assert edge is not None and any(m.required for m in edge.mappings)
    for tool in set(walk.tools):
        assert walk.tools.count(tool) <= config.max_tool_repeats


def test_walks_follow_edges_and_respect_lengths(graph: ToolGraph) -> None:
    config = WalkConfig(min_length=2, max_length=4, end_on_write=0.0, restart_prob=0.5)
    walks = random_walks(graph, 40, config, seed=3)
    assert len(walks) == 40
    for walk in walks:
        _check_walk(walk, graph, config)
    # restarts branch from earlier steps: some step is not fed by its predecessor
    assert any(s.parent != i - 1 for w in walks for i, s in enumerate(w.steps) if i > 0)


def test_walks_are_seeded_and_distinct(graph: ToolGraph) -> None:
    config = WalkConfig(min_length=1, max_length=4)
    first = random_walks(graph, 25, config, seed=11)
    again = random_walks(graph, 25, config, seed=11)
    other = random_walks(graph, 25, config, seed=12)
    assert first == again
    assert first != other
    assert len({w.key for w in first}) == len(first)


def test_end_on_write_always(graph: ToolGraph) -> None:
    config = WalkConfig(min_length=1, max_length=4, end_on_write=1.0)
    walks = random_walks(graph, 30, config, seed=5)
    assert walks
    assert all(w.steps[-1].tool in graph.writes() for w in walks)
    config_never = WalkConfig(min_length=3, max_length=3, end_on_write=0.0)
    assert any(
        w.steps[-1].tool not in graph.writes()
        for w in random_walks(graph, 30, config_never, seed=5)
    )


def test_start_distributions(graph: ToolGraph) -> None:
    only = WalkConfig(min_length=1, max_length=2, start={"search_books": 1.0}, end_on_write=0.0)
    assert {w.steps[0].tool for w in random_walks(graph, 10, only, seed=1)} == {"search_books"}
    rng = random.Random(0)
    reads = WalkConfig(min_length=1, max_length=1, start="read", end_on_write=0.0)
    uniform = reads.model_copy(update={"start": "uniform"})
    starts_read = [random_walk(graph, reads, rng) for _ in range(600)]
    starts_uni = [random_walk(graph, uniform, rng) for _ in range(600)]
    share = lambda ws: sum(w.steps[0].tool not in graph.writes() for w in ws if w) / len(ws)  # noqa: E731
    assert share(starts_read) > share(starts_uni) + 0.1
    with pytest.raises(ValueError):
        random_walk(graph, WalkConfig(start={"nope": 1.0}), rng)


def test_feasibility_learns_to_avoid_failing_edges(graph: ToolGraph) -> None:
    feas = Feasibility()
    walk = Walk(
        steps=tuple(
            random_walks(
                graph, 1, WalkConfig(min_length=2, max_length=2, end_on_write=0.0), seed=2
            )[0].steps
        )
    )
    src, dst = walk.steps[0].tool, walk.steps[1].tool
    before = feas.weight(src, dst)
    for _ in range(10):
        feas.record(walk, failed_step=1)
    assert feas.weight(src, dst) < before / 4
    assert feas.weight(None, src) > before  # the first step worked every time
    assert feas.weight(src, dst) >= feas.floor
