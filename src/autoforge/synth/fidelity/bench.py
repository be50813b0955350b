"""Fidelity: how closely a synthesized environment reproduces a benchmark's real one.

The benchmark's ``db.json`` becomes the state; every task's ground-truth actions are replayed
in the synthesized environment and compared with the oracle's recording (``gt_replay.json``):

* action level: the error flag must match; where the oracle answered, the returned value must
  equal its recorded observation (:mod:`autoforge.synth.fidelity.agreement` says how results are
  normalised); a write (an action that changed our state, or whose oracle tool mutates state)
  must have changed something, and every value it wrote that no later action overwrote must
  equal the oracle's final value at that path; a read must leave our state alone;
* task level: every action agrees and the final state equals the oracle's (records changed on
  either side compared after dropping ``None`` fields, since tau2 dumps unset optional fields
  as ``null``).

Every figure is computed twice by the same code: for the environment and for the null
environment (every call succeeds, returns nothing, changes nothing), so a figure that doing
nothing reaches is visible as such. The recording (:class:`Bench`) is read by a benchmark
adapter (:func:`autoforge.adapters.tau.load_bench`: one split of ``splits.json``, ``test`` by
default when there is one). The oracle's final state is the initial state with the recorded
``db_diff`` applied. Benchmarks shaped otherwise (list-indexed diffs, agent-side replay with
setup calls, per-task initial and final states) are read by
:mod:`autoforge.adapters.tau.replay_formats` and :func:`autoforge.adapters.tau.load_bench`
into the same tasks.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pydantic import BaseModel, Field

from autoforge.env import EnvDir, Environment
from autoforge.synth.fidelity.agreement import NullEnvironment, results_equal

FIDELITY_SCHEMA_VERSION = 3
MISSING_EFFECTS = "all actions agree, final state differs (missing effects)"
SETUP_DIFFERS = "the task's setup calls left a start state unlike the oracle's"
#: What the tasks are replayed in: the synthesized environment, or the do-nothing baseline.
Replayed = Environment | NullEnvironment


# -- pure core ---------------------------------------------------------------------------------


def apply_diff(state: Any, diff: Iterable[Mapping[str, Any]]) -> None:
    """Apply ``{"op", "path", "new"}`` operations (tau2 ``db_diff`` shape) to ``state`` in place.

    ``replace``/``add`` set the value at the path (creating a missing dict key), ``remove``
    deletes it. List indices are ints.
    """
    for op in diff:
        path = list(op["path"])
        if not path:
            continue
        parent = state
        for part in path[:-1]:
            parent = parent[part]
        last = path[-1]
        if op["op"] == "remove":
            if isinstance(parent, list):
                parent.pop(last)
            else:
                parent.pop(last, None)
        elif isinstance(parent, list) and last == len(parent):
            parent.append(json.loads(json.dumps(op.get("new"))))
        else:
            parent[last] = json.loads(json.dumps(op.get("new")))


def normalize(value: Any) -> Any:
    """``value`` with ``None``-valued dict keys dropped and floats rounded to 6 places."""
    if isinstance(value, dict):
        return {k: normalize(v) for k, v in value.items() if v is not None}
    if isinstance(value, list):
        return [normalize(v) for v in value]
    if isinstance(value, float):
        return round(value, 6)
    return value


RecordKey = tuple[str, str]


def changed_records(before: Mapping[str, Any], after: Mapping[str, Any]) -> set[RecordKey]:
    """``(collection, key)`` of every record added, removed or changed between two states."""
    out: set[RecordKey] = set()
    for name in set(before) | set(after):
        old = before.get(name) or {}
        new = after.get(name) or {}
        if not isinstance(old, Mapping) or not isinstance(new, Mapping):
            if old != new:
                out.add((name, ""))
            continue
        for key in set(old) | set(new):
            if old.get(key) != new.get(key):
                out.add((name, str(key)))
    return out


def diff_records(diff: Iterable[Mapping[str, Any]]) -> set[RecordKey]:
    """The records an oracle diff touches."""
    out: set[RecordKey] = set()
    for op in diff:
        path = list(op["path"])
        if len(path) >= 2:
            out.add((str(path[0]), str(path[1])))
        elif path:
            out.add((str(path[0]), ""))
    return out


def record(state: Mapping[str, Any], key: RecordKey) -> Any:
    """The record ``key`` of ``state`` (the whole value for non-collection entries)."""
    coll = state.get(key[0])
    if key[1] == "" or not isinstance(coll, Mapping):
        return coll
    return coll.get(key[1])


def oracle_record(
    initial: Mapping[str, Any], diff: Sequence[Mapping[str, Any]], key: RecordKey
) -> Any:
    """The oracle's final version of one record: the initial one with its diff ops applied."""
    ops = [
        {**op, "path": list(op["path"])[2:]}
        for op in diff
        if len(op["path"]) >= 2 and (str(op["path"][0]), str(op["path"][1])) == key
    ]
    base = json.loads(json.dumps(record(initial, key)))
    holder = {"r": base}
    for op in ops:
        apply_diff(holder, [{**op, "path": ["r", *op["path"]]}])
    return holder["r"]


