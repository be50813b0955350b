"""``generate_tasks``: the whole task-synthesis pipeline, pure of I/O.

graph -> walks -> merge -> blueprint -> difficulty pre-check -> instantiation (S0, facts, gold
run) -> gates (do-nothing, replay, duplicate, difficulty) -> scenario -> :class:`Task`. Every
step has a deterministic default; the LLM steps (edge judging, merge advice, scenario writing)
are hooks. The same environment, arguments and seed give the same tasks.
"""

from __future__ import annotations

import random
import re
import time
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal, NamedTuple

from pydantic import BaseModel, Field

from autoforge.env import BehaviourModel, DocRule, EnvironmentLike
from autoforge.lexicon import session_owner, signed_in
from autoforge.tasks.blueprints.alike import described_facts
from autoforge.tasks.blueprints.blueprint import Blueprint, BlueprintError
from autoforge.tasks.blueprints.build import TooManyCalls, build_blueprint, without_calls
from autoforge.tasks.difficulty import DifficultyMetrics, DifficultySpec, measure, parse_difficulty
from autoforge.tasks.gold.gates import (
    Deduplicator,
    GateStats,
    difficulty_violations,
    do_nothing_passes,
    order_matters,
    replay_is_stable,
    secret_facts,
)
from autoforge.tasks.gold.instantiate import (
    GoldFailure,
    GoldRun,
    Instance,
    StartPool,
    execute,
    instantiate,
    over_one_record,
    required_outputs,
)
from autoforge.tasks.gold.modelled import left_by, model_guards, modelled_rules, unreachable_edges
from autoforge.tasks.gold.plausible import (
    Guard,
    Left,
    call_guards,
    doomed,
    implausible,
    refusal,
    stated_rules,
    user_key,
)
from autoforge.tasks.gold.preconditions import Preconditions, preconditions
from autoforge.tasks.gold.primed import arguments_text
from autoforge.tasks.gold.settle import settling_guards, with_settling
from autoforge.tasks.graph.dependency import (
    EdgeJudge,
    ToolGraph,
    build_graph,
    without_edges,
    without_tools,
)
from autoforge.tasks.graph.merge import MergeAdvisor, merge_walks
from autoforge.tasks.graph.walks import Feasibility, Walk, WalkConfig, random_walk, reach
from autoforge.tasks.model import GoldCall, RequiredOutput, Task, UserScenario
from autoforge.tasks.runtime import bind_state
from autoforge.tasks.scenario.identity import several_users, user_identity
from autoforge.tasks.scenario.knowledge import Knowledge, knowledge
from autoforge.tasks.scenario.question import (
    ScenarioRequest,
    ScenarioWriter,
    TemplateWriter,
    intent_steps,
    request_on,
)
from autoforge.tasks.scenario.spoken import fact_text, hidden_values, missing_facts
from autoforge.tasks.states.datastart import DataSampler
from autoforge.tasks.states.population import StateGenerator
from autoforge.tasks.states.starts import Sampler

StateSource = Literal["generate", "initial", "data"]
#: Attempts after which a run stops when no blueprint met the difficulty before instantiation
#: (the graph cannot give it: e.g. no attribute to reason over for ``reasoning_nodes=1-``).
UNREACHABLE_AFTER = 200


@dataclass
class TaskHooks:
    """The pluggable (LLM-backed later) steps; None means the deterministic default."""

    edge_judge: EdgeJudge | None = None
    merge_advisor: MergeAdvisor | None = None
    writer: ScenarioWriter | None = None


