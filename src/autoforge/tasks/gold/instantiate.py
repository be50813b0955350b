"""Instantiation: give a blueprint a state and fact values, execute it, record the gold run.

Strategy: generate a base population (or take the environment's initial state), then execute
the blueprint in topological order on an episode. Facts are chosen *lazily*, when the first node
that needs one runs, from what the state and the earlier results hold: an entity key consistent
with the entities already in play (the order of *this* customer), an attribute of such a record
(its email), a filter value that selects exactly one element, a threshold near the compared
value, an enum value different from the current one. A failed call or a degenerate reasoning
step (a tie for the maximum) fails the attempt, and the next attempt retries with the next seed,
a bounded number of times. The result is the gold run: S0, S* hash, gold calls, required outputs.
"""

from __future__ import annotations

import functools
import random
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from autoforge.env import EnvironmentLike, EnvironmentSpec, EpisodeLike
from autoforge.lexicon import split_path, tool_access
from autoforge.tasks.blueprints.blueprint import (
    Binding,
    Blueprint,
    CallNode,
    FactRef,
    FactSpec,
    ListBinding,
    ObjectBinding,
    OutputRef,
    ReasonNode,
    iter_refs,
)
from autoforge.tasks.blueprints.facts import FactChooser, NeedFact, values_at
from autoforge.tasks.blueprints.outputs import render, required_outputs
from autoforge.tasks.blueprints.reasoning import ReasoningError, degeneracy, evaluate, get_path
from autoforge.tasks.gold.failures import GoldFailure, blame, blames_given, mentioned
from autoforge.tasks.gold.plausible import Guard, guarded_facts, owned_facts
from autoforge.tasks.gold.preconditions import Preconditions
from autoforge.tasks.gold.primed import ahead, run_primed
from autoforge.tasks.gold.settle import guarded_steps
from autoforge.tasks.model import GoldCall
from autoforge.tasks.runtime import bind_state
from autoforge.tasks.states.population import StateGenerator
from autoforge.tasks.states.repair import apply_fix, repair_state, shape_to_value
from autoforge.tasks.states.starts import Start, StartPool, fresh_start


@dataclass
class GoldRun:
    """One execution of a blueprint: facts used, node values, calls made, final state hash."""

    facts: dict[str, Any]
    values: dict[str, Any]
    calls: list[GoldCall]
    final_hash: str
    hash: str = ""  # the state hash after the last write (tracked only in gold runs)


@dataclass
class Instance:
    """A blueprint made concrete: its S0, S0 hash and gold run."""

    initial_state: dict[str, Any]
    initial_hash: str
    run: GoldRun
    attempts: int = 1
    bound: EnvironmentLike | None = None  # the environment started at S0 (reused by replays)


def _for_call(
    chooser: FactChooser, tool: str, partial: dict[str, Any], param: str, fact: FactSpec
) -> Any:
    return chooser.for_call(fact, tool, partial, param)


def _for_reasoning(
    chooser: FactChooser, node: ReasonNode, partial: dict[str, Any], fact: FactSpec
) -> Any:
    return chooser.for_reasoning(fact, node, partial)


def resolve(
    binding: Binding, values: dict[str, Any], facts: dict[str, Any], need: NeedFact, bp: Blueprint
) -> Any:
    """The value of a binding; unknown facts are asked from ``need`` and remembered."""
    if isinstance(binding, ListBinding):
        return [resolve(b, values, facts, need, bp) for b in binding.items]
    if isinstance(binding, ObjectBinding):
        return {k: resolve(b, values, facts, need, bp) for k, b in binding.fields.items()}
    if isinstance(binding, FactRef):
        if binding.name not in facts:
            facts[binding.name] = need(bp.fact(binding.name))
        return facts[binding.name]
    try:
        return get_path(values[binding.node], binding.path)
    except ReasoningError as exc:
        raise GoldFailure("gold_error", f"{binding.node}{binding.path}: {exc}") from None


def _unbound_facts(binding: Binding, facts: dict[str, Any]) -> bool:
    return any(isinstance(r, FactRef) and r.name not in facts for r in iter_refs(binding))


def _no_fact(fact: FactSpec) -> Any:
    raise GoldFailure("missing_fact", f"no value for fact {fact.name!r}")


def _resolve_args(
    node: CallNode, bp: Blueprint, run: GoldRun, chooser: FactChooser | None
) -> dict[str, Any]:
    follows = chooser.follows_key(node.tool) if chooser is not None else frozenset()
    ordered = sorted(  # bound facts first; a scope of the named record after its key
        node.args.items(), key=lambda kv: (_unbound_facts(kv[1], run.facts), kv[0] in follows)
    )
    args: dict[str, Any] = {}
    for name, binding in ordered:
        need: NeedFact = _no_fact
        if chooser is not None:
            need = functools.partial(_for_call, chooser, node.tool, args, name)
        args[name] = resolve(binding, run.values, run.facts, need, bp)
    return {name: args[name] for name in node.args}


