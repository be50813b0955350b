"""``autoforge eval`` end to end on the bookstore example with a scripted LLM client.

The fake agent replays each task's gold calls, except on one task where it gives up (reward 0)
and one where its endpoint fails (infrastructure errors); the fake judge blames the user on a
fourth task. So pass^k, the infra exclusion, the user-error count, resumption and the viewer are
all checked against numbers known in advance.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from autoforge.cli.main import app, main
from autoforge.env import Environment
from autoforge.examples import example_path
from autoforge.llm import LLMClient
from autoforge.llm.transport import RecordedRequest
from autoforge.llm.types import TransportError
from autoforge.rollout.players import _request_text, closing_text
from autoforge.tasks import TaskSet, generate_tasks, read_tasks
from autoforge.tasks.model import Task

runner = CliRunner()
# Remote endpoints (native tool calls); the scripted transport answers instead of HTTP.
AGENT = "http://fake.invalid/v1/fake-agent"
JUDGE = "http://fake.invalid/v1/fake-judge"


@pytest.fixture(scope="module")
def tasks_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    env = Environment.load(example_path("bookstore"))
    made, _ = generate_tasks(env, n=8, difficulty="easy", seed=3)
    tasks = [t for t in made if t.changes_state][:4]  # giving up must fail every one of them
    assert len(tasks) == 4
    path = tmp_path_factory.mktemp("tasks") / "tasks.jsonl"
    TaskSet(path).append(tasks)
    return path


class FakeModels:
    """Agent and judge answers decided from the request, whatever order episodes run in."""

    def __init__(self, tasks: list[Task]) -> None:
        self.by_request = {_request_text(t.scenario.as_text()): t for t in tasks}
        self.good, self.gives_up, self.broken, self.blamed = tasks
        self.agent_calls: list[str] = []

    def task_of(self, text: str) -> Task:
        return next(t for req, t in self.by_request.items() if req in text)

    def agent(self, request: RecordedRequest) -> Any:
        first_user = next(m["content"] for m in request.messages if m["role"] == "user")
        task = self.task_of(first_user)
        self.agent_calls.append(task.id)
        if task.id == self.broken.id:
            return TransportError("endpoint down", retryable=False)
        gold = [] if task.id == self.gives_up.id else task.gold_calls
        done = sum(m["role"] == "tool" for m in request.messages)
        if done < len(gold):
            action = gold[done]
            return {
                "role": "assistant",
                "content": None,
                "tool_calls": [
                    {
                        "id": f"c{done}",
                        "type": "function",
                        "function": {
                            "name": action.name,
                            "arguments": json.dumps(action.arguments),
                        },
                    }
                ],
            }
        return closing_text(list(task.required_outputs))

    def judge(self, request: RecordedRequest) -> Any:
        transcript = request.messages[-1]["content"]
        task = self.task_of(transcript)
        if task.id != self.blamed.id:
            return {"contradictions": []}
        said = re.search(r"CUSTOMER \[1\]: (.{12})", transcript)
        assert said is not None
        fact = next(iter(task.known_facts()))
        return {"contradictions": [{"turn": 1, "quote": said.group(1), "against": fact}]}

    def client(self, config: Any) -> LLMClient:
        """A scripted client with the evaluation's LLM config (so its tool modes)."""

        def answer(request: RecordedRequest) -> Any:
            return self.judge(request) if request.role == "judge" else self.agent(request)

        return LLMClient.scripted([answer] * 2000, config=config)


@pytest.fixture
def fake(tasks_file: Path, monkeypatch: pytest.MonkeyPatch) -> FakeModels:
    models = FakeModels(read_tasks(tasks_file))
    monkeypatch.setattr("autoforge.bench.evaluation.make_client", models.client)
    return models


def run_eval(tasks_file: Path, out: Path, *extra: str) -> dict[str, Any]:
    args = ["eval", "bookstore", "--tasks", str(tasks_file), "--out", str(out)]
    args += ["--agent", AGENT, "--user", "scripted", "--judge", JUDGE, *extra]
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output + repr(result.exception)
    return json.loads((out / "eval.json").read_text())  # type: ignore[no-any-return]


def test_eval_scores_excludes_infra_and_writes_viewer(
    tasks_file: Path, fake: FakeModels, tmp_path: Path
) -> None:
    out = tmp_path / "ev"
    data = run_eval(tasks_file, out, "--trials", "2")
    # good and blamed succeed, gives_up fails, broken is all infrastructure errors
    assert data["pass_hat_k"] == {"1": pytest.approx(2 / 3), "2": pytest.approx(2 / 3)}
    assert data["n_tasks"] == 3 and data["n_trials"] == 8 and data["n_valid_trials"] == 6
    assert data["n_infra_errors"] == 2 and data["n_user_errors"] == 2
    assert data["run"]["agent"] == "http://fake.invalid/v1 fake-agent"
    assert data["run"]["user"] == "scripted"
    per_task = {t["task_id"]: t for t in data["per_task"]}
    assert per_task[fake.broken.id]["infra_errors"] == 2 and per_task[fake.broken.id]["valid"] == 0
    assert per_task[fake.gives_up.id]["successes"] == 0
    assert data["end_reasons"]["llm_failure"] == 2
    html = (out / "eval.html").read_text()
    assert html.count('<details class="episode">') == 8
    for task in (fake.good, fake.gives_up, fake.broken, fake.blamed):
        assert f'id="task-{task.id}"' in html
    assert "llm_contradiction" in html and "infrastructure error" in html
    assert "differences from S*" in html  # the agent that gave up is compared with S*
    lines = (out / "trajectories.jsonl").read_text().splitlines()
    assert len(lines) == 8


