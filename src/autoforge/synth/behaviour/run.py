"""Behaviour models in the synthesis run: derive one per tool, compile it where the other
stages could not finish a tool (so no documented tool goes missing), and record per tool which
sentences of its description are enforced and which are not.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Mapping
from typing import Any

from autoforge.env import (
    BehaviourModel,
    Check,
    Environment,
    EnvironmentSpec,
    EnvLoadError,
    ParamInfo,
    SandboxViolation,
    StateSchema,
    ToolBehaviour,
    rule_words,
    unenforced_sentences,
)
from autoforge.synth.behaviour.compile import compile_tool
from autoforge.synth.behaviour.contradict import drop_contradictions
from autoforge.synth.behaviour.data import Context, DataEvidence
from autoforge.synth.behaviour.derive import context_of, derive_tool, skeleton
from autoforge.synth.behaviour.derived import add_derived
from autoforge.synth.behaviour.given import mark_model
from autoforge.synth.behaviour.headings import own_sentences
from autoforge.synth.behaviour.listing import UNSET
from autoforge.synth.behaviour.tallies import add_tallies
from autoforge.synth.modelcode.codegen import ToolCode
from autoforge.synth.report import ToolRecord
from autoforge.synth.rulecode.doc_rules import DocRule, guard_lines
from autoforge.synth.rulecode.headers import signature
from autoforge.tooldocs import ToolDocs, ToolSpec

#: statuses whose code the behaviour model's code does not replace (unless the tool's HTTP
#: operation is known): accepted code, and a rule skeleton that passed its checks as fallback
KEEP = ("accepted", "fallback")


def _replace(rec: ToolRecord | None, tb: ToolBehaviour, over: bool = True) -> bool:
    """Whether ``tb``'s code replaces ``rec``'s: never where no parameter names the record it
    acts on (:func:`_targets_unnamed`); always where no code passed (:data:`KEEP`);
    over code that passed only where ``over`` allows it and the model was read from an HTTP
    operation (method, path and response codes say what the tool does) and is not a computed
    reply."""
    if _targets_unnamed(tb):
        return False
    if rec is None or rec.code is None or rec.report.status not in KEEP:
        return True
    return over and bool(tb.operation) and tb.kind != "compute"


def _targets_unnamed(tb: ToolBehaviour) -> bool:
    """Whether ``tb`` reads or writes the record it acts on while no parameter names that
    record: compiled, such code would use a record it never looked up."""
    if tb.id_param is not None or tb.kind in ("list", "create", "compute"):
        return False
    return any(e.record == "target" or e.record.startswith("via:") for e in tb.effects) or any(
        c.via is not None and not c.via.startswith("param:") for c in tb.checks
    )


def replaced_tools(model: BehaviourModel) -> set[str]:
    """The tools whose code :func:`fill_missing` takes from the behaviour model even over code
    that passed its checks (:func:`_replace`): read from an HTTP operation and not a computed
    reply. Writing other code for them is work thrown away."""
    return {tb.tool for tb in model.tools if tb.operation and tb.kind != "compute"}


def placed_tools(model: BehaviourModel) -> set[str]:
    """The tools of :func:`replaced_tools` whose record the model placed in a collection
    (without data, a path whose key names no collection leaves the model nothing to act on)."""
    return {t for t in replaced_tools(model) if (tb := model.tool(t)) and tb.collection}


def laid_out_tools(
    model: BehaviourModel, scoped: Collection[str], descriptions: Mapping[str, str] | None
) -> set[str]:
    """Without data: the tools of :func:`placed_tools` whose records and reply the state
    design's layout shows the model. Left to the other stages: tools on a collection in
    ``scoped`` (found through a scope their list tools require, which the model does not
    know), tools whose reply is an envelope (``{"Kiln": {...}}``: documents in that style
    have conventions of their own, such as creates that take their key, which the other
    stages know), and tools whose model leaves a rule sentence of their ``descriptions``
    uncarried (its code would be partial, where the other stages' code may hold the rule;
    ``None``: the sentences are not judged). All of these still get the model's code where
    nothing else passed."""
    placed = placed_tools(model)
    return {
        tb.tool
        for tb in model.tools
        if tb.tool in placed
        and tb.collection not in scoped
        and tb.reply.wrap is None
        and (descriptions is None or not unenforced_sentences(tb, descriptions[tb.tool], set()))
    }


def derive_model(
    docs: ToolDocs,
    data: Mapping[str, Any] | None,
    policy: str,
    layout: StateSchema | None = None,
) -> BehaviourModel:
    """The behaviour model of every documented tool, from the docs, the data and the policy.

    Without data, ``layout`` (the state design: collections, attributes, keys, references)
    stands in for it, so that the docs' own operations and sentences still bind to records."""
    if data is None and layout is not None:
        ev = DataEvidence.of_layout(layout, docs.tools)
    else:
        ev = DataEvidence.of(data or {})
    text = "\n".join(x for x in (policy, docs.description or "") if x)
    ctx = context_of(docs.tools, ev, text)
    model = BehaviourModel()
    for spec in docs.tools:
        try:
            model.tools.append(derive_tool(spec, ctx))
        except Exception as exc:  # an unusual schema: the tool keeps what it is, no rule
            model.tools.append(_unruled(spec, ctx, f"{type(exc).__name__}: {exc}"))
    add_tallies(model, ev, {s.name: own_sentences(s, ctx) for s in docs.tools})
    add_derived(model, ev)
    mark_model(model)  # last: a rule about one optional parameter bounds only calls giving it
    drop_contradictions(model)
    return model