class GenerationStats(BaseModel):
    """What a generation run did: attempts, acceptances, rejections by reason, time per stage."""

    env_id: str
    difficulty: str
    requested: int
    attempts: int = 0
    accepted: int = 0
    rejected: dict[str, int] = Field(default_factory=dict)
    instantiation_runs: int = 0
    seconds: float = 0.0
    stage_seconds: dict[str, float] = Field(default_factory=dict)
    llm: dict[str, Any] = Field(default_factory=dict, description="LLM hooks' statistics")
    knowledge: list[dict[str, Any]] = Field(
        default_factory=list,
        description="per attribute: held by the user or internal, and why (tasks.knowledge)",
    )
    note: str = Field(default="", description="why generation stopped early, if it did")
    partial_writes: list[str] = Field(
        default_factory=list,
        description="write tools left out of gold calls: marked partial (a rule their own "
        "description states is not enforced) or with a rule the policy states about them "
        "that nothing enforces, so a gold call through them could break it",
    )
    state_cuts: dict[str, int] = Field(
        default_factory=dict,
        description="nested values of generated start states cut to keep them bounded "
        "(deeper than tasks.population.MAX_NESTED_DEPTH levels or past MAX_NESTED_NODES "
        "values), per attribute",
    )
    errors: dict[str, str] = Field(
        default_factory=dict,
        description="first message of each error type that rejected an "
        "attempt (the count is under rejected['error:<Type>'])",
    )
    failures: dict[str, int] = Field(
        default_factory=dict,
        description="the most common failed gold runs ('<reason>: <tool>: <message>', "
        "digits blanked so one rule's refusals group), with their counts",
    )

    @property
    def accept_rate(self) -> float:
        """Accepted / attempts."""
        return self.accepted / self.attempts if self.attempts else 0.0

    @property
    def tasks_per_s(self) -> float:
        """Accepted tasks per second of generation."""
        return self.accepted / self.seconds if self.seconds else 0.0


class _Clock:
    def __init__(self, stats: GenerationStats) -> None:
        self.stats = stats

    def __call__(self, stage: str, start: float) -> None:
        spent = time.perf_counter() - start
        self.stats.stage_seconds[stage] = self.stats.stage_seconds.get(stage, 0.0) + spent


def walk_lengths(spec: DifficultySpec, rng: random.Random, longest: int | None = None) -> list[int]:
    """Lengths of the walks to merge into one task, drawn so that their total can meet the
    ``tool_calls`` range (merging may still drop redundant steps); ``longest``: the longest
    walk the tool graph has, which no length exceeds (when it is at least the shortest asked).

    Why: drawing the number of walks and each length independently gave totals outside the
    range (one walk of 2 steps, or two of 4, for ``medium``'s 3-6 calls) in a third of the
    attempts, each rejected for difficulty after the walks were drawn and merged. A graph
    whose longest walk is two tools made every draw of three or four a wasted attempt.
    """
    short, long = spec.walk_length
    if longest is not None and short <= longest < long:
        long = longest
    count = rng.randint(*spec.walks_per_task)
    low, high = spec.ranges.get("tool_calls", (None, None))
    fits = [
        k
        for k in range(spec.walks_per_task[0], spec.walks_per_task[1] + 1)
        if max(low or 0, k * short) <= min(high if high is not None else k * long, k * long)
    ]
    if fits and count not in fits:
        count = rng.choice(fits)
    least = max(low or 0, count * short)
    most = min(high if high is not None else count * long, count * long)
    if least > most:  # the range cannot be met: lengths as the preset says
        return [rng.randint(short, long) for _ in range(count)]
    lengths = [short] * count
    for _ in range(rng.randint(least, most) - count * short):
        room = [i for i, n in enumerate(lengths) if n < long]
        lengths[rng.choice(room)] += 1
    return lengths


def longest_walk(graph: ToolGraph, spec: DifficultySpec) -> int:
    """The most tools a walk of ``graph`` can have, up to the longest ``spec`` asks for."""
    top = spec.walk_length[1]
    chains = reach(graph, WalkConfig(min_length=1, max_length=top)).chains
    return max((k for k in range(1, top + 1) if chains.get(k)), default=0)


def _walks(
    graph: ToolGraph,
    spec: DifficultySpec,
    rng: random.Random,
    weight: Callable[[str | None, str], float],
) -> list[Walk] | None:
    walks = []
    for length in walk_lengths(spec, rng, longest_walk(graph, spec)):
        config = WalkConfig(min_length=length, max_length=length)
        walk = random_walk(graph, config, rng, weight)
        if walk is None:
            return None
        walks.append(walk)
    return walks