def records_agree(
    ours: Mapping[str, Any],
    initial: Mapping[str, Any],
    diff: Sequence[Mapping[str, Any]],
    keys: Iterable[RecordKey],
) -> bool:
    """Whether every record in ``keys`` ends the same in our state and in the oracle's."""
    return all(
        normalize(record(ours, k)) == normalize(oracle_record(initial, diff, k)) for k in keys
    )


# -- reports -----------------------------------------------------------------------------------


class ToolFidelity(BaseModel):
    """Agreement of one tool over all its replayed calls."""

    calls: int = 0
    agree: int = 0
    error_flag_agree: int = 0
    results: int = 0
    result_agree: int = 0
    writes: int = 0
    write_agree: int = 0
    missing: bool = False
    kinds: dict[str, int] = Field(default_factory=dict)

    @property
    def agreement(self) -> float:
        return self.agree / self.calls if self.calls else 0.0


class TaskFidelity(BaseModel):
    """One task: whether every action and the final state agree, and which actions did not."""

    id: str
    agree: bool
    state_agree: bool = False
    changes_state: bool = False
    actions: int
    actions_agree: int
    disagreements: list[str] = Field(default_factory=list)
    cause: str = ""


class Figures(BaseModel):
    """The agreement figures of one environment over one benchmark split.

    * ``task_agreement``: tasks whose every action agrees (error flag, result, state) and whose
      final state equals the oracle's;
    * ``state_task_agreement``: tasks whose final state alone equals the oracle's;
    * ``nontrivial_agree``: agreeing tasks whose oracle changes the state (of
      ``state_changing_tasks``);
    * ``action_agreement``: actions agreeing on error flag, result and state change;
    * ``result_agreement``: of the actions the oracle answered, those we answered with the same
      result (after :func:`autoforge.synth.fidelity.agreement.normalize_result`);
    * ``refusal_agreement``: actions whose acceptance/refusal matches the oracle's;
      ``refusals_matched`` of ``oracle_refusals``: the oracle's refusals we refused too.
    """

    tasks: int = 0
    actions: int = 0
    task_agreement: float = 0.0
    state_task_agreement: float = 0.0
    nontrivial_agree: int = 0
    state_changing_tasks: int = 0
    action_agreement: float = 0.0
    result_agreement: float = 0.0
    refusal_agreement: float = 0.0
    oracle_refusals: int = 0
    refusals_matched: int = 0

    def rounded(self) -> dict[str, Any]:
        return {k: round(v, 4) if isinstance(v, float) else v for k, v in self.model_dump().items()}


