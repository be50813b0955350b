"""The task gallery: one card per task with its DAG, question, gold calls and reasoning steps.

Shared by the forge report and (later) evaluation reports, which can pass the same cards with
their own badges.
"""

from __future__ import annotations

import json
from collections.abc import Collection, Sequence
from typing import Any

from autoforge.report.dag import blueprint_svg, reasoning_text
from autoforge.report.html import Markup, badge, details, join, tag
from autoforge.tasks import (
    Binding,
    Blueprint,
    FactRef,
    ListBinding,
    ObjectBinding,
    ReasonNode,
    Task,
)


def _args(arguments: dict[str, Any], limit: int = 220) -> str:
    text = json.dumps(arguments, ensure_ascii=False, separators=(", ", ": "), default=str)
    return text if len(text) <= limit else text[: limit - 1] + "…"


def binding_text(binding: Binding) -> str:
    """A binding as ``fact customer_id`` / ``c0.order_ids`` / ``r1`` / ``[...]``."""
    if isinstance(binding, FactRef):
        return f"fact {binding.name}"
    if isinstance(binding, ListBinding):
        return "[" + ", ".join(binding_text(b) for b in binding.items) + "]"
    if isinstance(binding, ObjectBinding):
        return "{" + ", ".join(f"{k}: {binding_text(b)}" for k, b in binding.fields.items()) + "}"
    path = "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in binding.path)
    return f"{binding.node}{path}"


def reasoning_steps(bp: Blueprint) -> list[str]:
    """One line per reasoning node: ``r2 = argmin(unit_price) over c4.items (books)``."""
    lines = []
    for node in bp.nodes:
        if not isinstance(node, ReasonNode):
            continue
        inputs = ", ".join(f"{k}={binding_text(b)}" for k, b in node.inputs.items())
        told = " → told to the user" if node.id in bp.outputs else ""
        lines.append(f"{node.id} = {reasoning_text(node)} of {inputs} ({node.noun}s){told}")
    return lines


def _gold_calls(task: Task) -> Markup:
    items = []
    for call in task.gold_calls:
        kind = badge("write", "warn") if call.writes else badge("read", "info")
        text = f"{call.name}({_args(call.arguments)})"
        items.append(tag("li", join([kind, " ", tag("code", text), f"  ({call.node})"])))
    return tag("ol", join(items))


def _outputs(task: Task) -> Markup:
    if not task.required_outputs:
        return tag("p", "nothing to tell: success is reaching S*", cls="muted")
    items = [tag("li", join([f"{o.description}: ", tag("code", o.text)]))
             for o in task.required_outputs]  # fmt: skip
    return tag("ul", join(items))


def _verdict(task_id: str, failed: Collection[str], checked: Collection[str]) -> Markup:
    if task_id in failed:
        return badge("replay FAILED", "bad")
    if task_id in checked:
        return badge("verified", "ok")
    return badge("not verified yet", "neutral")


def task_card(task: Task, verdict: Markup) -> Markup:
    """One task as a card."""
    m = task.difficulty
    metrics = (f"{m.tool_calls} calls ({m.write_calls} writes) · {m.distinct_tools} tools · "
               f"{m.reasoning_nodes} reasoning · depth {m.depth} · width {m.width} · "
               f"{m.merged_walks} walk(s) · level {m.level()}")  # fmt: skip
    steps = reasoning_steps(task.blueprint) if task.blueprint is not None else []
    parts = [
        tag("h3", join([task.id, " ", verdict])),
        tag("div", metrics, cls="metrics"),
        tag("div", task.scenario.question, cls="question"),
        details("intent and user facts", join([
            tag("p", task.scenario.intent),
            tag("p", join([tag("strong", "known: "), task.scenario.known_info or "-"])),
            tag("p", join([tag("strong", "unknown: "), task.scenario.unknown_info or "-"])),
        ])),
        tag("div", blueprint_svg(task), cls="figure"),
        tag("h4", f"gold calls ({len(task.gold_calls)})"), _gold_calls(task),
        tag("h4", f"reasoning steps ({len(steps)})"),
        tag("ol", join(tag("li", tag("code", s)) for s in steps)) if steps
        else tag("p", "none", cls="muted"),
        tag("h4", "required outputs"), _outputs(task),
        tag("p", f"S0 {str(task.initial_state_hash)[:16]} → S* {str(task.final_state_hash)[:16]}",
            cls="muted"),
    ]  # fmt: skip
    return tag("div", join(parts), cls="task", id=f"task-{task.id}")


def gallery(
    tasks: Sequence[Task], failed: Collection[str], checked: Collection[str], limit: int
) -> Markup:
    """Cards for the first ``limit`` tasks (failed verifications first), and a count of the rest."""
    if not tasks:
        return tag("p", "no tasks yet", cls="muted")
    ordered = sorted(tasks, key=lambda t: t.id not in failed)
    shown = ordered[:limit]
    head = tag("p", f"{len(tasks)} tasks" + (f"; showing {len(shown)}" if len(shown) < len(tasks)
               else "") + ". Legend: facts grey, read calls blue, writes orange, reasoning "
               "violet, values to tell the user with a green border.", cls="muted")  # fmt: skip
    cards = join(task_card(t, _verdict(t.id, failed, checked)) for t in shown)
    return join([head, tag("div", cards, cls="gallery")])


__all__ = ["binding_text", "gallery", "reasoning_steps", "task_card"]
