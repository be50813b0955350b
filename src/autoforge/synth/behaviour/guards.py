"""The checks a tool's call must pass, gathered from every reader of the docs, the policy and
the data: referenced records exist, formats hold, required text is not blank, dates are not
past, statuses, windows, bounds, thresholds, counts and presumed requirements hold, and a
status parameter follows the policy's transition table. Each reader states its rule without
naming a domain; this module only decides which readers apply to which kind of tool.
"""

from __future__ import annotations

import re

from autoforge.env import Check, ToolBehaviour, doc_sentences
from autoforge.synth.behaviour.arguments import argument_checks
from autoforge.synth.behaviour.arrows import arrow_checks
from autoforge.synth.behaviour.cascade import child_checks
from autoforge.synth.behaviour.children import child_limits
from autoforge.synth.behaviour.data import Context
from autoforge.synth.behaviour.elapsed import deadline_checks
from autoforge.synth.behaviour.flags import flag_checks
from autoforge.synth.behaviour.headings import tool_sentences
from autoforge.synth.behaviour.policy import (
    policy_attribute_checks,
    policy_date_windows,
    policy_receiving_status,
    policy_required_status,
    policy_status_checks,
    policy_status_nouns,
)
from autoforge.synth.behaviour.presumed import (
    empty_requirements,
    presumed_checks,
    stated_requirements,
)
from autoforge.synth.behaviour.relations import (
    attribute_thresholds,
    count_refusals,
    rejected_if_statuses,
    unique_params,
    whose_refusals,
)
from autoforge.synth.behaviour.text import (
    attribute_bounds,
    date_range_checks,
    date_window_checks,
    non_blank_params,
    not_past_params,
    status_checks,
)
from autoforge.tooldocs import ToolSpec


def _with(tb: ToolBehaviour, checks: list[Check]) -> ToolBehaviour:
    """``tb`` with ``checks`` as its checks so far (a reader that adds a check only where none
    bounds the same thing looks at them)."""
    return tb.model_copy(update={"checks": [*tb.checks, *checks]})


def tool_checks(spec: ToolSpec, tb: ToolBehaviour, ctx: Context) -> list[Check]:
    """Every check the docs, the policy and the data give a tool of this kind, in the order
    the compiled code runs them."""
    desc = spec.description
    out = _param_checks(spec, tb)
    texts = [(desc, "docs")] + ([(ctx.policy, "policy")] if ctx.policy else [])
    for name, schema in (spec.parameters.get("properties") or {}).items():
        if isinstance(schema, dict) and schema.get("description"):
            texts.append((f"{name}: {schema['description']}", "parameter schema"))
    for name, sentence, src in non_blank_params(texts, [p.name for p in tb.params]):
        out.append(Check(kind="non_blank", param=name, sentence=sentence, source=src))
    for name, sentence, src in not_past_params(texts, tb):
        out.append(Check(kind="not_past", param=name, sentence=sentence, source=src))
    one_of = _at_least_one(spec, tb, ctx)
    if one_of is not None:
        opt = [p.name for p in tb.params if not p.required]
        out.append(Check(kind="at_least_one", values=opt, sentence=one_of[0], source=one_of[1]))
    out += stated_required(spec, tb, ctx) + _unique_checks(spec, tb)
    if tb.kind in ("action", "update", "delete", "create"):
        out += attribute_bounds(spec, tb, ctx)
        out += date_window_checks(spec, tb, ctx) + deadline_checks(spec, tb, ctx)
        out += status_checks(spec, tb, ctx)
        out += arrow_checks(desc, _with(tb, out), ctx)
        out += policy_status_checks(tb, ctx) + policy_required_status(tb, ctx)
        out += policy_receiving_status(tb, ctx) + policy_status_nouns(desc, tb, ctx)
        out += policy_date_windows(tb, ctx) + policy_attribute_checks(tb, ctx)
        out += child_checks(spec, tb, ctx) + attribute_thresholds(desc, tb, ctx)
        out += count_refusals(desc, tb, ctx) + unique_params(desc, tb, ctx)
        ruled = doc_sentences(desc) + tool_sentences(ctx.policy, tb.tool, ctx.headed, ctx.verbs)
        out += whose_refusals(ruled, tb, ctx) + date_range_checks(ruled, tb, ctx)
        out += rejected_if_statuses(desc, tb, ctx)
        out += presumed_checks(spec, tb, ctx, out) + argument_checks(spec, tb, ctx)
        out += child_limits(spec, tb, ctx) + flag_checks(spec, tb, ctx)
        out += stated_requirements(spec, tb, ctx, out) + empty_requirements(spec, tb, ctx)
    if tb.kind == "list":
        out += argument_checks(spec, tb, ctx, pair_only=True)
    out += _transition_check(tb, ctx, desc)
    return out


