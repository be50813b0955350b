"""Money a tool moves onto or off a number held by a record it reaches.

Descriptions say it with a verb of money and a holder: "Credits the wallet by `amount`",
"the ticket `total` is debited from the customer's wallet", "charges the rental total to the
customer's wallet", "the refund is credited to the wallet", "set as the visit's `fee` and
added to the owner's `balance`". Read here:

- the holder: a number attribute of the target, of the record a create makes, or of a record
  a parameter or the target refers to, named by the word the sentence uses ("wallet" for
  ``wallet_balance``; "the owner's" chooses among several);
- the amount: the attribute a formula before the verb computes ("`a` = x + y and is added
  to ..."), a parameter in code, else an attribute of the tool's own record (its target, or
  the record a create makes) named in code or by words ("the refund" for ``refund_amount``,
  "the rental total" for ``total``, "late and damage fees" for ``late_fee`` and
  ``damage_fee``); with none named before the verb of a clause joined by "and", the attribute
  the sentence named last;
- the sign from the verb: credit, add, refund raise the number; debit, charge, take, deduct
  lower it; on a number that counts what is owed (:func:`owed`) a charge or debit raises it
  and a credit, refund or return lowers it.

Sentences opening with a condition ("When ...", "If ...") are left to other readers, as is a
number another reader already moves. Every rule is stated without naming a domain.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from autoforge.env import Check, Effect, ToolBehaviour, Value, doc_sentences
from autoforge.synth.behaviour.data import noun_forms
from autoforge.synth.behaviour.formulas import named_amount
from autoforge.synth.behaviour.headings import tool_sentences
from autoforge.synth.behaviour.paths import effect_record
from autoforge.synth.behaviour.stated import OPENS_ON_CONDITION
from autoforge.synth.behaviour.text import write_targets

if TYPE_CHECKING:
    from autoforge.synth.behaviour.data import Context
    from autoforge.tooldocs import ToolSpec

_UP = r"credit(?:s|ed)?|add(?:s|ed)?|refund(?:s|ed)?|return(?:s|ed)?"
_DOWN = r"debit(?:s|ed)?|charg(?:es|ed|e)|tak(?:es|en|e)|deduct(?:s|ed)?|subtract(?:s|ed)?"
_HOLDER = r"(?:the\s+|its\s+)?(?:(?P<owner>\w+)'s\s+)?`?(?P<holder>\w+)`?"
_PASSIVE = re.compile(
    rf"(?P<amt>[`\w' ]*?)\s+(?:is|are)\s+(?:then\s+)?(?:[\w ]+?\s+(?:and|or)\s+)?"
    rf"(?P<verb>{_UP}|{_DOWN})\s+(?:to|from|onto|into)\s+{_HOLDER}",
    re.I,
)
_JOINED = re.compile(
    rf"`(?P<amt>\w+)`\s+and\s+(?:is\s+|then\s+)?(?P<verb>{_UP}|{_DOWN})\s+(?:to|from)\s+{_HOLDER}",
    re.I,
)
_ACTIVE = re.compile(
    rf"\b(?P<verb>{_UP}|{_DOWN})\s+{_HOLDER}\s+(?:by|with)\s+(?P<amt>`?\w+`?)", re.I
)
_CHARGE = re.compile(
    rf"\b(?P<verb>{_UP}|{_DOWN})\s+(?P<amt>(?:the\s+)?[`\w ]+?)\s+(?:to|from)\s+{_HOLDER}", re.I
)
#: "A fee of 25.00 is deducted (refused when the balance is below 25.00)": no holder after the
#: verb; the number moved is the one the rest of the sentence names
_UNHELD = re.compile(
    rf"(?P<amt>[`\w' .]*?\d[\d.]*[`\w' ]*?)\s+(?:is|are)\s+(?:then\s+)?"
    rf"(?P<verb>{_UP}|{_DOWN})\b(?!\s+(?:to|from|onto|into|by)\b)(?P<rest>.*)",
    re.I,
)
_PROSE = {"and", "or", "then", "is", "are", "with", "to", "from"}


def _holder(
    word: str, owner: str | None, tb: ToolBehaviour, ctx: Context
) -> tuple[str, str, str] | None:
    """``(collection, record, attribute)`` of the number the holder word names."""
    reach: list[tuple[str, str]] = []
    if tb.collection and tb.kind != "create":
        reach.append((tb.collection, "target"))
    for coll, via in write_targets(tb, ctx):
        if coll and via:
            reach.append((coll, effect_record(via)))
    found = []
    for coll, record in reach:
        if owner and not any(owner.lower() == n for n in noun_forms(coll)):
            continue
        nums = ctx.ev.float_attributes(coll) | set(ctx.ev.typed_attributes(coll, "int"))
        named = [a for a in nums if a == word or word.lower() in a.lower().split("_")]
        if len(named) == 1:
            found.append((coll, record, named[0]))
    return found[0] if len(found) == 1 else None


def _own_attributes(amt: str, tb: ToolBehaviour, ctx: Context) -> list[str]:
    """Attributes of the tool's own record the amount phrase names."""
    coll = tb.collection or ""
    attrs = ctx.ev.attributes.get(coll, [])
    coded = [a for a in re.findall(r"`(\w+)`", amt) if a in attrs]
    if coded:
        return coded
    words = [w for w in re.findall(r"[a-z]+", amt.lower()) if w not in ("the", "its", "and")]
    words = [w for w in words if w not in noun_forms(coll)]
    if len(words) >= 2 and words[-1].rstrip("s") in ("fee", "charge", "cost"):
        kind = words[-1].rstrip("s")
        both = [f"{w}_{kind}" for w in words[:-1]]
        return both if all(a in attrs for a in both) else []
    if len(words) != 1:
        return []
    word = words[0]
    return [a for a in attrs if a == word] or [a for a in attrs if a.split("_")[0] == word][:1]