class FidelityReport(BaseModel):
    """What ``autoforge fidelity`` writes (JSON) and prints (table)."""

    schema_version: int = FIDELITY_SCHEMA_VERSION
    env: str
    bench: str
    split: str = "all"
    tasks: int = 0
    skipped_tasks: int = 0
    actions: int = 0
    action_agreement: float = 0.0
    task_agreement: float = 0.0
    figures: Figures = Field(default_factory=Figures)
    null: Figures = Field(
        default_factory=Figures,
        description="the same figures for the null environment (every call succeeds, no change)",
    )
    per_tool: dict[str, ToolFidelity] = Field(default_factory=dict)
    never_exercised: list[str] = Field(default_factory=list)
    missing_tools: list[str] = Field(default_factory=list)
    dropped_user_actions: int = Field(
        default=0, description="user-side actions left out of an agent-side replay"
    )
    task_results: list[TaskFidelity] = Field(default_factory=list)
    wall_s: float = 0.0

    def causes(self) -> dict[str, int]:
        """Disagreeing tasks by cause: the first disagreeing action's ``tool: kind``, or
        :data:`MISSING_EFFECTS` when every action agreed but the final state still differs."""
        out: dict[str, int] = {}
        for r in self.task_results:
            if not r.agree:
                out[r.cause] = out.get(r.cause, 0) + 1
        return dict(sorted(out.items(), key=lambda kv: (-kv[1], kv[0])))

    def headline(self) -> dict[str, Any]:
        """The JSON a script or the CLI prints last."""
        return {
            "split": self.split,
            **self.figures.rounded(),
            "null": self.null.rounded(),
            "task_agreement_minus_null": round(
                self.figures.task_agreement - self.null.task_agreement, 4
            ),
            "per_tool": {
                name: {
                    "calls": t.calls,
                    "agreement": round(t.agreement, 4),
                    "result_agree": f"{t.result_agree}/{t.results}",
                    "missing": t.missing,
                }
                for name, t in sorted(self.per_tool.items())
            },
            "never_exercised": self.never_exercised,
            "failed_task_causes": self.causes(),
            "failed_action_kinds": {
                f"{name}: {kind}": n
                for name, t in sorted(self.per_tool.items())
                for kind, n in sorted(t.kinds.items())
            },
        }


# -- the benchmark recording -----------------------------------------------------------------

NO_OUTPUT = object()


@dataclass
class BenchAction:
    """One ground-truth action and the oracle's recorded outcome."""

    name: str
    arguments: dict[str, Any]
    oracle_error: bool
    oracle_output: Any = NO_OUTPUT


@dataclass
class BenchTask:
    """One task: its actions and the oracle's final db diff."""

    id: str
    actions: list[BenchAction]
    diff: list[dict[str, Any]]
    skipped: str = ""
    initial: dict[str, Any] | None = None
    dropped_user_actions: int = 0
    setup: list[BenchAction] = field(default_factory=list)


@dataclass
class Bench:
    """A benchmark domain directory, loaded."""

    path: Path
    state: dict[str, dict[str, Any]]
    tasks: list[BenchTask]
    writes: set[str] = field(default_factory=set)
    tool_names: list[str] = field(default_factory=list)
    split: str = "all"


# -- replay ------------------------------------------------------------------------------------


def _load_env(env_dir: Path, state: dict[str, dict[str, Any]]) -> Environment:
    """The synthesized environment with the benchmark's db as its initial state."""
    parts = EnvDir(env_dir).read()
    return Environment.from_parts(parts.spec, parts.tools_source, initial_state=state)


@dataclass
class _Verdict:
    """One replayed action: whether it agrees with the oracle, and why not."""

    tool: str
    agree: bool
    flag_ok: bool
    write: bool
    oracle_error: bool = False
    result_ok: bool | None = None
    why: str = ""
    kind: str = ""


