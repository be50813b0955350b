"""No benchmark convention in the string literals of the generic packages.

The generic stages (everything under ``src/autoforge`` but the benchmark adapters, the bundled
examples and :mod:`autoforge.profiles`, the one hook through which a benchmark's conventions
reach generic code) must know no benchmark. This scans their string literals (docstrings left
out: they document, they do not decide) against a list built from the benchmark data itself:

* **field names**: the compound keys (``payment_method_id``) of the tau-bench / tau2-bench
  retail, airline and telecom data and tool schemas and of the VitaBench tools and task
  environments, less the few names every API with people or tasks has (:data:`GENERIC_NAMES`);
* **enum codes**: the compound enum values of their tool schemas and of the bookstore example's
  (``no_longer_needed``, ``found_cheaper``);
* **status spellings**: the benchmarks' status values written as phrases
  (``"pending (item modified)"``, ``"exchange requested"``); single-word statuses are plain
  English participles that a generic verb table legitimately holds;
* **id shapes**: tau's ``#W`` order ids and ``name_surname_1234`` user ids (each shape is
  checked against the data, so the list holds no guess);
* **example values**: the bookstore example's customer emails, names, book titles and coupon
  codes, and VitaBench's store and product names of three words or more (shorter ones are
  everyday phrases: "fruit salad").

A hit fails the test with the file, line and word. :data:`ALLOWED` lists the hits another
branch removes; the lead drops each entry once that branch is merged.
"""

from __future__ import annotations

import ast
import json
import re
from collections.abc import Iterator
from functools import cache
from pathlib import Path
from typing import Any

import pytest

BENCH = Path("/work/shared/benchmarks")
ROOT = Path(__file__).resolve().parents[2]
PKG = ROOT / "src" / "autoforge"
#: benchmark-specific code: adapters and profile hooks, and the bundled example environments
SPECIFIC = ("adapters/", "examples/", "profiles.py")
TAU = ("tau-bench", "tau2-bench")
TAU_DOMAINS = ("retail", "airline", "telecom")
#: field names of the benchmarks that any API with people or tasks has; the project's own
#: formats use them (a task's ``task_id``, a person's name parts and phone)
GENERIC_NAMES = frozenset({"task_id", "first_name", "last_name", "full_name", "phone_number"})
#: (file under src/autoforge, matched word) -> the branch that removes it
ALLOWED: dict[tuple[str, str], str] = {}
SHAPES = {"#W": re.compile(r"#W"), "tau user id": re.compile(r"\b[a-z]+_[a-z]+_\d{4}\b")}

pytestmark = pytest.mark.skipif(not BENCH.is_dir(), reason="benchmark data not mounted")


def _load(path: Path) -> Any:
    return json.loads(path.read_text(encoding="utf-8"))


def _walk(node: Any, key: str = "") -> Iterator[tuple[str, Any]]:
    """Every (key, value) pair of a JSON document, depth first."""
    if isinstance(node, dict):
        for k, v in node.items():
            yield str(k), v
            yield from _walk(v, str(k))
    elif isinstance(node, list):
        for v in node:
            yield from _walk(v, key)


def _sources() -> list[Path]:
    tau = [BENCH / b / d / f for b in TAU for d in TAU_DOMAINS for f in ("db.json", "tools.json")]
    vita = [p for d in sorted((BENCH / "vitabench").glob("*")) for p in (d / "tools.json",
            d / "task_envs.json")]  # fmt: skip
    return [p for p in tau + vita if p.is_file()]


def _compound(word: str) -> bool:
    return re.fullmatch(r"[a-z][a-z0-9]*(?:_[a-z0-9]+)+", word) is not None


