"""Rules a tool's own sentences state as code: "closed at most 90 days ago
(today - closed_on <= 90)", "have `open_claims < max_open_claims`", "the session must end by
21:00 (start_hour + duration_hours <= 21)".

A comparison in brackets or in code, inside a sentence that states a rule, is the condition
a call must meet, when every name in it is read (the call's arguments, the records it
reaches, ``today``; a difference of two dates counts days, see
:func:`~autoforge.synth.behaviour.formulas.condition_tree`). It becomes a ``holds`` check.
After a refusal word in its clause ("Rejected if it is overdue (due_on before today)") the
comparison is the case refused. In brackets, "before" and "after" compare dates. Left out, so
no case is misread as a rule: sentences that open on a condition ("If ...", "When ...": writes
for one case), comparisons that read the record a create makes
(not there yet), and comparisons over more than one optional argument. A comparison over one
optional argument applies only when it is given. Every rule is stated without naming a domain.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from autoforge.env import Check, ToolBehaviour, refusal_alternatives, states_rule
from autoforge.synth.behaviour.formulas import condition_tree, tree_nodes
from autoforge.synth.behaviour.headings import own_sentences
from autoforge.synth.behaviour.stated import OPENS_ON_CONDITION

if TYPE_CHECKING:
    from autoforge.synth.behaviour.data import Context
    from autoforge.tooldocs import ToolSpec

_CMP = r"(?:<=|>=|==|!=|<|>)"
_BRACKETED = re.compile(r"\(([^()]*)\)")
_CODE_SPAN = re.compile(r"`([^`]*)`")
_REFUSING = re.compile(r"\b(?:refused|rejected|fails?|blocked|not\s+allowed|denied)\b", re.I)


def _names(tree: Any, kind: str) -> set[str]:
    """The names of the ``kind`` nodes ("arg", "rec": where the record is reached from) a
    condition reads."""
    return {str(n[1]) for n in tree_nodes(tree, kind)}


#: comparisons of dates in words, inside a bracket ("(due_on before today)")
_DATE_WORDS = (
    (r"\b(?:is\s+)?on\s+or\s+before\b", "<="),
    (r"\b(?:is\s+)?on\s+or\s+after\b", ">="),
    (r"\b(?:is\s+)?before\b", "<"),
    (r"\b(?:is\s+)?after\b", ">"),
)


def _coded(s: str) -> list[tuple[int, str]]:
    """Where ``s`` holds a comparison in brackets or in a code span, and the comparison
    without a leading label ("reporting window: ...") or a unit of days after a number;
    "before"/"after" in a bracket with no operator compare dates."""
    found = [*_BRACKETED.finditer(s), *_CODE_SPAN.finditer(s)]
    out = []
    for m in sorted(found, key=lambda m: m.start()):
        text = m.group(1).rsplit(":", 1)[-1].replace("`", "")
        if not re.search(_CMP, text) and m.re is _BRACKETED:
            for words, op in _DATE_WORDS:
                text = re.sub(words, op, text, flags=re.I)
        if re.search(_CMP, text):
            out.append((m.start(), re.sub(r"(\d)\s*days?\b", r"\1", text).strip()))
    return out


def _refused_case(s: str, at: int) -> bool:
    """Whether the comparison at ``at`` gives a case the call is refused in: its clause says
    so ("refused when the agent is full (...)"), or it is one of the cases a refusal lists
    ("Rejected if the loan is not active, is overdue (...), or ...")."""
    if _REFUSING.search(re.split(r"[;,]", s[:at])[-1]):
        return True
    head = refusal_alternatives(s)[0]
    opened = s.find(head) + len(head) if head else -1
    return 0 <= opened <= at and ";" not in s[opened:at]


def coded_checks(spec: ToolSpec, tb: ToolBehaviour, ctx: Context) -> list[Check]:
    """The ``holds`` checks the tool's own sentences state as code (see the module)."""
    if tb.kind in ("list", "get"):
        return []
    optional = {p.name for p in tb.params if not p.required}
    out: list[Check] = []
    for s in own_sentences(spec, ctx):
        if not states_rule(s) or OPENS_ON_CONDITION.match(s):
            continue
        for at, text in _coded(s):
            tree = condition_tree(text, tb, ctx)
            if tree is None or tree[0] != "cmp" or "new" in _names(tree, "rec"):
                continue
            loose = _names(tree, "arg") & optional
            values = [tree, False] if _refused_case(s, at) else [tree]
            if len(loose) > 1 or any(c.values[0] == tree for c in out):
                continue
            out.append(Check(kind="holds", values=values, when_given=min(loose, default=None),
                             sentence=s))  # fmt: skip
    return out


def holds_lines(c: Check, code: str, operands: list[str], why: str) -> list[str]:
    """The guard of a ``holds`` check: refused when every operand is known and the comparison
    ``code`` is false (``values`` ``[tree, False]``: true); an unknown value refuses nothing."""
    known = " and ".join(f"_nm({o}) is not None" for o in operands) or "True"
    text = " ".join(c.sentence.split())[:120]
    broken = code if c.values[1:] == [False] else f"not {code}"
    return [
        f"if {known} and {broken}:",
        f"    raise ToolError({('the call breaks a stated rule' + why if why else text)!r})",
    ]