@dataclass
class _Run:
    env: EnvironmentLike
    graph: ToolGraph
    spec: DifficultySpec
    hooks: TaskHooks
    generator: StateGenerator | None
    dedupe: Deduplicator
    stats: GenerationStats
    gates: GateStats
    feasibility: Feasibility
    starts: StartPool
    know: Knowledge | None = None
    rules: list[DocRule] = field(default_factory=list)  # the environment's (env.rules)
    guards: dict[str, list[Guard]] = field(default_factory=dict)  # stated, per write tool
    fill: dict[str, list[Guard]] = field(default_factory=dict)  # + no write a no-op (settle)
    pre: Preconditions | None = None  # fill + the policy's tables, children and link rules
    left: dict[str, Left] = field(default_factory=dict)  # what each write leaves (the model)
    built: int = 0  # blueprints that met the difficulty before instantiation
    misses: Counter[str] = field(default_factory=Counter)  # why the others did not
    errors: dict[str, str] = field(default_factory=dict)  # first message per error type
    failures: Counter[str] = field(default_factory=Counter)  # failed gold runs, grouped
    _drawn: DifficultySpec | None = None
    used: Counter[str] = field(default_factory=Counter)  # write tools of the accepted tasks
    counted: set[str] = field(default_factory=set)  # signatures already in ``used``
    writes: frozenset[str] = frozenset()
    _least: int | None = None  # fewest uses of a write tool in ``used``; None: to work out

    def miss(self, reason: str, why: str) -> None:
        self.gates.reject(reason)
        self.misses[why] += 1

    def blueprint(self, task_seed: int) -> tuple[Blueprint, Walk] | None:
        rng = random.Random(task_seed)
        walks = _walks(self.graph, self._walk_spec(), rng, self.weight)
        if walks is None:
            self.miss("no_walk", "no walk of the asked length")
            return None
        merged = merge_walks(walks, self.graph, self.env.spec, self.hooks.merge_advisor)
        low, high = self.spec.ranges.get("tool_calls", (None, None))
        if (low is not None and len(merged.steps) < low) or (
            high is not None and len(merged.steps) > high
        ):
            self.miss("difficulty", "tool_calls")  # decided before building: calls = steps
            return None
        try:
            min_reasoning = self.spec.ranges.get("reasoning_nodes", (None, None))[0] or 0
            bp = build_blueprint(merged, self.graph, self.env.spec, rng, self.spec.reasoning_rate,
                                 min_reasoning, know=self.know,
                                 limits=self.spec.ranges)  # fmt: skip
        except TooManyCalls:
            self.miss("difficulty", "tool_calls")  # decided while building: as measure() would
            return None
        except BlueprintError:
            self.miss("invalid_blueprint", "invalid blueprint")
            return None
        shape = "depth" in self.spec.ranges or "width" in self.spec.ranges
        violations = self.spec.violations(measure(bp, (), shape), skip=("write_calls",))
        if violations:  # write_calls: known after the run
            self.miss("difficulty", violations[0].split("=")[0])
            return None
        self.built += 1
        return bp, merged

    def doomed(self, bp: Blueprint) -> tuple[str, str] | None:
        """Why no S0 and no facts can make ``bp`` a task, decided before instantiation spends
        runs on it: ``(reason, node)`` (:func:`~autoforge.tasks.gold.plausible.doomed`,
        :func:`~autoforge.tasks.gold.instantiate.over_one_record`), or None."""
        found = doomed(bp, self.env.spec, self.guards, self.left)
        if found is None and (node := over_one_record(bp)) is not None:
            found = ("one_record", node)
        return found

    def cover(self, signature: str, calls: list[GoldCall]) -> None:
        """Count a task's write tools for the coverage weights, once per task signature (an
        accepted task, or a task of the file being resumed met again as a duplicate: both
        runs then weigh the walks alike and give the same tasks)."""
        if signature not in self.counted:
            self.counted.add(signature)
            self.used.update({c.name for c in calls if c.name in self.writes})
            self._least = None

    def weight(self, source: str | None, target: str) -> float:
        """The walk weight of a step: what worked before (:class:`Feasibility`), times a
        coverage factor that favours the state-changing tools the accepted tasks used least
        (one write tool reached from everywhere otherwise ends most tasks)."""
        base = self.feasibility.weight(source, target)
        if target not in self.writes or not self.used:
            return base
        least = self._least
        if least is None:  # once per change of ``used``, not per step weighed
            least = self._least = min(self.used.get(t, 0) for t in self.writes)
        return base / (1.0 + self.used.get(target, 0) - least)

    def _walk_spec(self) -> DifficultySpec:
        """The difficulty to draw walk lengths for: with finder tools, one call fewer at the
        top of the range (the user's keys are found by an extra call the walk does not have;
        walks drawn to the top were rejected for too many calls after building)."""
        low, high = self.spec.ranges.get("tool_calls", (None, None))
        if not (self.know and self.know.finders) or high is None or (low or 0) >= high:
            return self.spec
        if self._drawn is None:
            ranges = {**self.spec.ranges, "tool_calls": (low, high - 1)}
            self._drawn = self.spec.model_copy(update={"ranges": ranges})
        return self._drawn

    def out_of_reach(self) -> str:
        """Why the difficulty looks out of reach on this graph, after ``UNREACHABLE_AFTER``
        attempts without one blueprint that met it; empty otherwise."""
        if self.built or self.gates.attempts < UNREACHABLE_AFTER:
            return ""
        why = ", ".join(f"{k} {v}x" for k, v in self.misses.most_common(3))
        tried = self.gates.attempts
        return (f"difficulty {self.spec.name!r} looks out of reach on this graph: none of "
                f"{tried} blueprints met it before instantiation ({why})")  # fmt: skip

    def attempt(self, task_seed: int, clock: _Clock) -> Task | None:
        """One try: blueprint, instantiation, gates; the task, or None (rejection counted).

        Any error inside the attempt (an operator over an unexpected shape, a tool or
        environment error, a repair that cannot succeed) is a rejection named after the
        exception (``error:<Type>``), never the end of the run.
        """
        try:
            return self._attempt(task_seed, clock)
        except (KeyboardInterrupt, SystemExit, MemoryError):
            raise
        except Exception as exc:
            self.gates.reject(f"error:{type(exc).__name__}")
            self.errors.setdefault(type(exc).__name__, f"{exc}"[:300])
            return None

    def _attempt(self, task_seed: int, clock: _Clock) -> Task | None:
        t0 = time.perf_counter()
        built = self.blueprint(task_seed)
        found = self.doomed(built[0]) if built is not None else None
        clock("blueprint", t0)
        if built is None:
            return None
        bp, walk = built
        if found is not None:  # no S0 could make it a task: no run is spent on it
            self.gates.reject(f"doomed_{found[0]}")
            self.feasibility.record(walk, _failed_step(bp, found[1]))
            return None
        t1 = time.perf_counter()
        try:
            inst = instantiate(bp, self.env, task_seed, starts=self.starts, guards=self.fill,
                               pre=self.pre)  # fmt: skip
        except GoldFailure as exc:
            self.gates.reject(exc.reason)
            self.failures[_grouped(exc)] += 1
            self.feasibility.record(walk, _failed_step(bp, exc.node))
            clock("instantiate", t1)
            return None
        self.feasibility.record(walk, None)
        self.stats.instantiation_runs += inst.attempts
        t2 = time.perf_counter()
        clock("instantiate", t1)
        task = self.task(bp, inst, task_seed)
        clock("gates", t2)
        return task

    def without_repeats(self, bp: Blueprint, inst: Instance) -> tuple[Blueprint, GoldRun] | None:
        """Drop state-changing calls that repeat an earlier one exactly, and reads that repeat
        one with nothing written between them, and re-run the rest (merged walks can converge
        on one action, or find the same record, through different bindings). Where only such
        reads go, the rest is not run again (:func:`_without_reads`)."""
        repeats = _repeated_writes(inst.run.calls, self.graph.writes())
        wrote = bool(repeats)
        repeats.update(_repeated_reads(inst.run, self.graph.writes(), set(bp.outputs)))
        if not repeats:
            return bp, inst.run
        slim = without_calls(bp, repeats)
        facts = {k: v for k, v in inst.run.facts.items() if k in {f.name for f in slim.facts}}
        derived = None if wrote else _without_reads(inst.run, slim, facts)
        if derived is not None:
            return slim, derived
        bound = inst.bound or bind_state(self.env, inst.initial_state)
        try:
            return slim, execute(slim, self.env.spec, bound.episode(), facts)
        except GoldFailure:
            return None

    def refused(self, inst: Instance, run: GoldRun, task_seed: int) -> dict[str, Any] | None:
        """For a share of hard tasks: a request the policy forbids (the agent must refuse)."""
        rng = random.Random(f"refusal:{task_seed}")
        if self.spec.name != "hard" or not self.rules or rng.random() >= REFUSAL_SHARE:
            return None
        key = user_key(self.env.spec, run.calls)
        if key is None:
            return None
        return refusal(self.env.spec, self.guards, inst.initial_state, run.calls, key, rng)

    def scenario(
        self, bp: Blueprint, run: GoldRun, outputs: list[RequiredOutput], task_seed: int,
        said: dict[str, str],
    ) -> UserScenario | None:  # fmt: skip
        """The user's scenario from the configured writer (the template one by default), or
        None (a ``scenario`` rejection) when it leaves out a fact the user must hold (``said``:
        the facts the user knows by description instead, :func:`described_facts`)."""
        writer = self.hooks.writer or TemplateWriter()
        hidden = hidden_values(outputs, run.calls, run.facts) if self.hooks.writer else ()
        request = ScenarioRequest(spec=self.env.spec, blueprint=bp, facts=run.facts,
                                  seed=task_seed, hidden=hidden, described=said)  # fmt: skip
        scenario = writer.write(request)
        if missing_facts(scenario, {k: v for k, v in run.facts.items() if k not in said}):
            self.gates.reject("scenario")
            return None
        steps = intent_steps(scenario.intent)
        if len(set(steps)) < len(steps):  # "find out the kind of my account" twice: one of
            self.gates.reject("repeated_ask")  # them asks for something the user cannot tell
            return None
        return scenario

    def session_facts(
        self, bp: Blueprint, facts: dict[str, Any], start: dict[str, Any]
    ) -> dict[str, Any]:
        """The facts the agent is given as session context instead of the user saying them:
        the user's key where the docs show a session user (:meth:`Knowledge.session_key`),
        and the one S0's session record signs in (the same key: the chooser picks no other)."""
        know = self.know
        if know is None or not know.session_key():
            return {}
        out = {f.name: facts[f.name] for f in bp.facts if f.name in facts
               and f.collection == know.user and f.role == "entity"}  # fmt: skip
        schema = self.env.spec.state_schema
        me, owner = signed_in(start, schema), session_owner(schema)
        if me is not None and owner is not None:
            out.setdefault(owner[1], me)
        return out

    def task(self, bp: Blueprint, inst: Instance, task_seed: int) -> Task | None:
        """The task of an instantiated blueprint, or None when a gate rejects it (counted in
        :attr:`gates`): the gold run through the gates (:meth:`gated`), then what the user
        knows and says (session facts, described facts, scenario, a refusal for some hard
        tasks)."""
        gated = self.gated(bp, inst)
        if gated is None:
            return None
        bp, run, outputs, signature, metrics = gated
        session = self.session_facts(bp, run.facts, inst.initial_state)
        run.facts = {k: v for k, v in run.facts.items() if k not in session}
        said = described_facts(bp, run.calls, run.facts, inst.initial_state)  # ids by how
        scenario = self.scenario(bp, run, outputs, task_seed, said)  # they differ: "size L"
        if scenario is None:
            return None
        refused = self.refused(inst, run, task_seed)
        if refused is not None:
            scenario, facts = _with_refusal(scenario, refused, run.facts)
            run.facts = facts
        self.dedupe.is_new(signature)
        self.cover(signature, run.calls)
        return Task(
            id=f"{self.env.spec.name}-{signature[:12]}", env_id=self.env.spec.name, blueprint=bp,
            initial_state=inst.initial_state, initial_state_hash=inst.initial_hash,
            final_state_hash=run.final_hash, gold_calls=run.calls, required_outputs=outputs,
            scenario=scenario, user_facts={**run.facts, **said}, session=session,
            difficulty=metrics, seed=task_seed,
            user_identity=user_identity(self.env.spec.state_schema, inst.initial_state, run.calls),
            meta={"difficulty": self.spec.name, "instantiation_runs": inst.attempts,
                  "graph_judge": self.graph.judge,
                  **({"refusal": refused} if refused is not None else {})},
        )  # fmt: skip

    def gated(self, bp: Blueprint, inst: Instance) -> _Gated | None:
        """The gold run of ``bp`` once it passed every gate on the run itself (no repeated
        call, something to check, one user, new, replays the same, plausible, the asked
        difficulty); None, with the gate counted, otherwise. ``bp`` loses the outputs the user
        already knows, ``run.calls`` are marked with which ones changed the state."""
        slimmed = self.without_repeats(bp, inst)
        if slimmed is None:
            self.gates.reject("repeated_call")
            return None
        bp, run = slimmed
        if secret_facts(run.facts):
            self.gates.reject("secret_fact")  # a user is never asked for a PIN or password
            return None
        known = {fact_text(v) for v in run.facts.values()}
        outputs = [o for o in required_outputs(bp, run.values) if o.text not in known]
        if len(outputs) < len(bp.outputs):  # what the user already knows is not an answer
            bp = bp.model_copy(update={"outputs": [o.node for o in outputs]})
        if do_nothing_passes(inst.initial_hash, run.final_hash, outputs):
            self.gates.reject("do_nothing_passes")
            return None
        if several_users(self.env.spec.state_schema, run.calls):
            self.gates.reject("several_users")  # "my account" would name two accounts
            return None
        signature = bp.signature(run.facts)
        if signature in self.dedupe.seen:
            self.cover(signature, run.calls)  # a resumed run replays the file's tasks as these
            self.gates.reject("duplicate")
            return None
        replay = replay_is_stable(
            bp, self.env, inst.initial_state, run.facts, run.final_hash, run.values,
            bound=inst.bound, calls=run.calls,
        )  # fmt: skip
        if replay is None:
            self.gates.reject("nondeterministic")
            return None
        run.calls = replay.calls  # the same calls, marked with which ones changed the state
        if order_matters(inst.bound or bind_state(self.env, inst.initial_state), bp, run.calls,
                         run.final_hash):  # fmt: skip
            self.gates.reject("order_dependent")  # S* depends on an order nobody asked for
            return None
        why = implausible(self.env.spec, self.guards, inst.initial_state, run.calls)
        if why:
            self.gates.reject(f"implausible_{why}")
            return None
        metrics = measure(bp, self.graph.writes())
        metrics.write_calls = sum(1 for c in run.calls if c.writes)
        if difficulty_violations(metrics, self.spec):
            self.gates.reject("difficulty")
            return None
        return _Gated(bp, run, outputs, signature, metrics)