def _amounts(amt: str, before: str, tb: ToolBehaviour, ctx: Context) -> list[Value]:
    params = [p.name for p in tb.params if p.name != tb.id_param and not p.references]
    side = "new" if tb.kind == "create" else "target"
    # "`a` = x + y and is added to ...": the amount is what the formula computes
    said = re.sub(r"\s+(?:and|then)\s*$", "", f"{before} {amt}")
    eq = re.search(r"`?(\w+)`?\s*(?<![<>!=])=(?!=)(?P<rhs>[^=;]*)$", said)
    words = {w.lower() for w in re.findall(r"[A-Za-z_]\w*", eq.group("rhs"))} if eq else set()
    arithmetic = eq and re.search(r"[-+*/×]|\sx\s", eq.group("rhs")) and not words & _PROSE
    if eq and arithmetic and eq.group(1) in ctx.ev.attributes.get(tb.collection or "", []):
        return [Value(source="formula", const=[side, eq.group(1), 1])]
    coded = re.findall(r"`(\w+)`", amt)
    if coded and coded[0] in params:
        return [Value(source="param", name=coded[0])]
    if amt.strip().lower() in ("it", "them", ""):
        earlier = [
            a
            for a in re.findall(r"`(\w+)`", before)
            if a in ctx.ev.attributes.get(tb.collection or "", [])
        ]
        names = earlier[-1:]
    else:
        names = _own_attributes(amt, tb, ctx)
    if not names and amt.strip():
        named = named_amount(amt, tb, ctx)  # "the plan's guest_pass_fee": a reached record's
        return [named] if named is not None else []
    return [Value(source="formula", const=[side, n, 1]) for n in names]


#: verbs of money whose direction turns on a number that counts what is owed: a charge or a
#: debit raises a debt, a credit, refund or return lowers it ("add" and "take" stay literal)
_OWED_TURNS = re.compile(r"credit|refund|return|debit|charg", re.I)
_OWED_SAID = re.compile(
    r"\bwhat\s+(?:\w+\s+){0,2}owes?\b|\bamounts?\s+owed\b|\bcharges?\s+(?:add\s+to|raise|"
    r"increase)\s+it\b",
    re.I,
)


def owed(coll: str, attr: str, ctx: Context) -> bool:
    """Whether number ``attr`` of ``coll`` counts what its holder owes: its name says so
    (``balance_due``, ``amount_owed``), or a policy sentence naming it does ("`balance`: what
    they owe us. Charges add to it")."""
    if attr.lower().split("_")[-1] in ("due", "owed", "owing", "debt", "outstanding"):
        return True
    named = re.compile(rf"(?<![\w`])`?{re.escape(attr)}`?(?![\w`])")
    texts = doc_sentences(ctx.policy)
    for i, s in enumerate(texts):
        if named.search(s) and any(_OWED_SAID.search(x) for x in texts[i : i + 2]):
            return True
    return False


def _sign(verb: str, debt: bool) -> int:
    """+1 when the verb raises the holder's number, -1 when it lowers it (see :func:`owed`)."""
    down = re.match(_DOWN, verb, re.I) is not None
    if debt and _OWED_TURNS.match(verb):
        down = not down
    return -1 if down else 1


def _signed(v: Value, sign: int) -> Value:
    if v.source == "param":
        return Value(source="param", name=("-" if sign < 0 else "") + (v.name or ""))
    if v.source == "const":
        return Value(source="const", const=sign * v.const)
    if v.const[0] == "expr":
        tree = v.const[1] if sign > 0 else ["op", "-", ["num", 0], v.const[1]]
        return Value(source="formula", const=["expr", tree, v.const[2]])
    return Value(source="formula", const=[v.const[0], v.const[1], sign])


