"""Fidelity scoring against a hand-made benchmark directory and oracle replay."""

from __future__ import annotations

import copy
import hashlib
import json
from pathlib import Path

import pytest

from autoforge.adapters.tau import bench_fidelity as run_fidelity
from autoforge.env.artifact.spec import Attribute, CollectionSchema, EnvironmentSpec, StateSchema
from autoforge.errors import UserError
from autoforge.synth.fidelity.agreement import results_equal
from autoforge.synth.fidelity.bench import MISSING_EFFECTS, apply_diff, normalize
from autoforge.tooldocs.spec import ToolSpec

DB = {
    "orders": {
        "o1": {"order_id": "o1", "status": "pending", "total": 10.0},
        "o2": {"order_id": "o2", "status": "delivered", "total": 5.0},
    }
}


def _tool(name: str, **params: str) -> ToolSpec:
    return ToolSpec(
        name=name,
        parameters={
            "type": "object",
            "properties": {p: {"type": t} for p, t in params.items()},
            "required": list(params),
        },
    )


TOOLS = [_tool("get_order", order_id="string"), _tool("cancel_order", order_id="string")]
GOOD = """
def get_order(state, order_id):
    order = state["orders"].get(order_id)
    if order is None:
        raise ToolError("no such order")
    return order


def cancel_order(state, order_id):
    order = state["orders"].get(order_id)
    if order is None or order["status"] != "pending":
        raise ToolError("cannot cancel")
    order["status"] = "cancelled"
    order["cancel_reason"] = None
    return order
"""
WRONG_STATUS = GOOD.replace('"cancelled"', '"canceled"')
NO_GUARD = GOOD.replace(' or order["status"] != "pending"', "")


def _bench(root: Path) -> Path:
    bench = root / "bench"
    bench.mkdir()
    (bench / "db.json").write_text(json.dumps(DB))
    tasks = [
        {"id": "t1", "evaluation_criteria": {"actions": [
            {"name": "get_order", "arguments": {"order_id": "o1"}},
            {"name": "cancel_order", "arguments": {"order_id": "o1"}}]}},
        {"id": "t2", "evaluation_criteria": {"actions": [
            {"name": "cancel_order", "arguments": {"order_id": "o2"}}]}},
        {"id": "t3", "actions": [{"name": "get_order", "arguments": {"order_id": "nope"}}]},
    ]  # fmt: skip
    replay = {"tasks": [
        {"id": "t1", "action_results": [
            {"error": False, "observation": json.dumps(DB["orders"]["o1"])},
            {"error": False, "observation": {**DB["orders"]["o1"], "status": "cancelled"}}],
         "db_diff": [{"op": "replace", "path": ["orders", "o1", "status"], "old": "pending",
                      "new": "cancelled"},
                     {"op": "replace", "path": ["orders", "o1", "cancel_reason"], "old": None,
                      "new": None}]},
        {"id": "t2", "action_results": [{"error": True}], "db_diff": []},
        {"id": "t3", "action_results": [{"error": True}], "db_diff": []},
    ]}  # fmt: skip
    (bench / "tasks.json").write_text(json.dumps(tasks))
    (bench / "gt_replay.json").write_text(json.dumps(replay))
    meta = [{"name": "get_order", "mutates_state": False},
            {"name": "cancel_order", "mutates_state": True}]  # fmt: skip
    (bench / "tools_meta.json").write_text(json.dumps(meta))
    tools = [t.openai_tool() for t in TOOLS] + [_tool("refund", order_id="string").openai_tool()]
    (bench / "tools.json").write_text(json.dumps(tools))
    return bench


def _env(root: Path, name: str, source: str, tools: list[ToolSpec] = TOOLS) -> Path:
    env = root / name
    env.mkdir()
    schema = StateSchema(
        collections=[
            CollectionSchema(
                name="orders",
                primary_key="order_id",
                attributes=[Attribute(name="order_id", type="id")],
            )
        ]
    )
    spec = EnvironmentSpec(name=name, tools=tools, state_schema=schema)
    (env / "environment.json").write_text(spec.model_dump_json())
    (env / "tools.py").write_text(source)
    return env


def test_faithful_env_agrees_everywhere(tmp_path: Path) -> None:
    report = run_fidelity(_env(tmp_path, "good", GOOD), _bench(tmp_path))
    assert report.tasks == 3 and report.actions == 4
    assert report.action_agreement == 1.0 and report.task_agreement == 1.0
    assert report.per_tool["cancel_order"].writes == 2  # a write tool, per tools_meta
    assert report.missing_tools == ["refund"] and report.never_exercised == []
    headline = report.headline()
    assert headline["per_tool"]["get_order"] == {
        "calls": 2,
        "agreement": 1.0,
        "result_agree": "1/1",
        "missing": False,
    }
    assert headline["split"] == "all" and headline["result_agreement"] == 1.0
    assert headline["nontrivial_agree"] == 1 and headline["state_changing_tasks"] == 1


def test_the_null_environment_is_scored_by_the_same_code(tmp_path: Path) -> None:
    """Doing nothing agrees with a task that has no action and no diff, and with nothing else
    here: the refusals, the answered read and the write all tell it apart."""
    bench = _bench(tmp_path)
    tasks = [*json.loads((bench / "tasks.json").read_text()), {"id": "t4", "actions": []}]
    (bench / "tasks.json").write_text(json.dumps(tasks))
    replay = json.loads((bench / "gt_replay.json").read_text())
    replay["tasks"].append({"id": "t4", "action_results": [], "db_diff": []})
    (bench / "gt_replay.json").write_text(json.dumps(replay))
    report = run_fidelity(_env(tmp_path, "good", GOOD), bench)
    assert report.figures.task_agreement == 1.0 and report.null.task_agreement == 1 / 4
    assert report.null.nontrivial_agree == 0 and report.figures.nontrivial_agree == 1
    assert report.null.refusals_matched == 0 and report.figures.refusals_matched == 2
    assert report.null.result_agreement == 0.0
    assert report.headline()["task_agreement_minus_null"] == 0.75


