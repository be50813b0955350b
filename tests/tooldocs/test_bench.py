"""Every benchmark domain under the shared benchmark data imports without error."""

from __future__ import annotations

import json
from pathlib import Path

from jsonschema import Draft202012Validator

from autoforge.tooldocs import DocInput, detect_format, load_doc, load_docs


def _domains(root: Path) -> list[Path]:
    return sorted(p.parent for p in root.rglob("tools.json"))


def test_all_benchmark_tool_files_import(benchmarks_dir: Path) -> None:
    domains = _domains(benchmarks_dir)
    assert len(domains) >= 10
    benches = {d.relative_to(benchmarks_dir).parts[0] for d in domains}
    assert {"tau-bench", "tau2-bench", "vitabench", "acebench"} <= benches
    for folder in domains:
        _check_domain(folder)


def _check_domain(folder: Path) -> None:
    assert detect_format(DocInput.from_path(folder)) == "bench"
    docs = load_doc(folder)
    raw = json.loads((folder / "tools.json").read_text())
    assert [t.name for t in docs.tools] == [t["function"]["name"] for t in raw]
    assert docs.domain == folder.name
    policy = folder / "policy.md"
    assert docs.policy == (policy.read_text().strip() if policy.is_file() else None)
    for tool in docs.tools:
        Draft202012Validator.check_schema(tool.parameters)
        assert tool.parameters["type"] == "object" and "$ref" not in json.dumps(tool.parameters)
        assert tool.source is not None and tool.source.file == str(folder / "tools.json")
    meta_path = folder / "tools_meta.json"
    if meta_path.is_file():
        meta = {m["name"]: m for m in json.loads(meta_path.read_text())}
        for tool in docs.tools:
            entry = meta[tool.name]
            if "mutates_state" in entry:
                assert tool.access == ("write" if entry["mutates_state"] else "read"), tool.name
            else:
                assert tool.access == ("write" if entry["tool_type"] == "write" else "read")
    else:
        assert all(t.access is None for t in docs.tools)


def test_tau2_airline_refs_inlined(benchmarks_dir: Path) -> None:
    docs = load_doc(benchmarks_dir / "tau2-bench" / "airline")
    book = docs.tool("book_reservation").parameters
    assert "$defs" not in book
    flight = book["properties"]["flights"]["items"]["anyOf"][0]
    assert flight["required"] == ["flight_number", "date"]
    assert docs.tool("cancel_reservation").access == "write"
    assert docs.tool("get_user_details").access == "read"


def test_tools_json_file_alone_is_openai_and_bench_file_uses_its_folder(
    benchmarks_dir: Path,
) -> None:
    folder = benchmarks_dir / "tau2-bench" / "retail"
    plain = load_doc(folder / "tools.json")
    assert plain.policy is None and all(t.access is None for t in plain.tools)
    as_bench = load_doc(folder / "tools.json", format="bench")
    assert as_bench.policy and as_bench.domain == "retail"


def test_two_domains_merge_and_domain_override(benchmarks_dir: Path) -> None:
    a = benchmarks_dir / "tau2-bench" / "mock"
    b = benchmarks_dir / "vitabench" / "delivery"
    docs = load_docs([a, b], domain="combo")
    assert docs.domain == "combo"
    assert len(docs.tools) == len(load_doc(a).tools) + len(load_doc(b).tools)
    assert docs.policy is not None and docs.policy.count("\n\n") >= 1