@dataclass
class _Replay:
    """Our side of one task: per-action verdicts and the final state."""

    verdicts: list[_Verdict]
    final: Mapping[str, Any]
    initial: Mapping[str, Any]
    setup_ok: bool = True


def _named_records(arguments: Mapping[str, Any], state: Mapping[str, Any]) -> set[RecordKey]:
    """The records an action's arguments name: ``(collection, key)`` for every scalar argument
    value that is a key of a collection."""
    out: set[RecordKey] = set()
    for value in arguments.values():
        if isinstance(value, str | int) and not isinstance(value, bool):
            out |= {(name, str(value)) for name, coll in state.items() if str(value) in coll}
    return out


def _oracle_wrote(action: BenchAction, task: BenchTask, bench: Bench) -> bool:
    """Whether the oracle's diff changes what ``action`` names (any change when it names no
    record): a write that changes nothing agrees where the oracle's changed nothing there
    either (an address set to the one already stored)."""
    named = _named_records(action.arguments, task.initial or bench.state)
    touched = diff_records(task.diff)
    return bool(touched & named) if named else bool(task.diff)


def _verdict(
    action: BenchAction,
    obs: Any,
    changed: set[RecordKey],
    task: BenchTask,
    bench: Bench,
    known: set[str],
) -> _Verdict:
    ours_error = not obs.ok
    is_write = bool(changed) or action.name in bench.writes
    flag_ok = ours_error == action.oracle_error
    v = _Verdict(
        tool=action.name,
        agree=flag_ok,
        flag_ok=flag_ok,
        write=is_write,
        oracle_error=action.oracle_error,
    )
    answered = not action.oracle_error and action.oracle_output is not NO_OUTPUT
    if answered:
        v.result_ok = obs.ok and results_equal(obs.content, action.oracle_output)
    if action.name not in known:
        v.why, v.kind = "tool missing from the environment", "missing tool"
    elif not flag_ok:
        v.why = f"error flag: ours {ours_error} ({obs.content[:120]}), oracle {action.oracle_error}"
        v.kind = "error where the oracle succeeded" if ours_error else "success where it errored"
    elif (
        is_write and not action.oracle_error and not changed and _oracle_wrote(action, task, bench)
    ):
        v.agree, v.why, v.kind = False, "write changed nothing", "write changed nothing"
    elif changed and bench.writes and action.name not in bench.writes:
        v.agree, v.why, v.kind = False, "read tool changed the state", "read changed the state"
    elif v.result_ok is False:
        v.agree, v.why, v.kind = False, f"result differs: {obs.content[:120]}", "wrong result"
    return v


def _leaf_changes(
    before: Mapping[str, Any], after: Mapping[str, Any], keys: set[RecordKey]
) -> list[tuple[list[Any], Any]]:
    """``(path, new value)`` of every change an action made inside the records ``keys``."""
    from autoforge.env import diff_states

    out: list[tuple[list[Any], Any]] = []
    for key in keys:
        old_rec, new_rec = record(before, key), record(after, key)
        for op in diff_states({"r": old_rec}, {"r": new_rec}):
            path = [key[0], key[1], *op["path"][1:]] if key[1] else [key[0], *op["path"][1:]]
            out.append((path, op.get("new")))
    return out


def get_path(state: Any, path: Sequence[Any]) -> Any:
    """The value at ``path`` (``None`` when any step is missing, as tau2 dumps unset fields)."""
    node = state
    for part in path:
        if (isinstance(node, Mapping) and part in node) or (
            isinstance(node, list) and isinstance(part, int) and 0 <= part < len(node)
        ):
            node = node[part]
        else:
            return None
    return node


def _action_matches(
    changes: list[tuple[list[Any], Any]], final: Mapping[str, Any], oracle: _Oracle
) -> bool:
    """Every value the action wrote, unless overwritten later, is the oracle's final value."""
    for path, new in changes:
        if normalize(get_path(final, path)) != normalize(new):
            continue  # a later action changed it again: judged there
        if normalize(oracle.value(path)) != normalize(new):
            return False
    return True