def test_a_wrong_result_fails_the_action_and_the_task(tmp_path: Path) -> None:
    """The state is right, but the read returns something else than the oracle's answer."""
    terse = GOOD.replace(
        "    return order\n\n\ndef cancel", "    return order['status']\n\n\ndef cancel"
    )
    report = run_fidelity(_env(tmp_path, "terse", terse), _bench(tmp_path))
    first = report.task_results[0]
    assert first.state_agree and not first.agree
    assert report.causes() == {"get_order: wrong result": 1}
    assert report.figures.result_agreement == 0.5  # get_order wrong, cancel_order right


def test_tasks_come_from_the_test_split(tmp_path: Path) -> None:
    bench = _bench(tmp_path)
    (bench / "splits.json").write_text(json.dumps({"train": ["t1"], "test": ["t2", "t3"]}))
    env = _env(tmp_path, "good", GOOD)
    report = run_fidelity(env, bench)
    assert report.split == "test" and report.tasks == 2
    assert run_fidelity(env, bench, split="train").tasks == 1
    assert run_fidelity(env, bench, split="all").tasks == 3
    with pytest.raises(UserError, match="has splits test, train"):
        run_fidelity(env, bench, split="dev")


def test_wrong_effect_and_missing_guard_are_caught(tmp_path: Path) -> None:
    bench = _bench(tmp_path)
    wrong = run_fidelity(_env(tmp_path, "wrong", WRONG_STATUS), bench)
    assert wrong.task_agreement == 2 / 3
    assert not wrong.task_results[0].agree
    assert "wrote values unlike the oracle's" in wrong.task_results[0].disagreements[0]
    assert wrong.action_agreement == 3 / 4
    assert wrong.causes() == {"cancel_order: wrong values": 1}
    loose = run_fidelity(_env(tmp_path, "loose", NO_GUARD), bench)
    t2 = loose.task_results[1]
    assert not t2.agree and "error flag" in t2.disagreements[0]
    assert loose.per_tool["cancel_order"].error_flag_agree == 1
    assert loose.causes() == {"cancel_order: success where it errored": 1}
    assert loose.headline()["failed_action_kinds"] == {"cancel_order: success where it errored": 1}


def test_a_missing_effect_is_blamed_on_the_task_not_an_action(tmp_path: Path) -> None:
    """Every action agrees, but the oracle also wrote something we did not: missing effect."""
    bench = _bench(tmp_path)
    replay = json.loads((bench / "gt_replay.json").read_text())
    replay["tasks"][0]["db_diff"].append(
        {"op": "replace", "path": ["orders", "o1", "total"], "old": 10.0, "new": 0.0}
    )
    (bench / "gt_replay.json").write_text(json.dumps(replay))
    report = run_fidelity(_env(tmp_path, "good", GOOD), bench)
    assert report.action_agreement == 1.0 and report.task_agreement == 2 / 3
    assert report.causes() == {f"{MISSING_EFFECTS}: cancel_order": 1}


def test_missing_tool_counts_as_disagreement(tmp_path: Path) -> None:
    only_get = GOOD.split("\n\n\ndef cancel_order")[0] + "\n"
    env = _env(tmp_path, "partial", only_get, tools=TOOLS[:1])
    report = run_fidelity(env, _bench(tmp_path))
    assert report.per_tool["cancel_order"].missing
    assert report.per_tool["cancel_order"].agree == 1  # the oracle errored there too (t2)
    assert report.task_results[0].agree is False


def _tau_hash(value: object) -> str:
    def hashable(v: object) -> object:
        if isinstance(v, dict):
            return tuple(sorted((k, hashable(x)) for k, x in v.items()))
        if isinstance(v, list):
            return tuple(hashable(x) for x in v)
        return v

    return hashlib.sha256(str(hashable(value)).encode()).hexdigest()


def test_apply_diff_reproduces_tau_bench_oracle_hashes(benchmarks_dir: Path) -> None:
    domain = benchmarks_dir / "tau-bench" / "airline"
    db = json.loads((domain / "db.json").read_text())
    replay = json.loads((domain / "gt_replay.json").read_text())
    assert _tau_hash(db) == replay["initial_data_hash"]
    for task in replay["tasks"][:3]:
        state = copy.deepcopy(db)
        apply_diff(state, task["db_diff"])
        assert _tau_hash(state) == task["gt_data_hash"], task["id"]


def test_results_are_compared_after_the_documented_normalisation() -> None:
    assert results_equal('{"b": 1, "a": null}', {"b": 1.0})  # JSON text, null key, 1 == 1.0
    assert results_equal(" yusuf_1 ", "yusuf_1")
    assert not results_equal([1, 2], [2, 1])  # lists keep their order...
    assert results_equal({"ids": [1, 2]}, {"ids": [2, 1]}, frozenset({"ids"}))  # ...unless a set
    assert not results_equal(True, 1)


def test_normalize_drops_nulls_and_float_noise() -> None:
    assert normalize({"a": None, "b": [1.0000000001, {"c": None}]}) == {"b": [1.0, {}]}
