"""The model as a reader of amounts: a number the docs say a write stores ("stored as `fee`",
"becomes the item's `price`") but no rule computes, read by the model into one expression over
the names the tool can read, and kept only where it is grounded.

Rules (:mod:`formulas`) read formulas written as formulas; prose that spreads one over
several sentences ("Before work starts a cancellation costs nothing. Cancelling once work has
started costs 25% of `price`, stored as `fee`.") gets nothing from them. Here the model sees
the cue sentences with their neighbours and a closed list of names (the call's parameters;
``<noun>.<attribute>`` of its record and the records it reaches: numbers, flags, word sets)
and answers Python; helper lines are inlined into the last one. Nothing it answers is trusted
as is:

- the attribute must be one a sentence says is written (a cue: "`a` =", "`a` is", "stored as
  `a`", "becomes the ... `a`", "sets `a`"), a number attribute of the tool's own record that no
  other effect of the tool computes and that the data shows the write sets (a change's
  attributes entered with the status it sets; a create's, held by records in its initial
  status);
- the expression must parse into a formula tree whose every name is read (see
  :func:`formulas.expression_tree`), name at least one value, and not be the attribute itself;
- every number in it other than 0, 1 and 100 must be written in the passage (``0.25`` as "25%")
  or be a number of the data's ``meta`` (a rate the data states);
- where at least :data:`MIN_GRADED` stored records hold the attribute (a create's; a change's
  in the status it sets) and the data can show its inputs (no test of the record's own status,
  no date arithmetic, every argument stored under its name), it must reproduce at least
  :data:`AGREE` of them; an answer the data contradicts is shown the records it gets wrong and
  asked once more.

A status test reads the record as it was before the call: a change's formula is written
first. So a bigger model can only add grounded formulas, and a model that answers nonsense
adds none. Kept formulas carry ``source`` "model" and the sentence that cued them.
"""

from __future__ import annotations

import ast
import copy
import re
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from autoforge.env import BehaviourModel, Effect, StateSchema, ToolBehaviour, Value, doc_sentences
from autoforge.synth.behaviour.data import entered_with, noun_forms
from autoforge.synth.behaviour.derive import reading_context
from autoforge.synth.behaviour.formulas import (
    expression_tree,
    formula_scope,
    formula_texts,
    number_attributes,
)
from autoforge.synth.behaviour.ledger import amount_digits

if TYPE_CHECKING:
    from autoforge.llm import LLMClient
    from autoforge.synth.behaviour.data import Context
    from autoforge.synth.behaviour.formulas import Tree, _Scope
    from autoforge.tooldocs import ToolDocs

#: attributes read per tool at most (each is one model call)
PER_TOOL = 4
#: share of the evaluable records a formula must reproduce
AGREE = 0.9
#: records a formula must be evaluable on before the data grades it
MIN_GRADED = 3
_PLAIN = {0.0, 1.0, 100.0}
#: characters of passage the model sees at most
_LONGEST = 1200


def _cue(attr: str) -> re.Pattern[str]:
    """A sentence saying ``attr`` is written: assigned, stored, set or become."""
    a = rf"`?{re.escape(attr)}`?(?!\w)"
    before = r"\b(?:(?:stored|recorded|saved|kept)\s+(?:as|in)|sets?|records?|becomes|into)\s+"
    return re.compile(
        rf"(?<![\w`]){a}\s*(?:=(?!=)|\bis\b|\bbecomes\b|:)|{before}(?:the\s+\w+(?:'s)?\s+)?{a}",
        re.I,
    )


def _written(tb: ToolBehaviour) -> set[str]:
    """The attributes of the tool's own record some effect already computes (a create's
    constants do not count: they are its defaults)."""
    own = "new" if tb.kind == "create" else "target"
    out: set[str] = set()
    for e in tb.effects:
        if e.record != own:
            continue
        out |= {a for a, v in e.fields.items() if e.kind != "create" or v.source != "const"}
        if e.attribute:
            out.add(e.attribute)
    return out


