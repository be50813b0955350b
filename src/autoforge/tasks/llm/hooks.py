"""LLM implementations of the task-synthesis hooks: edge judge, merge advisor, scenario writer.

Designed for small models (Qwen2.5-Coder 0.5B/1.5B on the embedded server): each request is a
short prompt with a schema-constrained answer (``client.structured``: enums for tool and field
names, one slot per item to judge), and every answer is checked in code before it is used.
Whatever goes wrong (``LLMFailure``, an answer that fails the checks, a batch that looks like a
collapsed model) falls back to the deterministic default for that item and is counted in the
hook's :class:`HookStats`, never raised: the pipeline's gates and guarantees do not depend on
the model.

* :class:`LLMEdgeJudge` confirms or rejects the rule edges in batches (reason + keep) and
  proposes extra edges between existing tools; a proposal must name a real output field of its
  source and a real parameter of its target with a compatible type, else it is dropped.
* :class:`LLMMergeAdvisor` says whether two same-tool lookups of a merged walk resolve the same
  record where the schemas do not show it.
* :class:`LLMScenarioWriter` rewrites the template scenario as a natural user message, checks
  that every user fact is stated (exact or normalised) and that nothing the agent must find out
  leaks, re-asks with the problems fed back, and falls back to the template.

Sync and async: :func:`~autoforge.tasks.generate_tasks` is synchronous and CPU-bound while the
client is async. The hooks' sync methods (the protocols) run their coroutine on one background
event loop; the async entry points avoid that: :func:`build_graph_async` judges all edges up
front, :meth:`LLMMergeAdvisor.prepare` asks every candidate pair concurrently, and
:func:`generate_tasks_async` runs the deterministic pipeline in a worker thread while the
scenarios of the accepted tasks are written concurrently, delivered in generation order.
"""

from __future__ import annotations

import asyncio
import itertools
import time
from collections.abc import Callable, Iterable
from typing import Any

from pydantic import BaseModel, Field, create_model

from autoforge.env import EnvironmentLike, EnvironmentSpec
from autoforge.lexicon import Leaf, output_leaves, param_leaves
from autoforge.llm import LLMClient
from autoforge.tasks.graph.dependency import (
    EdgeVerdict,
    FieldMapping,
    RuleJudge,
    ToolEdge,
    ToolGraph,
    build_graph,
    propose_edges,
)
from autoforge.tasks.graph.merge import _user_lookup, user_collection
from autoforge.tasks.llm.base import HookStats, ask, choice, run_sync, tool_line
from autoforge.tasks.llm.scenario import (
    LLMScenarioWriter,
    normalise,
    scenario_problems,
    scenario_request,
    write_scenarios,
)
from autoforge.tasks.model import Task
from autoforge.tasks.pipeline import GenerationStats, TaskHooks, generate_tasks

__all__ = [
    "HookStats",
    "LLMEdgeJudge",
    "LLMMergeAdvisor",
    "LLMScenarioWriter",
    "build_graph_async",
    "generate_tasks_async",
    "hook_stats",
    "llm_hooks",
    "normalise",
    "open_pairs",
    "run_sync",
    "scenario_problems",
    "scenario_request",
    "write_scenarios",
]


# --------------------------------------------------------------------------- edge judge

_JUDGE_SYSTEM = (
    "You review a data-flow graph between the tools of an API. An edge A -> B means: a value "
    "that tool A returns is passed to tool B as the named parameter, as a sensible next step "
    "of a real user's task. Keep an edge when the value really is what the parameter expects. "
    "Reject it when the two fields only share a name but mean different things, or when "
    "nobody would call B with that value. Give a short reason for every edge, then decide."
)
_PROPOSE_SYSTEM = (
    "You complete a data-flow graph between the tools of an API. An edge A -> B means: a value "
    "that tool A returns is passed to tool B as a parameter. Propose only edges that the list "
    "misses and that a real task would use, with the exact field names shown. Propose nothing "
    "when nothing is missing."
)


class _EdgeVerdict(BaseModel):
    reason: str = Field(max_length=200, description="one short sentence")
    keep: bool


def _verdicts_model(n: int) -> type[BaseModel]:
    fields: dict[str, Any] = {f"edge_{i + 1}": (_EdgeVerdict, ...) for i in range(n)}
    return create_model(f"EdgeVerdicts{n}", **fields)