class _Gated(NamedTuple):
    """A gold run that passed the gates of :meth:`_Run.gated`, with what the task is built from."""

    blueprint: Blueprint
    run: GoldRun
    outputs: list[RequiredOutput]
    signature: str
    metrics: DifficultyMetrics


#: Share of hard tasks that also ask for something the policy forbids (as tau2 does).
REFUSAL_SHARE = 0.3


def _with_refusal(
    scenario: UserScenario, refused: dict[str, Any], facts: dict[str, Any]
) -> tuple[UserScenario, dict[str, Any]]:
    """The scenario and facts with the forbidden request added (the key is a user fact)."""
    ask = request_on(refused["tool"], refused["collection"], refused["key"])
    question = f"{scenario.question} I'd also like to {ask}."
    intent = (f"{scenario.intent} You also ask to {ask}; if the agent explains that this is not "
              "possible, accept it.")  # fmt: skip
    update = {"question": question, "intent": intent,
              "known_info": "; ".join(filter(None, [scenario.known_info,
                                                    refused["key"]]))}  # fmt: skip
    return scenario.model_copy(update=update), {**facts, f"refused_{refused['collection']}":
                                                 refused["key"]}  # fmt: skip


def _repeated_writes(calls: list[GoldCall], writes: set[str]) -> dict[str, str]:
    """State-changing calls that repeat an earlier one exactly: ``{later node: earlier node}``
    (a user asks for a thing once)."""
    seen: dict[tuple[str, str], str] = {}
    repeats: dict[str, str] = {}
    for call in calls:
        if call.name in writes:
            key = (call.name, arguments_text(call.arguments))
            if key in seen:
                repeats[call.node] = seen[key]
            else:
                seen[key] = call.node
    return repeats


