"""Attacks on the host process itself (issue 34, items 4 and 6): a document's regexes, numbers
out of range, and ``forge`` runs that share an ``--out``.

Each payload test carries ``stopped_by(layer)`` (see ``conftest.py``) and asserts the sign of
that layer: the message it gives, or the state it leaves untouched.
"""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient

from autoforge.env import Environment, EnvironmentSpec
from autoforge.env.calls.docregex import FALLBACK_TIMEOUT_S, DocRegex
from autoforge.env.calls.validation import compile_validator, schema_problem
from autoforge.examples import example_path
from autoforge.serve.app import create_app
from autoforge.serve.errors import InvalidArguments
from autoforge.serve.service import EnvService
from autoforge.tooldocs.spec import ToolSpec

#: Patterns with catastrophic backtracking under Python's ``re`` (each froze the host).
RE2_BOMBS = [
    r"^(a+)+$",
    r"^(a|a)*$",
    r"^(a|aa)+$",
    r"^(\w+\s?)*$",
    r"^(a*)*b$",
    r"^([a-zA-Z0-9]+)*@x$",
    r"^(.*a){25}$",
    r"(x+x+)+y",
]
#: Syntax RE2 lacks (look-around, backreferences): the timed, GIL-releasing fallback runs them.
FALLBACK_BOMBS = [r"^(?=a)(a|a)*$", r"^(a|a)*(?<!b)$", r"^(a)(\1|a)*$"]
EVIL = "a" * 40 + "!"


def _schema(pattern: str, *, general: bool = False) -> dict[str, Any]:
    prop: dict[str, Any] = {"type": "string", "pattern": pattern}
    if general:  # a keyword the hand-compiled checker does not know: jsonschema runs it
        prop = {"anyOf": [prop]}
    return {"type": "object", "properties": {"code": prop}, "required": ["code"]}


@pytest.mark.stopped_by("schema-validation")
@pytest.mark.parametrize("general", [False, True], ids=["fast-checker", "jsonschema"])
@pytest.mark.parametrize("pattern", RE2_BOMBS)
def test_backtracking_pattern_runs_in_linear_time(pattern: str, general: bool) -> None:
    """``^(a+)+$`` against 27 characters froze ``/health`` (4x per two more characters)."""
    validate, fast = compile_validator(_schema(pattern, general=general))
    assert fast is not general
    start = time.perf_counter()
    error = validate({"code": EVIL * 100})
    assert time.perf_counter() - start < 0.05
    assert error is not None and "does not match" in error, error
    assert DocRegex(pattern).engine == "re2"


@pytest.mark.stopped_by("schema-validation")
@pytest.mark.parametrize("general", [False, True], ids=["fast-checker", "jsonschema"])
@pytest.mark.parametrize("pattern", FALLBACK_BOMBS)
def test_backtracking_pattern_outside_re2_is_cut_off(pattern: str, general: bool) -> None:
    assert DocRegex(pattern).engine == "regex"
    validate, _ = compile_validator(_schema(pattern, general=general))
    start = time.perf_counter()
    error = validate({"code": EVIL})
    elapsed = time.perf_counter() - start
    assert error is not None and "could not be checked within" in error, error
    assert elapsed < 30 * FALLBACK_TIMEOUT_S  # the regex module's clock is coarse
    assert validate({"code": "aaaa"}) is None  # the pattern still works on ordinary values


@pytest.mark.stopped_by("schema-validation")
@pytest.mark.parametrize(
    "schema",
    [
        {"type": "object", "patternProperties": {"^(a+)+$": {"type": "integer"}}},
        {
            "type": "object",
            "patternProperties": {"^(a|a)*$": {}},
            "additionalProperties": False,
        },
        {"type": "object", "propertyNames": {"pattern": "^(a+)+$"}},
    ],
    ids=["patternProperties", "additionalProperties", "propertyNames"],
)
def test_property_name_regexes_run_in_linear_time(schema: dict[str, Any]) -> None:
    validate, _ = compile_validator(schema)
    start = time.perf_counter()
    error = validate({EVIL * 50: "x", "a" * 100: "x"})  # one name backtracks, one matches
    assert time.perf_counter() - start < 0.05
    assert error is not None