def candidates(description: str, tb: ToolBehaviour, ctx: Context) -> list[tuple[str, str, str]]:
    """``(attribute, passage, first cue sentence)`` per number attribute of the tool's record
    that a sentence of its docs says it writes and no effect computes. The passage is every
    cue sentence with up to two sentences before it and one after, from the same text, in
    order. The policy's other cue sentences for the attribute are read too: a create's
    attribute is graded by the data, a change's is one the data shows it sets."""
    coll = tb.collection or ""
    params = {p.name for p in tb.params}
    skip = _written(tb) | params | {tb.id_param or ""}
    attrs = [a for a in ctx.ev.attributes.get(coll, []) if a in number_attributes(ctx, coll)]
    attrs = [a for a in attrs if a in _entered(tb, ctx)]
    texts = [*formula_texts(description, tb, ctx), ctx.policy]
    out: list[tuple[str, str, str]] = []
    for a in attrs:
        if a in skip:
            continue
        cue, kept, first = _cue(a), list[str](), ""
        for text in texts:
            sentences = doc_sentences(text)
            for i, s in enumerate(sentences):
                if not cue.search(s):
                    continue
                first = first or s
                kept += [x for x in sentences[max(0, i - 2) : i + 2] if x not in kept]
        if kept:
            out.append((a, " ".join(kept)[:_LONGEST], first))
    return out[:PER_TOOL]


def _reached(tb: ToolBehaviour, ctx: Context) -> tuple[str | None, str | None]:
    """``(status attribute, status)`` a write leaves its record in (a create's initial
    status), Nones when it sets none."""
    attr, _ = ctx.status_enum(tb.collection)
    own = "new" if tb.kind == "create" else "target"
    for e in tb.effects:
        held = e.fields.get(attr or "") if e.record == own else None
        if held is not None and held.source == "const" and isinstance(held.const, str):
            return attr, held.const
    return attr, None


def _entered(tb: ToolBehaviour, ctx: Context) -> list[str]:
    """The number attributes a write can work out, as the data shows: a change's, those its
    record gets on entering the status it sets
    (:func:`~autoforge.synth.behaviour.data.entered_with`); a create's, those records in its
    initial status hold (every attribute where it sets no status or the data has no such
    record)."""
    coll = tb.collection or ""
    attr, status = _reached(tb, ctx)
    if tb.kind != "create":
        return [] if attr is None or status is None else entered_with(ctx.ev, coll, attr, status)
    recs = [r for r in ctx.ev.state.get(coll, {}).values() if isinstance(r, dict)]
    if attr is not None and status is not None:
        recs = [r for r in recs if r.get(attr) == status] or recs
    return [a for a in ctx.ev.attributes.get(coll, []) if any(_num(r.get(a)) for r in recs)]


def _names(tb: ToolBehaviour, scope: _Scope, ctx: Context) -> list[str]:
    """The names the prompt offers: parameters, then ``<noun>.<attribute>`` of each record
    the tool reads (its own first), numbers, flags and closed sets of words only."""
    out = [p.name for p in tb.params if p.name != tb.id_param]
    seen: set[str] = set()
    closed = {(path.end, a) for path, a in scope.values}
    for path in [scope.own, *scope.others]:
        if path.end in seen or (path.start == "new" and path is not scope.own):
            continue
        seen.add(path.end)
        noun = sorted(path.words(), key=len)[0].replace(" ", "_")
        numbers = number_attributes(ctx, path.end)
        flags = set(ctx.ev.typed_attributes(path.end, "bool"))
        out += [
            f"{noun}.{a}"
            for a in scope.attrs.get(path.end, [])
            if a in numbers or a in flags or (path.end, a) in closed
        ]
    return out


def prompt(tb: ToolBehaviour, attr: str, passage: str, scope: _Scope, ctx: Context) -> str:
    """The question for one attribute: the passage, the names and the expression form."""
    noun = noun_forms(tb.collection or "")[-1]
    return (
        f"The tool `{tb.tool}` writes a {noun} record. From the text, write ONE Python "
        f"expression for the value it stores in `{attr}`.\n"
        f"Names you may use: {', '.join(_names(tb, scope, ctx))}.\n"
        "Use only these names, numbers, + - * /, min(), max(), round(x, 2), comparisons, "
        "`x if condition else y`, and tests like name == 'word'. A status test means the "
        "status before the call. You may first define helper values, one per line "
        "(name = expression); the last line is the value.\n"
        f"Text: {passage}\n"
        "Answer with code only, or none if the text does not say how it is worked out."
    )


