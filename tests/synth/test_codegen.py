"""Turning messy LLM replies into tool code and assembling tools.py."""

from __future__ import annotations

import pytest

from autoforge.synth.modelcode.codegen import CodeError, assemble, extract_function

MESSY = """Sure! Here is the implementation:

```python
import copy
class ToolError(Exception):
    pass

LIMIT = 3

def find(state, key):
    return state["things"].get(key)

def get_thing(state, thing_id):
    found = find(state, thing_id)
    if found is None:
        raise ToolError("no such thing")
    return copy.deepcopy(found)

print(get_thing({"things": {}}, "x"))
```
Let me know if you need anything else."""


def test_extract_keeps_function_helpers_imports_and_drops_the_rest() -> None:
    code = extract_function(MESSY, "get_thing")
    assert code.imports == ["import copy"]
    assert "class ToolError" not in code.body and "print(" not in code.body
    assert "def _find(state, key)" in code.body and "_find(state, thing_id)" in code.body
    assert "LIMIT = 3" in code.body


def test_extract_errors_are_specific() -> None:
    with pytest.raises(CodeError, match="no function named 'get_thing'"):
        extract_function("```python\ndef other(state):\n    return 1\n```", "get_thing")
    with pytest.raises(CodeError, match="syntax error"):
        extract_function("```python\ndef get_thing(state:\n    return 1\n```", "get_thing")


def test_prose_before_an_unfenced_def_is_skipped() -> None:
    code = extract_function("The answer is\ndef get_thing(state):\n    return 1\n", "get_thing")
    assert code.body.startswith("def get_thing(state):")


def test_assemble_renames_clashing_helpers_and_shares_identical_ones() -> None:
    a = extract_function(
        "def _load(state):\n    return 1\n\ndef a(state):\n    return _load(state)", "a"
    )
    b = extract_function(
        "def _load(state):\n    return 2\n\ndef b(state):\n    return _load(state)", "b"
    )
    c = extract_function(
        "def _load(state):\n    return 1\n\ndef c(state):\n    return _load(state)", "c"
    )
    source = assemble([a, b, c], "Tools.")
    namespace: dict = {}
    exec(compile(source, "tools.py", "exec"), namespace)
    assert namespace["a"]({}) == 1 and namespace["b"]({}) == 2 and namespace["c"]({}) == 1
    assert source.count("def _load(") == 1 and "def _b_load(" in source


def test_renaming_a_helper_renames_the_helpers_that_call_it() -> None:
    first = extract_function(
        "def _require(state):\n    return 1\n\ndef _pending(state):\n    return _require(state)\n\n"
        "def a(state):\n    return _pending(state)",
        "a",
    )
    second = extract_function(
        "def _require(state):\n    return 2\n\ndef _pending(state):\n    return _require(state)\n\n"
        "def b(state):\n    return _pending(state)",
        "b",
    )
    source = assemble([first, second], "Tools.")
    namespace: dict = {}
    exec(compile(source, "tools.py", "exec"), namespace)
    assert namespace["a"]({}) == 1 and namespace["b"]({}) == 2
    assert source.count("def _pending(") == 1 and source.count("def _b_pending(") == 1


def test_unshared_assembly_gives_every_tool_its_own_helpers() -> None:
    tool = "def _h(state):\n    return {v}\n\ndef {n}(state):\n    return _h(state)"
    a = extract_function(tool.format(v=1, n="a"), "a")
    b = extract_function(tool.format(v=1, n="b"), "b")
    source = assemble([a, b], "Tools.", share=False)
    assert "def _a_h(" in source and "def _b_h(" in source and "def _h(" not in source


def test_example_helpers_called_but_not_defined_are_supplied() -> None:
    """A tool that calls the few-shot helpers ``_next_id``/``_money`` without defining them gets
    their definitions (with imports), runs, and unknown private names are left alone."""
    from autoforge.synth.modelcode.examples import add_example_helpers, undefined_names

    src = (
        "def create_task(state, title):\n"
        '    tid = _next_id(state["tasks"], "T-")\n'
        '    state["tasks"][tid] = {"id": tid, "title": title, "fee": _money(2.005), "x": _nope}\n'
        "    return copy.deepcopy(tid)\n"
    )
    assert undefined_names(src) == ["_money", "_next_id", "_nope", "copy"]
    patched, added = add_example_helpers(src)
    assert sorted(added) == ["_money", "_next_id", "copy"]
    assert undefined_names(patched) == ["_nope"]
    code = extract_function(patched.replace("_nope", "None"), "create_task")
    namespace: dict[str, object] = {}
    exec(code.source, namespace)  # trusted test code, not LLM output
    state: dict[str, dict[str, object]] = {"tasks": {"T-1": {}}}
    assert namespace["create_task"](state, "write") == "T-2"  # type: ignore[operator]
    assert state["tasks"]["T-2"]["fee"] == 2.01
    plain = "def f(state):\n    return 1\n"
    assert add_example_helpers(plain) == (plain, [])
