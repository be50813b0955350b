"""What a batch forge reports: ``RUNS/batch.json`` (:class:`BatchReport`, one
:class:`ItemResult` per doc set) and ``RUNS/index.html`` (one row per doc set, linking each
run's report)."""

from __future__ import annotations

from pathlib import Path
from statistics import median
from typing import Literal

from pydantic import BaseModel, Field

from autoforge.forge.manifest import write_atomic
from autoforge.report import Markup, badge, card, join, page, section, table, tag

INDEX_FILE = "index.html"
ItemStatus = Literal["done", "failed"]


class ItemResult(BaseModel):
    """What forging one doc set gave: stage statuses and the figures of its run."""

    name: str
    run_dir: str
    status: ItemStatus
    failed_stage: str | None = None
    error: str | None = None
    stages: dict[str, str] = Field(default_factory=dict)
    tools_documented: int = 0
    tools: int = 0
    check_ok: bool | None = None
    check_error: str | None = Field(None, description="the first error of a failed check")
    tasks: int = 0
    tasks_asked: int = Field(0, description="tasks asked for (--tasks); 0 where not known")
    shortfall: list[str] = Field(
        default_factory=list,
        description="why fewer tasks than asked were made, and what to try (empty otherwise)",
    )
    verified: int = 0
    tools_left_out: dict[str, int] = Field(
        default_factory=dict,
        description="documented tools not in the environment, counted by the kind of reason",
    )

    @property
    def short(self) -> bool:
        """A run that made some tasks but fewer than asked (done, and incomplete)."""
        return self.status == "done" and 0 < self.tasks < self.tasks_asked

    writes_documented: int = 0
    writes_kept: int = 0
    rules_only: bool = False
    seconds: float = Field(0.0, description="wall time of this session's forge of the item")
    cpu_seconds: float = Field(0.0, description="CPU time of the process for the item")
    forge_seconds: float = Field(0.0, description="stage time over all sessions (run.json)")


class BatchReport(BaseModel):
    """``RUNS/batch.json``: one result per doc set, in discovery order."""

    schema_version: int = 1
    executor: str = "local"
    items: list[ItemResult] = Field(default_factory=list)

    def counts(self) -> dict[str, int]:
        """Doc sets forged completely and failed."""
        done = sum(r.status == "done" for r in self.items)
        return {"items": len(self.items), "done": done, "failed": len(self.items) - done}


def _status(r: ItemResult) -> Markup:
    if r.short:
        return badge(f"incomplete: {r.tasks} of {r.tasks_asked} tasks", "warn")
    if r.status == "done":
        return badge("done", "ok")
    return badge(f"failed at {r.failed_stage or '?'}", "bad")


def _check(r: ItemResult) -> Markup | str:
    if r.check_ok is None:
        return "-"
    if r.check_ok:
        return badge("passed", "ok")
    failed = badge("failed", "warn")  # the first error says why, beside the badge
    return join([failed, " ", r.check_error]) if r.check_error else failed


def _link(out: Path, r: ItemResult) -> Markup | str:
    report = Path(r.run_dir) / "report.html"
    if not report.is_file():
        return r.name
    try:
        href = report.resolve().relative_to(out.resolve()).as_posix()
    except ValueError:
        href = report.resolve().as_uri()
    return tag("a", r.name, href=href)


def summary_rows(out: Path, report: BatchReport) -> list[list[Markup | str | int | float]]:
    """The index table's rows: doc set, status, tools, check, tasks, verified, time, error."""
    return [
        [_link(out, r), _status(r), r.tools_documented, r.tools,
         f"{r.writes_kept}/{r.writes_documented}", _check(r), _tasks(r), r.verified,
         round(r.forge_seconds, 1), _left_out(r), _why(r)]
        for r in report.items
    ]  # fmt: skip


def _why(r: ItemResult) -> str:
    """The error column: the item's error, else why it made fewer tasks than asked (the
    causes and what to try, the counts line left out)."""
    lines = [r.error or ""] if r.error else []
    lines += [x for x in r.shortfall[1:] if x not in lines]
    return "; ".join(x for x in lines if x)[:400]


def _tasks(r: ItemResult) -> Markup | int:
    """The tasks count (of those asked, where fewer); no task at all is shown as the failure
    it is."""
    if r.short:
        return badge(f"{r.tasks} of {r.tasks_asked}", "warn")
    return r.tasks if r.tasks else badge("0", "bad")


def _left_out(r: ItemResult) -> str:
    """The tools left out, by reason, most common first."""
    ranked = sorted(r.tools_left_out.items(), key=lambda kv: -kv[1])
    return "; ".join(f"{n} x {why}" for why, n in ranked[:4])


def _forged_note(failed: int, items: list[ItemResult]) -> str:
    short = sum(r.short for r in items)
    return f"{failed} failed" + (f", {short} with fewer tasks than asked" if short else "")


def render_index(out: Path, report: BatchReport) -> str:
    """The HTML text of the batch's index page."""
    counts = report.counts()
    items = report.items
    rules = any(r.rules_only for r in items)
    cards = [
        card("doc sets", str(counts["items"]), f"executor {report.executor}"),
        card("forged", str(counts["done"]), _forged_note(counts["failed"], items),
             "ok" if not counts["failed"] else "bad"),
        card("tasks", str(sum(r.tasks for r in items)),
             f"{sum(r.verified for r in items)} verified"),
        card("median time", f"{median([r.forge_seconds for r in items]):.0f}s" if items else "-",
             "per doc set"),
    ]  # fmt: skip
    note = (
        tag("p", join([badge("rules only", "warn"), " no LLM was used (--llm none)"]))
        if rules
        else ""
    )
    headers = ["doc set", "status", "documented tools", "env tools", "writes kept", "check",
               "tasks", "verified", "forge s", "tools left out (why)", "error"]  # fmt: skip
    grid = table(headers, summary_rows(out, report), numeric=(2, 3, 6, 7, 8))
    body = join([
        section("Summary", join([note, tag("div", join(cards), cls="cards")]), anchor="summary"),
        section("Doc sets", grid, anchor="items"),
    ])  # fmt: skip
    nav = [("summary", "Summary"), ("items", "Doc sets")]
    return page("autoforge batch", str(out.resolve()), nav, body)


def write_index(out: Path, report: BatchReport) -> Path:
    """Write ``out/index.html`` and return its path."""
    return write_atomic(out / INDEX_FILE, render_index(out, report))