def _param_checks(spec: ToolSpec, tb: ToolBehaviour) -> list[Check]:
    """What each parameter's schema alone requires: referenced records exist (a list that
    says an absent one is "not an error" filters instead), and date, time and email formats."""
    desc = spec.description
    out: list[Check] = []
    absent_ok = tb.kind == "list" and bool(re.search(r"not an error", desc, re.I))
    for p in tb.params:
        schema = (spec.parameters.get("properties") or {}).get(p.name) or {}
        if p.references and not (absent_ok and p.name != tb.id_param):
            each = ["each"] if isinstance(schema, dict) and schema.get("type") == "array" else []
            out.append(
                Check(
                    kind="exists",
                    param=p.name,
                    collection=p.references,
                    values=each,
                    sentence=mention(desc, p.name, ("exist", "unknown", "refused")),
                )
            )
        fmt = schema.get("format") if isinstance(schema, dict) else None
        if fmt in ("date", "date-time", "email", "time"):
            out.append(Check(kind="format", param=p.name, values=[fmt], source="parameter schema"))
    return out


def _unique_checks(spec: ToolSpec, tb: ToolBehaviour) -> list[Check]:
    """A create's parameter whose own description calls it unique may not repeat a stored value."""
    out: list[Check] = []
    for p in tb.params:
        schema = (spec.parameters.get("properties") or {}).get(p.name) or {}
        if "unique" in str(schema.get("description", "")).lower() and tb.kind == "create":
            out.append(
                Check(
                    kind="unique",
                    param=p.name,
                    collection=tb.collection,
                    attribute=p.name,
                    sentence=str(schema.get("description")),
                )
            )
    return out


#: "at least one of the three must be sent", "at least one must be given": the call's
#: optional arguments, not other things
_ONE_SENT = re.compile(
    r"\bat\s+least\s+one(?:\s+of\b[^.;]*?)?\s+(?:must|has\s+to|needs?\s+to|should)\s+be\s+"
    r"(?:sent|given|provided|passed|supplied|included|specified)\b",
    re.I,
)


def _at_least_one(spec: ToolSpec, tb: ToolBehaviour, ctx: Context) -> tuple[str, str] | None:
    """The sentence (and its source) saying a call must give at least one of its optional
    arguments: "at least one of" in the description (or a ``minProperties`` body), or, in the
    description or the tool's own policy sentences, "at least one (of ...) must be sent"."""
    desc = spec.description
    if re.search(r"\bat least one of\b", desc, re.I) or spec.parameters.get("minProperties"):
        return mention(desc, "", ("at least one",)), "docs"
    if tb.kind not in ("update", "action") or sum(not p.required for p in tb.params) < 2:
        return None
    return next(((s, src) for s, src in _sourced(spec, ctx) if _ONE_SENT.search(s)), None)


def _sourced(spec: ToolSpec, ctx: Context) -> list[tuple[str, str]]:
    """The tool's description sentences, then its own policy sentences, each with its source."""
    said = [(s, "docs") for s in doc_sentences(spec.description)]
    return said + [
        (s, "policy") for s in tool_sentences(ctx.policy, spec.name, ctx.headed, ctx.verbs)
    ]


#: "A reason is required.", "`plan_id` must always be sent.": the whole sentence says it
_REQUIRED = re.compile(
    r"^\s*(?:an?\s+|the\s+)?`?(?P<w>[A-Za-z][\w ]{0,30}?)`?\s+(?:is|are)\s+(?:required|"
    r"mandatory)\s*\.?\s*$|^\s*`(?P<p>\w+)`\s+must\s+always\s+be\s+(?:sent|given|provided)"
    r"\s*\.?\s*$",
    re.I,
)


def stated_required(spec: ToolSpec, tb: ToolBehaviour, ctx: Context) -> list[Check]:
    """An optional parameter a sentence of the write's description or its own policy section
    says is required, in a sentence of its own ("A reason is required."): the call must give
    it (an ``at_least_one`` check of that one parameter; a nullable one, where null says
    something, is left alone). A requirement with a condition ("required for fuel services")
    is no sentence of its own and is left alone."""
    if tb.kind not in ("create", "update", "action", "delete"):
        return []
    optional = [p.name for p in tb.params if not p.required and not p.nullable]
    out: list[Check] = []
    for s, src in _sourced(spec, ctx):
        m = _REQUIRED.match(s)
        if m is None:
            continue
        said = (m.group("p") or m.group("w") or "").lower().split()
        name = "_".join(said)
        hits = [p for p in optional if p == name or (len(said) == 1 and p.endswith("_" + name))]
        if len(hits) == 1 and not any(c.values == hits for c in out):
            out.append(Check(kind="at_least_one", values=hits, sentence=s, source=src))
    return out


def mention(text: str, word: str, cues: tuple[str, ...]) -> str:
    """The first sentence of ``text`` that holds ``word`` (any, when empty) and one of
    ``cues``: the sentence a check or effect cites as its source."""
    for s in re.split(r"(?<=[.;])\s+", " ".join(text.split())):
        low = s.lower()
        if (not word or word in s) and any(c in low for c in cues):
            return s
    return ""


def _transition_check(tb: ToolBehaviour, ctx: Context, desc: str = "") -> list[Check]:
    attr, values = ctx.status_enum(tb.collection)
    if attr is None or tb.id_param is None:
        return []
    for p in tb.params:
        if p.name == attr or p.name == "status":
            for table in ctx.tables:
                if set(table) <= set(values) and len(table) >= 2:
                    return [
                        Check(
                            kind="transition",
                            param=p.name,
                            collection=tb.collection,
                            attribute=attr,
                            table=table,
                            source="policy",
                            sentence=mention(desc, "", ("transition",)) or "transition table",
                        )
                    ]
    return []
