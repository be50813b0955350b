"""What a forge run failed to do, and why, in words.

The terminal, ``report.html`` and the batch ``index.html`` all say the same thing from these
functions: which tools failed and why, why fewer tasks than asked were made (missing tools,
rejections by reason, a difficulty out of reach) and what to try, and whether the run as a
whole counts as failed (a stage failed, or no task was made when tasks were asked for).
"""

from __future__ import annotations

from typing import Any

from autoforge.forge.manifest import RunManifest

REJECTION_HELP = {
    "no_walk": "no random walk of the requested length through the tool graph",
    "invalid_blueprint": "the merged walks did not make a complete blueprint",
    "difficulty": "outside the requested difficulty ranges",
    "gold_error": "the gold calls raised a tool error on every generated state",
    "degenerate": "a reasoning step had no unique answer (ties, empty lists)",
    "no_fact_value": "no value could be found for a user-known fact",
    "missing_fact": "a fact the blueprint needs was not available",
    "do_nothing_passes": "S* equals S0 and nothing must be told: doing nothing would pass",
    "nondeterministic": "replaying the gold run did not reproduce S* and the outputs",
    "duplicate": "same blueprint and facts as an earlier task",
    "repeated_call": "the gold run made the same state-changing call twice",
    "scenario": "the user scenario left out a fact the blueprint needs",
    "repeated_ask": "the written request asked for the same thing twice",
    "reasoning_shape": "a reasoning step got another shape than documented (a record, not a list)",
    "ambiguous_reference": "what the user holds (a title, an email) matched several records",
    "several_users": "the gold calls act for more than one user, so 'my account' is ambiguous",
    "doomed_after_terminal": "a write on a record an earlier call of the same task cancelled or "
    "deleted (decided before any state was drawn)",
    "doomed_after_status": "a write on a record an earlier call of the same task always leaves "
    "in a status the write does not accept (decided before any state was drawn)",
    "doomed_repeat_unique": "a second record that a documented uniqueness rule forbids "
    "(decided before any state was drawn)",
    "doomed_one_record": "a step needs several records where a finder returns exactly one "
    "(decided before any state was drawn)",
    "implausible_after_terminal": "a record was changed after it was cancelled or deleted",
    "implausible_ineligible": "the policy forbids the change for the record as it is in S0",
    "secret_fact": "the user would have to state a secret (a PIN, password, passcode, CVV or OTP)",
    "order_dependent": "two writes that do not depend on each other end in another S* when run "
    "the other way round, so the request would have to fix their order",
}

_PREFIX_HELP = {
    "error:": "an error inside the attempt, counted and skipped (first message: generation.json)",
    "doomed_": "the blueprint could never give a task (decided before any state was drawn)",
    "implausible_": "the gold run breaks a documented rule or the policy",
}


def rejection_text(code: str) -> str:
    """What a rejection reason of task generation means, in words."""
    if code in REJECTION_HELP:
        return REJECTION_HELP[code]
    for prefix, text in _PREFIX_HELP.items():
        if code.startswith(prefix):
            return text
    return "no description for this reason; see generation.json"


def failed_tools(synthesis: dict[str, Any] | None) -> list[tuple[str, str]]:
    """``(tool, why)`` for each documented tool that synthesis did not turn into working code."""
    if not synthesis:
        return []
    rules_only = bool(synthesis.get("rules_only"))
    out = []
    for tool in synthesis.get("tools") or []:
        if tool.get("status") != "failed":
            continue
        out.append((str(tool.get("name", "?")), _why_tool_failed(tool, rules_only)))
    return out


def _why_tool_failed(tool: dict[str, Any], rules_only: bool) -> str:
    errors = [str(e) for e in tool.get("errors") or [] if str(e).strip()]
    if errors:
        first = errors[-1].strip().splitlines()[0]
        return f"{first[:200]} (after {tool.get('attempts', 0)} attempt(s))"
    checks = tool.get("checks") or []
    failing = [c for c in checks if not c.get("ok")]
    if failing:
        name = failing[0].get("name") or failing[0].get("check") or "a check"
        return f"{len(failing)} of {len(checks)} checks failed, first: {name}"
    if str(tool.get("reason") or "").strip():  # synthesis said why (a scope problem, ...)
        return str(tool["reason"]).strip()[:300]
    kind = tool.get("cls") or "this kind of"
    article = "an" if str(kind)[:1].lower() in "aeiou" else "a"
    if rules_only or not tool.get("attempts"):
        return (f"no code template covers {article} {kind} tool and no model was asked"
                f"{' (rules only)' if rules_only else ''}")  # fmt: skip
    return "rejected without a recorded reason; see env/synthesis_report.json"