def _edge_flow(edge: ToolEdge) -> str:
    """``a -> b (x -> y; ...)``: an edge and its field mappings, for a prompt."""
    flows = "; ".join(f"{m.output} -> {m.param}" for m in edge.mappings)
    return f"{edge.source} -> {edge.target} ({flows})"


def _edge_text(index: int, edge: ToolEdge) -> str:
    return f"edge_{index}: {_edge_flow(edge)}"


def _types_fit(out: Leaf, param: Leaf) -> bool:
    if not out.type or not param.type or out.type == param.type:
        return True
    return {out.type, param.type} == {"integer", "number"}


class LLMEdgeJudge:
    """An :class:`~autoforge.tasks.graph.dependency.EdgeJudge` backed by an LLM (see the module
    doc).

    ``batch_size`` candidate edges per request; a batch in which the model rejects more than
    ``max_reject_share`` of at least three schema-backed edges is treated as a collapsed
    answer and the rule verdicts are kept. ``max_proposals``: extra edges asked for (0: none).
    """

    def __init__(
        self,
        client: LLMClient,
        *,
        role: str = "synthesizer",
        batch_size: int = 6,
        max_proposals: int = 4,
        max_reject_share: float = 0.5,
        concurrency: int = 4,
    ) -> None:
        self.client = client
        self.role = role
        self.name = f"llm:{client.endpoint(role).model}"
        self.batch_size = max(1, batch_size)
        self.max_proposals = max_proposals
        self.max_reject_share = max_reject_share
        self.concurrency = max(1, concurrency)
        self.stats = HookStats(hook="edge_judge")
        self._verdicts: dict[tuple[str, str, str], EdgeVerdict] = {}  # (env, source, target)
        self._proposals: dict[tuple[str, tuple[tuple[str, str], ...]], list[ToolEdge]] = {}

    async def prepare(self, spec: EnvironmentSpec) -> None:
        """Judge every rule candidate of ``spec`` and ask for proposals, before the graph is
        built (then :func:`~autoforge.tasks.graph.dependency.build_graph` only reads the
        answers)."""
        candidates = propose_edges(spec)
        verdicts = await self.judge_async(spec, candidates)
        kept = [e for e, v in zip(candidates, verdicts, strict=True) if v.keep]
        graph = ToolGraph(env_id=spec.name, edges=kept, judge=self.name)
        await self.propose_async(spec, graph)

    def judge(self, spec: EnvironmentSpec, candidates: list[ToolEdge]) -> list[EdgeVerdict]:
        """One verdict per candidate (prepared ones reused; others asked now)."""
        if any((spec.name, e.source, e.target) not in self._verdicts for e in candidates):
            return run_sync(self.judge_async(spec, candidates))
        return [self._verdicts[(spec.name, e.source, e.target)] for e in candidates]

    def propose(self, spec: EnvironmentSpec, graph: ToolGraph) -> list[ToolEdge]:
        """Validated extra edges (prepared ones reused; else asked now)."""
        key = (spec.name, _edges_key(graph))
        if key in self._proposals:
            return list(self._proposals[key])
        return run_sync(self.propose_async(spec, graph))

    async def judge_async(
        self, spec: EnvironmentSpec, candidates: list[ToolEdge]
    ) -> list[EdgeVerdict]:
        """Ask for the candidates not decided yet, ``batch_size`` per request, concurrently."""
        todo = [e for e in candidates if (spec.name, e.source, e.target) not in self._verdicts]
        batches = [todo[i : i + self.batch_size] for i in range(0, len(todo), self.batch_size)]
        gate = asyncio.Semaphore(self.concurrency)

        async def one(batch: list[ToolEdge]) -> None:
            async with gate:
                for edge, verdict in zip(batch, await self._judge_batch(spec, batch), strict=True):
                    self._verdicts[(spec.name, edge.source, edge.target)] = verdict

        await asyncio.gather(*(one(b) for b in batches))
        return [self._verdicts[(spec.name, e.source, e.target)] for e in candidates]

    async def _judge_batch(self, spec: EnvironmentSpec, batch: list[ToolEdge]) -> list[EdgeVerdict]:
        self.stats.decided += len(batch)
        names = sorted({e.source for e in batch} | {e.target for e in batch})
        tools = "\n".join(tool_line(spec.tool(n), spec) for n in names)
        edges = "\n".join(_edge_text(i + 1, e) for i, e in enumerate(batch))
        messages = [
            {"role": "system", "content": _JUDGE_SYSTEM},
            {"role": "user", "content": f"Tools:\n{tools}\n\nEdges to review:\n{edges}"},
        ]
        answer = await ask(
            self.client,
            messages,
            _verdicts_model(len(batch)),
            self.stats,
            role=self.role,
            purpose="tasks.edges",
            max_tokens=60 + 70 * len(batch),
        )
        rule = [EdgeVerdict(keep=True, reason="schema rule") for _ in batch]
        if answer is None:
            self.stats.fallback("llm_failure", len(batch))
            return rule
        verdicts = [getattr(answer, f"edge_{i + 1}") for i in range(len(batch))]
        rejected = sum(1 for v in verdicts if not v.keep)
        if len(batch) >= 3 and rejected > self.max_reject_share * len(batch):
            self.stats.fallback("implausible", len(batch))  # a collapsed "no to everything"
            return rule
        self.stats.by_llm += len(batch)
        return [EdgeVerdict(keep=v.keep, reason=f"llm: {v.reason}") for v in verdicts]

    async def propose_async(self, spec: EnvironmentSpec, graph: ToolGraph) -> list[ToolEdge]:
        """Ask for up to ``max_proposals`` extra edges; keep the valid, new ones."""
        key = (spec.name, _edges_key(graph))
        if key in self._proposals:
            return list(self._proposals[key])
        found: list[ToolEdge] = []
        model = self._proposal_model(spec)
        if self.max_proposals > 0 and model is not None:
            edges = "\n".join(f"- {_edge_flow(e)}" for e in graph.edges[:40])
            tools = "\n".join(tool_line(t, spec) for t in spec.tools[:30])
            prompt = (
                f"Tools:\n{tools}\n\nEdges already known:\n{edges or '(none)'}\n\n"
                f"Propose at most {self.max_proposals} missing edges."
            )
            messages = [
                {"role": "system", "content": _PROPOSE_SYSTEM},
                {"role": "user", "content": prompt},
            ]
            answer = await ask(
                self.client,
                messages,
                model,
                self.stats,
                role=self.role,
                purpose="tasks.edges.propose",
                max_tokens=90 * self.max_proposals + 40,
            )
            if answer is None:
                self.stats.fallback("llm_failure")
            else:
                found = self._valid_proposals(spec, graph, getattr(answer, "edges", []))
        self._proposals[key] = found
        return list(found)

    def _proposal_model(self, spec: EnvironmentSpec) -> type[BaseModel] | None:
        state = spec.state_schema
        outs = sorted({leaf.path for t in spec.tools for leaf in output_leaves(t, state)})
        params = sorted({leaf.path for t in spec.tools for leaf in param_leaves(t, state)})
        if not outs or not params or len(spec.tools) < 2:
            return None
        tools = choice([t.name for t in spec.tools])
        proposal = create_model(
            "EdgeProposal",
            source=(tools, ...),
            output=(choice(outs), ...),
            target=(tools, ...),
            param=(choice(params), ...),
            reason=(str, Field(max_length=200)),
        )
        limit = self.max_proposals
        return create_model("EdgeProposals", edges=(list[proposal], Field(max_length=limit)))  # type: ignore[valid-type]

    def _valid_proposals(
        self, spec: EnvironmentSpec, graph: ToolGraph, proposals: Iterable[Any]
    ) -> list[ToolEdge]:
        """Proposals that name a real output of the source and a real parameter of the target
        with a compatible type, between two different tools with no edge yet (grouped)."""
        known = {(e.source, e.target) for e in graph.edges}
        grouped: dict[tuple[str, str], list[FieldMapping]] = {}
        state = spec.state_schema
        for p in proposals:
            problem = _proposal_problem(spec, p, known)
            if problem is not None:
                self.stats.drop(problem)
                continue
            target = spec.tool(p.target)
            out = next(
                leaf for leaf in output_leaves(spec.tool(p.source), state) if leaf.path == p.output
            )
            param = next(leaf for leaf in param_leaves(target, state) if leaf.path == p.param)
            if not _types_fit(out, param):
                self.stats.drop("type_mismatch")
                continue
            required = param.path.split(".")[0].replace("[]", "") in target.required
            mappings = grouped.setdefault((p.source, p.target), [])
            if all(m.param != p.param for m in mappings):
                mappings.append(
                    FieldMapping(
                        output=p.output, param=p.param, reason=f"llm: {p.reason}", required=required
                    )
                )
        self.stats.by_llm += sum(len(m) for m in grouped.values())
        return [
            ToolEdge(
                source=s,
                target=t,
                mappings=m,
                confirmed_by="llm",
                reason="; ".join(f"{x.output} -> {x.param} ({x.reason})" for x in m),
            )
            for (s, t), m in grouped.items()
        ]


