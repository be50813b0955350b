"""Seeded random walks on the tool dependency graph: the skeletons of multi-step tasks.

A walk is a sequence of steps, each a tool and the earlier step that feeds it (its parent). A
*restart* continues from an earlier step instead of the last one, which turns the walk into a
tree ("look up the customer, then both cancel an order and place a new one"). Walks can be asked
to end on a state-changing tool, so that the task has an effect to verify. Everything here is
pure: the same graph, config and seed give the same walks.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from pydantic import BaseModel, Field

from autoforge.tasks.graph import ToolEdge, ToolGraph

#: ``weight(source, target)``: how much to favour a step (``source`` None: the first step).
EdgeWeight = Callable[[str | None, str], float]


@dataclass(frozen=True)
class WalkStep:
    """One step: a tool, the index of the step that feeds it, and which walk it came from."""

    tool: str
    parent: int | None = None
    origin: int = 0


@dataclass(frozen=True)
class Walk:
    """A walk (or several merged ones): steps whose parents always come earlier."""

    steps: tuple[WalkStep, ...]
    removed: tuple[str, ...] = field(default=())

    @property
    def tools(self) -> tuple[str, ...]:
        """The tools of the steps, in order."""
        return tuple(s.tool for s in self.steps)

    @property
    def key(self) -> tuple[tuple[str, int | None], ...]:
        """What identifies a walk for de-duplication (tools and parent links)."""
        return tuple((s.tool, s.parent) for s in self.steps)

    def children(self, index: int) -> list[int]:
        """Indexes of the steps fed by step ``index``."""
        return [i for i, s in enumerate(self.steps) if s.parent == index]


class WalkConfig(BaseModel):
    """How to walk.

    ``start``: ``uniform`` over all tools, ``read`` (read tools three times as likely) or explicit
    weights per tool. ``restart_prob``: chance, at each step, to branch from a random earlier step.
    ``end_on_write``: chance that a walk must end on a state-changing tool (trimmed back to the
    last write, or discarded when it has none). ``max_tool_repeats`` bounds how often one tool
    appears. ``required_edges_only`` walks only along edges that feed a required parameter.
    """

    min_length: int = Field(default=1, ge=1)
    max_length: int = Field(default=4, ge=1)
    start: str | dict[str, float] = "read"
    restart_prob: float = Field(default=0.2, ge=0.0, le=1.0)
    end_on_write: float = Field(default=0.7, ge=0.0, le=1.0)
    max_tool_repeats: int = Field(default=2, ge=1)
    required_edges_only: bool = True


def _successors(graph: ToolGraph, tool: str, config: WalkConfig) -> list[ToolEdge]:
    edges = graph.out_edges(tool)
    if config.required_edges_only:
        edges = [e for e in edges if any(m.required for m in e.mappings)]
    return edges


def _start_weights(
    graph: ToolGraph, config: WalkConfig, weight: EdgeWeight | None = None
) -> tuple[list[str], list[float]]:
    names = [n.name for n in graph.nodes]
    if isinstance(config.start, dict):
        weights = [float(config.start.get(n, 0.0)) for n in names]
    elif config.start == "read":
        weights = [3.0 if n.access == "read" else 1.0 for n in graph.nodes]
    elif config.start == "uniform":
        weights = [1.0] * len(names)
    else:
        raise ValueError(f"unknown start distribution {config.start!r}")
    if not any(w > 0 for w in weights):
        raise ValueError("the start distribution gives no tool a positive weight")
    if weight is not None:
        weights = [w * weight(None, n) for w, n in zip(weights, names, strict=True)]
    return names, weights


def _extend(
    graph: ToolGraph,
    steps: list[WalkStep],
    config: WalkConfig,
    rng: random.Random,
    last: bool,
    weight: EdgeWeight | None = None,
) -> bool:
    """Append one step; False when no step of the walk can be extended."""
    counts = {t: sum(1 for s in steps if s.tool == t) for t in {s.tool for s in steps}}
    order = list(range(len(steps)))
    current = len(steps) - 1
    if len(steps) > 1 and rng.random() < config.restart_prob:
        current = rng.randrange(len(steps))
    rng.shuffle(order)
    for index in [current, *order]:
        options = [
            e.target
            for e in _successors(graph, steps[index].tool, config)
            if counts.get(e.target, 0) < config.max_tool_repeats
        ]
        if not options:
            continue
        writes = [t for t in options if t in graph.writes()]
        if last and writes and config.end_on_write > 0:
            options = writes
        source = steps[index].tool
        weights = [weight(source, t) if weight else 1.0 for t in options]
        steps.append(WalkStep(tool=rng.choices(options, weights)[0], parent=index))
        return True
    return False


def random_walk(
    graph: ToolGraph, config: WalkConfig, rng: random.Random, weight: EdgeWeight | None = None
) -> Walk | None:
    """One walk, or None when this try met the constraints (length, ending on a write) badly.

    ``weight`` biases the choice of each step (e.g. by how often that edge led to an executable
    task so far); None walks uniformly.
    """
    names, weights = _start_weights(graph, config, weight)
    length = rng.randint(config.min_length, max(config.min_length, config.max_length))
    steps = [WalkStep(tool=rng.choices(names, weights)[0])]
    while len(steps) < length:
        if not _extend(graph, steps, config, rng, len(steps) == length - 1, weight):
            break
    if rng.random() < config.end_on_write:
        writes = graph.writes()
        ends = [i for i, s in enumerate(steps) if s.tool in writes and i + 1 >= config.min_length]
        if not ends:
            return None
        steps = steps[: ends[-1] + 1]
    if len(steps) < config.min_length:
        return None
    return Walk(steps=tuple(steps))


def random_walks(
    graph: ToolGraph, n: int, config: WalkConfig | None = None, seed: int = 0
) -> list[Walk]:
    """Up to ``n`` distinct walks (fewer when the graph does not allow that many)."""
    config = config or WalkConfig()
    rng = random.Random(seed)
    walks: list[Walk] = []
    seen: set[tuple[tuple[str, int | None], ...]] = set()
    for _ in range(max(20, n * 20)):
        if len(walks) >= n:
            break
        walk = random_walk(graph, config, rng)
        if walk is not None and walk.key not in seen:
            seen.add(walk.key)
            walks.append(walk)
    return walks


def concat(walks: Sequence[Walk]) -> Walk:
    """Walks one after the other, parents re-indexed, each step tagged with its walk's index."""
    steps: list[WalkStep] = []
    for origin, walk in enumerate(walks):
        offset = len(steps)
        for step in walk.steps:
            parent = None if step.parent is None else step.parent + offset
            steps.append(WalkStep(tool=step.tool, parent=parent, origin=origin))
    return Walk(steps=tuple(steps))


class Feasibility:
    """Learned odds that a step leads to an executable task, per ``(source, target)`` edge.

    Business rules are not in the schemas ("only pending orders can have their address
    changed"), so some walks (cancel an order, then change its address) never instantiate. The
    pipeline reports each outcome here; walks then favour edges that worked. The weight of an
    edge is its Laplace-smoothed success rate, squared to sharpen the preference, with a floor
    so that no edge is ever ruled out.
    """

    def __init__(self, floor: float = 0.05) -> None:
        self.floor = floor
        self.counts: dict[tuple[str | None, str], list[int]] = {}

    def weight(self, source: str | None, target: str) -> float:
        """The current weight of the step ``source -> target``."""
        ok, bad = self.counts.get((source, target), (0, 0))
        rate = (ok + 1) / (ok + bad + 2)
        return max(self.floor, rate * rate)

    def record(self, walk: Walk, failed_step: int | None) -> None:
        """Count the steps before ``failed_step`` as successes and that step as a failure."""
        for index, step in enumerate(walk.steps):
            if failed_step is not None and index > failed_step:
                break
            source = None if step.parent is None else walk.steps[step.parent].tool
            entry = self.counts.setdefault((source, step.tool), [0, 0])
            entry[0 if index != failed_step else 1] += 1