def transfer_effects(spec: ToolSpec, tb: ToolBehaviour, ctx: Context) -> list[Effect]:
    """Increments of a holder's number by a stated amount (see the module docstring)."""
    if tb.kind not in ("create", "action", "update"):
        return []
    moved = {(e.collection, e.attribute) for e in tb.effects if e.kind in ("increment", "ledger")}
    out: list[Effect] = []
    for s in doc_sentences(spec.description):
        if OPENS_ON_CONDITION.match(s):
            continue
        for clause in re.split(r";|,\s+and\s+|\s+and\s+(?=the\s+\w+'s\b)", s):
            found = (_ACTIVE, _JOINED, _PASSIVE, _CHARGE)
            for m in (pat.search(clause) for pat in found):
                if m is None:
                    continue
                held = _holder(m.group("holder"), m.group("owner"), tb, ctx)
                if held is None or (held[0], held[2]) in moved:
                    continue
                amt = f"`{m.group('amt')}`" if m.re is _JOINED else m.group("amt") or ""
                sign = _sign(m.group("verb"), owed(held[0], held[2], ctx))
                before = s[: s.find(clause)] + clause[: m.start()]
                values = _amounts(amt, before, tb, ctx)
                out += [
                    Effect(kind="increment", record=held[1], collection=held[0],
                           attribute=held[2], value=_signed(v, sign), sentence=s)
                    for v in values
                ]  # fmt: skip
                if values:
                    moved.add((held[0], held[2]))
                    break
    return out + _unheld(spec, tb, ctx, moved)


def _unheld(spec: ToolSpec, tb: ToolBehaviour, ctx: Context, moved: set) -> list[Effect]:
    """A stated sum moved with no holder after the verb ("A fee of 25.00 is deducted (refused
    when the balance is below 25.00)"): the holder is the one number the rest of the sentence
    names ("the balance"), the amount the one number the subject states."""
    out: list[Effect] = []
    for s in doc_sentences(spec.description):
        m = _UNHELD.search(s)
        if OPENS_ON_CONDITION.match(s) or m is None:
            continue
        sums = re.findall(r"(?<![\w.])\d+(?:\.\d+)?(?![\w.])", m.group("amt"))
        words = re.findall(r"\bthe\s+(\w+)", m.group("rest"))
        held = [h for h in (_holder(w, None, tb, ctx) for w in words) if h is not None]
        if len(sums) != 1 or not held or (held[0][0], held[0][2]) in moved:
            continue
        coll, record, attr = held[0]
        sign = _sign(m.group("verb"), owed(coll, attr, ctx))
        value = Value(source="const", const=sign * float(sums[0]))
        out.append(Effect(kind="increment", record=record, collection=coll, attribute=attr,
                          value=value, sentence=s))  # fmt: skip
        moved.add((coll, attr))
    return out


_SHORT = re.compile(
    r"\b(?:refused|rejected|fails?|declined)\b[^.;]*?\b(?:lower|less|below|insufficient|"
    r"too\s+low|not\s+enough|short)\b|\bmust\s+(?:be\s+at\s+least|cover)\b|\binsufficient\b|"
    r"\bnot\s+enough\b|\b(?:cannot|may\s+not|must\s+not)\s+(?:go\s+)?(?:below\s+(?:0|zero)|"
    r"negative)",
    re.I,
)


def _lowers(e: Effect) -> bool:
    v = e.value
    if e.kind != "increment" or v is None:
        return False
    if v.source == "param":
        return (v.name or "").startswith("-")
    if v.source == "const":
        return isinstance(v.const, int | float) and v.const < 0
    if v.source == "formula" and isinstance(v.const, list) and v.const[0] == "expr":
        return v.const[1][:3] == ["op", "-", ["num", 0]]
    return v.source == "formula" and isinstance(v.const, list) and v.const[-1] == -1


def cover_checks(spec: ToolSpec, tb: ToolBehaviour, ctx: Context) -> list[Check]:
    """A number the tool takes an amount off, which a sentence of the tool's says must cover
    it ("must be at least the cost", "refused when the balance is lower", "insufficient
    credit"): a ``covers`` check, so a call that would leave it below 0 is refused."""
    texts = doc_sentences(spec.description) + tool_sentences(
        ctx.policy, tb.tool, ctx.headed, ctx.verbs
    )
    out: list[Check] = []
    for e in tb.effects:
        if not _lowers(e) or any(c.attribute == e.attribute for c in out):
            continue
        words = {e.attribute or ""} | set((e.attribute or "").split("_"))
        said = [
            s for s in texts
            if _SHORT.search(s) and words & set(re.findall(r"\w+", s.lower())) - {"", "id"}
        ]  # fmt: skip
        if said:
            via = None if e.record == "target" else e.record
            out.append(Check(kind="covers", collection=e.collection, attribute=e.attribute,
                             via=via, sentence=said[0]))  # fmt: skip
    return out