def _edges_key(graph: ToolGraph) -> tuple[tuple[str, str], ...]:
    return tuple(sorted((e.source, e.target) for e in graph.edges))


def _proposal_problem(spec: EnvironmentSpec, p: Any, known: set[tuple[str, str]]) -> str | None:
    """Why a proposed edge cannot enter the graph (None: it can)."""
    if p.source == p.target:
        return "self_loop"
    if (p.source, p.target) in known:
        return "duplicate"
    state = spec.state_schema
    if p.output not in {leaf.path for leaf in output_leaves(spec.tool(p.source), state)}:
        return "unknown_output"
    if p.param not in {leaf.path for leaf in param_leaves(spec.tool(p.target), state)}:
        return "unknown_param"
    return None


async def build_graph_async(spec: EnvironmentSpec, judge: Any = None) -> ToolGraph:
    """:func:`~autoforge.tasks.graph.dependency.build_graph`, with an LLM judge's questions asked
    first
    (concurrently, on the caller's loop) instead of through the sync bridge."""
    prepare = getattr(judge, "prepare", None)
    if callable(prepare):
        await prepare(spec)
    return build_graph(spec, judge or RuleJudge())


# ------------------------------------------------------------------------- merge advisor

_MERGE_SYSTEM = (
    "You check whether two calls of the same lookup tool in one task necessarily return the "
    "same record. Say same=true only when both inputs always identify the same thing (for "
    "example both are the user's own account, or the tool has a single record). If the two "
    "inputs can point at different records, say same=false. Give a short reason first."
)

