"""Replay of benchmarks shaped unlike tau2 retail: list-indexed diffs, agent-side replay with
setup calls (tau2 telecom's shape), per-task initial/final states (ACEBench's shape)."""

from __future__ import annotations

import json
from pathlib import Path

from tests.synth.test_fidelity import _env, _tool

from autoforge.adapters.tau import bench_fidelity as run_fidelity
from autoforge.adapters.tau.replay_formats import per_task_states, rekey_diff
from autoforge.synth.fidelity.bench import SETUP_DIFFERS, setup_matches
from autoforge.synth.state.infer import data_to_state

LINES_DB = {
    "orders": [
        {"order_id": "o1", "status": "pending", "total": 10.0},
        {"order_id": "o2", "status": "delivered", "total": 5.0},
    ]
}
TOOLS = [_tool("cancel_order", order_id="string"), _tool("hold_order", order_id="string")]
CODE = """
def cancel_order(state, order_id):
    order = state["orders"][order_id]
    if order["status"] != "pending":
        raise ToolError("cannot cancel")
    order["status"] = "cancelled"
    return order


def hold_order(state, order_id):
    state["orders"][order_id]["status"] = "pending"
    return "held"
"""


def test_list_indices_become_record_keys_and_appended_records_take_their_id() -> None:
    state, _ = data_to_state(LINES_DB)
    diff = [
        {"op": "replace", "path": ["orders", 1, "status"], "old": "delivered", "new": "x"},
        {"op": "add", "path": ["orders", 2], "new": {"order_id": "o9", "status": "new"}},
    ]
    out = rekey_diff(LINES_DB, state, diff)
    assert out[0]["path"] == ["orders", "o2", "status"]
    assert out[1]["path"] == ["orders", "o9"]


def test_per_task_states_overlay_sections_and_diff_in_the_state_shape() -> None:
    db = {"inbox": {"1": {"text": "a"}}, "notes": {"1": {"text": "n"}}}
    start, diff = per_task_states(
        db, {"inbox": {"1": {"text": "b"}}}, [{"inbox": {"1": {"text": "b"}, "2": {"text": "c"}}}]
    )
    assert start["inbox"]["1"]["text"] == "b" and start["notes"]["1"]["text"] == "n"
    assert [op["path"] for op in diff] == [["inbox", "2"]]


def test_setup_is_checked_against_the_oracles_recorded_old_values() -> None:
    diff = [{"op": "replace", "path": ["orders", "o2", "status"], "old": "pending", "new": "x"}]
    assert setup_matches({"orders": {"o2": {"status": "pending"}}}, diff)
    assert not setup_matches({"orders": {"o2": {"status": "delivered"}}}, diff)


def _telecom_like(root: Path) -> Path:
    bench = root / "bench"
    bench.mkdir()
    (bench / "db.json").write_text(json.dumps(LINES_DB))
    setup = {
        "initialization_actions": [
            {"env_type": "user", "func_name": "set_user_info", "arguments": {}},
            {"env_type": "assistant", "func_name": "hold_order", "arguments": {"order_id": "o2"}},
        ]
    }
    tasks = [
        {
            "id": "t1",
            "initial_state": setup,
            "evaluation_criteria": {
                "actions": [
                    {"requestor": "user", "name": "toggle", "arguments": {}},
                    {
                        "requestor": "assistant",
                        "name": "cancel_order",
                        "arguments": {"order_id": "o2"},
                    },
                ]
            },
        },
        {
            "id": "t2",
            "initial_state": {
                "initialization_actions": [
                    {"env_type": "assistant", "func_name": "not_a_tool", "arguments": {}}
                ]
            },
            "evaluation_criteria": {"actions": []},
        },
    ]
    replay = {"tasks": [
        {"id": "t1", "action_results": [{"error": False, "observation": "on"},
                                        {"error": False}],
         "db_diff": [{"op": "replace", "path": ["orders", 1, "status"], "old": "pending",
                      "new": "cancelled"}]},
        {"id": "t2", "action_results": [], "db_diff": []},
    ]}  # fmt: skip
    (bench / "tasks.json").write_text(json.dumps(tasks))
    (bench / "gt_replay.json").write_text(json.dumps(replay))
    (bench / "tools.json").write_text(json.dumps([t.openai_tool() for t in TOOLS]))
    return bench