@pytest.mark.stopped_by("control")
def test_re2_follows_the_json_schema_dialect_and_keeps_ordinary_patterns() -> None:
    """ECMA-262 (JSON Schema's dialect): ``$`` ends the text and ``\\d`` is ASCII."""
    validate, _ = compile_validator(_schema(r"^[A-Z]{3}-\d{4}$"))
    assert validate({"code": "ORD-1234"}) is None
    assert validate({"code": "ORD-1234\n"}) is not None
    assert validate({"code": "ORD-١٢٣٤"}) is not None  # Arabic-Indic digits
    assert re.search(r"^[A-Z]{3}-\d{4}$", "ORD-1234\n") is not None  # what re would accept


@pytest.mark.stopped_by("schema-validation")
@pytest.mark.parametrize(
    ("schema", "fragment"),
    [
        (_schema("(unclosed"), "is not a 'regex'"),
        (
            {
                "type": "object",
                "patternProperties": {"^x": {}},
                "unevaluatedProperties": False,
            },
            "'unevaluatedProperties' together with 'patternProperties'",
        ),
    ],
    ids=["bad-regex", "unevaluated-with-pattern-properties"],
)
def test_unsafe_or_broken_regex_schema_is_a_load_problem(
    schema: dict[str, Any], fragment: str
) -> None:
    problem = schema_problem(schema)
    assert problem is not None and fragment in problem, problem


