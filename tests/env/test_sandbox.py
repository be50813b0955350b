"""The sandbox: static rejections, runtime guards, time limits, frozen module state, isolation."""

from __future__ import annotations

import textwrap
import time
from typing import Any

import pytest

from autoforge.env import SandboxViolation, check_source
from autoforge.tooldocs.spec import ToolSpec


@pytest.mark.parametrize(
    ("source", "construct", "line"),
    [
        ("import os", "import", 1),
        ("import random", "import", 1),
        ("from time import time", "import", 1),
        ("import collections.abc", "import", 1),
        ("from json import codecs", "import", 1),
        ("from math import *", "import *", 1),
        ("x = 1\nk = ().__class__.__bases__", "__bases__", 2),
        ("def f(state):\n    return state.__class__", "__class__", 2),
        ("def f(state):\n    return open('/etc/passwd').read()", "open", 2),
        ("def f(state):\n    return getattr(state, 'x')", "getattr", 2),
        ("def f(state):\n    return eval('1+1')", "eval", 2),
        ("def f(state):\n    exec('x=1')", "exec", 2),
        ("def f(state):\n    return __import__('os')", "__import__", 2),
        ("def f(state):\n    return globals()", "globals", 2),
        ("def f(state):\n    return type('X', (), {})", "type", 2),
        ("def f(state):\n    g = (i for i in [])\n    return g.gi_frame", "gi_frame", 3),
        ("import collections\nx = collections._sys", "_sys", 2),
        ("def f(state):\n    return '{0.__class__}'.format(state)", "format", 2),
        ("def f(state, t):\n    return t.format(1)", "format", 2),
        ("def f(state):\n    return str.format('{}', 1)", "format", 2),
        ("def f(state):\n    return '{:>{}}'.format(1, 5)", "format", 2),
        ("import datetime\ndef f(state):\n    return datetime.datetime.now()", "now", 3),
        ("import datetime\ndef f(state):\n    return datetime.date.today()", "today", 3),
        ("n = 0\ndef f(state):\n    global n\n    n += 1", "Global", 3),
        ("class A:\n    pass", "ClassDef", 1),
        ("import collections\ncollections.Counter.most_common = None", "attribute assignment", 2),
        ("def f(state):\n    f.calls = 1", "attribute assignment", 2),
        ("def f(state):\n    del state.x", "attribute assignment", 2),
        ("async def f(state):\n    pass", "AsyncFunctionDef", 1),
        ("def f(state):\n    try:\n        pass\n    except:\n        pass", "except", 4),
        (
            "def f(state):\n    try:\n        pass\n    except BaseException:\n        pass",
            "BaseException",
            4,
        ),
        ("def f(state, seen=[]):\n    seen.append(1)", "default argument", 1),
        ("def f(state, seen={}):\n    pass", "default argument", 1),
        ("if __name__ == '__main__':\n    pass", "__name__", 1),
        ("import operator\nget = operator.attrgetter", "attrgetter", 2),
        ("from operator import attrgetter", "import", 1),
        ("def f(state):\n    return hash('x')", "hash", 2),
        ("def f(state:\n    pass", "syntax", 1),
        (
            "def f(state):\n    match state:\n"
            "        case dict(__class__=c):\n            return c",
            "__class__",
            3,
        ),
    ],
)
def test_forbidden_constructs_name_line_and_construct(
    source: str, construct: str, line: int
) -> None:
    with pytest.raises(SandboxViolation) as err:
        check_source(source)
    assert err.value.construct == construct, str(err.value)
    assert err.value.line == line
    assert str(err.value).startswith(f"line {line}: ")


def test_allowed_code_passes() -> None:
    source = textwrap.dedent(
        """
        from __future__ import annotations
        import copy, json, math, re, itertools, statistics, string, functools, operator
        from collections import Counter, defaultdict
        from datetime import date, timedelta
        from decimal import Decimal, ROUND_HALF_UP
        from typing import Any, Optional

        RATE = Decimal("0.2")

        def _helper(x: int) -> int:
            return x * 2

        def tool(state: dict, n: int = 3, names: tuple = ("a", "b")) -> Any:
            total = sum(_helper(i) for i in range(n))
            c = Counter(["a", "b", "a"])
            d = date(2024, 5, 1) + timedelta(days=n)
            text = f"{total:.2f} {d.isoformat()} {'{} {}'.format(1, 2)}"
            try:
                json.loads("{bad")
            except json.JSONDecodeError as exc:
                text += str(exc.msg)
            return {"t": text, "c": dict(c), "m": math.sqrt(16)}
        """
    )
    check_source(source)


