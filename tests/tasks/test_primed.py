"""A run again after S0 was repaired sends the calls before the repaired step in one batch.

A made-up workshop: ``list_jobs(team)`` lists a team's jobs, ``get_job`` reads one,
``start_job`` starts one, which the rules allow only for a queued job. The task starts the
team's costliest job: in an S0 where every job is done, the first run is refused at the start
(on the host), S0 gets that job queued, and the second run sends the listing and the lookup
ahead in one round trip.
"""

from __future__ import annotations

from typing import Any

import pytest

from autoforge.env import Environment
from autoforge.env.artifact.spec import Attribute, CollectionSchema, EnvironmentSpec, StateSchema
from autoforge.tasks.blueprints.blueprint import (
    Blueprint,
    CallNode,
    FactRef,
    FactSpec,
    OutputRef,
    ReasoningRef,
    ReasonNode,
)
from autoforge.tasks.blueprints.reasoning import ReasoningSpec
from autoforge.tasks.gold.instantiate import execute, instantiate
from autoforge.tasks.gold.plausible import Guard
from autoforge.tasks.gold.primed import Primed, _Diverged, ahead, prime, run_primed
from autoforge.tasks.model import GoldCall
from autoforge.tooldocs.spec import ToolSpec

_WORKSHOP_TOOLS = '''
def list_jobs(state, team):
    """The jobs of one team."""
    return [j for j in state["jobs"].values() if j["team"] == team]


def get_job(state, job_id):
    """One job."""
    job = state["jobs"].get(job_id)
    if job is None:
        raise ToolError(f"job {job_id} not found")
    return job


def start_job(state, job_id):
    """Start a queued job."""
    job = state["jobs"].get(job_id)
    if job is None:
        raise ToolError(f"job {job_id} not found")
    if job["status"] != "queued":
        raise ToolError(f"job {job_id} is {job['status']}")
    job["status"] = "running"
    return job
'''

_STATUSES = ["queued", "running", "done"]
_JOB = {"type": "object", "properties": {
    "job_id": {"type": "string"}, "team": {"type": "string"}, "cost": {"type": "number"},
    "status": {"type": "string", "enum": _STATUSES}}}  # fmt: skip
_QUEUED = Guard(tool="start_job", param="job_id", collection="jobs", attribute="status",
                allowed=("queued",), rule="only a queued job may be started")  # fmt: skip


def _workshop() -> Environment:
    jobs = CollectionSchema(name="jobs", primary_key="job_id", attributes=[
        Attribute(name="job_id", type="id"), Attribute(name="team", type="string"),
        Attribute(name="cost", type="number"),
        Attribute(name="status", type="enum", enum=_STATUSES)])  # fmt: skip
    string = {"type": "string"}

    def params(**props: Any) -> dict[str, Any]:
        return {"type": "object", "properties": props, "required": list(props)}

    tools = [
        ToolSpec(name="list_jobs", access="read", returns={"type": "array", "items": _JOB},
                 parameters=params(team=string)),
        ToolSpec(name="get_job", access="read", returns=_JOB, parameters=params(job_id=string)),
        ToolSpec(name="start_job", access="write", returns=_JOB,
                 parameters=params(job_id=string)),
    ]  # fmt: skip
    state = {"jobs": {f"J{i}": {"job_id": f"J{i}", "team": "ab"[i % 2], "cost": 10.0 + i,
                                "status": "done"} for i in range(8)}}  # fmt: skip
    spec = EnvironmentSpec(name="workshop", tools=tools,
                           state_schema=StateSchema(collections=[jobs]))  # fmt: skip
    return Environment.from_parts(spec, _WORKSHOP_TOOLS, state)


def _start_costliest() -> Blueprint:
    return Blueprint(
        nodes=[
            CallNode(id="c0", tool="list_jobs", args={"team": FactRef(name="team")}),
            ReasonNode(id="r0", spec=ReasoningSpec(op="argmax", field=["cost"]),
                       inputs={"items": OutputRef(node="c0")}),
            CallNode(id="c1", tool="get_job",
                     args={"job_id": ReasoningRef(node="r0", path=["job_id"])}),
            CallNode(id="c2", tool="start_job",
                     args={"job_id": OutputRef(node="c1", path=["job_id"])}),
        ],
        facts=[FactSpec(name="team", role="value", json_schema={"type": "string",
                                                                 "enum": ["a", "b"]})],
    )  # fmt: skip