#: A pair of steps, as the advisor sees it: the tool and the tools feeding each call (None:
#: the user's own facts), sorted.
PairKey = tuple[str, str | None, str | None]


class _SameRecord(BaseModel):
    reason: str = Field(max_length=200, description="one short sentence")
    same: bool


class LLMMergeAdvisor:
    """A :class:`~autoforge.tasks.graph.merge.MergeAdvisor` backed by an LLM (see the module doc).

    A decision depends on the tool and on what feeds each of the two calls (the parent tools
    and their field mappings), so it is asked once per such pair and cached. :meth:`prepare`
    asks every pair the merge rules leave open, at most ``max_pairs``, concurrently; after it,
    an unforeseen pair gets the deterministic answer (not the same) without a request.
    """

    def __init__(
        self,
        client: LLMClient,
        *,
        role: str = "synthesizer",
        max_pairs: int = 48,
        concurrency: int = 4,
    ) -> None:
        self.client = client
        self.role = role
        self.name = f"llm:{client.endpoint(role).model}"
        self.max_pairs = max_pairs
        self.concurrency = max(1, concurrency)
        self.stats = HookStats(hook="merge_advisor")
        self.graph: ToolGraph | None = None
        self._answers: dict[PairKey, bool] = {}
        self._prepared = False

    async def prepare(self, spec: EnvironmentSpec, graph: ToolGraph) -> None:
        """Ask every open pair of ``graph`` (up to ``max_pairs``) concurrently."""
        self.graph = graph
        keys = open_pairs(spec, graph)[: self.max_pairs]
        gate = asyncio.Semaphore(self.concurrency)

        async def one(key: PairKey) -> None:
            async with gate:
                await self._decide(spec, key)

        await asyncio.gather(*(one(k) for k in keys if k not in self._answers))
        self._prepared = True

    def same_lookup(self, spec: EnvironmentSpec, walk: Any, earlier: int, later: int) -> bool:
        """Whether step ``later`` of ``walk`` repeats the lookup of step ``earlier``."""
        key = _pair_key(walk, earlier, later)
        if key in self._answers:
            return self._answers[key]
        if self._prepared or len(self._answers) >= self.max_pairs:
            self.stats.fallback("unasked")
            return False
        return run_sync(self._decide(spec, key))

    async def _decide(self, spec: EnvironmentSpec, key: PairKey) -> bool:
        """Ask about ``key``; a "same" must hold when the two calls are asked in the other
        order too (small models lean to "yes", and a wrong merge drops a real step)."""
        self.stats.decided += 1
        tool, first, second = key
        orders = [(first, second)] if first == second else [(first, second), (second, first)]
        same = True
        for one, other in orders:
            answer = await self._ask_once(spec, tool, one, other)
            if answer is None:
                self.stats.fallback("llm_failure")
                self._answers[key] = False
                return False
            if not answer:
                same = False
                break
        self.stats.by_llm += 1
        self._answers[key] = same
        return same

    async def _ask_once(
        self, spec: EnvironmentSpec, tool: str, first: str | None, second: str | None
    ) -> bool | None:
        question = (
            f"Tool:\n{tool_line(spec.tool(tool), spec)}\n\nIn one task it is called twice:\n"
            f"(1) {self._feed(tool, first)}\n(2) {self._feed(tool, second)}\n"
            "Do both calls necessarily return the same record?"
        )
        messages = [
            {"role": "system", "content": _MERGE_SYSTEM},
            {"role": "user", "content": question},
        ]
        answer = await ask(
            self.client,
            messages,
            _SameRecord,
            self.stats,
            role=self.role,
            purpose="tasks.merge",
            max_tokens=120,
        )
        return None if answer is None else bool(getattr(answer, "same", False))

    def _feed(self, tool: str, source: str | None) -> str:
        if source is None:
            return "with values the user tells the agent"
        edge = self.graph.edge(source, tool) if self.graph is not None else None
        flows = (
            ", ".join(f"{m.param} = {m.output} of {source}" for m in edge.mappings) if edge else ""
        )
        return f"with {flows}" if flows else f"with values taken from the result of {source}"