class _Oracle:
    """The oracle's final records of one task, built lazily from the initial state + diff."""

    def __init__(self, initial: Mapping[str, Any], diff: Sequence[Mapping[str, Any]]) -> None:
        self.initial = initial
        self.diff = diff
        self.records: dict[RecordKey, Any] = {}

    def value(self, path: Sequence[Any]) -> Any:
        key = (str(path[0]), str(path[1]) if len(path) > 1 else "")
        if key not in self.records:
            self.records[key] = oracle_record(self.initial, self.diff, key)
        return get_path(self.records[key], path[2:] if len(path) > 1 else path[1:])


def _start(task: BenchTask, bench: Bench) -> Mapping[str, Any]:
    return bench.state if task.initial is None else task.initial


def setup_matches(start: Mapping[str, Any], diff: Sequence[Mapping[str, Any]]) -> bool:
    """Whether ``start`` holds, at every path the oracle's diff replaces, the value the oracle
    recorded there as ``old`` (so a start state rebuilt by setup calls is the oracle's)."""
    return all(
        normalize(get_path(start, op["path"])) == normalize(op["old"])
        for op in diff
        if op.get("op") == "replace" and "old" in op
    )


def _replay_task(env: Replayed, task: BenchTask, bench: Bench, known: set[str]) -> _Replay:
    before: Mapping[str, Any] = _start(task, bench)
    ep = env.episode(before)
    for step in task.setup:
        ep.call(step.name, step.arguments)
    if task.setup:
        before = ep.snapshot()
    start = before
    before_hash = ep.state_hash()
    verdicts: list[_Verdict] = []
    pending: list[tuple[_Verdict, list[tuple[list[Any], Any]]]] = []
    for action in task.actions:
        obs = ep.call(action.name, action.arguments)
        after_hash = ep.state_hash()
        changed: set[RecordKey] = set()
        changes: list[tuple[list[Any], Any]] = []
        if after_hash != before_hash:
            after = ep.snapshot()
            changed = changed_records(before, after)
            if changed:
                changes = _leaf_changes(before, after, changed)
            before, before_hash = after, after_hash
        v = _verdict(action, obs, changed, task, bench, known)
        verdicts.append(v)
        if v.flag_ok and changed and action.name in known:
            pending.append((v, changes))
    oracle = _Oracle(start, task.diff)
    for v, leafs in pending:
        if not _action_matches(leafs, before, oracle):
            v.agree, v.why, v.kind = False, "wrote values unlike the oracle's", "wrong values"
    setup_ok = not task.setup or setup_matches(start, task.diff)
    return _Replay(verdicts=verdicts, final=before, initial=start, setup_ok=setup_ok)


def _score_task(task: BenchTask, replay: _Replay) -> TaskFidelity:
    initial = replay.initial
    keys = changed_records(initial, replay.final) | diff_records(task.diff)
    state_agree = replay.setup_ok and records_agree(replay.final, initial, task.diff, keys)
    first = next((v for v in replay.verdicts if not v.agree), None)
    agree = state_agree and first is None
    cause = ""
    if not replay.setup_ok:
        cause = SETUP_DIFFERS
    elif not agree:
        writes = sorted({v.tool for v in replay.verdicts if v.write})
        cause = (
            f"{first.tool}: {first.kind}" if first else f"{MISSING_EFFECTS}: {', '.join(writes)}"
        )
    return TaskFidelity(
        id=task.id,
        agree=agree,
        state_agree=state_agree,
        changes_state=bool(task.diff),
        cause=cause,
        actions=len(replay.verdicts),
        actions_agree=sum(v.agree for v in replay.verdicts),
        disagreements=[
            f"{i}:{v.tool}: {v.why}" for i, v in enumerate(replay.verdicts) if not v.agree
        ],
    )