def _unruled(spec: ToolSpec, ctx: Context, why: str) -> ToolBehaviour:
    """A tool whose rules could not be derived: its documented parameters, the records they
    name checked to exist, its record and reply shape, no write; partial, saying why. Where
    even that fails, a bare lookup that takes the documented parameters."""
    note = [f"not modelled: {why}"]
    try:
        tb = skeleton(spec, ctx)
    except Exception:
        params = [ParamInfo(name=n, required=n in spec.required)
                  for n in (spec.parameters.get("properties") or {})]  # fmt: skip
        return ToolBehaviour(tool=spec.name, kind="compute", params=params, partial=True,
                             unenforced=note)  # fmt: skip
    tb.checks = [Check(kind="exists", param=p.name, collection=p.references)
                 for p in tb.params if p.references]  # fmt: skip
    tb.partial, tb.unenforced = True, note
    return tb


def _loads(spec: ToolSpec, code: str) -> bool:
    env_spec = EnvironmentSpec(name="probe", tools=[spec])
    try:
        Environment.from_parts(env_spec, code)
    except (EnvLoadError, SandboxViolation, SyntaxError):
        return False
    return True


def fill_missing(
    docs: ToolDocs,
    records: list[ToolRecord],
    model: BehaviourModel,
    carried: dict[str, set[str]],
    *,
    compile_missing: bool | Collection[str] = True,
    replace_passing: bool | Collection[str] = True,
    only: Collection[str] = (),
    guards: Mapping[str, list[DocRule]] | None = None,
) -> list[ToolRecord]:
    """Records where every tool has code: a tool the other stages did not finish gets its
    behaviour model's code, marked ``partial`` with the sentences it does not enforce. Each
    record's report lists the enforced and unenforced rule sentences of its description.
    ``compile_missing``: whether a tool may get its behaviour model's code, or the names of
    the tools that may; ``replace_passing``: likewise, over code that passed its checks.
    ``only``: the tools the user asked for (``--only``); the others stay
    out. ``guards``: the rules recorded in ``rules.json`` per tool; compiled code runs them
    first, as every other tool's code does, so a rule the artifact records is a rule the tool
    enforces."""
    by_name = {r.report.name: r for r in records}
    out = []
    for spec in docs.tools:
        if only and spec.name not in only:
            continue
        tb = model.tool(spec.name)
        rec = by_name.get(spec.name)
        if rec is None and tb is not None and _targets_unnamed(tb):
            rec = _unnamed(spec, tb)  # said, not silently left out
        may, over = (x if isinstance(x, bool) else spec.name in x
                     for x in (compile_missing, replace_passing))  # fmt: skip
        if may and tb is not None and _replace(rec, tb, over):
            code = _guarded(spec, compile_tool(tb, spec.description), (guards or {}).get(spec.name))
            if _loads(spec, code):
                rec = _replaced(spec, rec, tb, code)
        if rec is not None and tb is not None:
            crashed = [u for u in tb.unenforced if u.startswith("not modelled:")]  # say why
            tb.unenforced = crashed + unenforced_sentences(
                tb, spec.description, carried.get(spec.name, set())
            )
            tb.partial = bool(tb.unenforced) or tb.kind == "compute"
            tb.policy_unenforced = [
                u for u in unenforced_sentences(
                    tb, "\n\n".join(tb.policy_rules), carried.get(spec.name, set())
                ) if u not in tb.unenforced and not _schema_carried(u, spec)
            ]  # fmt: skip
            rec.report.unenforced = list(tb.unenforced)
            rec.report.enforced = sorted(s for s in tb.carried() if s)
            tb.compiled = rec.report.source == "behaviour"
            if tb.compiled:
                rec.report.status = "partial" if tb.partial else "accepted"
                rec.report.reason = _partial_reason(tb) if tb.partial else ""
        if rec is not None:
            out.append(rec)
    return out