def test_agent_side_replay_runs_setup_calls_and_drops_user_actions(tmp_path: Path) -> None:
    bench = _telecom_like(tmp_path)
    env = _env(tmp_path, "good", CODE, TOOLS)
    assert run_fidelity(env, bench).tasks == 0  # without agent_side: user side, own state
    report = run_fidelity(env, bench, agent_side=True)
    assert (report.tasks, report.skipped_tasks, report.dropped_user_actions) == (1, 1, 1)
    assert report.figures.task_agreement == 1.0 and report.figures.nontrivial_agree == 1
    assert report.null.task_agreement == 0.0
    broken = _env(tmp_path, "nosetup", CODE.replace('= "pending"', '= "held"'), TOOLS)
    bad = run_fidelity(broken, bench, agent_side=True)
    assert bad.figures.task_agreement == 0.0
    assert bad.task_results[0].cause == SETUP_DIFFERS


def test_per_task_state_benchmark_is_replayed_from_each_tasks_own_state(tmp_path: Path) -> None:
    bench = tmp_path / "bench"
    bench.mkdir()
    (bench / "db.json").write_text(json.dumps({"orders": {"o1": {"status": "delivered"}}}))
    own = {"orders": {"o1": {"order_id": "o1", "status": "pending"}}}
    final = [{"orders": {"o1": {"order_id": "o1", "status": "cancelled"}}}]
    tasks = [{"id": "a1", "actions": [{"name": "cancel_order", "arguments": {"order_id": "o1"}}],
              "ground_truth_final_state": final}]  # fmt: skip
    replay = {"tasks": [{"id": "a1", "initial_state": own, "alternatives": [
        {"action_results": [{"name": "cancel_order", "observation": own["orders"]["o1"]
                             | {"status": "cancelled"}}]}]}]}  # fmt: skip
    (bench / "tasks.json").write_text(json.dumps(tasks))
    (bench / "gt_replay.json").write_text(json.dumps(replay))
    report = run_fidelity(_env(tmp_path, "good", CODE, TOOLS), bench)
    assert report.tasks == 1 and report.figures.task_agreement == 1.0
    assert report.figures.result_agreement == 1.0 and report.null.task_agreement == 0.0


def test_a_write_that_changes_nothing_agrees_where_the_oracle_changed_nothing(
    tmp_path: Path,
) -> None:
    """Setting a field to the value it already has changes nothing on both sides: that is
    agreement, even when another action of the task changes the state."""
    bench = tmp_path / "bench"
    bench.mkdir()
    db = {"orders": {k: {"order_id": k, "status": "pending"} for k in ("o1", "o2")}}
    (bench / "db.json").write_text(json.dumps(db))
    acts = [{"name": "hold_order", "arguments": {"order_id": "o1"}},
            {"name": "cancel_order", "arguments": {"order_id": "o2"}}]  # fmt: skip
    cancel = {"op": "replace", "path": ["orders", "o2", "status"], "old": "pending",
              "new": "cancelled"}  # fmt: skip
    held = {"op": "replace", "path": ["orders", "o1", "status"], "old": "pending", "new": "held"}
    tasks = [{"id": "same", "actions": acts}, {"id": "moved", "actions": acts}]
    replay = {"tasks": [
        {"id": "same", "action_results": [{"error": False}] * 2, "db_diff": [cancel]},
        {"id": "moved", "action_results": [{"error": False}] * 2, "db_diff": [held, cancel]},
    ]}  # fmt: skip
    (bench / "tasks.json").write_text(json.dumps(tasks))
    (bench / "gt_replay.json").write_text(json.dumps(replay))
    meta = [{"name": "hold_order", "mutates_state": True},
            {"name": "cancel_order", "mutates_state": True}]  # fmt: skip
    (bench / "tools_meta.json").write_text(json.dumps(meta))
    report = run_fidelity(_env(tmp_path, "good", CODE, TOOLS), bench)
    agree = {r.id: r.agree for r in report.task_results}
    assert agree == {"same": True, "moved": False}
    moved = next(r for r in report.task_results if r.id == "moved")
    assert "write changed nothing" in moved.disagreements[0]