def _pair_key(walk: Any, earlier: int, later: int) -> PairKey:
    steps = walk.steps

    def feeder(index: int) -> str | None:
        parent = steps[index].parent
        return None if parent is None else str(steps[parent].tool)

    a, b = feeder(earlier), feeder(later)
    first, second = sorted((a, b), key=lambda s: (s is not None, s or ""))
    return (str(steps[later].tool), first, second)


def open_pairs(spec: EnvironmentSpec, graph: ToolGraph) -> list[PairKey]:
    """The same-tool pairs the merge rules cannot decide: read tools other than the user's
    own lookup, fed by two different steps (user facts or a parent tool each; both from the
    user's facts is the same call, decided by rule)."""
    user = user_collection(spec.state_schema)
    keys: list[PairKey] = []
    for node in graph.nodes:
        if node.access != "read" or _user_lookup(graph, node.name, user):
            continue
        sources: list[str | None] = [None, *sorted({e.source for e in graph.in_edges(node.name)})]
        for a, b in itertools.combinations_with_replacement(sources, 2):
            if a is not None or b is not None:
                keys.append((node.name, a, b))
    return keys


# ----------------------------------------------------------------------------- wiring


def llm_hooks(
    client: LLMClient,
    *,
    role: str = "synthesizer",
    judge: bool = True,
    merge: bool = True,
    writer: bool = True,
) -> TaskHooks:
    """Task hooks with the LLM implementations switched on (the others stay deterministic)."""
    return TaskHooks(
        edge_judge=LLMEdgeJudge(client, role=role) if judge else None,
        merge_advisor=LLMMergeAdvisor(client, role=role) if merge else None,
        writer=LLMScenarioWriter(client, role=role) if writer else None,
    )


def hook_stats(hooks: TaskHooks) -> dict[str, Any]:
    """``{hook: HookStats as JSON}`` for the LLM hooks among ``hooks``."""
    out: dict[str, Any] = {}
    for hook in (hooks.edge_judge, hooks.merge_advisor, hooks.writer):
        stats = getattr(hook, "stats", None)
        if isinstance(stats, HookStats):
            out[stats.hook] = stats.model_dump(exclude={"schema_version"})
    return out