def _repeated_reads(run: GoldRun, writes: set[str], keep: set[str]) -> dict[str, str]:
    """Read calls that repeat an earlier identical one and got the same result in the gold
    run (an agent asks once; merged walks each found the user by the same email):
    ``{later node: earlier node}``. A read whose result a write changed stays, and so do
    nodes in ``keep`` (asked about)."""
    seen: dict[tuple[str, str], list[str]] = {}
    repeats: dict[str, str] = {}
    for call in run.calls:
        if call.name in writes:
            continue
        key = (call.name, arguments_text(call.arguments))
        value = run.values.get(call.node)
        same = next((n for n in seen.get(key, []) if run.values.get(n) == value), None)
        if same is not None and call.node not in keep:
            repeats[call.node] = same
        else:
            seen.setdefault(key, []).append(call.node)
    return repeats


def _without_reads(run: GoldRun, slim: Blueprint, facts: dict[str, Any]) -> GoldRun | None:
    """The gold run of ``slim`` (``run``'s blueprint without reads that repeated an earlier
    one with the same answer), read off ``run`` instead of run again: the other calls were
    made in the same order with the same arguments and saw the same answers (their inputs
    read the earlier, equal answer), and a read changes no state, so the final state is the
    same. None when ``slim`` orders its calls otherwise (then it must run). The replay gate
    runs ``slim`` from S0 again and rejects the task if any of this does not hold."""
    order = slim.topo_order()
    nodes = set(order)
    by_node = {c.node: c for c in run.calls}
    if [c.node for c in run.calls if c.node in nodes] != [n for n in order if n in by_node]:
        return None
    values = {n: run.values[n] for n in order if n in run.values}
    calls = [by_node[n] for n in order if n in by_node]
    return GoldRun(facts=facts, values=values, calls=calls, final_hash=run.final_hash,
                   hash=run.hash)  # fmt: skip