def test_sandboxed_module_runs_and_is_restricted(env_factory: Any, schema_obj: Any) -> None:
    env = env_factory(
        """
        import math
        from decimal import Decimal

        LIMITS = {"a": [1, 2]}
        NAMES = ["x", "y"]

        def probe(state):
            out = {"sqrt": math.sqrt(9), "money": float(Decimal("1.10") * 2)}
            try:
                NAMES.append("z")
            except AttributeError:
                out["names_frozen"] = True
            try:
                LIMITS["b"] = 1
            except TypeError:
                out["limits_frozen"] = True
                print("printing is harmless")
            out["names"] = list(NAMES)
            return out
        """,
        [ToolSpec(name="probe", parameters=schema_obj({}))],
    )
    result = env.episode().call("probe").result
    assert result == {
        "sqrt": 3.0,
        "money": 2.2,
        "names_frozen": True,
        "limits_frozen": True,
        "names": ["x", "y"],
    }


def test_mutable_module_state_that_cannot_be_frozen_is_rejected(
    env_factory: Any, schema_obj: Any
) -> None:
    with pytest.raises(SandboxViolation, match="mutable and would be shared"):
        env_factory(
            "import re\nclass_ = iter([1, 2])\n",
            [],
        )


def _env_with(env_factory: Any, schema_obj: Any, body: str, **kwargs: Any) -> Any:
    source = (
        "def bomb(state):\n"
        + textwrap.indent(textwrap.dedent(body), "    ")
        + ("\n\ndef ping(state):\n    return 'pong'\n")
    )
    tools = [
        ToolSpec(name="bomb", parameters=schema_obj({})),
        ToolSpec(name="ping", parameters=schema_obj({})),
    ]
    return env_factory(source, tools, {"c": {"k": {"v": 1}}}, **kwargs)


@pytest.mark.parametrize(
    "body",
    [
        "while True:\n    pass",
        "x = 0\nwhile True:\n    try:\n        x += 1\n    except Exception:\n        pass",
        "try:\n    while True:\n        pass\nfinally:\n    while True:\n        pass",
        "def r(n):\n    return [r(n) for _ in range(2)]\nwhile True:\n    pass",
    ],
)
def test_infinite_loops_end_with_timeout(env_factory: Any, schema_obj: Any, body: str) -> None:
    env = _env_with(
        env_factory, schema_obj, "state['c']['k']['v'] = 2\n" + body, call_timeout_s=0.2
    )
    ep = env.episode()
    start = time.monotonic()
    obs = ep.call("bomb")
    elapsed = time.monotonic() - start
    assert obs.error_kind == "timeout" and obs.content == "Error: bomb timed out after 0.2 s"
    assert elapsed < 2.0
    assert ep.state["c"]["k"]["v"] == 1  # the partial write was rolled back
    assert ep.call("ping").content == "pong"  # the host is fine


@pytest.mark.parametrize(
    "body",
    [
        "return 'x' * (10 ** 11)",
        "return [0] * (10 ** 10)",
        "x = [1]\nwhile True:\n    x = x + x",
        "s = 'ab'\nwhile True:\n    s += s",
        "return 10 ** (10 ** 9)",
        "return 1 << (10 ** 10)",
        "return list(range(10 ** 12))",
        "return pow(7, 10 ** 9)",
        "import math\nreturn math.factorial(10 ** 8)",
        "import itertools\nreturn list(itertools.product(range(1000), repeat=4))",
        "x = [0]\nx *= 10 ** 10\nreturn x",
        "return 'x'.ljust(10 ** 10)",
        "s = 'a' * 10 ** 6\nreturn s.replace('', 'b' * 10 ** 6)",
        "return ('x' * 10 ** 6).join(['y'] * 10 ** 5)",
        "w = 10 ** 10\nreturn f'{1:>{w}}'",
        "return '%10000000000d' % 1",
        "return '%*d' % (10 ** 10, 1)",
        "return format(1, '>10000000000')",
        "return '{:>10000000000}'.format(1)",
    ],
)
def test_memory_bombs_end_the_call_not_the_host(
    env_factory: Any, schema_obj: Any, body: str
) -> None:
    env = _env_with(env_factory, schema_obj, body, call_timeout_s=2.0)
    ep = env.episode()
    start = time.monotonic()
    obs = ep.call("bomb")
    assert time.monotonic() - start < 2.5
    assert obs.error_kind == "sandbox", obs.content
    assert "exceeds the sandbox limit" in obs.content
    assert ep.call("ping").ok


