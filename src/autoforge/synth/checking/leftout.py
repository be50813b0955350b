"""Why a tool was left out of the environment, or kept only as a rule skeleton, in one line.

Every failed or partial tool of a synthesis report carries this reason (``ToolReport.reason``),
so ``synthesis_report.json``, ``report.html``, the terminal summary and a batch's index can
say what stopped it: no collection or key to act on, no template for its class, the checks a
template or draft failed, a draft that leaves steps for a model, no model to write them.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from autoforge.synth.modelcode.create_draft import CREATE_TODO
from autoforge.synth.report import CheckResult
from autoforge.synth.rulecode.classify import Classification
from autoforge.tooldocs import singular

#: Classes whose tools act on one record, named by a key parameter.
_KEYED = ("lookup", "update", "delete", "transition")
_MAX = 300


def scope_problem(c: Classification) -> str | None:
    """What the tool's classification lacks for any rule template: a collection, or the key
    parameter that names the record a keyed tool acts on."""
    if c.collection is None:
        return f"no state collection holds what this {c.cls} tool works on ({c.reason})"
    if c.cls in _KEYED and c.key_param is None:
        return (
            f"no parameter names the {singular(c.collection).replace('_', ' ')} this "
            f"{c.cls} tool acts on"
        )
    return None


def skeleton_problem(source: str, results: Sequence[CheckResult]) -> str | None:
    """Why the rule skeleton is not kept: it cannot act, leaves a create's steps to a model,
    or fails checks; None when it passes."""
    if "not implemented" in source:
        return "the rule skeleton cannot place the call (no record to load)"
    if CREATE_TODO in source:
        return "the rule skeleton leaves the create's documented steps to a model"
    failed = [f"{r.name}: {r.detail}" for r in results if not r.ok]
    return "the rule skeleton fails " + "; ".join(failed) if failed else None


def left_out_reason(
    c: Classification,
    errors: Sequence[str],
    skeleton: str | None,
    no_model: str,
    had_template: bool,
) -> str:
    """One line saying why a tool ended failed: the scope problem or the missing template,
    the first check a template or draft failed, the skeleton's problem, and why no model was
    asked (``no_model``: ``"--llm none"``, ``"behaviour model"`` where the behaviour model
    writes the tool instead, ``""`` where a model was asked)."""
    parts: list[str] = []
    scope = scope_problem(c)
    if scope is not None:
        parts.append(scope)
    elif not had_template:
        article = "an" if c.cls[:1].lower() in "aeiou" else "a"
        parts.append(f"no rule template for {article} {c.cls} tool")
    if errors:
        parts.append(errors[0])
    if skeleton:
        parts.append(skeleton)
    if no_model == "behaviour model":
        parts.append("no model asked: the behaviour model writes this tool")
    elif no_model:
        parts.append(f"no model to write it ({no_model})")
    elif not errors:
        parts.append("no model answer passed the checks")
    return _cut("; ".join(parts))


def kept_partial_reason(errors: Sequence[str], source: str) -> str:
    """One line for a tool kept as its rule skeleton: what beat the template, and the steps
    the skeleton leaves undone (its TODO lines)."""
    todos = [
        ln.strip().removeprefix("# TODO:").removeprefix("#   -").strip()
        for ln in source.splitlines()
        if ln.strip().startswith(("# TODO:", "#   -"))
    ]
    parts = list(errors[:1]) or ["no template passed"]
    if todos:
        parts.append("left undone: " + "; ".join(todos[:3]))
    return _cut("kept the rule skeleton: " + "; ".join(parts))


def reason_kind(reason: str) -> str:
    """A reason reduced to its kind, for counting over tools and APIs: its first clause, with
    calls, quoted values and numbers blanked."""
    first = reason.split("; ")[0]
    first = re.sub(r"\b\w+\((?:[^()]|\([^()]*\))*\)", "CALL", first)
    first = re.sub(r"'[^']*'|\"[^\"]*\"", "'...'", first)
    first = re.sub(r"\d+", "N", first)
    return first.split(" gave: ")[0].split(": Error")[0][:100] or "no reason recorded"


def _cut(text: str) -> str:
    return text if len(text) <= _MAX else text[: _MAX - 3] + "..."


__all__ = [
    "kept_partial_reason",
    "left_out_reason",
    "reason_kind",
    "scope_problem",
    "skeleton_problem",
]
