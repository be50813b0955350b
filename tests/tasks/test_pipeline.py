"""generate_tasks end to end, the gates, the task record and the JSONL task set."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from autoforge.env.isolation.contained import Rerun
from autoforge.errors import UserError
from autoforge.tasks.blueprints.blueprint import Blueprint, CallNode, FactRef, FactSpec
from autoforge.tasks.difficulty import DifficultyMetrics, measure, parse_difficulty, preset
from autoforge.tasks.gold.gates import Deduplicator, do_nothing_passes, replay_is_stable
from autoforge.tasks.gold.instantiate import execute
from autoforge.tasks.model import RequiredOutput, Task, TaskSet, TaskSetError, UserScenario
from autoforge.tasks.pipeline import TaskHooks, generate_tasks
from autoforge.tasks.scenario.question import ScenarioRequest
from autoforge.tasks.scenario.spoken import fact_text, missing_facts


def test_generated_tasks_are_verifiable(generated: Any, bookstore_env: Any) -> None:
    tasks, stats = generated
    assert len(tasks) == 8 and stats.accepted == 8
    assert stats.attempts == stats.accepted + sum(stats.rejected.values())
    assert len({t.id for t in tasks}) == 8
    for task in tasks:
        assert task.difficulty.level() in ("medium", "hard")
        assert not preset("medium").violations(task.difficulty)
        # the gold trajectory replays to S* from S0
        episode = bookstore_env.episode(state=task.initial_state)
        assert episode.state_hash() == task.initial_state_hash
        for call in task.gold_calls:
            assert episode.call(call.name, call.arguments).ok, call
        assert episode.state_hash() == task.final_state_hash
        told = " ".join(o.text for o in task.required_outputs)
        assert task.is_solved(task.final_state_hash, told)
        # a do-nothing agent fails every task
        assert not task.is_solved(task.initial_state_hash, "")
        assert not missing_facts(task.scenario, task.user_facts)
        assert task.user_facts and set(task.user_facts) == set(task.blueprint.fact_names_used())
        known = {fact_text(v) for v in task.user_facts.values()}
        assert all(o.text not in known for o in task.required_outputs)


def test_generation_is_seeded(bookstore_env: Any, generated: Any) -> None:
    again, _ = generate_tasks(bookstore_env, 8, "medium", seed=0)
    assert [t.id for t in again] == [t.id for t in generated[0]]
    other, _ = generate_tasks(bookstore_env, 3, "medium", seed=1)
    assert {t.id for t in other}.isdisjoint({t.id for t in generated[0]})


def test_difficulty_presets_and_ranges(bookstore_env: Any) -> None:
    easy, _ = generate_tasks(bookstore_env, 4, "easy", seed=2)
    hard, hard_stats = generate_tasks(bookstore_env, 2, "hard", seed=2)
    assert all(t.difficulty.tool_calls <= 3 for t in easy)
    for task in hard:
        assert task.difficulty.tool_calls >= 5 and task.difficulty.reasoning_nodes >= 2
        assert task.difficulty.merged_walks >= 2 and task.blueprint.walks
    assert hard_stats.accepted == len(hard) == 2
    custom, _ = generate_tasks(bookstore_env, 2, "tool_calls=4-4,write_calls=1-", seed=3)
    assert all(t.difficulty.tool_calls == 4 and t.difficulty.write_calls >= 1 for t in custom)
    spec = parse_difficulty("depth=3-")
    assert spec.ranges == {"depth": (3, None)}
    with pytest.raises(UserError):
        parse_difficulty("nonsense")
    with pytest.raises(UserError):
        parse_difficulty("speed=1-2")


def test_gates_reject_what_they_should(generated: Any, bookstore_env: Any) -> None:
    task = generated[0][0]
    out = RequiredOutput(node="r0", description="x", value=3, text="3")
    assert do_nothing_passes("h", "h", [])
    assert not do_nothing_passes("h", "h", [out])
    assert not do_nothing_passes("h0", "h1", [])
    dedupe = Deduplicator([task])
    assert not dedupe.is_new(task.blueprint.signature(task.user_facts))
    assert dedupe.is_new(task.blueprint.signature({}))
    run = execute(
        task.blueprint,
        bookstore_env.spec,
        bookstore_env.episode(state=task.initial_state),
        task.user_facts,
    )
    args = (task.blueprint, bookstore_env, task.initial_state, task.user_facts)
    replay = replay_is_stable(*args, task.final_state_hash, run.values)
    assert replay is not None and replay.calls == task.gold_calls
    assert replay_is_stable(*args, "another-hash", run.values) is None


def _skewed(observed: list[Any]) -> list[Any]:
    return [SimpleNamespace(ok=True, result=["other"])
            if o.ok and o.tool.startswith(("get", "find", "search")) else o
            for o in observed]  # fmt: skip


class _Batching:
    """The bookstore started at ``state``, whose episodes count round trips (a batch: its
    length; a batch run again: the length and the further runs); ``skew`` alters the results
    of the ``skew``-th run's batched reads (a read answering differently), counting the runs
    of one round trip in order."""

    def __init__(self, env: Any, state: Any, skew: int = 0) -> None:
        self._env, self.spec, self.initial_state = env, env.spec, state
        self.batches: list[int] = []
        self.skew, self.n = skew, 0

    def episode(self, state: Any = None) -> Any:
        inner, outer = self._env.episode(state=self.initial_state), self
        self.n += 1
        skewed = self.n == self.skew

        class _Ep:
            def __getattr__(self, name: str) -> Any:
                return getattr(inner, name)

            def call_many(self, calls: list[tuple[str, Any]], after: Any = None) -> list[Any]:
                outer.batches.append(len(calls))
                observed = inner.call_many(calls, after=after)
                return _skewed(observed) if skewed else observed

            def call_many_again(
                self, calls: list[tuple[str, Any]], times: int, after: Any = None
            ) -> tuple[list[Any], list[Any]]:
                outer.batches.append((len(calls), times))
                observed, reruns = inner.call_many_again(calls, times, after=after)
                if outer.skew == 1:
                    observed = _skewed(observed)
                for i, rerun in enumerate(reruns):
                    if outer.skew == i + 2:
                        rerun = Rerun(_skewed(rerun.observations), rerun.final_hash)
                        reruns[i] = rerun
                return observed, reruns

        return _Ep()


def test_a_later_replay_runs_its_calls_in_one_batch_and_must_agree_call_by_call(
    generated: Any, bookstore_env: Any
) -> None:
    task = next(t for t in generated[0] if any(not c.writes for c in t.gold_calls))
    run = execute(task.blueprint, bookstore_env.spec,
                  bookstore_env.episode(state=task.initial_state), task.user_facts)  # fmt: skip
    batching = _Batching(bookstore_env, task.initial_state)
    args = (task.blueprint, batching, task.initial_state, task.user_facts)
    replay = replay_is_stable(*args, task.final_state_hash, run.values, bound=batching)
    assert replay is not None and replay.calls == task.gold_calls
    assert batching.batches == [len(task.gold_calls)]  # the second replay: one round trip
    # a read answering differently on the second replay (the state hash agrees) is caught
    skewed = _Batching(bookstore_env, task.initial_state, skew=2)
    args = (task.blueprint, skewed, task.initial_state, task.user_facts)
    assert replay_is_stable(*args, task.final_state_hash, run.values, bound=skewed) is None


def test_with_the_gold_calls_both_replays_are_one_round_trip(
    generated: Any, bookstore_env: Any
) -> None:
    tasks = generated[0]
    for task in tasks:
        batching = _Batching(bookstore_env, task.initial_state)
        args = (task.blueprint, batching, task.initial_state, task.user_facts)
        values = execute(
            task.blueprint,
            bookstore_env.spec,
            bookstore_env.episode(state=task.initial_state),
            task.user_facts,
        ).values
        replay = replay_is_stable(*args, task.final_state_hash, values, bound=batching,
                                  calls=task.gold_calls)  # fmt: skip
        # the same run as call by call, write flags included; both replays in one round trip
        assert replay is not None and replay.calls == task.gold_calls
        assert batching.batches == [(len(task.gold_calls), 1)]
    task = next(t for t in tasks if any(not c.writes for c in t.gold_calls))
    values = execute(
        task.blueprint,
        bookstore_env.spec,
        bookstore_env.episode(state=task.initial_state),
        task.user_facts,
    ).values
    for skew in (1, 2):  # reads answering differently in the first or the second batch
        skewed = _Batching(bookstore_env, task.initial_state, skew=skew)
        assert replay_is_stable(task.blueprint, skewed, task.initial_state, task.user_facts,
                                task.final_state_hash, values, bound=skewed,
                                calls=task.gold_calls) is None  # fmt: skip
    # the blueprint asks for other calls than the ones given: not a replay of them
    other = [c.model_copy(update={"arguments": {**c.arguments, "x": 1}}) if i == 0 else c
             for i, c in enumerate(task.gold_calls)]  # fmt: skip
    plain = _Batching(bookstore_env, task.initial_state)
    assert (
        replay_is_stable(
            task.blueprint,
            plain,
            task.initial_state,
            task.user_facts,
            task.final_state_hash,
            values,
            bound=plain,
            calls=other,
        )
        is None
    )


class _FlakyEnv:
    """The bookstore, but every episode hashes differently: replays never agree."""

    def __init__(self, env: Any) -> None:
        self._env = env
        self.spec = env.spec
        self.initial_state = env.initial_state
        self.n = 0

    def episode(self, state: Any = None) -> Any:
        inner = self._env.episode(state=state)
        self.n += 1
        salt = self.n

        class _Ep:
            def __getattr__(self, name: str) -> Any:
                return getattr(inner, name)

            def state_hash(self) -> str:
                return f"{inner.state_hash()}-{salt}"

        return _Ep()


def test_nondeterministic_environment_is_rejected(bookstore_env: Any) -> None:
    tasks, stats = generate_tasks(_FlakyEnv(bookstore_env), 2, "easy", seed=0, max_attempts=30)
    assert not tasks
    assert stats.rejected.get("nondeterministic", 0) > 0


class _ForgetfulWriter:
    name = "forgetful"

    def write(self, request: ScenarioRequest) -> UserScenario:
        return UserScenario(intent="do things", question="Please help me.")


def test_scenario_gate_and_writer_hook(bookstore_env: Any) -> None:
    tasks, stats = generate_tasks(
        bookstore_env,
        1,
        "easy",
        seed=4,
        max_attempts=20,
        hooks=TaskHooks(writer=_ForgetfulWriter()),
    )
    assert stats.rejected.get("scenario", 0) > 0
    # a scenario stating nothing passes only for a task that needs no user facts
    assert all(not t.user_facts for t in tasks)


def test_do_nothing_gate_on_a_silent_read_only_task(bookstore_env: Any) -> None:
    # a blueprint that only reads and asks nothing back: a do-nothing agent would pass
    bp = Blueprint(
        nodes=[CallNode(id="c0", tool="get_book", args={"book_id": FactRef(name="b")})],
        facts=[FactSpec(name="b", role="entity", collection="books", attribute="book_id")],
    )
    run = execute(bp, bookstore_env.spec, bookstore_env.episode(), {"b": "B-201"})
    assert do_nothing_passes(bookstore_env.episode().state_hash(), run.final_hash, [])
    assert measure(bp) == DifficultyMetrics(
        tool_calls=1, distinct_tools=1, depth=1, width=1, merged_walks=1
    )


def test_taskset_roundtrip_append_only_and_resumable(generated: Any, tmp_path: Path) -> None:
    tasks = generated[0]
    path = tmp_path / "out" / "tasks.jsonl"
    taskset = TaskSet(path)
    assert taskset.load() == []
    assert taskset.append(tasks[:3]) == 3
    assert taskset.append(tasks[:5]) == 2  # ids already there are skipped
    assert [t.id for t in taskset.load()] == [t.id for t in tasks[:5]]
    assert taskset.load()[0] == tasks[0]
    # an interrupted write leaves a partial last line: ignored, then dropped on append
    with path.open("a") as fh:
        fh.write('{"schema_version": 1, "id": "half')
    assert len(taskset.load()) == 5
    assert taskset.append(tasks[5:]) == 3
    assert [t.id for t in taskset.load()] == [t.id for t in tasks]
    # resuming: existing tasks count as seen, so the same seed yields only new tasks
    path.write_text(path.read_text() + "not json\n")
    with pytest.raises(TaskSetError, match=":9:"):
        taskset.load()


def test_the_same_seed_gives_the_same_tasks(bookstore_env: Any, generated: Any) -> None:
    """Batched replays, memoised record digests and S0s handed to the runtime uncopied are
    speed-ups only: a run with the session's seed gives exactly the session's tasks."""
    again, stats = generate_tasks(bookstore_env, 8, "medium", seed=0)
    assert [t.model_dump_json() for t in again] == [t.model_dump_json() for t in generated[0]]
    assert stats.rejected == generated[1].rejected and stats.attempts == generated[1].attempts


def test_resume_skips_existing_tasks(bookstore_env: Any, generated: Any) -> None:
    tasks = generated[0]
    more, stats = generate_tasks(bookstore_env, 3, "medium", seed=0, existing=tasks[:4])
    assert {t.id for t in more}.isdisjoint({t.id for t in tasks[:4]})
    assert stats.rejected.get("duplicate", 0) >= 1


def test_task_json_schema_is_versioned() -> None:
    schema = Task.model_json_schema()
    assert "schema_version" in schema["properties"]
    assert {
        "initial_state",
        "final_state_hash",
        "gold_calls",
        "required_outputs",
        "scenario",
        "user_facts",
        "difficulty",
        "blueprint",
    } <= set(schema["properties"])


def test_docs_without_returns_still_give_tasks(bookstore_env: Any) -> None:
    from autoforge.env import Environment
    from autoforge.lexicon import assumed_returns

    spec = bookstore_env.spec.model_copy(deep=True)
    for tool in spec.tools:
        tool.returns = None
    assumed = assumed_returns(spec.tool("get_order"), spec.state_schema)
    assert assumed is not None and "status" in assumed["properties"]
    assert assumed_returns(spec.tool("search_books"), spec.state_schema) is None
    env = Environment.from_parts(spec, bookstore_env.tools_source, bookstore_env.initial_state)
    tasks, _ = generate_tasks(env, 3, "easy", seed=0)
    assert len(tasks) == 3
    assert all(not missing_facts(t.scenario, t.user_facts) for t in tasks)


def test_repeated_write_gate() -> None:
    from autoforge.tasks.model import GoldCall
    from autoforge.tasks.pipeline import _repeated_writes

    order = GoldCall(node="c1", name="place_order", arguments={"customer_id": "C-1", "items": []})
    look = GoldCall(node="c0", name="get_book", arguments={"book_id": "B-1"})
    again = order.model_copy(update={"node": "c2"})
    assert _repeated_writes([order, look, again], {"place_order"}) == {"c2": "c1"}
    assert _repeated_writes([look, look, order], {"place_order"}) == {}


def test_a_read_repeated_with_the_same_answer_is_asked_once(generated: Any) -> None:
    """Merged walks each found the user by the same email: the gold asks once. A read whose
    answer a write changed, or one whose value is asked about, stays."""
    import json

    from autoforge.tasks.gold.instantiate import GoldRun
    from autoforge.tasks.model import GoldCall
    from autoforge.tasks.pipeline import _repeated_reads

    find = GoldCall(node="f0", name="find_customer_by_email", arguments={"email": "a@x.org"})
    order = GoldCall(node="c1", name="place_order", arguments={"customer_id": "C-1"})
    again = find.model_copy(update={"node": "f1"})
    calls = [find, order, again]
    run = GoldRun(facts={}, values={"f0": "C-1", "f1": "C-1"}, calls=calls, final_hash="")
    writes = {"place_order"}
    assert _repeated_reads(run, writes, set()) == {"f1": "f0"}
    assert _repeated_reads(run, writes, {"f1"}) == {}
    changed = GoldRun(facts={}, values={"f0": "C-1", "f1": "C-2"}, calls=calls, final_hash="")
    assert _repeated_reads(changed, writes, set()) == {}
    tasks, _ = generated
    for task in tasks:  # before anything is written, no generated gold reads a thing twice
        first = next((i for i, c in enumerate(task.gold_calls) if c.writes), None)
        before = [(c.name, json.dumps(c.arguments, sort_keys=True))
                  for c in task.gold_calls[:first]]  # fmt: skip
        assert len(set(before)) == len(before), task.gold_calls