def _run_call(
    node: CallNode,
    bp: Blueprint,
    episode: EpisodeLike,
    run: GoldRun,
    chooser: FactChooser | None,
    writes: set[str],
    probes: int = 4,
) -> None:
    """Run one call; when it fails on facts chosen for it, choose again.

    A failed call leaves the state as it was (the runtime runs each call as a transaction), so
    the call can simply be retried with other values for the facts chosen for it.
    """
    for probe in range(probes):
        known = set(run.facts)
        args = _resolve_args(node, bp, run, chooser)
        refused = chooser.breach(node.tool, args) if chooser is not None else None
        if refused is None:
            obs = episode.call(node.tool, args)
            if obs.ok and _ambiguous(node, bp, obs.result):
                raise GoldFailure("ambiguous_reference",
                                  f"{node.id} {node.tool}: the user's reference matches "
                                  f"{len(obs.result)} records")  # fmt: skip
            if obs.ok:
                break
            why = obs.content
        else:  # a call a stated guard refuses is not sent to fail in the sandbox
            why = f"Error: {refused.message}"
        fresh = [n for n in run.facts if n not in known]
        named = [n for n in fresh if mentioned(run.facts[n], why, words=True)]
        if (
            chooser is None
            or not fresh
            or probe == probes - 1
            or (not named and blames_given(args, [run.facts[n] for n in fresh], why))
        ):
            failure = GoldFailure("gold_error", f"{node.id} {node.tool}: {why}")
            if refused is not None and chooser is not None:
                failure.fix = chooser.fix(refused)
            raise failure
        named = named or fresh
        for name in named:
            chooser.excluded.setdefault(name, set()).add(repr(run.facts[name]))
        for name in fresh:
            del run.facts[name]
    changed = False
    if run.hash and node.tool in writes:
        after = episode.state_hash()
        changed, run.hash = after != run.hash, after
    run.values[node.id] = obs.result
    run.calls.append(GoldCall(node=node.id, name=node.tool, arguments=args, writes=changed))
    if chooser is not None:
        chooser.note_entities(node.tool, args, obs.result, node.tool in writes)


def _ambiguous(node: CallNode, bp: Blueprint, result: Any) -> bool:
    """Whether a finder call (its arguments all references the user holds, see
    ``build.find``) found other than exactly one record."""
    if not isinstance(result, list) or len(result) == 1:
        return False
    return _finds_one(node, bp)


#: Operators that need two or more elements
#: (:func:`~autoforge.tasks.blueprints.reasoning.degeneracy`).
_NEED_SEVERAL = ("argmax", "argmin", "count", "sum", "average")


def over_one_record(bp: Blueprint) -> str | None:
    """A reasoning node of ``bp`` that can never be informative, or None: one that needs two or
    more elements (an extreme, an aggregate, a filter that narrows, a positional lookup) over
    the whole result of a finder call whose arguments are all references the user holds. Such
    a call must find exactly one record (:func:`_ambiguous` fails the run otherwise), so the
    node is degenerate on every S0 and with any facts."""
    finders = {n.id for n in bp.calls if _finds_one(n, bp)}
    for node in bp.reasoning:
        spec = node.spec
        several = spec.op in _NEED_SEVERAL or (spec.op == "filter" and spec.take != "named")
        listed = spec.op == "lookup" and bool(spec.field) and isinstance(spec.field[0], int)
        source = node.inputs.get("value" if spec.op == "lookup" else "items")
        if (several or listed) and isinstance(source, OutputRef) and not source.path and (
                source.node in finders):  # fmt: skip
            return node.id
    return None


def _finds_one(node: CallNode, bp: Blueprint) -> bool:
    """Whether a call's arguments are all references the user holds (see :func:`_ambiguous`)."""
    return bool(node.args) and all(
        isinstance(b, FactRef) and bp.fact(b.name).role == "reference" for b in node.args.values()
    )


def _run_reasoning(
    node: ReasonNode, bp: Blueprint, run: GoldRun, chooser: FactChooser | None
) -> None:
    inputs: dict[str, Any] = {}
    for name, binding in node.inputs.items():
        need: NeedFact = _no_fact
        if chooser is not None:
            need = functools.partial(_for_reasoning, chooser, node, inputs)
        inputs[name] = resolve(binding, run.values, run.facts, need, bp)
    try:
        result = evaluate(node.spec, inputs)
        problem = degeneracy(node.spec, inputs, result)
    except ReasoningError as exc:
        raise GoldFailure("reasoning_shape", f"{node.id}: {exc}") from None
    if problem:
        raise GoldFailure("degenerate", f"{node.id}: {problem}")
    run.values[node.id] = result


