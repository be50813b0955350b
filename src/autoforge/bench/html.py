"""``eval.html``: the evaluation summary and a trajectory viewer, one self-contained page.

Built from the shared helpers of :mod:`autoforge.report.html` (everything escaped; no
scripts, no external assets). Sections: headline cards; pass^k per k overall, per domain and
per difficulty; one row per task; then every episode as a collapsible block with its reward
and why, the MEU judge's verdict and evidence, injected faults, the state diff against S*
(rebuilt by :mod:`.diffs`), and the conversation: user and agent messages, the agent's
reasoning (folded), each tool call with its arguments and the environment's answer.
"""

from __future__ import annotations

import json
import time
from collections import defaultdict
from collections.abc import Callable, Sequence
from typing import Any

from autoforge.bench.diffs import EpisodeDiff
from autoforge.bench.evaluation import EvalOutput
from autoforge.bench.passk import PassK
from autoforge.report import (
    Cell,
    Markup,
    badge,
    card,
    code_json,
    details,
    esc,
    join,
    page,
    section,
    table,
    tag,
)
from autoforge.rollout import Trajectory, message_reasoning, visible_text

MAX_TEXT = 4000
DiffFn = Callable[[Trajectory], EpisodeDiff | None]

EXTRA_CSS = """
.episode { border: 1px solid var(--line); border-radius: 8px; margin: 8px 0; padding: 4px 12px;
  background: #fff; }
.episode > summary { font-family: ui-monospace, monospace; font-size: 13px; padding: 4px 0; }
.msg { border-left: 3px solid var(--line); margin: 6px 0; padding: 4px 10px; }
.msg .who { font-size: 11px; text-transform: uppercase; color: var(--muted);
  letter-spacing: .04em; }
.msg .text { white-space: pre-wrap; word-break: break-word; }
.msg.user { border-color: #38bdf8; background: #f0f9ff; }
.msg.assistant { border-color: #a78bfa; background: #faf5ff; }
.msg.tool { border-color: #9ca3af; background: var(--bg); font-size: 12px; }
.msg.tool.err { border-color: #ef4444; background: #fef2f2; }
.msg.system { border-color: #d1d5db; }
.kv td:first-child { color: var(--muted); white-space: nowrap; }
"""


def _cut(text: str, limit: int = MAX_TEXT) -> str:
    return text if len(text) <= limit else text[:limit] + f" ... ({len(text) - limit} more)"


def _pct(value: float | None) -> str:
    return "-" if value is None else f"{value:.3f}"


def _reward_badge(t: Trajectory) -> Markup:
    if t.is_infra_error:
        return badge("infra error", "warn")
    if t.reward is None:
        return badge("unscored", "neutral")
    return badge("reward 1", "ok") if t.reward == 1.0 else badge("reward 0", "bad")


def _judge_badge(t: Trajectory) -> Markup:
    if t.user_error is None:
        return badge("not judged", "neutral") if not t.user_error_reason else badge("judge failed")
    return badge("user error", "warn") if t.user_error else badge("user ok", "info")


# --------------------------------------------------------------------------- summary


def _rate_kind(rate: float | None) -> str:
    """The colour of a success rate: green only for a majority, red for none at all."""
    if rate is None:
        return ""
    return "ok" if rate >= 0.5 else ("bad" if rate == 0 else "warn")


def _cards(out: EvalOutput) -> Markup:
    top = max(out.pass_hat_k) if out.pass_hat_k else None
    pass1 = out.pass_hat_k.get(1)
    tasks = f"{out.n_tasks} task{'s' if out.n_tasks != 1 else ''}"
    items = [card("pass^1", _pct(pass1), tasks, _rate_kind(pass1))]
    if top is not None and top != 1:  # with one trial per task pass^k is pass^1: one card
        rate = out.pass_hat_k.get(top)
        items.append(card(f"pass^{top}", _pct(rate), f"all {top} trials pass", _rate_kind(rate)))
    items += [
        card("episodes", str(out.n_trials), f"{out.n_valid_trials} valid"),
        card(
            "infra errors", str(out.n_infra_errors), "excluded", "bad" if out.n_infra_errors else ""
        ),
        card("user errors", str(out.n_user_errors), "MEU judge"),
        card("unscored", str(out.n_unscored)),
    ]
    if out.episodes_per_hour:
        items.append(card("episodes / hour", f"{out.episodes_per_hour:,.0f}"))
    return tag("div", join(items), cls="cards")