def checks_cell(tool: dict[str, Any]) -> str:
    """The checks column of a tool: passed/total, and never a full score beside 'failed';
    code compiled from the behaviour model is checked by the environment's conformance check
    only, which the column says instead of "0/0"."""
    checks = tool.get("checks") or []
    passed = sum(1 for c in checks if c.get("ok"))
    if tool.get("status") == "failed":
        return f"{passed}/{len(checks)} before it failed" if checks else "none ran"
    if not checks and tool.get("source") == "behaviour":
        return "in the run's conformance check"  # compiled code has no checks of its own
    return f"{passed}/{len(checks)}"


def _stage_detail(manifest: RunManifest, name: str) -> dict[str, Any]:
    rec = manifest.stages.get(name)
    return rec.detail if rec is not None else {}


def task_shortfall(
    manifest: RunManifest,
    synthesis: dict[str, Any] | None = None,
    generation: dict[str, Any] | None = None,
    writes: int | None = None,
) -> list[str]:
    """Why the run made fewer tasks than asked, and what to try; empty when it made enough
    (or never got to the tasks stage). ``writes``: the environment's write tools, where known
    (with none, no task changes anything, and that is the cause to name)."""
    tasks = _stage_detail(manifest, "tasks")
    if not tasks or manifest.stages["tasks"].status != "done":
        return []
    target, produced = int(tasks.get("target", 0)), int(tasks.get("produced", 0))
    if produced >= target:
        return []
    gen = generation or {}
    lines = [f"{produced} of {target} tasks after {tasks.get('attempts', 0)} attempts"]
    lines += [f"tool {name} is missing: {why}" for name, why in failed_tools(synthesis)]
    note = gen.get("note") or tasks.get("note")
    if note:
        lines.append(str(note))
    left = gen.get("partial_writes") or []
    if left:
        lines.append(
            f"{len(left)} write tool(s) left out of gold calls, each leaving a rule its docs "
            f"or policy state unenforced (a gold call could break it; see env/behaviour.json, "
            f"unenforced and policy_unenforced): {', '.join(left)}"
        )
    rejected = tasks.get("rejected") or gen.get("rejected") or {}
    for code, count in sorted(rejected.items(), key=lambda kv: -kv[1])[:4]:
        lines.append(f"rejected {count}x {code}: {rejection_text(code)}")
    for failure, count in list((gen.get("failures") or {}).items())[:3]:
        lines.append(f"  {count}x {failure}")
    if writes == 0:
        lines.append("the environment has no write tool, so no task can change its state: "
                     "tasks need at least one documented tool that creates, changes or "
                     "removes something")  # fmt: skip
    lines.append("try: " + _what_to_try(manifest, rejected, bool(failed_tools(synthesis)), writes))
    return lines


def _what_to_try(
    manifest: RunManifest, rejected: dict[str, int], missing: bool, writes: int | None = None
) -> str:
    options = manifest.options
    tips = []
    if writes == 0 and not missing:
        return "docs with a write tool (a create, update, cancel or delete operation)"
    top = max(rejected, key=lambda k: rejected[k]) if rejected else ""
    if top == "difficulty" or top.startswith("doomed_") or top == "no_walk":
        level = options.get("difficulty", "medium")
        easier = "easy" if level != "easy" else "any"
        tips.append(f"--difficulty {easier} (now {level})")
    if missing:
        tips.append("a model for the missing tools (--llm-model small or an endpoint via "
                    "--llm-base-url) or an --env with them")  # fmt: skip
    if top == "duplicate":  # the distinct tasks the docs allow are used up: more tries repeat
        tips.append("fewer --tasks (the attempts kept repeating tasks already made)")
        tips.append("another --difficulty or --seed")
    elif not (top == "no_walk" or top.startswith("doomed_")):  # more tries cannot reach those
        tips.append("--max-attempts with a higher limit")
    tips.append("--data with real records (more values to draw from)")
    return "; ".join(tips)


def failed_stage(manifest: RunManifest) -> str | None:
    """The stage the run recorded as failed, if any."""
    return next((n for n, rec in manifest.stages.items() if rec.status == "failed"), None)


def run_failure(manifest: RunManifest) -> str | None:
    """Why the run counts as failed, or None: a stage failed, or the tasks stage ran and
    made no task although tasks were asked for."""
    name = failed_stage(manifest)
    if name is not None:
        return f"stage {name} failed: {manifest.stages[name].error or 'see run.json'}"
    tasks = _stage_detail(manifest, "tasks")
    done = bool(tasks) and manifest.stages["tasks"].status == "done"
    if done and int(tasks.get("target", 0)) > 0 and int(tasks.get("produced", 0)) == 0:
        return f"no task was made in {tasks.get('attempts', 0)} attempts{_main_reason(tasks)}"
    return None


def _main_reason(tasks: dict[str, Any]) -> str:
    """`` (most rejections: CODE, meaning)`` for a stage detail with rejections, else empty."""
    rejected = tasks.get("rejected") or {}
    if not rejected:
        return ""
    code = max(rejected, key=lambda k: rejected[k])
    return f" (most rejected as {code}: {rejection_text(code)})"