def _failed_step(bp: Blueprint, node_id: str | None) -> int | None:
    """The walk step to blame for a failure at ``node_id``: the call itself, or for a
    reasoning node the first call that uses it (else the call it reads from)."""
    if node_id is None:
        return None
    dag = bp.dag()
    calls = [node_id] if node_id.startswith("c") else []
    calls += [n for n in bp.topo_order() if n in dag.successors(node_id) and n.startswith("c")]
    calls += [n for n in dag.predecessors(node_id) if n.startswith("c")]
    return int(calls[0][1:]) if calls else None


def generate_tasks(
    env: EnvironmentLike,
    n: int,
    difficulty: str | DifficultySpec = "medium",
    seed: int = 0,
    hooks: TaskHooks | None = None,
    *,
    graph: ToolGraph | None = None,
    existing: Iterable[Task] = (),
    state_source: StateSource = "generate",
    max_attempts: int | None = None,
    on_task: Callable[[Task], Any] | None = None,
    start_uses: int = 4,
) -> tuple[list[Task], GenerationStats]:
    """Generate up to ``n`` verified tasks for ``env``; returns them and the run's statistics.

    ``difficulty``: a preset name (easy, medium, hard, any), explicit ranges
    (``"tool_calls=4-,reasoning_nodes=2-"``) or a :class:`DifficultySpec`. ``existing`` tasks
    (e.g. from a ``tasks.jsonl`` being resumed) count as seen for de-duplication.
    ``state_source``: ``generate`` a fresh S0 per task, use the environment's ``initial``
    state for all, or draw each S0 from the environment's initial state as ``data``: a subset
    of its real records (:class:`~autoforge.tasks.states.datastart.DataSampler`). ``on_task`` is
    called with each accepted task (to append it to a file as it comes). Stops after
    ``max_attempts`` (default ``50 * n + 100``) attempts, or after
    ``UNREACHABLE_AFTER`` when no blueprint met the difficulty (``stats.note`` says why).
    ``start_uses``: consecutive attempts that share one S0
    (:class:`~autoforge.tasks.gold.instantiate.StartPool`).
    """
    hooks = hooks or TaskHooks()
    spec = parse_difficulty(difficulty) if isinstance(difficulty, str) else difficulty
    stats = GenerationStats(env_id=env.spec.name, difficulty=spec.name, requested=n)
    clock = _Clock(stats)
    started = time.perf_counter()
    run = _start_run(env, spec, hooks, stats, clock, started, graph, existing, state_source,
                     start_uses)  # fmt: skip
    limit = max_attempts if max_attempts is not None else 50 * n + 100
    tasks = _attempt(run, n, limit, random.Random(seed), clock, on_task)
    gates = run.gates
    stats.attempts, stats.accepted, stats.rejected = gates.attempts, gates.accepted, gates.rejected
    stats.errors = dict(run.errors)
    stats.failures = dict(run.failures.most_common(8))
    if run.generator is not None and run.generator.cuts:
        stats.state_cuts = dict(run.generator.cuts.most_common(20))
    stats.seconds = time.perf_counter() - started
    return tasks, stats


