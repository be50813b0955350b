"""``autoforge train`` and ``autoforge sft`` from the command line."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from autoforge.cli.main import main


def _run(args: list[str]) -> int:
    try:
        main(args)
    except SystemExit as exc:
        return int(exc.code or 0)
    return 0


def test_verl_emit_config_from_the_cli(tmp_path: Path, capsys: Any) -> None:
    from autoforge.examples import example_path

    code = _run(["train", "--backend", "verl", "--emit-config", str(tmp_path / "c"),
                 "--model", "Qwen/Qwen3-8B", "--train-files", "t.parquet", "--tasks", "t.jsonl",
                 "--env", str(example_path()), "--nnodes", "2", "--no-env-std"])  # fmt: skip
    assert code == 0
    text = (tmp_path / "c" / "overrides.txt").read_text()
    assert "trainer.nnodes=2" in text and "algorithm.adv_estimator=erpo_task_std" in text
    assert "wrote" in capsys.readouterr().out


def test_emit_config_defaults_to_the_paper_clip_and_honours_the_user(tmp_path: Path) -> None:
    from autoforge.examples import example_path

    base = ["train", "--backend", "verl", "--model", "m", "--train-files", "t.parquet",
            "--tasks", "t.jsonl", "--env", str(example_path())]  # fmt: skip
    assert _run([*base, "--emit-config", str(tmp_path / "paper")]) == 0
    paper = (tmp_path / "paper" / "overrides.txt").read_text().splitlines()
    assert "actor_rollout_ref.actor.clip_ratio_high=0.28" in paper
    assert _run([*base, "--emit-config", str(tmp_path / "u"), "--clip-high", "0.2",
                 "--kl-beta", "0.05", "--max-turn-tokens", "2048"]) == 0  # fmt: skip
    user = (tmp_path / "u" / "overrides.txt").read_text().splitlines()
    assert "actor_rollout_ref.actor.clip_ratio_high=0.2" in user
    assert "actor_rollout_ref.actor.kl_loss_coef=0.05" in user
    spec = json.loads((tmp_path / "u" / "launch_spec.json").read_text())
    assert spec["max_turn_tokens"] == 2048 and spec["erpo"]["clip_eps_high"] == 0.2


@pytest.mark.parametrize(
    "args, message",
    [
        (["train", "--backend", "verl"], "--emit-config"),
        (["train", "--backend", "jax"], "Invalid value for '--backend'"),
        (["train", "--backend", "verl", "--emit-config", "x"], "--train-files"),
        (["train", "--user", "robot"], "Invalid value for '--user'"),
        (["train", "--std-pool", "before"], "Invalid value for '--std-pool'"),
        (["sft", "x.jsonl"], "--env is needed"),
    ],
)
def test_user_mistakes_are_one_line_errors(args: list[str], message: str, capsys: Any) -> None:
    assert _run(args) == 2
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err


def test_trl_smoke_from_the_cli(tokenizer: Any, tmp_path: Path) -> None:
    from autoforge.examples import example_path

    out = tmp_path / "run"
    code = _run(["train", "--backend", "trl", "--env", str(example_path()), "--synth-tasks", "2",
                 "--model", "tiny", "--group-size", "2", "--tasks-per-batch", "1", "--steps", "1",
                 "--user", "scripted", "--meu", "off", "--max-completion-tokens", "48",
                 "--max-turn-tokens", "8", "--out", str(out)])  # fmt: skip
    assert code == 0
    records = [json.loads(x) for x in (out / "erpo_steps.jsonl").read_text().splitlines()]
    assert len(records) == 1 and records[0]["n_rollouts"] == 2
    assert json.loads((out / "run_config.json").read_text())["erpo"]["group_size"] == 2
    assert (out / "policy" / "config.json").is_file()
    assert (out / "policy" / "tokenizer_config.json").is_file()