def expression_text(answer: str, attr: str) -> str:
    """The expression in a model's answer: code fences and prose taken off, and each helper
    value it defined first (``base = words * rate``) written into the last line."""
    text = answer.strip()
    fenced = re.search(r"```(?:python)?\s*(.*?)```", text, re.S)
    text = fenced.group(1) if fenced else text
    helpers: dict[str, ast.expr] = {}
    last: ast.expr | None = None
    for line in (ln.strip().rstrip(";") for ln in text.splitlines()):
        try:
            body = ast.parse(line).body if line else []
        except SyntaxError:
            continue
        node = body[0] if len(body) == 1 else None
        if isinstance(node, ast.Assign) and len(node.targets) == 1:
            value, target = _inlined(node.value, helpers), node.targets[0]
            name = target.attr if isinstance(target, ast.Attribute) else getattr(target, "id", "")
            helpers[name] = value
            last = value if name == attr else last
        elif isinstance(node, ast.Expr):
            last = _inlined(node.value, helpers)
    return ast.unparse(last) if last is not None else ""


def _inlined(node: ast.expr, helpers: Mapping[str, ast.expr]) -> ast.expr:
    """``node`` with each bare name a helper defines replaced by the helper's expression."""

    class _Swap(ast.NodeTransformer):
        def visit_Name(self, n: ast.Name) -> ast.AST:
            return helpers.get(n.id, n)

    swapped: ast.expr = _Swap().visit(copy.deepcopy(node))
    return swapped


def read_tree(code: str, scope: _Scope) -> tuple[Tree, int | None] | None:
    """The tree of ``code`` and its stated decimals (an outer ``round(x, d)``)."""
    try:
        node = ast.parse(code, mode="eval").body
    except SyntaxError:
        return None
    digits = None
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "round":
        if len(node.args) == 2 and isinstance(node.args[1], ast.Constant):
            digits = node.args[1].value if isinstance(node.args[1].value, int) else None
        if len(node.args) in (1, 2):
            code = ast.unparse(node.args[0])
            digits = digits if len(node.args) == 2 else 0
    tree = expression_tree(code, scope)
    return None if tree is None else (tree, digits)


def _numbers(tree: Any) -> list[float]:
    if not isinstance(tree, list):
        return []
    if tree[:1] == ["num"]:
        return [float(tree[1])]
    return [n for t in tree for n in _numbers(t)]


def _read_names(tree: Any) -> int:
    if not isinstance(tree, list):
        return 0
    if tree[:1] in (["arg"], ["rec"]):
        return 1
    return sum(_read_names(t) for t in tree)


def _stated(n: float, passage: str) -> bool:
    """Whether number ``n`` is written in the passage, as itself or as a percentage."""
    said = {float(x.replace(",", "")) for x in re.findall(r"\d[\d,]*(?:\.\d+)?", passage)}
    pct = {float(x) / 100 for x in re.findall(r"(\d+(?:\.\d+)?)\s*(?:%|percent)", passage)}
    return any(abs(n - s) < 1e-9 for s in said | pct)


def grounded(
    tree: Tree, attr: str, scope: _Scope, passage: str, constants: Mapping[str, Any] | None = None
) -> bool:
    """Whether a read tree is grounded: it names a value other than ``attr`` itself, and
    every number in it is written in the passage or is one of the data's stated
    ``constants`` (its ``meta`` numbers)."""
    if _read_names(tree) == 0 or tree == ["rec", scope.own.start, scope.own.coll, [], attr]:
        return False
    known = {float(v) for v in (constants or {}).values() if _num(v)}
    return all(n in _PLAIN or n in known or _stated(n, passage) for n in _numbers(tree))


def _value(tree: Tree, rec: Mapping[str, Any], state: Mapping[str, Any]) -> Any:
    """``tree`` evaluated on a stored record (an argument read as its attribute)."""
    kind = tree[0]
    if kind == "num":
        return tree[1]
    if kind == "arg":
        return rec.get(tree[1])
    if kind == "rec":
        held: Any = rec if tree[1] in ("new", "target") else None
        if str(tree[1]).startswith("param:"):  # the record its argument, stored by name, names
            held = (state.get(tree[2]) or {}).get(str(rec.get(tree[1].split(":", 1)[1])))
        for attr, coll in tree[3]:
            held = (state.get(coll) or {}).get(str((held or {}).get(attr)))
        return (held or {}).get(tree[4]) if isinstance(held, dict) else None
    if kind == "op":
        a, b = _value(tree[2], rec, state), _value(tree[3], rec, state)
        if not _num(a) or not _num(b) or (tree[1] == "/" and b == 0):
            return None
        return {"+": a + b, "-": a - b, "*": a * b, "/": a / b if b else None}[tree[1]]
    if kind == "fn":
        xs = [_value(t, rec, state) for t in tree[2]]
        return None if not all(_num(x) for x in xs) else (max(xs) if tree[1] == "max" else min(xs))
    if kind == "if":
        for cond, val in tree[1]:
            if _value(cond, rec, state):
                return _value(val, rec, state)
        return _value(tree[2], rec, state)
    return _test(tree, rec, state)