@pytest.mark.stopped_by("schema-validation")
@pytest.mark.parametrize(
    "items",
    [
        [{"id": i} for i in range(20_000)],
        [[i, str(i)] for i in range(20_000)],
        [{"id": i, "tags": [{"n": i}]} for i in range(10_000)],
    ],
    ids=["objects", "arrays", "nested"],
)
def test_unique_items_over_distinct_unhashables_runs_in_linear_time(items: list[Any]) -> None:
    """jsonschema compares unhashable items pairwise: 4,000 distinct objects took 30 s."""
    validate, fast = compile_validator(
        {"type": "object", "properties": {"xs": {"type": "array", "uniqueItems": True}}}
    )
    assert not fast
    start = time.perf_counter()
    assert validate({"xs": items}) is None
    assert time.perf_counter() - start < 2.0
    error = validate({"xs": [*items, items[len(items) // 2]]})
    assert error is not None and "non-unique" in error


@pytest.mark.stopped_by("control")
def test_unique_items_keeps_json_schema_equality() -> None:
    """``1 == 1.0`` but ``true != 1``, and object key order does not matter."""
    validate, _ = compile_validator({"type": "array", "uniqueItems": True})
    assert validate([1, 1.0]) is not None
    assert validate([True, 1]) is None
    assert validate([[1], [True]]) is None
    assert validate([{"a": 1, "b": 2}, {"b": 2, "a": 1}]) is not None


@pytest.mark.stopped_by("schema-validation")
@pytest.mark.parametrize("general", [False, True], ids=["fast-checker", "jsonschema"])
def test_a_long_enum_times_a_long_array_is_a_set_lookup(general: bool) -> None:
    """2,000 allowed values x 20,000 items compared one by one took 4.4 s (jsonschema 7.4 s)."""
    item: dict[str, Any] = {"enum": [f"CODE{i:05d}" for i in range(2000)]}
    if general:
        item = {"anyOf": [item]}
    validate, fast = compile_validator(
        {"type": "object", "properties": {"xs": {"type": "array", "items": item}}}
    )
    assert fast is not general
    start = time.perf_counter()
    assert validate({"xs": ["CODE01999"] * 20_000}) is None
    assert time.perf_counter() - start < 1.5
    error = validate({"xs": ["CODE01999", "CODE02000"]})
    assert error is not None and "CODE02000" in error


@pytest.mark.stopped_by("control")
def test_enum_keeps_json_schema_equality() -> None:
    validate, _ = compile_validator(
        {"type": "object", "properties": {"v": {"enum": [1, [True], {"a": 1}]}}}
    )
    assert validate({"v": 1.0}) is None and validate({"v": {"a": 1}}) is None
    assert validate({"v": True}) is not None and validate({"v": [1]}) is not None


# --- /health while a document regex is checked, from another process --------------------------

REGEX_SOURCE = """
def lookup(state, code):
    return "found " + code


def lookup_ahead(state, code):
    return "found " + code
"""


def _regex_env_dir(tmp_path: Path) -> Path:
    tools = [
        ToolSpec(name="lookup", parameters=_schema(r"^(a+)+$"), access="read"),
        ToolSpec(name="lookup_ahead", parameters=_schema(r"^(?=a)(a|a)*$"), access="read"),
    ]
    spec = EnvironmentSpec(name="regexes", tools=tools)
    (tmp_path / "environment.json").write_text(spec.model_dump_json())
    (tmp_path / "tools.py").write_text(REGEX_SOURCE)
    return tmp_path


def _serve(env_dir: Path) -> tuple[subprocess.Popen[str], str]:
    import socket

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = int(sock.getsockname()[1])
    cmd = [sys.executable, "-m", "autoforge.cli.main", "serve", str(env_dir), "--port", str(port)]
    proc = subprocess.Popen(cmd, stderr=subprocess.DEVNULL, text=True)
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 60
    while True:
        try:
            httpx.get(f"{url}/health")
            return proc, url
        except httpx.TransportError:
            assert proc.poll() is None and time.monotonic() < deadline, "server did not start"
            time.sleep(0.1)


def _health_during_calls(url: str, episode: str, tool: str, n_calls: int) -> list[float]:
    """Time ``/health`` while another thread sends ``n_calls`` backtracking values."""
    statuses: list[int] = []

    def calls() -> None:
        with httpx.Client(base_url=url, timeout=60) as client:
            for i in range(n_calls):
                value = "a" * (27 + i % 5) + "!"
                statuses.append(
                    client.post(
                        f"/episodes/{episode}/tools/{tool}", json={"code": value}
                    ).status_code
                )

    thread = threading.Thread(target=calls)
    thread.start()
    latencies = []
    with httpx.Client(base_url=url) as client:
        while thread.is_alive():
            start = time.perf_counter()
            assert client.get("/health").status_code == 200
            latencies.append(time.perf_counter() - start)
            time.sleep(0.01)
    thread.join()
    assert statuses == [422] * n_calls, statuses
    return latencies


@pytest.mark.stopped_by("schema-validation")
@pytest.mark.parametrize(("tool", "n_calls"), [("lookup", 200), ("lookup_ahead", 10)],
                         ids=["re2", "timed-fallback"])  # fmt: skip
def test_health_answers_within_50ms_while_a_document_regex_is_checked(
    tmp_path: Path, tool: str, n_calls: int
) -> None:
    """With ``re`` in the host one such call held the GIL for seconds and ``/health`` with it."""
    proc, url = _serve(_regex_env_dir(tmp_path))
    try:
        episode = httpx.post(f"{url}/episodes").json()["episode_id"]
        ok = httpx.post(f"{url}/episodes/{episode}/tools/{tool}", json={"code": "aaa"})
        assert ok.json()["content"] == "found aaa"
        latencies = _health_during_calls(url, episode, tool, n_calls)
        p90 = sorted(latencies)[int(0.9 * len(latencies)) - 1]
        print(f"/health during {tool} ({n_calls} calls): p90 {p90 * 1000:.1f} ms, "
              f"max {max(latencies) * 1000:.1f} ms, n={len(latencies)}")  # fmt: skip
        assert len(latencies) >= 3 and p90 < 0.05 and max(latencies) < 0.5, latencies
    finally:
        proc.terminate()
        proc.wait(timeout=20)


# --- numbers out of range in serve ------------------------------------------------------------


@pytest.fixture(scope="module")
def bookstore() -> Environment:
    return Environment.load(example_path("bookstore"))


@pytest.mark.stopped_by("serve-api")
@pytest.mark.parametrize(
    "body",
    [
        b'{"seed": 1000000000000000000000000000000}',
        b'{"seed": -1000000000000000000000000000000}',
        b'{"seed": 9223372036854775808}',
        b'{"seed": 1e400}',
        b'{"seed": "12"}',
        b'{"seed": true}',
        b'{"seed": 1.5}',
    ],
    ids=["1e30", "-1e30", "2^63", "1e400", "string", "bool", "fraction"],
)
def test_seed_out_of_range_is_a_4xx_before_any_episode(bookstore: Environment, body: bytes) -> None:
    """A seed of 10^30 gave a 500 and left an episode whose id the client never got."""
    service = EnvService(bookstore)
    with TestClient(create_app(service), base_url="http://127.0.0.1") as http:
        response = http.post(
            "/episodes", content=body, headers={"content-type": "application/json"}
        )
        assert response.status_code == 422, response.text
        assert response.json()["error"] in ("invalid_request", "invalid_arguments")
        assert "seed" in response.json()["message"]
        assert service.health()["open_episodes"] == 0
        assert http.post("/episodes", json={"seed": 2**63 - 1}).status_code == 201


@pytest.mark.stopped_by("serve-api")
def test_service_refuses_a_huge_seed_from_any_transport(bookstore: Environment) -> None:
    service = EnvService(bookstore)
    for seed in (10**30, -(2**63) - 1, True):
        with pytest.raises(InvalidArguments, match="seed"):
            service.open_episode(seed=seed)
    assert service.health()["open_episodes"] == 0


# --- two forge runs into one --out ------------------------------------------------------------

FORGE = [sys.executable, "-m", "autoforge.cli.main", "forge", "--env", "example:bookstore"]


def _forge(out: Path, *extra: str) -> subprocess.Popen[str]:
    cmd = [*FORGE, "--out", str(out), "--tasks", "4", *extra]
    return subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)


@pytest.mark.stopped_by("forge-lock")
def test_a_second_forge_into_a_locked_out_names_the_holder(tmp_path: Path) -> None:
    from autoforge.forge.outlock import OutDirLocked, out_lock

    out = tmp_path / "run"
    with out_lock(out):
        proc = _forge(out, "--no-exports")
        output, _ = proc.communicate(timeout=120)
        assert proc.returncode == 2, output
        assert f"in use by another forge run (pid {os.getpid()}" in output, output
        assert not (out / "run.json").exists()  # refused before any stage ran
        with pytest.raises(OutDirLocked, match="pass another --out"), out_lock(out):
            pass
    done = _forge(out, "--no-exports")  # the lock went with its holder
    assert done.wait(timeout=120) == 0, done.communicate()[0]


@pytest.mark.stopped_by("forge-lock")
def test_two_forge_runs_at_once_give_one_run_and_no_duplicate_tasks(tmp_path: Path) -> None:
    """Two runs into one --out both exited 0 with every task written twice."""
    out = tmp_path / "run"
    first = _forge(out)
    lock = out / ".forge.lock"
    deadline = time.monotonic() + 60
    while not (lock.is_file() and f"pid {first.pid}" in lock.read_text()):
        assert first.poll() is None and time.monotonic() < deadline, "first run did not start"
        time.sleep(0.02)
    os.kill(first.pid, signal.SIGSTOP)  # the first run holds the lock, mid-run
    try:
        second = _forge(out)
        output, _ = second.communicate(timeout=120)
    finally:
        os.kill(first.pid, signal.SIGCONT)
    assert second.returncode == 2 and f"(pid {first.pid}" in output, output
    output, _ = first.communicate(timeout=120)
    assert first.returncode == 0, output
    tasks = json.loads((out / "exports" / "tau2" / "tasks.json").read_text())
    ids = [t["id"] for t in tasks]
    assert len(ids) == 4 and len(set(ids)) == 4, ids


@pytest.mark.stopped_by("forge-lock")
async def test_a_batch_into_a_locked_out_is_refused_before_writing(tmp_path: Path) -> None:
    from autoforge.forge.batch import forge_many
    from autoforge.forge.layout import ForgeOptions
    from autoforge.forge.outlock import OutDirLocked, out_lock

    with out_lock(tmp_path), pytest.raises(OutDirLocked, match=f"pid {os.getpid()}"):
        await forge_many([], ForgeOptions(out=tmp_path), tmp_path, None)
    assert not (tmp_path / "batch.json").exists()
    report = await forge_many([], ForgeOptions(out=tmp_path), tmp_path, None)  # lock released
    assert report.items == [] and (tmp_path / "batch.json").is_file()