class _Counted:
    """Counts the round trips of the episodes a bound environment hands out."""

    def __init__(self, bound: Any, log: list[tuple[str, int]]) -> None:
        self._bound, self._log = bound, log

    def episode(self) -> Any:
        return _CountedEpisode(self._bound.episode(), self._log)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._bound, name)


class _CountedEpisode:
    def __init__(self, episode: Any, log: list[tuple[str, int]]) -> None:
        self._episode, self._log = episode, log

    def call(self, tool: str, arguments: Any) -> Any:
        self._log.append((tool, 1))
        return self._episode.call(tool, arguments)

    def call_many(self, calls: list[tuple[str, Any]]) -> Any:
        self._log.append(("batch", len(calls)))
        return self._episode.call_many(calls)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._episode, name)


def test_the_run_after_a_repair_sends_the_calls_before_the_refused_step_in_one_batch(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    env = _workshop()
    log: list[tuple[str, int]] = []
    import autoforge.tasks.gold.instantiate as inst_module

    real_bind = inst_module.bind_state
    monkeypatch.setattr(inst_module, "bind_state",
                        lambda *a, **k: _Counted(real_bind(*a, **k), log))  # fmt: skip
    inst = instantiate(_start_costliest(), env, 0, guards={"start_job": [_QUEUED]})
    assert inst.attempts == 2  # refused on the host, S0 repaired, run again
    assert [c.name for c in inst.run.calls] == ["list_jobs", "get_job", "start_job"]
    # the second run (on the repaired S0): one batch for the listing and the lookup
    assert log == [("batch", 2), ("start_job", 1)]
    started = inst.run.calls[-1].arguments["job_id"]
    assert inst.initial_state["jobs"][started]["status"] == "queued"
    # the same run as one sent call by call
    again = execute(_start_costliest(), env.spec, env.episode(state=inst.initial_state),
                    inst.run.facts)  # fmt: skip
    assert [c.model_dump() for c in again.calls] == [c.model_dump() for c in inst.run.calls]
    assert (again.values, again.final_hash) == (inst.run.values, inst.run.final_hash)


def test_a_batch_serves_only_the_calls_it_ran_in_their_order() -> None:
    env = _workshop()
    calls = [GoldCall(node="c0", name="list_jobs", arguments={"team": "a"}),
             GoldCall(node="c1", name="get_job", arguments={"job_id": "J6"}),
             GoldCall(node="c2", name="start_job", arguments={"job_id": "J6"}),
             GoldCall(node="c3", name="get_job", arguments={"job_id": "J6"})]  # fmt: skip
    sent = ahead(calls, {"start_job"})
    assert [tool for tool, _ in sent] == ["list_jobs", "get_job"]  # stops at the guarded call
    assert ahead(calls[1:], {"start_job"}) == []  # one call: one round trip either way
    primed = prime(env.episode(), sent)
    assert primed is not None and not primed.done
    assert primed.call("list_jobs", {"team": "a"}).ok
    with pytest.raises(_Diverged):  # another job than the batch looked up
        primed.call("get_job", {"job_id": "J4"})
    primed = prime(env.episode(), sent)
    assert primed is not None
    primed.call("list_jobs", {"team": "a"})
    assert primed.call("get_job", {"job_id": "J6"}).result["status"] == "done"
    assert primed.done
    assert not primed.call("start_job", {"job_id": "J6"}).ok  # sent: J6 is done
    assert prime(env.episode(), []) is None


def test_a_run_that_asks_for_other_calls_starts_over_without_the_batch() -> None:
    env = _workshop()
    sent: list[tuple[str, Any]] = [("list_jobs", {"team": "a"}), ("get_job", {"job_id": "J6"})]
    seen: list[bool] = []

    def run(episode: Any) -> str:
        seen.append(isinstance(episode, Primed))
        job: str = episode.call("get_job", {"job_id": "J4"}).result["job_id"]
        return job

    assert run_primed(run, env.episode, sent) == "J4"
    assert seen == [True, False]  # the batch's run went otherwise: once more, call by call
    seen.clear()
    assert run_primed(run, env.episode, []) == "J4" and seen == [False]