def _start_run(
    env: EnvironmentLike, spec: DifficultySpec, hooks: TaskHooks, stats: GenerationStats,
    clock: _Clock, started: float, graph: ToolGraph | None, existing: Iterable[Task],
    state_source: StateSource, start_uses: int,
) -> _Run:  # fmt: skip
    """A generation run's shared state, built once: the tool graph (timed from ``started``),
    the S0 generator, what the documents tell (knowledge, stated rules) and the guards every
    attempt checks writes against."""
    graph = graph or build_graph(env.spec, hooks.edge_judge)
    model = behaviour_of(env)
    stats.partial_writes = sorted(_partial_writes(model) & graph.writes())
    graph = without_tools(graph, set(stats.partial_writes))
    clock("graph", started)
    source = getattr(env, "tools_source", "") or ""  # an environment wrapper may not carry it
    generator = (
        StateGenerator(env.spec, env.initial_state, tools_source=source)
        if state_source in ("generate", "data")
        else None
    )
    sampler: Sampler | None = generator
    if state_source == "data":
        sampler = DataSampler(env.spec, env.initial_state)
    gates = GateStats()
    know = knowledge(env.spec, env.initial_state)
    stats.knowledge = know.report()
    rules = stated_rules(env)
    run = _Run(env, graph, spec, hooks, generator, Deduplicator(existing), stats, gates,
               Feasibility(), StartPool(env, sampler, uses=start_uses), know, rules)  # fmt: skip
    run.writes = frozenset(graph.writes())
    values = generator.domains.values if generator else None
    run.guards = call_guards(env.spec, rules, env.initial_state, values)
    for tool, more in model_guards(model, env.spec, env.initial_state, values).items():
        run.guards[tool] = [*run.guards.get(tool, []), *more]
    settle = settling_guards(env.spec, source, generator.domains) if generator else {}
    run.fill = with_settling(run.guards, settle)
    run.pre = preconditions(env.spec, run.fill, env.initial_state, model)
    run.left = left_by(model)
    fed = [(e.source, e.target, {m.param for m in e.mappings}) for e in run.graph.edges]
    run.graph = without_edges(run.graph, unreachable_edges(fed, run.left, run.guards))
    for tool, found in modelled_rules(model, env.spec, env.initial_state, values).items():
        run.pre.rules[tool] = [*run.pre.rules.get(tool, []), *found]
    return run