async def generate_tasks_async(
    env: EnvironmentLike,
    n: int,
    difficulty: Any = "medium",
    seed: int = 0,
    hooks: TaskHooks | None = None,
    *,
    graph: ToolGraph | None = None,
    on_task: Callable[[Task], Any] | None = None,
    concurrency: int = 8,
    **options: Any,
) -> tuple[list[Task], GenerationStats]:
    """:func:`~autoforge.tasks.generate_tasks` for async callers, with LLM hooks done well.

    The graph is built with :func:`build_graph_async` (unless given) and a merge advisor is
    prepared on it. With an async-capable writer (:class:`LLMScenarioWriter`) the
    deterministic pipeline runs in a worker thread with the template writer, and each accepted
    task's scenario is rewritten concurrently (``concurrency`` at a time) while generation goes
    on; ``on_task`` and the result get the tasks in generation order. The tasks are those of
    ``generate_tasks`` with the same arguments: only the scenario text differs. Without LLM
    hooks this is ``generate_tasks`` itself. ``stats.llm`` holds the hooks' :class:`HookStats`.
    """
    hooks = hooks or TaskHooks()
    start = time.perf_counter()
    graph = graph or await build_graph_async(env.spec, hooks.edge_judge)
    graph_s = time.perf_counter() - start
    advisor = hooks.merge_advisor
    if isinstance(advisor, LLMMergeAdvisor):
        await advisor.prepare(env.spec, graph)
    writer = hooks.writer
    if not isinstance(writer, LLMScenarioWriter):
        tasks, stats = generate_tasks(
            env, n, difficulty, seed, hooks, graph=graph, on_task=on_task, **options
        )
    else:
        tasks, stats = await _generate_streaming(
            env, n, difficulty, seed, hooks, writer, graph, on_task, concurrency, options
        )
    stats.stage_seconds["graph"] = stats.stage_seconds.get("graph", 0.0) + graph_s
    stats.llm = hook_stats(hooks)
    return tasks, stats


def _produce_in_thread(
    env: EnvironmentLike,
    n: int,
    difficulty: Any,
    seed: int,
    hooks: TaskHooks,
    graph: ToolGraph,
    options: dict[str, Any],
) -> tuple[asyncio.Queue[Task | None], asyncio.Future[tuple[list[Task], GenerationStats]]]:
    """Start :func:`generate_tasks` in a thread: each accepted task is put on the returned
    queue as it comes, then None when generation ends (also on an error, which the returned
    future raises)."""
    loop = asyncio.get_running_loop()
    queue: asyncio.Queue[Task | None] = asyncio.Queue()

    def produce() -> tuple[list[Task], GenerationStats]:
        try:
            return generate_tasks(
                env,
                n,
                difficulty,
                seed,
                hooks,
                graph=graph,
                on_task=lambda t: loop.call_soon_threadsafe(queue.put_nowait, t),
                **options,
            )
        finally:
            loop.call_soon_threadsafe(queue.put_nowait, None)

    return queue, asyncio.ensure_future(asyncio.to_thread(produce))


async def _generate_streaming(
    env: EnvironmentLike,
    n: int,
    difficulty: Any,
    seed: int,
    hooks: TaskHooks,
    writer: LLMScenarioWriter,
    graph: ToolGraph,
    on_task: Callable[[Task], Any] | None,
    concurrency: int,
    options: dict[str, Any],
) -> tuple[list[Task], GenerationStats]:
    """Deterministic generation in a thread; scenarios written as tasks come, in order."""
    plain = TaskHooks(edge_judge=hooks.edge_judge, merge_advisor=hooks.merge_advisor)
    queue, producer = _produce_in_thread(env, n, difficulty, seed, plain, graph, options)
    gate = asyncio.Semaphore(max(1, concurrency))
    pending: list[asyncio.Future[Task]] = []
    written: list[Task] = []
    started = time.perf_counter()

    async def rewrite(task: Task) -> Task:
        async with gate:
            scenario = await writer.write_async(scenario_request(task, env.spec))
        return task.model_copy(update={"scenario": scenario})

    async def deliver(until_done: bool) -> None:
        while pending and (until_done or pending[0].done()):
            task = await pending.pop(0)
            written.append(task)
            if on_task is not None:
                on_task(task)

    try:
        while (item := await queue.get()) is not None:
            pending.append(asyncio.ensure_future(rewrite(item)))
            await deliver(False)
        _, stats = await producer
        await deliver(True)
    finally:  # on an error, do not leave scenario requests running
        for future in pending:
            future.cancel()
    stats.stage_seconds["scenario_llm"] = time.perf_counter() - started
    return written, stats
