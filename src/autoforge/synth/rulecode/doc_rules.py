"""Preconditions the docs state, enforced as guards in the tool code.

The rules themselves (what each kind means, how they are read from the docs, the policy and
the parameter schemas) have one owner, :mod:`autoforge.env.artifact.rules`; synthesis extracts them
per
tool with :func:`extract_rules` and records them in the environment directory (``rules.json``).
Here :func:`guard_lines` renders them as code that raises ``ToolError`` before the tool body
runs, and :func:`guarded` puts that code into any implementation (template, model answer or
skeleton), so a rule holds whoever wrote the rest; the synthesis report lists each rule with
the sentence it came from.
"""

from __future__ import annotations

import ast
import math
import re
from typing import Any

from autoforge.env import DocRule
from autoforge.lexicon import extract_rules, sentences, status_values
from autoforge.synth.modelcode.codegen import ToolCode, extract_function
from autoforge.synth.rulecode.classify import Classification

__all__ = [
    "DocRule",
    "covered_by_rules",
    "extract_rules",
    "guard_for",
    "guard_lines",
    "guarded",
    "meet_rules",
    "sentences",
    "status_values",
]


def _finite(value: float | None) -> bool:
    return value is not None and math.isfinite(value)


def _bounds(rule: DocRule, p: str) -> str:
    """The guard's comparison from the finite bounds only (``inf`` is no name in tool code)."""
    parts = [f"{rule.low!r} <= {p}"] if _finite(rule.low) else []
    parts += [f"{p} <= {rule.high!r}"] if _finite(rule.high) else []
    return " and ".join(parts) or "True"


def _plain(sentence: str) -> str:
    return re.sub(r"[`'\"]", "", sentence.lower())


_REFUSAL = re.compile(r"\b(?:can ?not|can't|may not|must not|never|only)\b")
_STATE_WORDS = re.compile(
    r"\b(?:refund\w*|balance|deduct\w*|charg\w*|stock|total|amount|added|subtract\w*|"
    r"increase\w*|decrease\w*|append\w*|recorded|becomes?|set to|changed to)\b"
)


def covered_by_rules(sentence: str, rules: list[DocRule], statuses: list[str]) -> bool:
    """Whether the guards already enforce what ``sentence`` says, so no code must be written
    for it: it is the sentence a rule came from, or it refuses records in statuses (named from
    ``statuses``, the collection's status values) that a status rule refuses already, and
    states no effect on the state ("Orders that have shipped cannot be redirected" when the
    rule allows only ``pending``)."""
    if any(r.sentence == sentence for r in rules):
        return True
    low = _plain(sentence)
    if not _REFUSAL.search(low) or _STATE_WORDS.search(low):
        return False
    status = [r for r in rules if r.kind == "status"]
    named = [v for v in statuses if re.search(rf"\b{re.escape(v.lower())}\b", low)]
    if not status or not named:
        return False
    return all(
        any((r.allowed and v not in r.allowed) or v in r.forbidden for r in status) for v in named
    )


def guard_for(c: Classification, rules: list[DocRule]) -> tuple[str, str] | None:
    """The single status a tool needs, for choosing test records that meet it."""
    if c.guard is not None:
        return c.guard
    for rule in rules:
        if rule.kind == "status" and rule.attribute and len(rule.allowed) == 1:
            return rule.attribute, str(rule.allowed[0])
    return None


def meet_rules(
    happy: dict[str, Any], rules: list[DocRule], refs: dict[str, str], state: Any
) -> dict[str, Any]:
    """Test arguments that a uniqueness rule does not refuse: the last field of the rule gets
    another existing key of the collection it references until the combination is new."""
    out = dict(happy)
    for rule in rules:
        if rule.kind != "unique" or not all(f in out for f in rule.fields):
            continue
        taken = {
            tuple(r.get(f) for f in rule.fields)
            for r in ((state or {}).get(rule.collection) or {}).values()
            if isinstance(r, dict)
        }
        last = rule.fields[-1]
        for key in (state or {}).get(refs.get(last, ""), {}) or {}:
            if tuple(out[f] for f in rule.fields) not in taken:
                break
            out[last] = key
    return out


def _quote(text: str) -> str:
    short = text if len(text) <= 160 else text[:157] + "..."
    return short.replace("\\", "").replace('"', "'").replace("{", "(").replace("}", ")")


def guard_lines(rules: list[DocRule], names: dict[str, str], unset: str | None = None) -> list[str]:
    """Code (4-space indented) that raises ``ToolError`` when a call breaks a rule. ``unset``:
    the default an absent optional parameter has in the code the lines go into, besides None
    (compiled behaviour code marks an absent argument so)."""
    lines: list[str] = []
    for rule in rules:
        p = names.get(rule.param)
        if p is None:
            continue
        why = _quote(f"{rule.describe()} (docs: {rule.sentence})")
        if rule.kind == "status":
            values = tuple(rule.allowed or rule.forbidden)
            test = "not in" if rule.allowed else "in"
            lines += [
                f"    _rec = state.get({rule.collection!r}, {{}}).get(str({p}))",
                f"    if isinstance(_rec, dict) and "
                f"_rec.get({rule.attribute!r}) {test} {values!r}:",
                f'        raise ToolError(f"{{{p}}} is {{_rec.get({rule.attribute!r})}}: {why}")',
            ]
        elif rule.kind == "unique":
            same = " and ".join(f"_r.get({f!r}) == {names.get(f, f)}" for f in rule.fields)
            lines += [
                f"    for _r in state.get({rule.collection!r}, {{}}).values():",
                f"        if isinstance(_r, dict) and {same}:",
                f'            raise ToolError("{why}")',
            ]
        elif rule.kind == "range":
            lines += [
                f"    if isinstance({p}, (int, float)) and not isinstance({p}, bool) and not "
                f"({_bounds(rule, p)}):",
                f'        raise ToolError("{why}")',
            ]
        else:
            given = f"{p} is not None" + (f" and {p} != {unset!r}" if unset else "")
            lines += [
                f"    if {given} and {p} not in {tuple(rule.allowed)!r}:",
                f'        raise ToolError("{why}")',
            ]
    return lines


def guarded(code: ToolCode, lines: list[str]) -> ToolCode:
    """``code`` with ``lines`` run first in the tool function (after its docstring)."""
    if not lines:
        return code
    tree = ast.parse(code.body)
    fn = next(
        (n for n in tree.body if isinstance(n, ast.FunctionDef) and n.name == code.name), None
    )
    if fn is None or not fn.body:
        return code
    first = fn.body[0]
    is_doc = isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant)
    anchor = fn.body[1] if is_doc and len(fn.body) > 1 else first
    if is_doc and len(fn.body) == 1:
        return code
    src = code.body.splitlines()
    at = anchor.lineno - 1
    indent = src[at][: len(src[at]) - len(src[at].lstrip())]
    if any(ln.strip() == lines[0].strip() for ln in src):
        return code  # already guarded
    block = [indent + ln[4:] for ln in lines]
    body = "\n".join([*src[:at], *block, *src[at:]])
    head = "\n".join(code.imports)
    return extract_function(f"{head}\n\n{body}\n" if head else body, code.name)
