"""The command line a newcomer meets: version, help order and width, run directories accepted."""

from __future__ import annotations

import re
from pathlib import Path

from typer.testing import CliRunner

from autoforge import __version__
from autoforge.cli.forge import default_out
from autoforge.cli.main import COMMAND_ORDER, app


def test_version() -> None:
    result = CliRunner().invoke(app, ["--version"])
    assert result.exit_code == 0 and result.output.strip() == f"autoforge {__version__}"


def test_top_level_help_shows_forge_first_and_the_pipeline_in_order() -> None:
    result = CliRunner().invoke(app, ["--help"], env={"COLUMNS": "80"})
    assert result.exit_code == 0
    assert "autoforge forge --example bookstore" in result.output
    listed = re.findall(r"^  ([a-z]+)  ", result.output.split("Commands:")[1], re.MULTILINE)
    assert listed == list(COMMAND_ORDER)


def test_forge_help_gives_each_description_room_and_its_defaults() -> None:
    result = CliRunner().invoke(app, ["forge", "--help"], env={"COLUMNS": "80"})
    assert result.exit_code == 0
    text = result.output
    assert len(text.splitlines()) < 110
    for option in ("--max-repairs", "--design-rounds", "--fill"):
        block = text.split(option, 1)[1].split("\n  -", 1)[0]
        assert "default" in block, option
    # the description column starts at a fixed place, and is never a sliver of 17 characters
    widths = [len(line) - 34 for line in text.splitlines() if line.startswith(" " * 34)]
    assert widths and max(widths) > 35


def test_default_run_directory_is_named_after_the_input(tmp_path: Path) -> None:
    doc = tmp_path / "shop.yaml"
    doc.write_text("{}")
    assert default_out("bookstore", None, []) == Path("runs/bookstore")
    assert default_out(None, Path("example:bookstore"), []) == Path("runs/bookstore")
    assert default_out(None, None, [doc]) == Path("runs/shop")


def test_check_accepts_a_forge_run_directory_and_names_missing_tools(tmp_path: Path) -> None:
    out = tmp_path / "run"
    args = ["forge", "--example", "bookstore", "--out", str(out), "--tasks", "2", "--no-exports",
            "--llm-model", "none"]  # fmt: skip
    forged = CliRunner().invoke(app, args)
    assert forged.exit_code == 0, forged.output
    result = CliRunner().invoke(app, ["check", str(out)], env={"COLUMNS": "200"})
    # exit 1 is a failed check, not a refused directory (that is 2): the rules-only bookstore's
    # place_order is partial, its stated stock and coupon rules unenforced, and check says so
    assert result.exit_code in (0, 1), result.output
    assert ("PASS" in result.output) == (result.exit_code == 0), result.output
    missing = re.findall(r"documented tool (\w+) is missing", result.output)
    status = (out / "env" / "synthesis_report.json").read_text()
    assert all(f'"{name}"' in status for name in missing)
    assert len(missing) == status.count('"status": "failed"')


def test_serve_mcp_says_what_state_a_session_starts_from() -> None:
    from autoforge.cli.serve import mcp_start_state
    from autoforge.env import Environment
    from autoforge.examples import example_path
    from autoforge.serve import EnvService
    from autoforge.tasks import generate_tasks

    env = Environment.load(example_path("bookstore"))
    tasks, _ = generate_tasks(env, 2, "easy", seed=1)
    service = EnvService(env, tasks)
    line = mcp_start_state(service, None)
    assert "initial state" in line and f"--task {sorted(t.id for t in tasks)[0]}" in line
    assert tasks[0].id in mcp_start_state(service, tasks[0].id)
    assert "no tasks loaded" in mcp_start_state(EnvService(env, []), None)


def test_every_out_option_is_also_dash_o() -> None:
    commands = [["forge"], ["ingest"], ["synth", "env"], ["fidelity"], ["eval"], ["train"],
                ["sft"], ["export", "verifiers"]]  # fmt: skip
    for command in commands:
        text = CliRunner().invoke(app, [*command, "--help"], env={"COLUMNS": "100"}).output
        assert "-o, --out" in text, command
