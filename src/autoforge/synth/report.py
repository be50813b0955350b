"""The synthesis report: per tool class, attempts, checks, final status, tokens; JSON + table."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, Field
from rich.table import Table

from autoforge.llm import TokenUsage
from autoforge.synth.modelcode.codegen import ToolCode

SYNTH_REPORT_SCHEMA_VERSION = 1

ToolStatus = Literal["accepted", "partial", "fallback", "failed"]
CodeSource = Literal["template", "llm", "skeleton", "behaviour", "none"]


class CheckResult(BaseModel):
    """One check of one candidate implementation."""

    name: str
    ok: bool
    detail: str = ""


class FillResult(BaseModel):
    """One TODO step of a draft the model was asked to fill
    (:mod:`autoforge.synth.modelcode.fill`)."""

    todo: str
    status: Literal["accepted", "rejected"]
    attempts: int = 0
    detail: str = Field(
        default="",
        description="why the last answer was rejected; on an accepted step, a note (a refusal "
        "no test call triggers: autoforge.synth.modelcode.fill.UNTRIGGERED)",
    )


class ToolReport(BaseModel):
    """What happened to one tool."""

    name: str
    cls: str
    collection: str | None = None
    plain: bool = False
    source: CodeSource = "none"
    status: ToolStatus = "failed"
    template: str = Field(
        default="",
        description="for source template: crud, documented list, or complete draft (the class "
        "draft with nothing left to write)",
    )
    attempts: int = 0
    accepted_attempt: int | None = Field(
        default=None, description="1 = first attempt; 0 = template, no LLM attempt needed"
    )
    checks: list[CheckResult] = Field(default_factory=list)
    errors: list[str] = Field(default_factory=list, description="why each failed attempt failed")
    reason: str = Field(
        default="",
        description="for a failed or fallback tool: in one line, why it was left out or kept "
        "only as its rule skeleton (autoforge.synth.checking.leftout)",
    )
    helpers_added: list[str] = Field(
        default_factory=list,
        description="few-shot helpers the LLM called without defining, supplied by synthesis",
    )
    llm_tests: int = 0
    llm_tests_dropped: int = Field(
        default=0, description="proposed cases contradicting the docs' preconditions"
    )
    fills: list[FillResult] = Field(
        default_factory=list,
        description="per-TODO fills: each step of the draft the model was asked for, and whether "
        "its lines were kept (a rejected step stays as the draft has it)",
    )
    usage: TokenUsage = Field(default_factory=TokenUsage)
    wall_s: float = 0.0
    classification_reason: str = ""
    enforced: list[str] = Field(
        default_factory=list, description="sentences of the docs a check or effect carries"
    )
    unenforced: list[str] = Field(
        default_factory=list,
        description="rule sentences of the tool's own description no check or effect carries",
    )
    rules: list[dict[str, str]] = Field(
        default_factory=list,
        description="preconditions enforced as guards, each with the sentence it came from",
    )

    @property
    def checks_passed(self) -> int:
        return sum(c.ok for c in self.checks)


class ToolRecord(BaseModel):
    """A tool's stored result under ``ENV_DIR/.synth/tools/``: report, code, fingerprint."""

    schema_version: int = SYNTH_REPORT_SCHEMA_VERSION
    fingerprint: str
    report: ToolReport
    code: ToolCode | None = None


class SynthesisReport(BaseModel):
    """``synthesis_report.json``."""

    schema_version: int = SYNTH_REPORT_SCHEMA_VERSION
    name: str
    mode: Literal["docs", "data"]
    model: str = ""
    rules_only: bool = Field(
        default=False, description="no model (--llm none): templates and rule skeletons only"
    )
    state: dict[str, Any] = Field(default_factory=dict)
    tools: list[ToolReport] = Field(default_factory=list)
    conformance: dict[str, Any] | None = None
    usage: TokenUsage = Field(default_factory=TokenUsage)
    wall_s: float = 0.0
    resumed: list[str] = Field(default_factory=list)
    conventions: str = Field(
        default="generic",
        description="convention profile used (autoforge.synth.rulecode.conventions)",
    )
    model_readings: list[dict[str, Any]] = Field(
        default_factory=list,
        description="each sentence (kind rule) or amount (kind amount) the model was asked to "
        "read into the behaviour model, with its tool and whether the reading was kept",
    )

    def readings_line(self) -> str:
        """One sentence on what the model read into the behaviour model, '' when not asked."""
        if not self.model_readings:
            return ""
        rules = [r for r in self.model_readings if r.get("kind") == "rule"]
        amounts = [r for r in self.model_readings if r.get("kind") == "amount"]
        kept = [r for r in self.model_readings if r.get("kept")]
        asked = [f"{len(rules)} rule sentence{'s' if len(rules) != 1 else ''}"] if rules else []
        asked += [f"{len(amounts)} amount{'s' if len(amounts) != 1 else ''}"] if amounts else []
        what = ", ".join(f"{r['tool']}: {r['text']}" for r in kept)
        return (
            f"the model read {' and '.join(asked)} the rules could not place; kept "
            f"{len(kept)}"
            + (f" ({what[:200]})" if kept else ", so the rules wrote every check and effect")
        )

    def counts(self) -> dict[str, int]:
        """How many tools ended accepted (template / first try / after repair), fallback, failed."""
        out = {"template": 0, "first_attempt": 0, "after_repair": 0, "fallback": 0, "failed": 0}
        out["behaviour"] = out["partial"] = 0
        for t in self.tools:
            if t.source == "behaviour":
                out["partial" if t.status == "partial" else "behaviour"] += 1
            elif t.status == "failed":
                out["failed"] += 1
            elif t.status == "fallback":
                out["fallback"] += 1
            elif t.accepted_attempt == 0:
                out["template"] += 1
            elif t.accepted_attempt == 1:
                out["first_attempt"] += 1
            else:
                out["after_repair"] += 1
        return out


_STATUS_STYLE = {"accepted": "green", "partial": "yellow", "fallback": "yellow", "failed": "red"}


def report_table(report: SynthesisReport) -> Table:
    """One row per tool: class, source, attempts, checks passed, status, tokens, seconds."""
    rules = ", rules only: no LLM" if report.rules_only else ""
    table = Table(title=f"synthesis of {report.name} ({report.mode} mode{rules})")
    for col in ("tool", "class", "source", "attempts", "checks", "status", "tokens", "s", "why"):
        table.add_column(col, justify="right" if col in ("attempts", "tokens", "s") else "left")
    for t in report.tools:
        style = _STATUS_STYLE.get(t.status, "")
        table.add_row(
            t.name,
            t.cls + (" (plain)" if t.plain else ""),
            t.source,
            str(t.attempts),
            f"{t.checks_passed}/{len(t.checks)}",
            f"[{style}]{t.status}[/]",
            str(t.usage.total_tokens),
            f"{t.wall_s:.1f}",
            t.reason if t.status != "accepted" else "",
        )
    return table
