"""The conformance checker and ``autoforge check``: it passes good envs and catches bad ones."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from autoforge.cli.main import main as cli_main
from autoforge.env import Environment
from autoforge.examples import example_path
from autoforge.synth import check_directory, check_environment
from autoforge.synth.check.checker import dummy_value, sample_calls, value_index
from autoforge.tooldocs.spec import ToolSpec

STATE = {"items": {"i1": {"item_id": "i1", "name": "A", "price": 3}}}


def _env(env_factory: Any, schema_obj: Any, source: str, tools: list[ToolSpec]) -> Environment:
    env: Environment = env_factory(source, tools, STATE)
    return env


def _failed(report: Any) -> set[tuple[str, str | None]]:
    return {(i.check, i.tool) for i in report.failures}


def test_bookstore_passes_inline_and_isolated() -> None:
    env = Environment.load(example_path("bookstore"))
    sequences = json.loads((example_path("bookstore") / "sequences.json").read_text())
    inline = check_environment(env, sequences, mode="inline")
    assert inline.ok, inline.failures
    assert inline.calls > len(env.tools) * 2
    isolated = check_environment(env, sequences[:1], mode="isolated")
    assert isolated.ok, isolated.failures


def test_shop_passes(shop: Environment) -> None:
    report = check_environment(shop, mode="inline")
    assert report.ok, report.failures


def test_read_tool_that_writes_is_caught(env_factory: Any, schema_obj: Any) -> None:
    tools = [
        ToolSpec(
            name="get_item",
            parameters=schema_obj({"item_id": {"type": "string"}}, ["item_id"]),
            access="read",
        )
    ]
    source = """
    def get_item(state, item_id):
        item = state["items"].get(item_id)
        if item is None:
            raise ToolError("no such item")
        item["views"] = item.get("views", 0) + 1
        return item
    """
    report = check_environment(_env(env_factory, schema_obj, source, tools), mode="inline")
    assert not report.ok
    assert ("read_only", "get_item") in _failed(report)


def test_crash_on_unknown_id_is_caught(env_factory: Any, schema_obj: Any) -> None:
    tools = [
        ToolSpec(
            name="get_item",
            parameters=schema_obj({"item_id": {"type": "string"}}, ["item_id"]),
            access="read",
        )
    ]
    source = 'def get_item(state, item_id):\n    return state["items"][item_id]\n'
    report = check_environment(_env(env_factory, schema_obj, source, tools), mode="inline")
    assert ("unknown_id", "get_item") in _failed(report)
    assert ("read_only", "get_item") not in _failed(report)
    detail = next(i.detail for i in report.failures if i.check == "unknown_id")
    assert "KeyError" in detail


def test_crash_and_timeout_on_sampled_calls_are_caught(env_factory: Any, schema_obj: Any) -> None:
    tools = [
        ToolSpec(name="divide", parameters=schema_obj({"n": {"type": "integer"}}, ["n"])),
        ToolSpec(name="spin", parameters=schema_obj({})),
    ]
    source = """
    def divide(state, n):
        return 10 / (n - 1)

    def spin(state):
        while True:
            pass
    """
    env = env_factory(source, tools, STATE, call_timeout_s=0.1)
    report = check_environment(env, mode="inline")
    failed = _failed(report)
    assert ("no_crash", "divide") in failed and ("no_crash", "spin") in failed


def test_nondeterminism_is_caught(shop_parts: Any, shop_initial: Any) -> None:
    shop = Environment.from_parts(*shop_parts, shop_initial, trusted=True)
    counter = iter(range(1000))
    shop.tools["get_item"].fn = lambda state, item_id: next(counter)  # white-box: a leaky tool
    report = check_environment(shop, mode="inline")
    assert ("deterministic", None) in _failed(report)


def test_accepting_unknown_ids_is_a_warning(env_factory: Any, schema_obj: Any) -> None:
    tools = [
        ToolSpec(name="touch", parameters=schema_obj({"item_id": {"type": "string"}}, ["item_id"]))
    ]
    source = "def touch(state, item_id):\n    return item_id\n"
    report = check_environment(_env(env_factory, schema_obj, source, tools), mode="inline")
    assert report.ok
    assert [(w.check, w.tool) for w in report.warnings] == [("unknown_id", "touch")]


def test_sampling_uses_state_values_and_schema_dummies() -> None:
    state = {
        "orders": {
            "o1": {"order_id": "o1", "status": "open", "qty": 2},
            "o2": {"order_id": "o2", "status": "done", "qty": 5},
        }
    }
    index = value_index(state)
    assert index["order_id"] == ["o1", "o2"] and index["qty"] == [2, 5]
    tool = ToolSpec(
        name="t",
        parameters={
            "type": "object",
            "properties": {
                "order_id": {"type": "string"},
                "qty": {"type": "integer"},
                "mode": {"type": "string", "enum": ["a", "b"]},
            },
            "required": ["order_id"],
        },
    )
    calls = sample_calls(tool, index)
    assert calls[0] == {"order_id": "o1"}
    assert {"order_id": "o2", "qty": 5, "mode": "a"} in calls
    assert dummy_value({"type": "array", "items": {"type": "integer"}}) == [1]
    assert dummy_value({"type": "object", "properties": {"a": {}}, "required": ["a"]}) == {"a": "x"}


def _write_env(root: Path, shop_parts: Any, state: dict[str, Any]) -> None:
    spec, source = shop_parts
    root.mkdir(parents=True, exist_ok=True)
    (root / "environment.json").write_text(spec.model_dump_json())
    (root / "tools.py").write_text(source)
    (root / "initial_state.json").write_text(json.dumps(state))


def test_check_directory_reports_load_failures(tmp_path: Path, shop_parts: Any) -> None:
    _write_env(tmp_path, shop_parts, {})
    (tmp_path / "tools.py").write_text("import os\n")
    report = check_directory(tmp_path, mode="inline")
    assert not report.ok and report.items[0].check == "load"
    assert "import of 'os' is not allowed" in report.items[0].detail


def test_cli_check_exit_codes_and_json(
    tmp_path: Path, shop_parts: Any, shop_initial: dict[str, Any], capsys: Any
) -> None:
    good = tmp_path / "good"
    _write_env(good, shop_parts, shop_initial)
    sequences = tmp_path / "seq.json"
    sequences.write_text(json.dumps([[{"tool": "get_item", "arguments": {"item_id": "i1"}}]]))
    with pytest.raises(SystemExit) as done:
        cli_main(["check", str(good), "--json", "--inline", "--sequences", str(sequences)])
    assert done.value.code == 0
    data = json.loads(capsys.readouterr().out)
    assert data["ok"] is True and data["env_name"] == "shop" and data["schema_version"] == 1

    bad = tmp_path / "bad"
    _write_env(bad, shop_parts, shop_initial)
    (bad / "tools.py").write_text(shop_parts[1].replace("raise ToolError", "return 1 / 0 or"))
    with pytest.raises(SystemExit) as done:
        cli_main(["check", str(bad), "--inline"])
    assert done.value.code == 1
    assert "FAIL" in capsys.readouterr().out

    with pytest.raises(SystemExit) as done:
        cli_main(["check", str(tmp_path / "missing")])
    assert done.value.code == 2
