"""Units of the evaluation: role specs, state diffs against S*, the viewer's escaping, the
tau-bench binding."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from autoforge.bench.diffs import episode_diff
from autoforge.bench.evaluation import RunInfo, summarize
from autoforge.bench.html import render_eval_html
from autoforge.bench.roles import apply_role_specs, parse_role_spec, split_url_model
from autoforge.env import Environment
from autoforge.errors import UserError
from autoforge.examples import example_path
from autoforge.llm.config import build_config, resolve_endpoint
from autoforge.rollout.trajectory import EndReason, ToolCallRecord, Trajectory
from autoforge.tasks.model import GoldCall, Task

# --------------------------------------------------------------------------- role specs


def test_split_url_model() -> None:
    assert split_url_model("http://h:8000/v1/Qwen/Qwen3-8B") == (
        "http://h:8000/v1",
        "Qwen/Qwen3-8B",
    )
    assert split_url_model("https://api.x.com/v1") == ("https://api.x.com/v1", None)
    assert split_url_model("http://h:8000/llama") == ("http://h:8000", "llama")
    assert split_url_model("http://h:8000/") == ("http://h:8000", None)


def test_role_specs_set_each_role_independently() -> None:
    base = build_config(environ={"AUTOFORGE_BASE_URL": "http://remote/v1", "AUTOFORGE_MODEL": "m"})
    specs = [
        parse_role_spec("agent", "http://h:1/v1/big/model"),
        parse_role_spec("user", "small"),
        parse_role_spec("judge", None),
    ]
    config = apply_role_specs(base, specs)
    agent, user, judge = (resolve_endpoint(config, r) for r in ("agent", "user", "judge"))
    assert (agent.base_url, agent.model) == ("http://h:1/v1", "big/model")
    assert user.embedded == "small" and user.base_url is None  # despite AUTOFORGE_BASE_URL
    assert (judge.base_url, judge.model) == ("http://remote/v1", "m")
    assert parse_role_spec("agent", "oracle").kind == "scripted"
    assert parse_role_spec("user", "embedded").model == "default"
    with pytest.raises(UserError, match="--user 'oracle'"):
        parse_role_spec("user", "oracle")  # oracle is an agent, not a user


# --------------------------------------------------------------------------- diffs and viewer


@pytest.fixture(scope="module")
def bookstore() -> Any:
    return Environment.load(example_path("bookstore"))


def cancel_task(env: Any) -> Task:
    gold = env.episode()
    assert gold.call("cancel_order", {"order_id": "ORD-9", "reason": "ordered_by_mistake"}).ok
    actions = [
        GoldCall(
            name="cancel_order", arguments={"order_id": "ORD-9", "reason": "ordered_by_mistake"}
        )
    ]
    return Task(
        id="cancel<9>",
        env_id="bookstore",
        scenario="s",
        final_state_hash=gold.state_hash(),
        gold_calls=actions,
    )


def played(env: Any, task: Task, calls: list[tuple[str, dict[str, Any]]]) -> Trajectory:
    ep = env.episode()
    records = []
    for i, (name, args) in enumerate(calls):
        obs = ep.call(name, args)
        records.append(
            ToolCallRecord(step=i, call_id=f"c{i}", name=name, arguments=args, ok=obs.ok)
        )
    return Trajectory(
        task_id=task.id,
        tool_calls=records,
        final_state_hash=ep.state_hash(),
        end_reason=EndReason.USER_STOP,
        messages=[{"role": "user", "content": "<script>alert(1)</script>"}],
    )


def test_episode_diff_against_gold(bookstore: Any) -> None:
    task = cancel_task(bookstore)
    wrong = played(
        bookstore,
        task,
        [
            ("cancel_order", {"order_id": "ORD-9", "reason": "other"}),
            ("cancel_order", {"order_id": "NOPE", "reason": "other"}),
        ],
    )
    d = episode_diff(bookstore, task, wrong)
    assert d.replayed and d.hash_matches and d.gold_known and d.gold_matches_task
    assert d.changes and all(op["path"][:2] != ["orders", "NOPE"] for op in d.changes)
    reason = [op for op in d.vs_gold if op["path"][-1] == "cancel_reason"]
    assert reason and reason[0]["old"] == "ordered_by_mistake" and reason[0]["new"] == "other"
    right = played(bookstore, task, [("cancel_order", task.gold_calls[0].arguments)])
    assert episode_diff(bookstore, task, right).vs_gold == []
    tampered = wrong.model_copy(update={"final_state_hash": "0" * 64})
    assert episode_diff(bookstore, task, tampered).hash_matches is False


def test_viewer_escapes_everything(bookstore: Any) -> None:
    task = cancel_task(bookstore)
    t = played(bookstore, task, [])
    t.reward, t.reward_reason = 0.0, "DB: final state <b>differs</b>"
    run = RunInfo(
        env="bookstore",
        env_dir="x",
        tasks_source="y",
        agent="a<i>",
        user="u",
        judge="j",
        trials=1,
        seed=0,
        executor="local",
        max_steps=5,
        keep_thinking=True,
        started_at=0.0,
    )
    out = summarize([t], run)
    html = render_eval_html(out, [t], lambda tr: episode_diff(bookstore, task, tr))
    assert "<script>" not in html and "&lt;script&gt;alert(1)&lt;/script&gt;" in html
    assert "<b>differs</b>" not in html and "a&lt;i&gt;" in html
    assert 'id="task-cancel_9_"' in html and "differences from S*" in html


# --------------------------------------------------------------------------- --bench binding


RETAIL_TOOLS_PY = {
    "get_order_details": "def get_order_details(state, order_id):\n"
    "    return state['orders'][order_id]\n",
    "cancel_pending_order": "def cancel_pending_order(state, order_id, reason):\n"
    "    state['orders'][order_id]['status'] = 'cancelled'\n    return 'ok'\n",
    "transfer_to_human_agents": "def transfer_to_human_agents(state, summary):\n"
    "    return 'Transfer successful'\n",
}


def _retail_env(retail: Path, env_dir: Path, names: tuple[str, ...]) -> Path:
    """An environment of the tau-bench retail tools ``names`` (hand-written, tiny)."""
    from autoforge.env import EnvironmentSpec
    from autoforge.tooldocs.spec import ToolSpec

    tools = json.loads((retail / "tools.json").read_text())
    keep = [t["function"] for t in tools if t["function"]["name"] in names]
    spec = EnvironmentSpec(
        name="retail-mini",
        tools=[ToolSpec(name=f["name"], description="d", parameters=f["parameters"]) for f in keep],
    )
    env_dir.mkdir()
    (env_dir / "environment.json").write_text(spec.model_dump_json())
    (env_dir / "tools.py").write_text("\n".join(RETAIL_TOOLS_PY[n] for n in names))
    return env_dir


def test_bench_binding_skips_what_it_cannot_cover(benchmarks_dir: Path, tmp_path: Path) -> None:
    from autoforge.adapters.tau import bench_target

    retail = benchmarks_dir / "tau-bench" / "retail"
    env_dir = _retail_env(retail, tmp_path / "env", ("get_order_details", "cancel_pending_order"))
    target = bench_target(env_dir, retail)
    assert target.tasks and target.skipped
    assert all(r.startswith("environment lacks tools") for r in target.skipped.values())
    task = next(
        t for t in target.tasks if any(a.name == "cancel_pending_order" for a in t.gold_calls)
    )
    ep = target.env.episode()
    for action in task.gold_calls:
        ep.call(action.name, action.arguments)
    assert task.final_state_hash == ep.state_hash() != target.env.episode().state_hash()


def _oracle_end_reasons(target: Any, tasks: list[Task], out: Path) -> list[str]:
    """End reasons of ``autoforge eval``'s settings for ``target`` (oracle agent, scripted
    user, no judge), one trial per task."""
    from autoforge.bench import run_evaluation
    from autoforge.cli.eval import _settings

    specs = [parse_role_spec("agent", "oracle"), parse_role_spec("user", "scripted")]
    specs.append(parse_role_spec("judge", "rule"))
    settings = _settings(target, specs, build_config(environ={}), True, False, None)
    run_evaluation(settings, target, tasks, out)
    lines = (out / "trajectories.jsonl").read_text().splitlines()
    return [json.loads(line)["end_reason"] for line in lines]


def test_tau_bench_target_ends_an_episode_on_transfer(benchmarks_dir: Path, tmp_path: Path) -> None:
    """``eval --bench``: tau's hand-off tool comes from the tau adapter and ends the episode;
    the same environment evaluated generically names no hand-off tool."""
    from autoforge.adapters.tau import bench_target
    from autoforge.bench import EvalTarget

    retail = benchmarks_dir / "tau-bench" / "retail"
    env_dir = _retail_env(retail, tmp_path / "env", ("transfer_to_human_agents",))
    target = bench_target(env_dir, retail)
    assert target.transfer_tools == ["transfer_to_human_agents"]
    task = next(
        t for t in target.tasks if [a.name for a in t.gold_calls] == ["transfer_to_human_agents"]
    )
    assert _oracle_end_reasons(target, [task], tmp_path / "tau") == [EndReason.TRANSFER]
    generic = EvalTarget(target.env, target.env_dir, [task], "generic")
    assert _oracle_end_reasons(generic, [task], tmp_path / "generic") == [EndReason.USER_STOP]


def test_an_environment_synthesized_with_tau_conventions_declares_tau_hand_off(
    tmp_path: Path,
) -> None:
    from autoforge.bench.targets import declared_transfer_tools

    assert declared_transfer_tools(tmp_path) == []  # no synthesis report
    report = tmp_path / "synthesis_report.json"
    report.write_text(json.dumps({"conventions": "generic"}))
    assert declared_transfer_tools(tmp_path) == []
    report.write_text(json.dumps({"conventions": "tau"}))
    assert declared_transfer_tools(tmp_path) == ["transfer_to_human_agents"]


# --------------------------------------------------------------------------- eval defaults


def test_default_concurrency_is_the_endpoint_capacity() -> None:
    from autoforge.bench.evaluation import EvalSettings, default_concurrency

    embedded = build_config(environ={}, overrides={"embedded": {"parallel": 2}})
    settings = EvalSettings(env_dir="x", llm=embedded)
    assert default_concurrency(settings) == 2  # the embedded server's slots, not 8
    remote = build_config(environ={"AUTOFORGE_BASE_URL": "http://r/v1", "AUTOFORGE_MODEL": "m"})
    assert default_concurrency(settings.model_copy(update={"llm": remote})) == 8
    players = settings.model_copy(update={"agent": "oracle", "user": "scripted", "judge": "rule"})
    assert default_concurrency(players) == 8  # no model: nothing to queue at


def test_embedded_judge_defaults_to_the_code_rules() -> None:
    from autoforge.cli.eval import _judge_kind

    embedded = build_config(environ={})
    remote = build_config(environ={"AUTOFORGE_BASE_URL": "http://r/v1", "AUTOFORGE_MODEL": "m"})
    unset = parse_role_spec("judge", None)
    assert _judge_kind(unset, embedded, no_judge=False) == "rule"
    assert _judge_kind(parse_role_spec("judge", "embedded"), embedded, no_judge=False) == "llm"
    assert _judge_kind(unset, remote, no_judge=False) == "llm"
    assert _judge_kind(unset, remote, no_judge=True) == "none"


def test_an_episode_says_how_it_ended_in_words_and_names_a_looping_agent() -> None:
    from autoforge.bench.html import episode_html

    loop = [{"role": "user", "content": "Cancel my order."},
            {"role": "assistant", "content": "Hi! How can I help you today?"},
            {"role": "user", "content": "Cancel order ORD-1, please."},
            {"role": "assistant", "content": "Hi!  How can I help you today?"}]  # fmt: skip
    page = str(episode_html(Trajectory(task_id="t", messages=loop,
                                       end_reason=EndReason.USER_STOP), None))  # fmt: skip
    assert "the user ended the chat after the agent repeated an earlier message" in page
    plain = Trajectory(task_id="t", messages=loop[:2], end_reason=EndReason.MAX_TURNS)
    assert "the turn limit was reached," in str(episode_html(plain, None))
