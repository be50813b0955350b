"""Yes/no attributes of a record the tool reaches that the docs make a condition of the call.

A yes/no attribute is one every record in the data holds as true or false. In the tool's
description and the policy sentences that speak of it, for a record the tool reaches:

- "<flag> <nouns> cannot be ..." ("Discontinued parts cannot be fitted") refuses a record
  whose flag is true;
- "the <noun> must not be <flag>" refuses it, "must be <flag>" requires it; "(`a` false)"
  after the flag word names the attribute and the value that is refused;
- a refusal alternative "the <noun> is <flag>" refuses it, "is not <flag>" requires it;
- the flag's stem after a negating prefix ("inactive", "deactivated" for ``active``) says
  the flag is false, so the same forms refuse (require) it false.

Each is a ``status_not_in``/``status_in`` check on that attribute with a true or false value.
Every rule is stated without naming a domain.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from autoforge.env import Check, ToolBehaviour, doc_sentences, refusal_alternatives
from autoforge.synth.behaviour.data import noun_forms
from autoforge.synth.behaviour.headings import tool_sentences
from autoforge.synth.behaviour.text import value_check, write_targets

if TYPE_CHECKING:
    from autoforge.synth.behaviour.data import Context
    from autoforge.tooldocs import ToolSpec


def _negated(flag: str) -> str:
    """The words that say a flag is false: its stem after a negating prefix ("inactive",
    "deactivated" for ``active``; "unpaid" for ``paid``)."""
    stem = re.escape(flag.replace("_", " ")[: max(4, len(flag) - 1)])
    return rf"(?:in|un|non-?|de|dis){stem}\w*"


def _said(s: str, nouns: str, flag: str, word: str | None = None) -> bool | None:
    """True when ``s`` refuses a record whose ``flag`` is true, False when it requires it
    (``word``: the pattern naming the flag, its own words by default)."""
    word = word or re.escape(flag.replace("_", " "))
    if re.search(rf"\b{word}\s+(?:{nouns})\s+(?:cannot|can\s*not|may\s+not|must\s+not)\b", s, re.I):
        return True
    m = re.search(rf"\b(?:{nouns})\b[^.;]*?\bmust\s+(not\s+)?be\s+{word}\b", s, re.I)
    if m:
        return bool(m.group(1))
    m = re.match(rf"^\s*(?:the\s+)?(?:{nouns})\s+is\s+(not\s+)?{word}\s*$", s, re.I)
    if m:
        return not m.group(1)
    return None


def _coded(s: str, flags: list[str]) -> tuple[str, bool] | None:
    """ "(`a` false)": the attribute in code and the value a sentence refuses."""
    m = re.search(r"\(`(\w+)`\s+(true|false)\)", s)
    if m and m.group(1) in flags:
        return m.group(1), m.group(2) == "true"
    return None


def flag_checks(spec: ToolSpec, tb: ToolBehaviour, ctx: Context) -> list[Check]:
    """The yes/no conditions of ``tb`` (see the module docstring)."""
    if tb.kind not in ("create", "action", "update"):
        return []
    texts = doc_sentences(spec.description) + tool_sentences(
        ctx.policy, tb.tool, ctx.headed, ctx.verbs
    )
    parts = [p for s in texts for p in (refusal_alternatives(s)[1] or [s])]
    out: list[Check] = []
    for coll, via in write_targets(tb, ctx):
        flags = ctx.ev.typed_attributes(coll, "bool") if coll else []
        nouns = "|".join(re.escape(n) for n in noun_forms(coll or ""))
        for part in parts if flags else []:
            for flag in flags:
                refused = _said(part, nouns, flag)
                if (
                    refused is None
                    and (neg := _said(part, nouns, flag, _negated(flag))) is not None
                ):
                    refused = not neg  # "the member is deactivated": refused while not active
                coded = _coded(part, flags)
                if refused is None and coded is None:
                    continue
                attr, bad = coded if coded else (flag, bool(refused))
                if refused is None and not re.search(rf"\b(?:{nouns})\b", part, re.I):
                    continue
                if any(c.attribute == attr and c.collection == coll for c in out):
                    continue
                out.append(value_check(tb, True, str(coll), attr, via, [bad], part))
    return out