def _grouped(exc: GoldFailure) -> str:
    """A failed gold run as ``<reason>: <node's tool>: <message>``, without the node id,
    digits blanked and cut short, so the runs one rule refused count as one line."""
    detail = re.sub(r"^\S+\s+(?=\w+:)", "", exc.detail)
    return re.sub(r"\d+", "#", f"{exc.reason}: {detail}")[:160]


def behaviour_of(env: EnvironmentLike) -> BehaviourModel | None:
    """The environment's behaviour model, read once per run; None for hand-written tools."""
    root = getattr(env, "path", None)
    return BehaviourModel.load(Path(root)) if root else None


def _partial_writes(model: BehaviourModel | None) -> set[str]:
    """Tools whose code the behaviour model compiled and marks partial (a rule their own
    description states is known not to be enforced) or that leave a rule the policy states
    about them unenforced, and tools the conformance check caught breaking a round trip.
    Code another stage wrote (a template, the model) may carry guards the behaviour model
    cannot see, so it is not judged partial here; hand-written environments have no model."""
    if model is None:
        return set()
    return {
        t.tool
        for t in model.tools
        if ((t.partial or t.policy_unenforced) and t.compiled) or t.broken
    }


def _attempt(
    run: _Run, n: int, limit: int, rng: random.Random, clock: _Clock,
    on_task: Callable[[Task], Any] | None,
) -> list[Task]:  # fmt: skip
    """Up to ``n`` accepted tasks, one attempt (a task seed from ``rng``) at a time, until
    ``limit`` attempts or until :meth:`_Run.out_of_reach` says why no more can come."""
    gates, stats = run.gates, run.stats
    tasks: list[Task] = []
    while len(tasks) < n and gates.attempts < limit:
        stats.note = run.out_of_reach()
        if stats.note:
            break
        gates.attempts += 1
        task = run.attempt(rng.randrange(2**31), clock)
        if task is not None:
            gates.accepted += 1
            tasks.append(task)
            if on_task is not None:
                on_task(task)
    return tasks