def execute(
    bp: Blueprint,
    spec: EnvironmentSpec,
    episode: EpisodeLike,
    facts: dict[str, Any],
    chooser: FactChooser | None = None,
    initial_hash: str = "",
) -> GoldRun:
    """Run a blueprint on an episode; raises :class:`GoldFailure` on any error.

    Without a ``chooser`` every fact must be in ``facts`` (a replay); with one, missing facts
    are chosen when first needed and added to the run's facts. With the ``initial_hash`` of
    the episode's state, each state-changing call is checked for whether it really changed
    the state (``GoldCall.writes``); replays skip that.
    """
    run = GoldRun(facts=dict(facts), values={}, calls=[], final_hash="", hash=initial_hash)
    writes = {t.name for t in spec.tools if tool_access(t) == "write"}
    nodes = {n.id: n for n in bp.nodes}
    for node_id in bp.topo_order():
        node = nodes[node_id]
        try:
            if isinstance(node, CallNode):
                _run_call(node, bp, episode, run, chooser, writes)
            else:
                _run_reasoning(node, bp, run, chooser)
        except GoldFailure as exc:
            exc.node = exc.node or node_id
            exc.facts = dict(run.facts)
            exc.calls = list(run.calls)
            raise
    run.final_hash = episode.state_hash()
    return run


def _own(state: dict[str, Any]) -> dict[str, Any]:
    """A copy of ``state`` whose collections may be changed (records are shared: repairs
    replace a record instead of changing it)."""
    return {k: dict(v) if isinstance(v, dict) else v for k, v in state.items()}


def _exclude(excluded: dict[str, set[str]], blamed: Mapping[str, str]) -> None:
    """Exclude the blamed fact values from the next runs on the same S0."""
    for name, value in blamed.items():
        excluded.setdefault(name, set()).add(value)


def _repair_start(
    exc: GoldFailure,
    state: dict[str, Any],
    env: EnvironmentLike,
    repaired: dict[tuple[str, str, str], Any],
) -> tuple[str, dict[str, Any]]:
    """After a failed run: the S0 repair its business-rule error asks for (the guard's fix, or
    what the error text names) on a new shell of S0, since the last one may be bound, each
    record it moved shaped like the data's records with that value (:func:`shape_to_value`);
    the repair's outcome (``changed``, ``unchanged``, ``conflict``) and the S0 to go on with."""
    if exc.fixes:  # a degenerate step S0 can make informative
        state = _own(state)
        done = [apply_fix(state, fix, repaired) for fix in exc.fixes]
        return ("conflict" if "conflict" in done else
                "changed" if "changed" in done else "unchanged"), state  # fmt: skip
    if exc.reason != "gold_error":
        return "unchanged", state
    state = _own(state)
    before = set(repaired)
    repair = (apply_fix(state, exc.fix, repaired) if exc.fix is not None
              else repair_state(state, env.spec, exc.detail, repaired))  # fmt: skip
    for slot in sorted(set(repaired) - before):
        shape_to_value(state, env.initial_state, slot)
    return repair, state


def instantiate(
    bp: Blueprint,
    env: EnvironmentLike,
    seed: int,
    *,
    generator: StateGenerator | None = None,
    attempts: int = 1,
    retries: int = 4,
    starts: StartPool | None = None,
    guards: Mapping[str, list[Guard]] | None = None,
    pre: Preconditions | None = None,
) -> Instance:
    """S0 and facts under which ``bp`` runs cleanly; :class:`GoldFailure` when none is found.

    Each of ``attempts`` gets a fresh S0 (generated, or the environment's initial state when
    there is no ``generator``; from ``starts`` when given); on each S0 up to ``retries`` runs
    are tried, every failure excluding the fact values it blames (:func:`blame`) from the next
    run, or repairing S0 (a copy) when the error names a business rule. An S0 is given up
    early when one reasoning node is degenerate twice in a row (:func:`_doomed`). ``guards``:
    the stated preconditions per write tool (:func:`~autoforge.tasks.gold.plausible.call_guards`):
    facts are chosen to meet them, a call that breaks one is refused before it is sent, and
    a refused status is met by setting it in S0. A write that acts for the signed-in user gets
    one of that user's records (:func:`~autoforge.tasks.gold.plausible.owned_facts`). ``pre``: the
    documented preconditions beyond one record's status
    (:class:`~autoforge.tasks.gold.preconditions.Preconditions`, ``guards`` among them): they
    decide which calls are refused before they are sent, and narrow records and values.
    """
    guards = guards or {}
    search = _Search(
        bp, env, guards,
        guarded=guarded_facts(bp, guards) if guards else {},
        steps=guarded_steps(bp, guards) if guards else {},
        owned=owned_facts(bp, env.spec), pre=pre,
        pre_facts=pre.fact_keys(bp) if pre is not None else {},
    )  # fmt: skip
    for attempt in range(attempts):
        rng = random.Random(f"{seed}:{attempt}")
        start = starts.take(rng) if starts is not None else fresh_start(env, generator, rng)
        found = _on_start(search, start, rng, retries)
        if found is not None:
            return found
    assert search.failure is not None
    raise search.failure