def pass_table(out: EvalOutput) -> Markup:
    """pass^k per k: overall, then each domain and difficulty."""
    overall = PassK(pass_hat_k=out.pass_hat_k, n_tasks=out.n_tasks, n_trials=out.n_trials)
    rows: list[tuple[str, PassK]] = [("all", overall)]
    rows += [(f"domain {d}", g) for d, g in sorted(out.by_domain.items())]
    rows += [(f"difficulty {d}", g) for d, g in sorted(out.by_difficulty.items())]
    ks = sorted({k for _, g in rows for k in g.pass_hat_k})
    body: list[list[Cell]] = [
        [name, g.n_tasks, *(_pct(g.pass_hat_k.get(k)) for k in ks)] for name, g in rows
    ]
    headers = ["group", "tasks", *(f"pass^{k}" for k in ks)]
    return table(headers, body, numeric=range(1, len(headers)))


def tasks_table(out: EvalOutput) -> Markup:
    """One row per task with a link to its episodes."""
    rows = []
    for t in out.per_task:
        link = tag("a", t.task_id, href=f"#task-{_anchor(t.task_id)}")
        rows.append(
            [
                link,
                t.domain,
                t.difficulty,
                t.trials,
                t.valid,
                t.successes,
                t.infra_errors,
                t.user_errors,
                _pct(t.pass_hat_k.get(1)),
            ]
        )
    headers = [
        "task",
        "domain",
        "difficulty",
        "trials",
        "valid",
        "successes",
        "infra",
        "user err.",
        "pass^1",
    ]
    return table(headers, rows, numeric=range(3, 9))


def _anchor(task_id: str) -> str:
    return "".join(ch if ch.isalnum() or ch in "-_" else "_" for ch in task_id)


def _run_table(out: EvalOutput) -> Markup:
    r = out.run
    rows = [
        ("environment", f"{r.env} ({r.env_dir})"),
        ("tasks", r.tasks_source),
        ("agent", r.agent),
        ("user", r.user),
        ("MEU judge", r.judge),
        ("trials per task", str(r.trials)),
        ("max steps", str(r.max_steps)),
        ("thinking", "kept" if r.keep_thinking else "dropped"),
        ("executor", r.executor),
        ("wall time (this run)", f"{r.wall_s:.1f}s for {r.episodes_run} episodes"),
        ("user errors", "excluded from pass^k" if out.excluded_user_errors else "counted"),
    ]
    if out.skipped_tasks:
        rows.append(("skipped tasks", str(len(out.skipped_tasks))))
    return table(["", ""], rows, cls="grid kv")


# --------------------------------------------------------------------------- episodes


def _tool_calls_html(message: dict[str, Any]) -> Markup:
    parts = []
    for call in message.get("tool_calls") or []:
        fn = call.get("function") or {}
        args = fn.get("arguments")
        text = args if isinstance(args, str) else json.dumps(args, ensure_ascii=False)
        parts.append(tag("div", tag("code", _cut(f"{fn.get('name')}({text})", 1500))))
    return join(parts)