@cache
def vocabulary() -> dict[str, frozenset[str]]:
    """The benchmark words by kind, read from the benchmark data."""
    fields: set[str] = set()
    statuses: set[str] = set()
    values: set[str] = set()
    for path in _sources():
        vita = "vitabench" in path.parts
        for key, value in _walk(_load(path)):
            if _compound(key):
                fields.add(key)
            if key == "enum" and isinstance(value, list):
                fields.update(v for v in value if isinstance(v, str) and _compound(v))
            if not isinstance(value, str):
                continue
            if (key == "status" or key.endswith("_status")) and (
                " " in value.strip() or "(" in value
            ):
                statuses.add(value.lower())
            named = key in ("store", "product", "store_name", "product_name")
            if vita and named and value.isascii() and len(value.split()) >= 3:
                values.add(value.lower())
    shop = PKG / "examples" / "bookstore"
    for key, value in _walk(_load(shop / "environment.json")):
        if key == "enum" and isinstance(value, list):
            fields.update(v for v in value if isinstance(v, str) and _compound(v))
    for key, value in _walk(_load(shop / "initial_state.json")):
        if key in ("email", "name", "title", "code") and isinstance(value, str):
            values.add(value.lower())
    return {
        "field": frozenset(fields - GENERIC_NAMES),
        "status": frozenset(statuses),
        "value": frozenset(values),
    }


def _docstrings(tree: ast.AST) -> set[int]:
    kinds = (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)
    return {
        id(node.body[0].value)
        for node in ast.walk(tree)
        if isinstance(node, kinds) and node.body and isinstance(node.body[0], ast.Expr)
        and isinstance(node.body[0].value, ast.Constant)
    }  # fmt: skip


def literal_hits(text: str) -> list[str]:
    """The benchmark words one string literal holds."""
    vocab, low = vocabulary(), text.lower()
    hits = [w for w in re.findall(r"[A-Za-z_][A-Za-z0-9_]*", text) if w in vocab["field"]]
    hits += [s for s in vocab["status"] if low.strip() == s or ("(" in s and s in low)]
    hits += [v for v in vocab["value"] if v in low and re.search(rf"\b{re.escape(v)}\b", low)]
    hits += [name for name, shape in SHAPES.items() if shape.search(text)]
    return sorted(set(hits))


def scan(source: str) -> list[tuple[int, str]]:
    """(line, word) for every benchmark word in the module's non-docstring string literals."""
    tree = ast.parse(source)
    docs = _docstrings(tree)
    return [
        (node.lineno, word)
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docs
        for word in literal_hits(node.value)
    ]


def generic_modules() -> list[Path]:
    return [
        p for p in sorted(PKG.rglob("*.py"))
        if not p.relative_to(PKG).as_posix().startswith(SPECIFIC)
    ]  # fmt: skip


def test_the_word_list_comes_from_the_data_and_its_shapes_match_the_data() -> None:
    vocab = vocabulary()
    assert len(vocab["field"]) > 100 and "payment_method_id" in vocab["field"]
    assert "found_cheaper" in vocab["field"]
    assert vocab["status"] and vocab["value"]
    db = _load(BENCH / "tau2-bench" / "retail" / "db.json")
    assert all(SHAPES["#W"].match(k) for k in db["orders"])
    assert all(SHAPES["tau user id"].fullmatch(k) for k in db["users"])


def test_the_scan_catches_planted_benchmark_literals() -> None:
    planted = (
        'def f(order):\n    """payment_method_id in a docstring is fine."""\n'
        '    a = order["payment_method_id"]\n    b = "#W" + str(order)\n'
        '    return a, b, "yusuf_rossi_9620", "Kafka"\n'
    )
    words = {w for _, w in scan(planted)}
    assert {"payment_method_id", "#W", "tau user id"} <= words
    assert (2, "payment_method_id") not in scan(planted)


def test_generic_packages_hold_no_benchmark_literals() -> None:
    found = []
    for path in generic_modules():
        rel = path.relative_to(PKG).as_posix()
        for line, word in scan(path.read_text(encoding="utf-8")):
            if (rel, word) not in ALLOWED:
                found.append(f"{rel}:{line}: {word!r}")
    assert not found, "benchmark conventions in generic code (move them to a profile):\n" + (
        "\n".join(found)
    )


def test_every_allowed_hit_still_exists() -> None:
    """An allow-list entry whose hit is gone is dropped (the fixing branch was merged)."""
    stale = [
        f"{rel} {word!r} ({branch})"
        for (rel, word), branch in ALLOWED.items()
        if word not in {w for _, w in scan((PKG / rel).read_text(encoding="utf-8"))}
    ]
    assert not stale, f"drop these ALLOWED entries: {stale}"
