"""Forging a directory of doc sets: ``autoforge forge DIR_OF_DOC_SETS --out RUNS``.

Each direct entry of the directory is one doc set: a tool document (``billing.yaml``), or a
folder of documents (all its JSON/YAML/Markdown files, or a benchmark domain folder as a
whole). Each doc set is forged into ``RUNS/<name>/`` by :func:`~autoforge.forge.run_forge`
with the same options and seed, so every item is resumable on its own (a rerun skips the
stages its ``run.json`` records as done) and a failing item is a counted failure, never the
end of the batch. ``RUNS/batch.json`` holds one :class:`ItemResult` per doc set, rewritten
after each, and ``RUNS/index.html`` a summary table linking each item's ``report.html``.

Executors: ``local`` forges the items one after another in this process; ``ray`` makes each
doc set one task of a :class:`~autoforge.rollout.ray_executor.RayPool` (one actor per worker,
one item at a time each). An item's result depends only on its docs and the options, so both
executors give the same run directories for the same seeds.
"""

from __future__ import annotations

import dataclasses
import json
import re
import time
from collections import Counter
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from autoforge.env import EnvDir
from autoforge.errors import UserError
from autoforge.forge.batch_report import BatchReport, ItemResult, write_index
from autoforge.forge.context import ForgeError, ForgeReporter
from autoforge.forge.layout import ForgeOptions
from autoforge.forge.manifest import RunManifest, load_manifest, write_atomic
from autoforge.forge.outlock import out_lock
from autoforge.forge.report import run_shortfall
from autoforge.forge.runner import run_forge
from autoforge.forge.summary import failed_stage, run_failure
from autoforge.lexicon import tool_access
from autoforge.llm import LLMClient, LLMConfig
from autoforge.synth import reason_kind
from autoforge.tooldocs import load_doc

DOC_SUFFIXES = frozenset({".json", ".yaml", ".yml", ".md", ".markdown", ".txt"})
BATCH_FILE = "batch.json"
Executor = Literal["local", "ray"]


def safe_dir_name(name: str) -> str:
    """``name`` as a portable directory name (letters, digits, ``.``, ``_``, ``-``)."""
    return re.sub(r"[^A-Za-z0-9._-]+", "_", name).strip("._") or "docs"


@dataclass(frozen=True)
class DocSet:
    """One doc set of a batch: its name (the run directory's) and its documents."""

    name: str
    docs: tuple[Path, ...]


def _doc_files(folder: Path) -> list[Path]:
    return sorted(p for p in folder.iterdir() if p.is_file() and p.suffix.lower() in DOC_SUFFIXES)


def discover(root: Path) -> list[DocSet]:
    """The doc sets of ``root``, sorted by name; a ``UserError`` when there are none."""
    if not root.is_dir():
        raise UserError(f"{root}: not a directory of doc sets")
    found: list[DocSet] = []
    for entry in sorted(root.iterdir()):
        if entry.name.startswith("."):
            continue
        if entry.is_dir():
            docs = [entry] if (entry / "tools.json").is_file() else _doc_files(entry)
            if docs:
                found.append(DocSet(safe_dir_name(entry.name), tuple(docs)))
        elif entry.suffix.lower() in DOC_SUFFIXES:
            found.append(DocSet(safe_dir_name(entry.stem), (entry,)))
    names = [d.name for d in found]
    clashes = sorted({n for n in names if names.count(n) > 1})
    if clashes:
        raise UserError(f"{root}: two doc sets map to the run directory {clashes[0]!r}; rename one")
    if not found:
        raise UserError(
            f"{root}: no doc sets (tool documents, or folders of them) found in this directory"
        )
    return found


def is_doc_set_dir(path: Path) -> bool:
    """Whether ``path`` is a directory of doc sets rather than one doc (a benchmark domain)."""
    return path.is_dir() and not (path / "tools.json").is_file()


def result_of(
    item: DocSet, run_dir: Path, manifest: RunManifest, error: str | None, wall: float, cpu: float
) -> ItemResult:
    """The :class:`ItemResult` of one item from its manifest (and the error it ended with)."""
    error = error or run_failure(manifest)  # no task made counts as a failed item
    stages: dict[str, str] = {name: rec.status for name, rec in manifest.stages.items()}
    failed = failed_stage(manifest)
    if error and failed is None:
        failed = next((n for n, s in stages.items() if s != "done"), None)
    if error and failed is None:  # every stage done, yet no task
        failed = "tasks"
    detail = {name: rec.detail for name, rec in manifest.stages.items()}
    env, verify = detail.get("environment", {}), detail.get("verify", {})
    check = env.get("conformance") or {}
    left_out, writes = tool_outcomes(run_dir)
    return ItemResult(
        name=item.name,
        run_dir=str(run_dir),
        status="failed" if error else "done",
        failed_stage=failed if error else None,
        error=error,
        stages=stages,
        tools_documented=int(detail.get("ingest", {}).get("tools", 0)),
        tools=int(env.get("tools", 0)),
        check_ok=bool(check.get("ok")) if check else None,
        check_error=next(iter(check.get("errors") or []), None) if check else None,
        tasks=int(detail.get("tasks", {}).get("produced", 0)),
        tasks_asked=int(detail.get("tasks", {}).get("target", 0) or 0),
        shortfall=run_shortfall(run_dir, manifest),
        verified=int(verify.get("verified", 0)),
        tools_left_out=left_out,
        writes_documented=writes[0],
        writes_kept=writes[1],
        rules_only=bool(env.get("rules_only")) or manifest.model.startswith("none"),
        seconds=round(wall, 3),
        cpu_seconds=round(cpu, 3),
        forge_seconds=round(manifest.seconds, 3),
    )