@dataclass
class _Search:
    """What the runs of one :func:`instantiate` share across its S0s: the blueprint and the
    environment, the guards and what they ask of the facts (:func:`guarded_facts`,
    :func:`guarded_steps`, :func:`owned_facts`), the runs made so far and the last failure."""

    bp: Blueprint
    env: EnvironmentLike
    guards: Mapping[str, list[Guard]]
    guarded: dict[str, list[Guard]]
    steps: dict[str, list[Guard]]
    owned: dict[str, str]
    pre: Preconditions | None = None
    pre_facts: dict[str, list[tuple[str, str]]] = field(default_factory=dict)
    tries: int = 0
    failure: GoldFailure | None = None


def _on_start(search: _Search, start: Start, rng: random.Random, retries: int) -> Instance | None:
    """Up to ``retries`` runs of the blueprint on one S0 (``start``): the :class:`Instance` of
    the first clean one, or None when this S0 is used up (:func:`_doomed`, or out of retries).
    After a failure the blamed fact values are excluded, or S0 is repaired (a copy) and the
    same facts are tried again; a repair that conflicts raises (the blueprint needs
    contradictory states)."""
    bp, env, guards = search.bp, search.env, search.guards
    state, bound = start.state, start.bound
    excluded: dict[str, set[str]] = {}
    keep: dict[str, Any] = {}
    repaired: dict[tuple[str, str, str], Any] = {}
    last: GoldFailure | None = None  # the previous run's failure on this S0
    sent: list[tuple[str, Any]] = []  # calls to send ahead (after a repair)
    for _ in range(retries):
        search.tries += 1
        chooser = functools.partial(FactChooser, env.spec, rng=rng, excluded=excluded,
                                    base_state=state, guards=guards, guarded=search.guarded,
                                    owned=search.owned, steps=search.steps, pre=search.pre,
                                    pre_facts=search.pre_facts)  # fmt: skip
        try:
            run = _run(bp, env.spec, bound, keep, chooser, sent)
        except GoldFailure as exc:
            if _doomed(last, exc):
                search.failure = exc
                return None  # this S0 cannot make that reasoning step informative
            search.failure, last, keep = exc, exc, {}
            repair, state = _repair_start(exc, state, env, repaired)
            if repair == "conflict":
                raise exc  # the blueprint needs contradictory states: give up now
            if repair == "changed":  # S0 repaired: the same facts may work now
                bound = bind_state(env, state, owned=True)  # replaced records, not changed
                keep, sent = exc.facts, ahead(exc.calls, guards)
                continue
            sent = []
            _exclude(excluded, blame(bp, exc))
            continue
        # only now: failed runs never hash
        initial_hash = start.hash() if bound is start.bound else bound.episode().state_hash()
        return Instance(state, initial_hash, run, search.tries, bound)
    return None


def _run(
    bp: Blueprint,
    spec: EnvironmentSpec,
    bound: EnvironmentLike,
    facts: dict[str, Any],
    chooser: Callable[[EpisodeLike], FactChooser],
    sent: list[tuple[str, Any]],
) -> GoldRun:
    """One run of ``bp`` on a fresh episode of ``bound``; with ``sent``, those calls go to the
    sandbox ahead in one batch (:mod:`~autoforge.tasks.gold.primed`), and where the run asks for
    other calls than the batch ran, it starts over on a fresh episode without it."""

    def once(episode: EpisodeLike) -> GoldRun:
        return execute(bp, spec, episode, facts, chooser(episode))

    return run_primed(once, bound.episode, sent)


def _doomed(previous: GoldFailure | None, failure: GoldFailure) -> bool:
    """Whether a run's failure says the S0 is hopeless: the same reasoning node degenerate
    twice in a row (other facts did not help: the data has no tie-free maximum, no list of
    two, no selective filter value there; such runs rarely succeed later, and each retry costs
    two more runs)."""
    return (
        previous is not None
        and failure.reason == previous.reason == "degenerate"
        and failure.node == previous.node
    )


__all__ = ["FactChooser", "GoldFailure", "GoldRun", "Instance", "Start", "StartPool", "execute",
           "fresh_start", "instantiate", "over_one_record", "render", "required_outputs",
           "split_path", "values_at"]  # fmt: skip
