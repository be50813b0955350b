"""``autoforge ingest``: summary table, JSON output that loads back, one-line errors."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import typer
from typer.testing import CliRunner

from autoforge.cli.ingest import register
from autoforge.tooldocs import DocParseError, ToolDocs, load_doc

FIXTURES = Path(__file__).parent / "fixtures"


@pytest.fixture(scope="module")
def app() -> typer.Typer:
    app = typer.Typer(pretty_exceptions_enable=False)
    register(app)

    @app.callback()
    def _root() -> None:
        """Test root so that 'ingest' stays a subcommand."""

    return app


def _run(app: typer.Typer, *args: str) -> tuple[int, str, BaseException | None]:
    result = CliRunner().invoke(app, ["ingest", *args], env={"COLUMNS": "200"})
    return result.exit_code, result.output, result.exception


def test_ingest_writes_ir_and_prints_table(app: typer.Typer, tmp_path: Path) -> None:
    out = tmp_path / "sub" / "tools.json"
    code, output, _ = _run(app, str(FIXTURES / "library_openapi30.yaml"), "--out", str(out))
    assert code == 0, output
    assert "domain library_openapi30: 13 tools" in output
    assert "checkoutBook" in output and "memberId, isbn" in output
    assert "source: " in output and "library_openapi30.yaml" in output
    assert "/paths/~1loans/post" in output
    assert f"wrote 13 tools to {out}" in output
    data = json.loads(out.read_text())
    assert data["schema_version"] == 1 and data["domain"] == "library_openapi30"
    assert ToolDocs.model_validate(data).tool("getBook").access == "read"
    assert load_doc(out).tools == ToolDocs.model_validate(data).tools  # IR is valid input


def test_ingest_several_docs_with_domain_and_stdout(app: typer.Typer) -> None:
    code, output, _ = _run(
        app,
        str(FIXTURES / "weather_openai_wrapped.json"),
        str(FIXTURES / "calendar_mcp_tools.json"),
        "--domain", "assistant", "--format", "auto", "--out", "-",
    )  # fmt: skip
    assert code == 0, output
    data = json.loads(output[output.index('{\n  "schema_version"') :])
    assert data["domain"] == "assistant" and len(data["tools"]) == 11


def test_ingest_without_out_writes_nothing(app: typer.Typer, tmp_path: Path) -> None:
    code, output, _ = _run(app, str(FIXTURES / "weather_openai_bare.json"))
    assert code == 0 and "pass --out FILE" in output
    assert "subscribe_alerts" in output and "region, email" in output


def test_ingest_shows_warnings(app: typer.Typer, tmp_path: Path) -> None:
    doc = tmp_path / "t.json"
    doc.write_text(json.dumps([{"name": "f", "parameters": {"properties": {}, "required": ["x"]}}]))
    code, output, _ = _run(app, str(doc))
    assert code == 0
    assert "warning:" in output and "required ['x'] not among the properties" in output


def test_ingest_error_is_a_doc_parse_error(app: typer.Typer, tmp_path: Path) -> None:
    code, _, exc = _run(app, str(tmp_path / "missing.yaml"))
    assert code != 0 and isinstance(exc, DocParseError)
    assert "file not found" in str(exc)
    code, _, exc = _run(app, str(FIXTURES / "weather_openai_bare.json"), "--format", "wsdl")
    assert isinstance(exc, DocParseError) and "unknown format 'wsdl'" in str(exc)


def test_main_prints_one_line_error(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    try:
        from autoforge.cli.main import main
    except ImportError as exc:  # another command module not written yet
        pytest.skip(f"autoforge.cli.main not importable yet: {exc}")
    bad = tmp_path / "bad.json"
    bad.write_text('[{"name": "get-order", "parameters": {}}]')
    with pytest.raises(SystemExit) as info:
        main(["ingest", str(bad)])
    assert info.value.code == 2
    err = capsys.readouterr().err
    assert "get-order" in err and "get_order" in err and "Traceback" not in err