def tool_outcomes(run_dir: Path) -> tuple[dict[str, int], tuple[int, int]]:
    """From a run's files: its documented tools left out of the environment, counted by the
    kind of their recorded reason, and (documented, kept) write tools."""
    env_dir = EnvDir(run_dir / "env")
    try:
        docs = load_doc(run_dir / "tools.json")
    except Exception:  # a run that stopped before ingest has no tools to count
        return {}, (0, 0)
    try:
        kept = {t.name for t in env_dir.read_spec().tools}
    except Exception:  # no environment written: every tool is left out
        kept = set()
    report_file = env_dir.report_path
    try:
        reports = json.loads(report_file.read_text(encoding="utf-8")).get("tools", [])
    except (OSError, ValueError):
        reports = []
    why = {t.get("name"): _reason(t) for t in reports if isinstance(t, dict)}
    left: Counter[str] = Counter()
    for tool in docs.tools:
        if tool.name not in kept:
            left[reason_kind(why.get(tool.name) or "not synthesized")] += 1
    writes = [t.name for t in docs.tools if tool_access(t) == "write"]
    return dict(left), (len(writes), sum(n in kept for n in writes))


def _reason(tool: dict[str, Any]) -> str:
    """A tool report's reason; for a report without one, its first error, or the check that
    dropped a tool synthesis kept."""
    if tool.get("reason"):
        return str(tool["reason"])
    errors = tool.get("errors") or []
    if errors:
        return str(errors[0])
    return "left out by the conformance check" if tool.get("status") != "failed" else ""


async def forge_item(
    item: DocSet,
    base: ForgeOptions,
    out: Path,
    config: LLMConfig | None,
    reporter: ForgeReporter | None = None,
) -> ItemResult:
    """Forge one doc set into ``out/<name>``; expected and unexpected failures are recorded."""
    options = dataclasses.replace(base, out=out / item.name, docs=list(item.docs), example=None)
    start, cpu = time.monotonic(), time.process_time()
    error: str | None = None

    def client() -> LLMClient:
        return LLMClient(config)

    try:
        manifest = await run_forge(options, client_factory=client, reporter=reporter)
    except ForgeError as exc:
        error = str(exc)
    except UserError as exc:
        error = f"stage ingest failed: {exc}"
    except Exception as exc:  # a crash in one item is that item's failure, not the batch's
        error = f"{type(exc).__name__}: {exc}"
    if error is not None:
        manifest = load_manifest(options.out)
    wall, used = time.monotonic() - start, time.process_time() - cpu
    return result_of(item, options.out, manifest, error, wall, used)


@dataclass
class ItemWorker:
    """Picklable: builds, in a Ray worker, the function that forges one doc set."""

    base: ForgeOptions
    out: Path
    config: LLMConfig | None

    def __call__(self) -> Callable[[DocSet], Awaitable[ItemResult]]:
        async def handle(item: DocSet) -> ItemResult:
            return await forge_item(item, self.base, self.out, self.config)

        return handle


OnItem = Callable[[ItemResult], None]


async def forge_many(
    items: Sequence[DocSet],
    base: ForgeOptions,
    out: Path,
    config: LLMConfig | None,
    *,
    executor: Executor = "local",
    workers: int = 2,
    on_item: OnItem | None = None,
    ray_init: dict[str, object] | None = None,
) -> BatchReport:
    """Forge every doc set into ``out/<name>``; ``batch.json`` and ``index.html`` kept current."""
    with out_lock(out):  # a second batch into the same --out is refused
        results: dict[str, ItemResult] = {}
        order = [i.name for i in items]

        def record(result: ItemResult) -> None:
            results[result.name] = result
            report = BatchReport(
                executor=executor, items=[results[n] for n in order if n in results]
            )
            write_atomic(out / BATCH_FILE, report.model_dump_json(indent=2) + "\n")
            write_index(out, report)  # an interrupted batch still shows what it finished
            if on_item is not None:
                on_item(result)

        if executor == "local":
            for item in items:
                record(await forge_item(item, base, out, config))
        elif executor == "ray":
            await _on_ray(items, ItemWorker(base, out, config), workers, record, ray_init)
        else:
            raise UserError(f"--executor must be local or ray, got {executor!r}")
        report = BatchReport(executor=executor, items=[results[n] for n in order])
        write_atomic(out / BATCH_FILE, report.model_dump_json(indent=2) + "\n")
        write_index(out, report)
        return report


async def _on_ray(
    items: Sequence[DocSet],
    worker: ItemWorker,
    workers: int,
    record: OnItem,
    ray_init: dict[str, object] | None,
) -> None:
    from autoforge.rollout import RayPool

    pool: RayPool[DocSet, ItemResult] = RayPool(
        worker, actors=max(1, min(workers, len(items))), concurrency_per_actor=1, init=ray_init
    )

    def done(item: DocSet, result: ItemResult | BaseException) -> None:
        if isinstance(result, BaseException):  # the worker itself died: a failed item
            run_dir = worker.out / item.name
            manifest = load_manifest(run_dir) if run_dir.exists() else RunManifest()
            error = f"{type(result).__name__}: {result}"
            result = result_of(item, run_dir, manifest, error, 0.0, 0.0)
        record(result)

    await pool.run(list(items), done)
