"""The bookstore's tools: signatures match the spec, sequences replay, reads have no effects."""

from __future__ import annotations

import ast
import contextlib
import copy
import inspect
import json
from typing import Any

from jsonschema import Draft202012Validator

ALLOWED_IMPORTS = {
    "math", "datetime", "re", "json", "copy", "itertools", "collections", "statistics",
    "decimal", "string",
}  # fmt: skip
FORBIDDEN_CALLS = {"getattr", "setattr", "delattr", "eval", "exec", "open", "compile", "__import__"}


def _run(bookstore: Any, state: dict[str, Any], tool: str, args: dict[str, Any]) -> Any:
    return bookstore.tool(tool)(state, **copy.deepcopy(args))


def _replay(bookstore: Any, sequence: list[dict[str, Any]]) -> tuple[list[Any], dict[str, Any]]:
    """Run a sequence from the initial state: outcomes (result or error text), final state."""
    state = bookstore.fresh_state()
    error_cls = bookstore.namespace["ToolError"]
    outcomes: list[Any] = []
    for call in sequence:
        try:
            outcomes.append({"ok": _run(bookstore, state, call["tool"], call["arguments"])})
        except error_cls as exc:
            outcomes.append({"error": str(exc)})
    return outcomes, state


def test_every_tool_has_a_function_with_the_documented_signature(bookstore: Any) -> None:
    module = ast.parse((bookstore.root / "tools.py").read_text())
    public = {n.name for n in module.body if isinstance(n, ast.FunctionDef) and n.name[0] != "_"}
    assert public == {t.name for t in bookstore.spec.tools}
    for spec in bookstore.spec.tools:
        params = list(inspect.signature(bookstore.tool(spec.name)).parameters.values())
        assert params[0].name == "state", spec.name
        assert [p.name for p in params[1:]] == spec.param_names, spec.name
        for p in params[1:]:
            has_default = p.default is not inspect.Parameter.empty
            assert has_default == (p.name not in spec.required), (spec.name, p.name)


def test_tool_source_keeps_to_the_sandbox_rules(bookstore: Any) -> None:
    tree = ast.parse((bookstore.root / "tools.py").read_text())
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            assert {a.name.split(".")[0] for a in node.names} <= ALLOWED_IMPORTS
        elif isinstance(node, ast.ImportFrom):
            assert (node.module or "").split(".")[0] in ALLOWED_IMPORTS
        elif isinstance(node, ast.Attribute):
            assert not node.attr.startswith("__"), f"dunder attribute on line {node.lineno}"
        elif isinstance(node, ast.Name):
            assert node.id not in FORBIDDEN_CALLS, f"{node.id} on line {node.lineno}"
    assert "ToolError" not in {
        a.name for n in ast.walk(tree) if isinstance(n, ast.ImportFrom) for a in n.names
    }


def test_sequences_replay_deterministically_and_match_the_documented_schemas(
    bookstore: Any,
) -> None:
    assert 4 <= len(bookstore.sequences) <= 6
    errors = 0
    for sequence in bookstore.sequences:
        first, final_state = _replay(bookstore, sequence)
        second, second_state = _replay(bookstore, sequence)
        assert json.dumps(first, sort_keys=True) == json.dumps(second, sort_keys=True)
        assert final_state == second_state
        for call, outcome in zip(sequence, first, strict=True):
            spec = bookstore.spec.tool(call["tool"])
            Draft202012Validator(spec.parameters).validate(call["arguments"])
            if "ok" in outcome:
                assert spec.returns is not None
                Draft202012Validator(spec.returns).validate(outcome["ok"])
            else:
                errors += 1
    assert errors >= 1, "at least one sequence must trigger a ToolError"


def test_schemas_are_valid_json_schema(bookstore: Any) -> None:
    for spec in bookstore.spec.tools:
        Draft202012Validator.check_schema(spec.parameters)
        assert spec.returns is not None and spec.access in {"read", "write"}
        Draft202012Validator.check_schema(spec.returns)
        assert set(spec.required) <= set(spec.param_names)


def test_read_tools_leave_state_alone_and_return_copies(bookstore: Any) -> None:
    extra = [
        {"tool": "search_books", "arguments": {}},
        {"tool": "search_books", "arguments": {"author": "NWOSU", "in_stock_only": True}},
    ]
    error_cls = bookstore.namespace["ToolError"]
    reads = 0
    for sequence in [*bookstore.sequences, extra]:
        state = bookstore.fresh_state()
        for call in sequence:
            if bookstore.spec.tool(call["tool"]).access != "read":
                with contextlib.suppress(error_cls):
                    _run(bookstore, state, call["tool"], call["arguments"])
                continue
            reads += 1
            before = copy.deepcopy(state)
            result = _run(bookstore, state, call["tool"], call["arguments"])
            assert state == before, call
            json.dumps(result)
            for value in result if isinstance(result, list) else [result]:
                value["customer_id" if "customer_id" in value else "title"] = "mutated"
            assert state == before, f"{call['tool']} returned a live record"
    assert reads >= 10


def test_sequence_write_results_are_copies(bookstore: Any) -> None:
    state = bookstore.fresh_state()
    items = [{"book_id": "B-206", "quantity": 1}]
    order = _run(bookstore, state, "place_order", {"customer_id": "C-1002", "items": items})
    order["items"][0]["quantity"] = 99
    order["shipping_address"]["city"] = "Nowhere"
    assert state["orders"][order["order_id"]]["items"][0]["quantity"] == 1
    assert state["customers"]["C-1002"]["address"]["city"] == "London"