def message_html(message: dict[str, Any], error_ids: set[str]) -> Markup:
    """One message of the agent's context, styled by role."""
    role = str(message.get("role", "?"))
    if role == "system":
        return details(
            "system prompt (policy)",
            tag("div", _cut(str(message.get("content"))), cls="msg system text"),
        )
    parts: list[Markup] = []
    who = role if role != "tool" else f"tool {message.get('name') or ''}".strip()
    parts.append(tag("div", who, cls="who"))
    if role == "assistant":
        reasoning = message_reasoning(message)
        if reasoning:
            parts.append(details("reasoning", tag("div", _cut(reasoning), cls="text")))
        text = visible_text(message)
        if text:
            parts.append(tag("div", _cut(text), cls="text"))
        parts.append(_tool_calls_html(message))
    else:
        parts.append(tag("div", _cut(str(message.get("content") or "")), cls="text"))
    err = role == "tool" and str(message.get("tool_call_id")) in error_ids
    return tag("div", join(parts), cls=f"msg {role}{' err' if err else ''}")


def conversation_html(t: Trajectory, shared_system: str | None = None) -> Markup:
    """The whole conversation as the agent saw it; a system prompt equal to
    ``shared_system`` (shown once at the top of the page) is left out."""
    errors = {c.call_id for c in t.tool_calls if not c.ok}
    return join(
        message_html(m, errors)
        for m in t.messages
        if not (m.get("role") == "system" and m.get("content") == shared_system)
    )


def shared_system_prompt(trajs: Sequence[Trajectory]) -> str | None:
    """The agent's system prompt when every episode has the same one (the policy)."""
    prompts = {
        str(m.get("content")) for t in trajs for m in t.messages[:1] if m.get("role") == "system"
    }
    return prompts.pop() if len(prompts) == 1 else None


def _diff_rows(ops: Sequence[dict[str, Any]], old_label: str, new_label: str) -> Markup:
    rows = [
        [
            op.get("op"),
            "/".join(str(p) for p in op.get("path", [])),
            _cut(json.dumps(op.get("old"), default=str), 300) if "old" in op else "",
            _cut(json.dumps(op.get("new"), default=str), 300) if "new" in op else "",
        ]
        for op in ops
    ]
    return table(["op", "path", old_label, new_label], rows)


def diff_html(diff: EpisodeDiff | None) -> Markup:
    """The state diff against S* and the episode's own changes."""
    if diff is None:
        return tag("p", "state not rebuilt", cls="muted")
    parts: list[Markup] = []
    if diff.note:
        parts.append(tag("p", diff.note, cls="muted"))
    if diff.gold_known:
        if diff.vs_gold:
            parts.append(tag("h4", f"differences from S* ({len(diff.vs_gold)})"))
            parts.append(_diff_rows(diff.vs_gold, "S* (gold)", "final"))
        else:
            parts.append(tag("p", join([badge("final state = S*", "ok")])))
        if diff.gold_matches_task is False:
            parts.append(
                tag("p", "replaying the gold calls did not give the task's S* hash", cls="muted")
            )
    if diff.replayed:
        label = f"changes the agent made ({len(diff.changes)})"
        body = _diff_rows(diff.changes, "before", "after") if diff.changes else esc("none")
        parts.append(details(label, body, open_=not diff.gold_known))
    if diff.truncated:
        parts.append(tag("p", "(long diffs cut)", cls="muted"))
    return join(parts)


def _verdict_html(t: Trajectory) -> Markup:
    parts: list[Markup] = [_judge_badge(t), esc(" " + (t.user_error_reason or ""))]
    if t.user_error_evidence:
        parts.append(tag("ul", join(tag("li", e) for e in t.user_error_evidence)))
    if t.faults:
        faults = ", ".join(f"{f.kind} at turn {f.turn} ({f.detail})" for f in t.faults)
        parts.append(tag("div", f"injected faults: {faults}", cls="muted"))
    return join(parts)


#: why an episode ended, in words (the code stays in eval.json)
_ENDS = {
    "user_stop": "the user ended the chat",
    "user_incomplete": "the user left with part of its request unsaid",
    "agent_stop": "the agent ended the chat",
    "transfer": "the agent handed over to a human",
    "max_turns": "the turn limit was reached",
    "tool_error_budget": "too many tool errors",
    "llm_failure": "a model endpoint failed (not scored)",
    "internal_error": "an internal error (not scored)",
}


