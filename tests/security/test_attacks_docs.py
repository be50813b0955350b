"""Attacks on the tool-document loaders (issue 14, docs findings): each hostile document is
refused fast with a ``DocParseError`` naming the file (and line) and the fix, never a
``MemoryError``, ``RecursionError``, ``ValueError`` or ``UnicodeDecodeError`` traceback."""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest
import typer
from typer.testing import CliRunner

from autoforge.cli.ingest import register
from autoforge.tooldocs import DocParseError, load_doc, parse_text
from autoforge.tooldocs.safeload import DocLimits, parse_json, parse_yaml

#: the classic YAML billion laughs: 9 levels of 9 aliases, 9^9 (~387 million) strings expanded
BILLION_LAUGHS = "".join(
    [
        'a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]\n',
        *(
            f"{n}: &{n} [{','.join(['*' + p] * 9)}]\n"
            for p, n in zip("abcdefgh", "bcdefghi", strict=True)
        ),
    ]
)
OPENAPI_HEAD = 'openapi: 3.0.3\ninfo: {title: t, version: "1"}\n'


def _refused(text: str, filename: str, *fragments: str, within_s: float = 2.0) -> DocParseError:
    start = time.monotonic()
    with pytest.raises(DocParseError) as info:
        parse_text(text, filename=filename)
    assert time.monotonic() - start < within_s
    message = str(info.value)
    assert message.startswith(filename) and "(fix: " in message, message
    for fragment in fragments:
        assert fragment in message, message
    return info.value


def test_billion_laughs_fails_fast_with_a_clean_error() -> None:
    """487 bytes once took 22 s and ended in a MemoryError traceback."""
    assert len(BILLION_LAUGHS) < 500
    _refused(BILLION_LAUGHS, "api.yaml", "aliases expand", within_s=0.5)
    _refused(OPENAPI_HEAD + "x-bomb:\n  " + BILLION_LAUGHS.replace("\n", "\n  "), "o.yaml")


@pytest.mark.parametrize(
    "text",
    ["a: &x [1, *x]\n", "a: &x {b: *x}\n", "a: &x\n  b:\n    - c: *x\n"],
    ids=["sequence", "mapping", "block"],
)
def test_self_referencing_alias_is_refused(text: str) -> None:
    err = _refused(text, "self.yaml", "refers to its own anchor", "line")
    assert err.location.line is not None


@pytest.mark.parametrize(
    ("text", "filename"),
    [
        ("a: " + "[" * 1500 + "]" * 1500, "flow.yaml"),
        ("a:\n" + "".join(" " * (2 * i) + "-\n" for i in range(1, 1200)), "block.yaml"),
        ("[" * 100_000 + "]" * 100_000, "deep.json"),
        ('{"a": ' * 1200 + "1" + "}" * 1200, "objects.json"),
    ],
    ids=["yaml-flow", "yaml-block", "json-100k", "json-objects"],
)
def test_nesting_over_the_limit_is_refused(text: str, filename: str) -> None:
    _refused(text, filename, "nested more than 100 levels")


def test_aliases_cannot_nest_past_the_limit() -> None:
    """Each anchor nests the previous one 60 deep: 120 levels once expanded."""
    text = "a: &a " + "[" * 60 + "1" + "]" * 60 + "\nb: " + "[" * 60 + "*a" + "]" * 60 + "\n"
    _refused(text, "nest.yaml", "once its aliases are expanded")


@pytest.mark.parametrize(
    ("text", "filename"),
    [("a: " + "9" * 5000 + "\n", "big.yaml"), ('{"a": ' + "9" * 5000 + "}", "big.json")],
)
def test_integer_over_4300_digits_is_refused(text: str, filename: str) -> None:
    err = _refused(text, filename, "5000 digits", "quoted string")
    assert err.location.line == 1


def test_latin1_files_are_refused_with_the_place(tmp_path: Path) -> None:
    doc = tmp_path / "tools.json"
    doc.write_bytes('[{"name": "f",\n "description": "caf\xe9"}]'.encode("latin-1"))
    with pytest.raises(DocParseError) as info:
        load_doc(doc)
    message = str(info.value)
    assert "not UTF-8" in message and "line 2" in message and "save the file as UTF-8" in message


def test_latin1_policy_of_a_bench_domain_is_refused(tmp_path: Path) -> None:
    domain = tmp_path / "shop"
    domain.mkdir()
    tool = {"type": "function", "function": {"name": "f", "parameters": {"type": "object"}}}
    (domain / "tools.json").write_text(json.dumps([tool]))
    (domain / "policy.md").write_bytes("R\xe8gles".encode("latin-1"))
    with pytest.raises(DocParseError, match=r"policy\.md.*not UTF-8"):
        load_doc(domain, format="bench")


def test_ordinary_aliases_and_depth_still_load() -> None:
    """The limits leave real documents alone: shared anchors, 90 levels, big integers."""
    text = "base: &b {type: string}\nitems: [*b, *b, *b]\nnum: " + "7" * 4000 + "\n"
    value = parse_yaml(text, "ok.yaml")
    assert value["items"] == [{"type": "string"}] * 3 and len(str(value["num"])) == 4000
    nested = parse_json("[" * 90 + "]" * 90, "ok.json")
    assert isinstance(nested, list)
    assert parse_json("[" * 30 + "]" * 30, "t.json", DocLimits(max_depth=30)) is not None
    with pytest.raises(DocParseError):
        parse_json("[" * 31 + "]" * 31, "t.json", DocLimits(max_depth=30))


def test_ingest_cli_reports_a_bomb_as_a_doc_error(tmp_path: Path) -> None:
    app = typer.Typer(pretty_exceptions_enable=False)
    register(app)

    @app.callback()
    def _root() -> None:
        """Test root so that 'ingest' stays a subcommand."""

    bomb = tmp_path / "api.yaml"
    bomb.write_text(BILLION_LAUGHS)
    start = time.monotonic()
    result = CliRunner().invoke(app, ["ingest", str(bomb)])
    assert time.monotonic() - start < 2
    assert result.exit_code != 0 and isinstance(result.exception, DocParseError)
    assert "aliases expand" in str(result.exception)
