"""Forging a directory of doc sets: discovery, per-item runs, failures counted, resume, Ray."""

from __future__ import annotations

import asyncio
import json
import shutil
import sys
from pathlib import Path
from typing import Any

import pytest

from autoforge.cli.llm import llm_config_from_options
from autoforge.errors import UserError
from autoforge.examples import example_path
from autoforge.forge import ForgeOptions, load_manifest
from autoforge.forge.batch import BatchReport, discover, forge_many, is_doc_set_dir

NONE = llm_config_from_options(llm_model="none")


def _doc_sets(root: Path) -> Path:
    """Two good doc sets (a file, a folder) and one broken one, plus a hidden entry."""
    root.mkdir()
    shutil.copyfile(example_path("bookstore") / "openapi.yaml", root / "book shop.yaml")
    (root / "todo").mkdir()
    shutil.copyfile(example_path("todo") / "tools.openai.json", root / "todo" / "tools.openai.json")
    (root / "broken.json").write_text('{"swagger": "2.0", "paths": {"/a": {"get": 3}}}')
    (root / ".cache").mkdir()
    return root


def _base(out: Path) -> ForgeOptions:
    return ForgeOptions(
        out=out, tasks=3, difficulty="easy", seed=5, until="verify", exports=False,
        rules_only=True,
    )  # fmt: skip


def test_discover_files_and_folders(tmp_path: Path) -> None:
    root = _doc_sets(tmp_path / "docs")
    items = discover(root)
    assert [i.name for i in items] == ["book_shop", "broken", "todo"]
    assert items[2].docs == (root / "todo" / "tools.openai.json",)
    assert is_doc_set_dir(root) and not is_doc_set_dir(root / "book shop.yaml")
    with pytest.raises(UserError, match="no doc sets"):
        discover(root / ".cache")


def test_local_batch_counts_failures_writes_index_and_resumes(tmp_path: Path) -> None:
    root, out = _doc_sets(tmp_path / "docs"), tmp_path / "runs"
    seen: list[str] = []
    report = asyncio.run(
        forge_many(discover(root), _base(out), out, NONE, on_item=lambda r: seen.append(r.name))
    )
    assert seen == ["book_shop", "broken", "todo"]
    by = {r.name: r for r in report.items}
    assert by["broken"].status == "failed" and by["broken"].failed_stage == "ingest"
    assert "operation must be a mapping" in (by["broken"].error or "")
    for name in ("book_shop", "todo"):
        assert by[name].status == "done" and by[name].rules_only
        assert by[name].tasks == by[name].verified > 0
        assert (out / name / "report.html").is_file()
    saved = BatchReport.model_validate_json((out / "batch.json").read_text())
    assert saved.counts() == {"items": 3, "done": 2, "failed": 1}
    index = (out / "index.html").read_text()
    assert 'href="book_shop/report.html"' in index and "failed at ingest" in index
    tasks_before = (out / "todo" / "tasks.jsonl").read_text()
    again = asyncio.run(forge_many(discover(root), _base(out), out, NONE))
    manifest = load_manifest(out / "todo")
    assert manifest.sessions == 2 and manifest.stages["tasks"].skipped_last  # resumed, not redone
    assert (out / "todo" / "tasks.jsonl").read_text() == tasks_before
    assert [r.status for r in again.items] == [r.status for r in report.items]


@pytest.mark.slow
def test_ray_executor_gives_the_local_run_directories(tmp_path: Path) -> None:
    ray = pytest.importorskip("ray", reason="needs the [ray] extra: pip install -e '.[ray]'")
    root = _doc_sets(tmp_path / "docs")
    (root / "broken.json").unlink()
    items = discover(root)
    local, remote = tmp_path / "local", tmp_path / "ray"
    asyncio.run(forge_many(items, _base(local), local, NONE))
    ray.cloudpickle.register_pickle_by_value(sys.modules[__name__])
    if ray.is_initialized():
        ray.shutdown()
    init: dict[str, Any] = {"num_cpus": 2, "include_dashboard": False, "log_to_driver": False}
    try:
        report = asyncio.run(
            forge_many(items, _base(remote), remote, NONE, executor="ray", ray_init=init)
        )
    finally:
        ray.shutdown()
    assert report.executor == "ray" and all(r.status == "done" for r in report.items)
    for item in items:
        for name in ("tasks.jsonl", "tools.json", "env/tools.py", "verify.json"):
            a = (local / item.name / name).read_text()
            b = (remote / item.name / name).read_text()
            if name == "verify.json":
                a, b = (json.loads(x)["verified"] for x in (a, b))  # type: ignore[assignment]
            assert a == b, f"{item.name}/{name}"


def test_cli_forges_a_directory_and_rejects_ray_for_one_doc(tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from autoforge.cli.main import app

    root = _doc_sets(tmp_path / "docs")
    (root / "broken.json").unlink()
    out = tmp_path / "runs"
    args = ["forge", str(root), "--out", str(out), "--until", "ingest", "--llm", "none"]
    result = CliRunner().invoke(app, args, env={"COLUMNS": "200"})
    assert result.exit_code == 0, result.output
    assert "2 doc sets" in result.output and "book_shop" in result.output
    assert (out / "index.html").is_file() and (out / "todo" / "tools.json").is_file()
    one = ["forge", str(root / "book shop.yaml"), "--out", str(tmp_path / "one")]
    result = CliRunner().invoke(app, [*one, "--executor", "ray", "--llm", "none"])
    assert result.exit_code != 0 and "directory of doc sets" in str(result.exception or "")