def test_guarded_string_methods_keep_working(env_factory: Any, schema_obj: Any) -> None:
    env = _env_with(
        env_factory,
        schema_obj,
        """
        import datetime
        w = 6
        d = datetime.date(2024, 1, 31).replace(day=1)
        return [f"{3.14159:>{w}.2f}", "%5.1f|%s" % (2.25, "x"), "{:.2f}".format(1 / 3),
                "a-b".replace("-", "+"), ", ".join(x for x in ["a", "b"]), "7".zfill(3),
                format(5, "03d"), "ab".center(6, "*"), d.isoformat(), 7 % 3]
        """,
    )
    assert env.episode().call("bomb").result == [
        "  3.14",
        "  2.2|x",
        "0.33",
        "a+b",
        "a, b",
        "007",
        "005",
        "**ab**",
        "2024-01-01",
        1,
    ]


def test_guards_keep_ordinary_arithmetic(env_factory: Any, schema_obj: Any) -> None:
    env = _env_with(
        env_factory,
        schema_obj,
        """
        x = [1, 2]
        x += [3]
        x *= 2
        s = "ab" * 3 + "c"
        n = 2 ** 10 + (3 << 2) + 7 * 6
        f = 1.5 * 2 + 0.25 ** 2
        d = {"a": [1]}
        d["a"] += [2]
        return [x, s, n, f, d]
        """,
    )
    assert env.episode().call("bomb").result == [
        [1, 2, 3, 1, 2, 3],
        "abababc",
        1024 + 12 + 42,
        3.0625,
        {"a": [1, 2]},
    ]


def test_module_level_infinite_loop_is_rejected(env_factory: Any) -> None:
    from autoforge.env.isolation import sandbox

    with pytest.raises(SandboxViolation, match="module-level code ran longer"):
        sandbox.exec_module("while True:\n    pass\n", "tools.py", {}, timeout_s=0.2)


def test_import_inside_function_is_served_restricted(env_factory: Any, schema_obj: Any) -> None:
    env = _env_with(env_factory, schema_obj, "import json\nreturn json.dumps([1])")
    assert env.episode().call("bomb").result == "[1]"


def test_gradual_memory_growth_ends_the_call(env_factory: Any, schema_obj: Any) -> None:
    # every single allocation is within the guards; the watchdog sees the process grow
    body = "x = []\nwhile True:\n    x.append([0] * 1_000_000)"
    kwargs = {"call_timeout_s": 20.0, "memory_limit_mb": 150, "trusted": True}  # the watchdog
    env = _env_with(env_factory, schema_obj, body, **kwargs)
    ep = env.episode()
    start = time.monotonic()
    obs = ep.call("bomb")
    assert time.monotonic() - start < 15
    assert obs.error_kind == "sandbox", obs.content
    assert "grew the process memory by more than 150 MB" in obs.content
    contained = _env_with(env_factory, schema_obj, body, call_timeout_s=20.0, memory_limit_mb=150)
    obs = contained.episode().call("bomb")  # the worker's RLIMIT_AS
    assert obs.error_kind == "sandbox" and "memory" in obs.content, obs.content
    assert ep.call("ping").ok


def test_state_internals_are_out_of_reach(env_factory: Any, schema_obj: Any) -> None:
    env = env_factory(
        """
        def poke(state):
            state["c"].committed("k")["v"] = 99

        def peek(state):
            return state["c"]["k"]["v"]
        """,
        [
            ToolSpec(name="poke", parameters=schema_obj({})),
            ToolSpec(name="peek", parameters=schema_obj({})),
        ],
        {"c": {"k": {"v": 1}}},
    )
    obs = env.episode().call("poke")
    assert obs.error_kind == "crash" and "AttributeError" in obs.content
    assert env.episode().call("peek").result == 1
    assert env.initial_state["c"]["k"]["v"] == 1


def test_timeouts_work_in_threads_and_event_loops(env_factory: Any, schema_obj: Any) -> None:
    import asyncio
    import threading

    env = _env_with(env_factory, schema_obj, "while True:\n    pass", call_timeout_s=0.2)
    kinds: list[str | None] = []

    def in_thread() -> None:
        ep = env.episode()
        kinds.append(ep.call("bomb").error_kind)
        kinds.append(ep.call("ping").error_kind)

    threads = [threading.Thread(target=in_thread) for _ in range(3)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=10)
    assert sorted(kinds, key=str) == [None, None, None, "timeout", "timeout", "timeout"]

    async def in_loop() -> str | None:
        return env.episode().call("bomb").error_kind

    assert asyncio.run(in_loop()) == "timeout"
