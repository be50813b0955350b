"""Task verification catches tampered tasks; the CLI runs, resumes and reports user mistakes."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from autoforge.cli.main import app, main
from autoforge.env import Environment
from autoforge.examples import example_path
from autoforge.forge import verify_task, verify_tasks
from autoforge.tasks import generate_tasks


@pytest.fixture(scope="module")
def bookstore_tasks() -> tuple[Environment, list]:
    env = Environment.load(example_path("bookstore"))
    tasks, _ = generate_tasks(env, 3, "medium", seed=7)
    return env, tasks


def test_verify_replays_gold_calls_and_flags_tampering(bookstore_tasks: tuple) -> None:
    env, tasks = bookstore_tasks
    report = verify_tasks(env, tasks)
    assert report.total == report.verified == 3 and report.failed == []
    task = tasks[0]
    wrong_target = task.model_copy(update={"final_state_hash": task.initial_state_hash})
    verdict = verify_task(env, wrong_target)
    assert not verdict.ok and "final hash" in verdict.reason
    writing = next(t for t in tasks if any(c.writes for c in t.gold_calls))
    dropped = [c for c in writing.gold_calls if not c.writes]  # the writes are left out
    assert not verify_task(env, writing.model_copy(update={"gold_calls": dropped})).ok
    wrong_start = task.model_copy(update={"initial_state_hash": "0" * 64})
    assert "S0 hash" in verify_task(env, wrong_start).reason


def test_cli_forge_runs_and_resumes(tmp_path: Path) -> None:
    out = tmp_path / "run"
    runner = CliRunner()
    args = ["forge", "--env", "example:bookstore", "--out", str(out), "--tasks", "3",
            "--no-exports"]  # fmt: skip
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
    assert "3/3 tasks replay to their S* hash" in result.output
    assert (out / "report.html").is_file()
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
    assert "skipped (done)" in result.output


def test_cli_forge_logs_a_line_per_step_when_output_is_not_a_terminal(tmp_path: Path) -> None:
    args = ["forge", "--env", "example:bookstore", "--out", str(tmp_path / "run"), "--tasks",
            "3", "--no-exports"]  # fmt: skip
    result = CliRunner().invoke(app, args)  # CliRunner's output is not a terminal
    assert result.exit_code == 0, result.output
    lines = [ln for ln in result.output.splitlines() if ln.startswith("[")]
    assert any("tasks: started" in ln for ln in lines)
    assert any("tasks: 3/3" in ln for ln in lines)  # one line per finished task
    assert any(": done:" in ln for ln in lines)


def test_cli_forge_help_has_an_example() -> None:
    result = CliRunner().invoke(app, ["forge", "--help"])
    assert result.exit_code == 0 and "autoforge forge --example bookstore" in result.output


@pytest.mark.parametrize(
    ("args", "message"),
    [
        ([], "nothing to forge"),
        (["--env", "example:todo"], "no environment.json"),
        (["--example", "nope"], "unknown example"),
        (["--env", "example:bookstore", "--example", "bookstore"], "give no DOC"),
        (["--env", "example:bookstore", "--until", "nope"], "not a stage"),
        (["--env", "example:bookstore", "--difficulty", "extreme"], "unknown difficulty"),
    ],
)
def test_cli_forge_user_mistakes_are_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], args: list[str], message: str
) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main(["forge", "--out", str(tmp_path / "run"), *args])
    assert exit_info.value.code == 2
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err