@dataclass
class _Run:
    """One environment replayed over a benchmark split."""

    results: list[TaskFidelity] = field(default_factory=list)
    verdicts: list[_Verdict] = field(default_factory=list)
    per_tool: dict[str, ToolFidelity] = field(default_factory=dict)


def _replay_all(env: Replayed, bench: Bench, tasks: list[BenchTask], known: set[str]) -> _Run:
    run = _Run()
    for task in tasks:
        replay = _replay_task(env, task, bench, known)
        run.results.append(_score_task(task, replay))
        for v in replay.verdicts:
            run.verdicts.append(v)
            stats = run.per_tool.setdefault(v.tool, ToolFidelity(missing=v.tool not in known))
            stats.calls += 1
            stats.agree += v.agree
            stats.error_flag_agree += v.flag_ok
            stats.results += v.result_ok is not None
            stats.result_agree += bool(v.result_ok)
            stats.writes += v.write
            stats.write_agree += v.agree and v.write
            if v.kind:
                stats.kinds[v.kind] = stats.kinds.get(v.kind, 0) + 1
    return run


def figures(results: Sequence[TaskFidelity], verdicts: Sequence[_Verdict]) -> Figures:
    """The :class:`Figures` of one replay (ours or the null environment's)."""
    f = Figures(tasks=len(results), actions=len(verdicts))
    if results:
        f.task_agreement = sum(r.agree for r in results) / len(results)
        f.state_task_agreement = sum(r.state_agree for r in results) / len(results)
    f.state_changing_tasks = sum(r.changes_state for r in results)
    f.nontrivial_agree = sum(r.agree and r.changes_state for r in results)
    if verdicts:
        f.action_agreement = sum(v.agree for v in verdicts) / len(verdicts)
        f.refusal_agreement = sum(v.flag_ok for v in verdicts) / len(verdicts)
    answered = [v for v in verdicts if v.result_ok is not None]
    if answered:
        f.result_agreement = sum(bool(v.result_ok) for v in answered) / len(answered)
    f.oracle_refusals = sum(v.oracle_error for v in verdicts)
    f.refusals_matched = sum(v.oracle_error and v.flag_ok for v in verdicts)
    return f


def run_fidelity(env_dir: Path, bench: Bench, *, limit: int | None = None) -> FidelityReport:
    """Replay the tasks of a loaded benchmark recording (a benchmark adapter reads it, e.g.
    :func:`autoforge.adapters.tau.load_bench`) in the environment at ``env_dir`` and in the
    null environment; score both with the same code."""
    import time

    start = time.monotonic()
    env = _load_env(env_dir, bench.state)
    known = {t.name for t in env.spec.tools}
    report = FidelityReport(env=str(env_dir), bench=str(bench.path), split=bench.split)
    report.missing_tools = sorted(set(bench.tool_names) - known)
    tasks = [t for t in bench.tasks if not t.skipped]
    report.skipped_tasks = len(bench.tasks) - len(tasks)
    report.dropped_user_actions = sum(t.dropped_user_actions for t in tasks)
    tasks = tasks[:limit] if limit else tasks
    ours = _replay_all(env, bench, tasks, known)
    every = {a.name for t in tasks for a in t.actions} | set(bench.tool_names)
    null = _replay_all(NullEnvironment(bench.state, sorted(every)), bench, tasks, every)
    report.task_results, report.per_tool = ours.results, ours.per_tool
    report.figures = figures(ours.results, ours.verdicts)
    report.null = figures(null.results, null.verdicts)
    report.tasks, report.actions = report.figures.tasks, report.figures.actions
    report.task_agreement = report.figures.task_agreement
    report.action_agreement = report.figures.action_agreement
    report.never_exercised = sorted(known - {v.tool for v in ours.verdicts})
    report.wall_s = round(time.monotonic() - start, 2)
    return report
