"""``autoforge synth env`` and ``autoforge fidelity`` on the command line (no model needed)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from autoforge.cli.main import main
from autoforge.examples import example_path

TODO = str(example_path("todo") / "tools.openai.json")


def _run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    try:
        main(argv)
        code = 0
    except SystemExit as exc:
        code = int(exc.code or 0)
    out = capsys.readouterr()
    return code, out.out, out.err


def test_synth_help_has_an_example(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = _run(["synth", "env", "--help"], capsys)
    assert code == 0 and "autoforge synth env" in out and "--max-repairs" in out


def test_missing_data_file_is_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["synth", "env", TODO, "--out", str(tmp_path / "e"), "--data", str(tmp_path / "no")]
    code, _, err = _run(argv, capsys)
    assert code == 2 and "no such file" in err and "Traceback" not in err


def test_fidelity_json_on_a_rules_only_env(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bench = tmp_path / "bench"
    bench.mkdir()
    (bench / "db.json").write_text(json.dumps({"tasks": {"T-1": {"task_id": "T-1"}}}))
    (bench / "tasks.json").write_text(
        json.dumps(
            [{"id": "a", "actions": [{"name": "get_task", "arguments": {"task_id": "T-1"}}]}]
        )
    )
    (bench / "gt_replay.json").write_text(
        json.dumps({"tasks": [{"id": "a", "action_results": [{"error": False}], "db_diff": []}]})
    )
    env = tmp_path / "env"
    env.mkdir()
    spec = json.loads((example_path("todo") / "tools.openai.json").read_text())
    get_task = next(t for t in spec if t["function"]["name"] == "get_task")["function"]
    (env / "environment.json").write_text(json.dumps({"name": "e", "tools": [get_task]}))
    (env / "tools.py").write_text(
        "def get_task(state, task_id):\n    return state['tasks'][task_id]\n"
    )
    code, out, _ = _run(["fidelity", str(env), "--bench", str(bench), "--json"], capsys)
    assert code == 0
    result = json.loads(out.strip().splitlines()[-1])
    assert result["action_agreement"] == 1.0 and result["task_agreement"] == 1.0
    assert result["per_tool"]["get_task"]["calls"] == 1
    code, _, err = _run(["fidelity", str(tmp_path / "nope"), "--bench", str(bench)], capsys)
    assert code == 2 and "not an environment directory" in err


def test_fidelity_against_a_reference_module_prints_the_null_baseline(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    import shutil

    env = tmp_path / "bookstore"
    shutil.copytree(example_path("bookstore"), env)
    ref = str(example_path("bookstore") / "tools.py")
    code, out, _ = _run(["fidelity", str(env), "--against", ref, "--json"], capsys)
    assert code == 0
    result = json.loads(out.strip().splitlines()[-1])
    assert result["refusal_agreement"] == 1.0 and result["null"]["refusal_agreement"] < 1.0
    code, _, err = _run(["fidelity", str(env), "--against", str(tmp_path / "x.txt")], capsys)
    assert code == 2 and "not a directory, a .py file or an http(s) URL" in err


def test_fill_option_reaches_the_synthesis_options(capsys: pytest.CaptureFixture[str]) -> None:
    from autoforge.cli.synth import synth_options
    from autoforge.errors import UserError

    assert synth_options(fill=None).fill == "todo"  # the default: per-TODO fills
    assert synth_options(fill="function").fill == "function"
    with pytest.raises(UserError, match="--fill must be todo or function"):
        synth_options(fill="lines")
    code, out, _ = _run(["synth", "env", "--help"], capsys)
    assert code == 0 and "--fill" in out
    code, out, _ = _run(["forge", "--help"], capsys)
    assert code == 0 and "--fill" in out