def test_exclude_user_errors(tasks_file: Path, fake: FakeModels, tmp_path: Path) -> None:
    data = run_eval(tasks_file, tmp_path / "ev", "--trials", "1", "--exclude-user-errors")
    assert data["excluded_user_errors"] is True
    assert data["n_tasks"] == 2 and data["pass_hat_k"]["1"] == pytest.approx(0.5)


def test_resume_runs_only_missing_and_infra_episodes(
    tasks_file: Path, fake: FakeModels, tmp_path: Path
) -> None:
    out = tmp_path / "ev"
    run_eval(tasks_file, out, "--trials", "2")
    fake.agent_calls.clear()
    data = run_eval(tasks_file, out, "--trials", "2")
    assert set(fake.agent_calls) == {fake.broken.id}  # only the infra errors are retried
    assert data["run"]["episodes_run"] == 2 and data["n_trials"] == 8
    fake.agent_calls.clear()
    data = run_eval(tasks_file, out, "--trials", "3")
    assert data["run"]["episodes_run"] == 4 + 2  # trial 2 of each task + the infra retries
    assert data["n_trials"] == 12 and data["pass_hat_k"]["3"] == pytest.approx(2 / 3)


def test_resume_with_other_settings_is_refused(
    tasks_file: Path, fake: FakeModels, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "ev"
    run_eval(tasks_file, out, "--trials", "1")
    args = ["eval", "bookstore", "--tasks", str(tasks_file), "--out", str(out)]
    with pytest.raises(SystemExit) as exc:
        main([*args, "--agent", "embedded", "--user", "scripted", "--judge", JUDGE])
    assert exc.value.code == 2
    assert "other settings" in capsys.readouterr().err
    data = run_eval(tasks_file, out, "--trials", "1", "--restart", "--max-steps", "5")
    assert data["run"]["episodes_run"] == 4 and data["run"]["max_steps"] == 5


def test_oracle_scripted_rule_needs_no_model(tasks_file: Path, tmp_path: Path) -> None:
    out = tmp_path / "ev"
    args = ["eval", "bookstore", "--tasks", str(tasks_file), "--out", str(out), "--trials", "2"]
    result = runner.invoke(
        app, [*args, "--agent", "oracle", "--user", "scripted", "--judge", "rule"]
    )
    assert result.exit_code == 0, result.output
    data = json.loads((out / "eval.json").read_text())
    assert data["pass_hat_k"] == {"1": 1.0, "2": 1.0} and data["n_user_errors"] == 0
    assert "final state = S*" in (out / "eval.html").read_text()


def test_user_mistakes_are_one_line_errors(
    tasks_file: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    for extra, words in [
        (["--agent", "gpt-4o"], "--agent 'gpt-4o'"),
        (["--executor", "spark"], "--executor"),
        (["--tasks", str(tmp_path / "missing.jsonl")], "tasks file not found"),
    ]:
        with pytest.raises(SystemExit) as exc:
            main(["eval", "bookstore", "--tasks", str(tasks_file), *extra])
        assert exc.value.code == 2
        err = capsys.readouterr().err
        assert words in err and "Traceback" not in err


@pytest.mark.slow
def test_ray_executor_gives_the_local_result(tasks_file: Path, tmp_path: Path) -> None:
    pytest.importorskip("ray", reason="needs the [ray] extra: pip install -e '.[ray]'")
    results = {}
    for executor in ("local", "ray"):
        out = tmp_path / executor
        args = ["eval", "bookstore", "--tasks", str(tasks_file), "--out", str(out)]
        args += ["--agent", "oracle", "--user", "scripted", "--judge", "rule", "--trials", "2"]
        result = runner.invoke(app, [*args, "--executor", executor, "--concurrency", "4"])
        assert result.exit_code == 0, result.output
        lines = (out / "trajectories.jsonl").read_text().splitlines()
        trajs = sorted((json.loads(x) for x in lines), key=lambda t: (t["task_id"], t["trial"]))
        results[executor] = [(t["task_id"], t["trial"], t["final_state_hash"]) for t in trajs]
    assert results["ray"] == results["local"] and len(results["ray"]) == 8


def test_run_evaluation_is_the_library_call_behind_the_command(
    tasks_file: Path, tmp_path: Path
) -> None:
    """``autoforge.run_evaluation``: the same evaluation without the CLI (oracle agent, scripted
    user, code-rule judge), writing the same files and resuming in the same directory."""
    from autoforge import run_evaluation
    from autoforge.bench import EvalSettings, load_target
    from autoforge.llm import LLMConfig

    target = load_target("bookstore", tasks_file)
    settings = EvalSettings(
        env_dir=str(target.env_dir), agent="oracle", user="scripted", judge="rule",
        llm=LLMConfig(),
    )  # fmt: skip
    out = tmp_path / "lib"
    output = run_evaluation(settings, target, target.tasks, out, trials=2)
    assert output.pass_hat_k == {1: 1.0, 2: 1.0} and output.n_trials == 2 * len(target.tasks)
    assert (out / "eval.json").is_file() and (out / "eval.html").is_file()
    again = run_evaluation(settings, target, target.tasks, out, trials=2)
    assert again.run.episodes_run == 0  # resumed: nothing left to run