def _ending(t: Trajectory) -> str:
    """How the episode ended, in words, naming an agent that went round in circles (its
    last message repeats an earlier one word for word)."""
    end = _ENDS.get(t.end_reason.value, t.end_reason.value)
    return end + (" after the agent repeated an earlier message" if t.agent_repeated() else "")


def episode_html(t: Trajectory, diff: EpisodeDiff | None, system: str | None = None) -> Markup:
    """One episode, collapsed: a summary line, then reward, verdict, diff and conversation."""
    summary = join(
        [
            esc(f"trial {t.trial} "),
            _reward_badge(t),
            esc(" "),
            _judge_badge(t),
            esc(
                f"  {_ending(t)}, {t.n_steps} steps, {len(t.tool_calls)} tool calls, "
                f"{t.n_tool_errors} tool errors, {t.duration_s:.1f}s"
            ),
        ]
    )
    components = ", ".join(f"{k}={v}" for k, v in t.reward_components.items())
    body = [
        tag("h4", "reward"),
        tag("p", join([_reward_badge(t), esc(" " + t.reward_reason)])),
        tag("p", f"components: {components}", cls="muted") if components else esc(""),
    ]
    if t.infra_error:
        body.append(tag("p", f"infrastructure error: {t.infra_error}", cls="muted"))
    body += [tag("h4", "user-error judge"), tag("p", _verdict_html(t))]
    body += [tag("h4", "state"), diff_html(diff)]
    body += [tag("h4", "conversation"), conversation_html(t, system)]
    if t.meta:
        body.append(details("metadata", code_json(t.meta)))
    return tag("details", join([tag("summary", summary), *body]), cls="episode")


def episodes_html(trajs: Sequence[Trajectory], diff_of: DiffFn) -> Markup:
    """Every episode, grouped by task (anchors match the tasks table)."""
    groups: dict[str, list[Trajectory]] = defaultdict(list)
    for t in trajs:
        groups[t.task_id].append(t)
    system = shared_system_prompt(trajs)
    parts = []
    if system is not None:
        parts.append(
            details(
                "the agent's system prompt (policy), the same in every episode",
                tag("div", _cut(system), cls="msg system text"),
            )
        )
    for task_id, group in groups.items():
        ok = sum(t.success for t in group)
        head = tag("h3", f"{task_id}  ({ok}/{len(group)} succeeded)", id=f"task-{_anchor(task_id)}")
        parts.append(join([head, *(episode_html(t, diff_of(t), system) for t in group)]))
    return join(parts)


def render_eval_html(out: EvalOutput, trajs: Sequence[Trajectory], diff_of: DiffFn) -> str:
    """The complete ``eval.html`` page."""
    r = out.run
    when = time.strftime("%Y-%m-%d %H:%M", time.localtime(r.started_at))
    subtitle = (
        f"{r.env}: agent {r.agent}, user {r.user}, judge {r.judge}; {r.trials} "
        f"trial{'s' if r.trials != 1 else ''} per task; {when}"
    )
    skipped = (
        table(["task", "why skipped"], sorted(out.skipped_tasks.items()))
        if out.skipped_tasks
        else esc("none")
    )
    body = join(
        [
            tag("style", Markup(EXTRA_CSS)),
            _cards(out),
            section("pass^k", join([pass_table(out), _run_table(out)]), anchor="passk"),
            section(
                "Tasks", join([tasks_table(out), details("skipped tasks", skipped)]), anchor="tasks"
            ),
            section("Episodes", episodes_html(trajs, diff_of), anchor="episodes"),
        ]
    )
    nav = [("passk", "pass^k"), ("tasks", "tasks"), ("episodes", "episodes")]
    return page(f"autoforge eval: {r.env}", subtitle, nav, body)