def _schema_carried(sentence: str, spec: ToolSpec) -> bool:
    """Whether the only rule ``sentence`` states is that a parameter the schema already
    requires is required ("The driver's name is required."): every call is validated against
    the documented schema, so no check of the model needs to carry it."""
    if rule_words(sentence) != {"required"}:
        return False
    words = set(re.findall(r"[a-z0-9]+", sentence.lower().replace("'s", "")))
    required = (spec.parameters or {}).get("required") or []
    return any(set(p.lower().split("_")) <= words for p in required)


def _partial_reason(tb: ToolBehaviour) -> str:
    """Why compiled code is partial: the stated sentences it does not enforce (the first in
    full), or a computed reply the behaviour model cannot work out."""
    if not tb.unenforced:
        return "partial: the behaviour model cannot compute this tool's reply"
    more = f" (and {len(tb.unenforced) - 1} more)" if len(tb.unenforced) > 1 else ""
    return f"partial: not enforced: {tb.unenforced[0][:200]}{more}"


def _guarded(spec: ToolSpec, code: str, rules: list[DocRule] | None) -> str:
    """``code`` (a compiled tool: def line, one-line docstring, body) with the recorded rules'
    guards (:func:`guard_lines`) run first, right after the docstring."""
    lines = guard_lines(rules or [], signature(spec)[1], unset=UNSET)
    head, doc, rest = ([*code.split("\n", 2), "", ""])[:3]
    if not lines or not doc.lstrip().startswith('"""') or not rest:
        return code
    return "\n".join([head, doc, *lines, rest])


def _unnamed(spec: ToolSpec, tb: ToolBehaviour) -> ToolRecord:
    """The failed record of a tool whose model acts on a record no parameter names."""
    from autoforge.synth.report import ToolReport

    why = f"no parameter names the {tb.collection} record this tool acts on"
    report = ToolReport(name=spec.name, cls=tb.kind, status="failed", reason=why)
    return ToolRecord(fingerprint="", report=report)


def _replaced(spec: ToolSpec, rec: ToolRecord | None, tb: ToolBehaviour, code: str) -> ToolRecord:
    from autoforge.synth.report import ToolReport

    report = rec.report.model_copy() if rec is not None else ToolReport(name=spec.name, cls=tb.kind)
    report.source, report.status, report.collection = "behaviour", "partial", tb.collection
    fp = rec.fingerprint if rec is not None else ""
    return ToolRecord(
        fingerprint=fp, report=report, code=ToolCode(name=spec.name, body=code.rstrip())
    )