def _test(tree: Tree, rec: Mapping[str, Any], state: Mapping[str, Any]) -> Any:
    kind = tree[0]
    if kind == "is":
        return _value(tree[1], rec, state) == tree[2]
    if kind in ("and", "or"):
        parts = [bool(_value(c, rec, state)) for c in tree[1]]
        return all(parts) if kind == "and" else any(parts)
    if kind == "cmp":
        xs = [_value(t, rec, state) for t in tree[2]]
        if not all(_num(x) for x in xs):
            return False
        ops = {"<": float.__lt__, "<=": float.__le__, ">": float.__gt__, ">=": float.__ge__,
               "==": float.__eq__, "!=": float.__ne__}  # fmt: skip
        return all(ops[o](float(xs[i]), float(xs[i + 1])) for i, o in enumerate(tree[1]))
    return None  # days, ceil: not graded


def _num(v: Any) -> bool:
    return isinstance(v, int | float) and not isinstance(v, bool)


def _grades(tree: Tree, status: str | None, stored: set[str]) -> bool:
    """Whether the data can grade ``tree``: no test of the record's own ``status`` attribute
    (it reads the record before the call, which the data no longer shows), no date arithmetic,
    and every argument it reads one the records store (``stored``) under its name."""
    return not _tests_own(tree, status) and _stored_only(tree, stored)


def _stored_only(tree: Any, stored: set[str]) -> bool:
    if not isinstance(tree, list) or not tree:
        return True
    if not isinstance(tree[0], str):  # a list of nodes (an ``if``'s arms)
        return all(_stored_only(t, stored) for t in tree)
    if tree[0] in ("days", "ceil"):
        return False
    if tree[0] == "arg":
        return tree[1] in stored
    return tree[0] == "rec" or all(_stored_only(t, stored) for t in tree[1:])


def _tests_own(tree: Any, status: str | None) -> bool:
    if not isinstance(tree, list) or status is None:
        return False
    held = tree[1] if tree[:1] == ["is"] else None
    own = isinstance(held, list) and held[:2] in (["rec", "new"], ["rec", "target"])
    if own and isinstance(held, list) and not held[3] and held[4] == status:
        return True
    return any(_tests_own(t, status) for t in tree)


def misses(
    tree: Tree, digits: int | None, tb: ToolBehaviour, ctx: Context, attr: str
) -> list[tuple[Mapping[str, Any], Any]]:
    """The stored records ``tree`` gets wrong, each with what it gives (None where it cannot
    be evaluated), when it does not agree with the stored records that hold ``attr`` (a
    create's records, a change's records in the status it sets); empty when it does. It
    agrees when it evaluates on at least :data:`MIN_GRADED` of them and is right on
    :data:`AGREE` of those, and wherever fewer than :data:`MIN_GRADED` records hold it or the
    tree tests the record's status, counts days or reads an argument the records do not store
    (the data shows neither the record before the call, nor the day it was made, nor that
    argument)."""
    status_attr, status = _reached(tb, ctx)
    if not _grades(tree, status_attr, set(ctx.ev.attributes.get(tb.collection or "", []))):
        return []
    state = ctx.ev.state
    hits = total = 0
    held: list[Mapping[str, Any]] = []
    wrong: list[tuple[Mapping[str, Any], Any]] = []
    for rec in (state.get(tb.collection or "") or {}).values():
        if not isinstance(rec, dict) or not _num(rec.get(attr)):
            continue
        if tb.kind != "create" and (status is None or rec.get(status_attr or "") != status):
            continue
        held.append(rec)
        got = _value(tree, rec, state)
        if not _num(got):
            wrong.append((rec, None))
            continue
        total += 1
        right = abs(round(got, digits if digits is not None else 2) - rec[attr]) < 0.011
        hits += right
        if not right:
            wrong.append((rec, round(got, 4)))
    if len(held) < MIN_GRADED or (total >= MIN_GRADED and hits >= AGREE * total):
        return []  # too little data to grade (the passage alone grounds it), or agreed
    return wrong or [(rec, None) for rec in held]


