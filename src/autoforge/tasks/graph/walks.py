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

from autoforge.lexicon import TERMINAL_VERBS
from autoforge.tasks.graph.dependency import ToolEdge, ToolGraph
from autoforge.tooldocs import tokens

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
    ``tries``: walks drawn (each from a start that can meet the constraints) before giving up.
    """

    min_length: int = Field(default=1, ge=1)
    max_length: int = Field(default=4, ge=1)
    start: str | dict[str, float] = "read"
    restart_prob: float = Field(default=0.2, ge=0.0, le=1.0)
    end_on_write: float = Field(default=0.7, ge=0.0, le=1.0)
    max_tool_repeats: int = Field(default=2, ge=1)
    required_edges_only: bool = True
    tries: int = Field(default=8, ge=1)


def _successors(graph: ToolGraph, tool: str, config: WalkConfig) -> list[ToolEdge]:
    """The edges a walk may follow out of ``tool``. Out of a call that ends its record (a verb
    of :data:`~autoforge.lexicon.TERMINAL_VERBS`) only reads follow: its outputs name a record
    no later write can act on (such walks were only ever rejected as ``doomed_after_terminal``),
    while reading it afterwards shows what the call did."""
    edges = graph.out_edges(tool)
    if any(t in TERMINAL_VERBS for t in tokens(tool)):
        edges = [e for e in edges if graph.node(e.target).access != "write"]
    if config.required_edges_only:
        edges = [e for e in edges if any(m.required for m in e.mappings)]
    return edges


@dataclass(frozen=True)
class Reach:
    """Which walks each tool can start: ``chains[k]`` holds the tools that start a chain of
    ``k`` tools along walkable edges, ``write_ends[k]`` those that start one ending on a
    state-changing tool (tool repeats and restarts ignored, so this is optimistic).

    Why: a start tool with no way forward (a lookup nothing consumes) can never give a walk of
    two steps; drawing it anyway wasted a whole task attempt ("no_walk") on most foreign tool
    sets, where many read tools are sinks of the graph.
    """

    chains: dict[int, frozenset[str]]
    write_ends: dict[int, frozenset[str]]
    successors: dict[str, tuple[str, ...]]
    writes: frozenset[str]
    _starts: dict[tuple[tuple[str, ...], int, int, bool], tuple[bool, ...]] = field(
        default_factory=dict, compare=False, repr=False
    )

    def starts(
        self, names: Sequence[str], low: int, high: int, must_write: bool
    ) -> tuple[bool, ...]:
        """:meth:`can_start` for each of ``names`` (memoised: every walk drawn asks again)."""
        key = (tuple(names), low, high, must_write)
        found = self._starts.get(key)
        if found is None:
            found = tuple(self.can_start(n, low, high, must_write) for n in names)
            self._starts[key] = found
        return found

    def can_start(self, tool: str, low: int, high: int, must_write: bool) -> bool:
        """Whether a walk of ``low``..``high`` tools (ending on a write if asked) may start at
        ``tool``."""
        if must_write:
            return any(tool in self.write_ends.get(k, ()) for k in range(low, high + 1))
        return tool in self.chains.get(low, ())

    def can_continue(self, tool: str, steps: int, must_write: bool) -> bool:
        """Whether ``steps`` more tools (``tool`` first) may still follow, ending on a write if
        asked (within those steps)."""
        if must_write:
            return any(tool in self.write_ends.get(k, ()) for k in range(1, steps + 1))
        return tool in self.chains.get(steps, ())


_REACH: dict[tuple[int, bool, int], tuple[ToolGraph, Reach]] = {}


def reach(graph: ToolGraph, config: WalkConfig) -> Reach:
    """The :class:`Reach` of ``graph`` for walks of up to ``config.max_length`` tools (memoised
    per graph object: a generation run asks for it once per walk)."""
    longest = max(config.min_length, config.max_length)
    key = (id(graph), config.required_edges_only, longest)
    hit = _REACH.get(key)
    if hit is not None and hit[0] is graph:
        return hit[1]
    order = {
        n.name: tuple(e.target for e in _successors(graph, n.name, config)) for n in graph.nodes
    }
    succ = {name: set(targets) for name, targets in order.items()}
    chains = {1: frozenset(succ)}
    writes = frozenset(graph.writes())
    write_ends = {1: writes}
    for k in range(2, longest + 1):
        chains[k] = frozenset(t for t, nxt in succ.items() if nxt & chains[k - 1])
        write_ends[k] = frozenset(t for t, nxt in succ.items() if nxt & write_ends[k - 1])
    result = Reach(chains=chains, write_ends=write_ends, successors=order, writes=writes)
    if len(_REACH) > 64:
        _REACH.clear()
    _REACH[key] = (graph, result)
    return result


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


@dataclass
class _Draw:
    """One walk being drawn: its target length and whether it must end on a write."""

    graph: ToolGraph
    config: WalkConfig
    rng: random.Random
    reach: Reach
    length: int
    must_write: bool
    weight: EdgeWeight | None = None

    def options(self, steps: list[WalkStep], index: int, last: bool) -> list[str]:
        """Successors of step ``index`` allowed by the repeat bound, those that can still meet
        the length and the write ending preferred (when any can)."""
        tools = [s.tool for s in steps]
        options = [
            t
            for t in self.reach.successors.get(steps[index].tool, ())
            if tools.count(t) < self.config.max_tool_repeats
        ]
        if last:
            writes = [t for t in options if t in self.reach.writes]
            if writes and self.config.end_on_write > 0:
                return writes
            return options
        need = self.length - len(steps)
        able = [t for t in options if self.reach.can_continue(t, need, self.must_write)]
        return able or options

    def extend(self, steps: list[WalkStep], last: bool) -> bool:
        """Append one step; False when no step of the walk can be extended."""
        order = list(range(len(steps)))
        current = len(steps) - 1
        if len(steps) > 1 and self.rng.random() < self.config.restart_prob:
            current = self.rng.randrange(len(steps))
        self.rng.shuffle(order)
        for index in [current, *order]:
            options = self.options(steps, index, last)
            if not options:
                continue
            source = steps[index].tool
            weights = [self.weight(source, t) if self.weight else 1.0 for t in options]
            steps.append(WalkStep(tool=self.rng.choices(options, weights)[0], parent=index))
            return True
        return False

    def walk(self, names: list[str], weights: list[float]) -> Walk | None:
        low = self.config.min_length
        able = self.reach.starts(names, low, self.length, self.must_write)
        allowed = [w if ok else 0.0 for ok, w in zip(able, weights, strict=True)]
        if not any(w > 0 for w in allowed):
            return None
        steps = [WalkStep(tool=self.rng.choices(names, allowed)[0])]
        while len(steps) < self.length:
            if not self.extend(steps, len(steps) == self.length - 1):
                break
        if self.must_write:
            ends = [i for i, s in enumerate(steps) if s.tool in self.reach.writes and i + 1 >= low]
            if not ends:
                return None
            steps = steps[: ends[-1] + 1]
        if len(steps) < low:
            return None
        return Walk(steps=tuple(steps))


def random_walk(
    graph: ToolGraph, config: WalkConfig, rng: random.Random, weight: EdgeWeight | None = None
) -> Walk | None:
    """One walk, or None when ``config.tries`` draws all met the constraints (length, ending
    on a write) badly, or no tool can start such a walk at all.

    Whether the walk must end on a write (chance ``end_on_write``) is drawn first, then its
    length among those the graph allows for that (when no walk of these lengths can end on a
    write, none is asked to). Starts are drawn only among tools from which such a walk exists
    (:class:`Reach`), and each step prefers successors that can still complete it. ``weight``
    biases the choice of each step (e.g. by how often that edge led to an executable task so
    far); None walks uniformly.
    """
    names, weights = _start_weights(graph, config, weight)
    plan = reach(graph, config)
    low = config.min_length
    lengths = list(range(low, max(low, config.max_length) + 1))
    ending = [k for k in lengths if any(plan.starts(names, low, k, True))]
    for _ in range(config.tries):
        must_write = rng.random() < config.end_on_write and bool(ending)
        length = rng.choice(ending if must_write else lengths)  # no write reachable: not asked
        draw = _Draw(graph, config, rng, plan, length, must_write, weight)
        walk = draw.walk(names, weights)
        if walk is not None:
            return walk
    return None


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
        self._weights: dict[tuple[str | None, str], float] = {}  # until the edge's next count

    def weight(self, source: str | None, target: str) -> float:
        """The current weight of the step ``source -> target``."""
        found = self._weights.get((source, target))
        if found is None:
            ok, bad = self.counts.get((source, target), (0, 0))
            rate = (ok + 1) / (ok + bad + 2)
            found = self._weights[(source, target)] = max(self.floor, rate * rate)
        return found

    def record(self, walk: Walk, failed_step: int | None) -> None:
        """Count the steps before ``failed_step`` as successes and that step as a failure."""
        for index, step in enumerate(walk.steps):
            if failed_step is not None and index > failed_step:
                break
            source = None if step.parent is None else walk.steps[step.parent].tool
            entry = self.counts.setdefault((source, step.tool), [0, 0])
            entry[0 if index != failed_step else 1] += 1
            self._weights.pop((source, step.tool), None)