def feedback(
    tree: Tree, attr: str, wrong: list[tuple[Mapping[str, Any], Any]], ctx: Context
) -> str:
    """What the data says of a wrong answer: for up to three records it gets wrong, the
    values it read, the stored value and what it gave."""
    lines = []
    for rec, got in wrong[:3]:
        read = ", ".join(f"{label} = {_value(leaf, rec, ctx.ev.state)!r}"
                         for label, leaf in _leaves(tree))  # fmt: skip
        gave = "cannot be worked out" if got is None else f"gives {got!r}"
        lines.append(f"- with {read}: the data stores {attr} = {rec[attr]!r}; the answer {gave}")
    return (
        "That answer does not match the stored records:\n" + "\n".join(lines) + "\n"
        "Correct it. Answer with code only, or none."
    )


def _leaves(tree: Any) -> list[tuple[str, Tree]]:
    """The names a tree reads, each once, as the prompt spells them."""
    if not isinstance(tree, list):
        return []
    if tree[:1] == ["arg"]:
        return [(str(tree[1]), tree)]
    if tree[:1] == ["rec"]:
        end = tree[3][-1][1] if tree[3] else tree[2]
        return [(f"{noun_forms(end)[-1]}.{tree[4]}", tree)]
    out: list[tuple[str, Tree]] = []
    for t in tree:
        out += [x for x in _leaves(t) if x[0] not in {o[0] for o in out}]
    return out


def attach(tb: ToolBehaviour, attr: str, value: Value, sentence: str) -> None:
    """Write the formula: a create's field (after its others), else a set on the target put
    before every other write (its tests read the record as it was)."""
    if tb.kind == "create":
        made = next((e for e in tb.effects if e.kind == "create" and e.record == "new"), None)
        if made is not None:
            made.fields.pop(attr, None)
            made.fields[attr] = value
            return
    coll = tb.collection
    effect = Effect(kind="set", collection=coll, fields={attr: value}, sentence=sentence,
                    source="model")  # fmt: skip
    tb.effects.insert(0, effect)


async def read_formulas(
    model: BehaviourModel,
    docs: ToolDocs,
    data: Mapping[str, Any],
    policy: str,
    client: LLMClient,
    log: list[dict[str, Any]] | None = None,
    layout: StateSchema | None = None,
) -> int:
    """Add to ``model`` the grounded formulas the client's model reads for the amounts the
    rules left uncomputed (write tools only); returns how many were added. ``log`` gets one
    entry per amount asked about: the tool, the attribute and whether a formula was kept."""

    ctx = reading_context(docs, data, policy, layout)
    added = 0
    held = data.get("meta")
    meta: Mapping[str, Any] = held if isinstance(held, dict) else {}
    for spec in docs.tools:
        tb = model.tool(spec.name)
        if tb is None or tb.kind not in ("create", "action", "update") or tb.broken:
            continue
        scope = formula_scope(tb, ctx)
        if scope is None:
            continue
        for attr, passage, sentence in candidates(spec.description, tb, ctx):
            value = await _read_one(client, tb, attr, passage, scope, ctx, meta)
            if log is not None:
                log.append({"tool": spec.name, "kind": "amount", "text": attr,
                            "kept": value is not None})  # fmt: skip
            if value is not None:
                attach(tb, attr, value, sentence)
                added += 1
    return added


async def _read_one(
    client: LLMClient,
    tb: ToolBehaviour,
    attr: str,
    passage: str,
    scope: _Scope,
    ctx: Context,
    meta: Mapping[str, Any],
) -> Value | None:
    """The grounded formula the model reads for ``attr``, None without one. A grounded answer
    the data contradicts is shown the records it gets wrong and asked once more."""
    from autoforge.llm import LLMFailure

    ask: list[dict[str, Any]] = [{"role": "user", "content": prompt(tb, attr, passage, scope, ctx)}]
    for attempt in range(2):
        try:
            reply = await client.chat(ask, role="synthesizer", purpose="synth.read_formula",
                                      max_tokens=160)  # fmt: skip
        except LLMFailure:
            return None  # an unreadable answer adds nothing
        read = read_tree(expression_text(reply.content or "", attr), scope)
        if read is None or not grounded(read[0], attr, scope, passage, meta):
            return None
        tree, digits = read
        if digits is None:
            digits = amount_digits(ctx, tb.collection or "", attr)
        wrong = misses(tree, digits, tb, ctx, attr)
        if not wrong:
            return Value(source="formula", const=["expr", tree, digits])
        if attempt == 0:
            ask = [*ask, {"role": "assistant", "content": reply.content or ""},
                   {"role": "user", "content": feedback(tree, attr, wrong, ctx)}]  # fmt: skip
    return None
