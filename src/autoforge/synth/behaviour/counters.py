"""Counters and amounts a sentence moves on the records a tool reaches: "increases the
<noun>'s `a` by N", "`a` is reduced by the <param>", "the member's `balance` goes down by the
invoice amount", "`a` +1", "adds N to the <noun>'s `a`". Every rule is stated without naming a
domain.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from autoforge.env import Effect, ToolBehaviour, Value, doc_sentences
from autoforge.lexicon import count_of, number_words
from autoforge.synth.behaviour.data import noun_forms
from autoforge.synth.behaviour.formulas import amount_expr
from autoforge.synth.behaviour.headings import section_sentences
from autoforge.synth.behaviour.paths import path_record, reach, single_routes
from autoforge.synth.behaviour.text import write_targets

if TYPE_CHECKING:
    from autoforge.synth.behaviour.data import Context
    from autoforge.tooldocs import ToolSpec


def increments(spec: ToolSpec, tb: ToolBehaviour, ctx: Context) -> list[Effect]:
    """Counters a sentence of the description (or of the policy's section on the tool) moves
    on a related record: "increases the <noun>'s `a` by N",
    "the <noun>'s `a` is increased by N", "adds N to the <noun>'s `a`", "`a` is reduced by the
    <param>", "the <noun>'s `a` +1", "`a` -= `param`". The record may be two references away
    when one route reaches it (the record's own reference first)."""
    related: list[tuple[str | None, str | None]] = list(write_targets(tb, ctx))
    near = {c for c, _ in related if c}  # then two references away, by one route
    for end, path in single_routes(reach(tb, ctx)[1], near, prefer_own=True):
        related.append((end, path_record(path)))
    out: list[Effect] = []
    target = tb.collection if tb.kind != "create" and tb.id_param else None
    numbers = ctx.ev.number_attributes(target or "")  # and those only some records hold yet
    numbers += sorted(ctx.ev.float_attributes(target or "") - set(numbers))
    own = (noun_forms(target) if target else [], numbers)
    described = doc_sentences(spec.description)
    others = [t for t in ctx.verbs if t != spec.name]
    sectioned = [s for s in section_sentences(ctx.policy, spec.name, ctx.headed, others)
                 if s not in described and not _FOR_SOME.search(s)]  # fmt: skip
    for said in described + sectioned:
        for coll, via in related:
            if coll is None:
                continue
            s = _that_named(said, ctx.ev.attributes.get(coll, []))
            for a in ctx.ev.attributes.get(coll, []):
                amount = _amount(s, a, [p.name for p in tb.params], own, tb, ctx)
                if amount is None:
                    continue
                sign, value = amount
                named = any(n in s.lower() for n in noun_forms(coll)) or coll == tb.collection
                if not named and _owners(a, related, ctx) != [coll]:
                    continue  # "the balance goes down": only one record reached holds one
                record = (
                    "target"
                    if via is None
                    else (via if via.startswith(("param:", "path:")) else f"via:{via}")
                )
                if said in sectioned and any(
                    (e.record, e.collection, e.attribute) == (record, coll, a) for e in out
                ):
                    continue  # the policy's section restating what the description said
                out.append(
                    Effect(
                        kind="increment",
                        record=record,
                        collection=coll,
                        attribute=a,
                        value=value if sign > 0 else _negate(value),
                        sentence=s,
                    )
                )
    if not any(e.record == "target" for e in out):
        out += credited(spec, tb, ctx)
    return out


#: a policy sentence about some of the tool's calls: a condition ("if", "when", ...; "even if"
#: concedes, it makes no condition) or a
#: qualified subject ("A late cancellation adds 1 to ..."), which the section's plain
#: sentences do not carry
_FOR_SOME = re.compile(
    r"(?<!\beven\s)\b(?:if|when|whenever|unless|otherwise|instead|once)\b"
    r"|^\W*(?:an?|any|each|every)\s+[\w-]+\s+[\w-]+\s+(?:adds|increases|raises|lowers|reduces"
    r"|decreases|takes|gives|moves|counts)\b",
    re.I,
)

#: "credits `amount`", "adds `amount`", "loads `amount`": a parameter put onto a balance
_CREDIT = re.compile(r"\b(?:credits?|adds?|deposits?|loads?)\s+(?:the\s+)?`(\w+)`", re.I)


def credited(spec: ToolSpec, tb: ToolBehaviour, ctx: Context) -> list[Effect]:
    """ "Credits `amount`" in the description of a change whose name says what it credits
    (``top_up_wallet``): the target's one number attribute whose name holds a word of the
    tool's name other than its record's own noun (``wallet_balance``) grows by that
    parameter; nothing when no or several attributes qualify."""
    if tb.kind not in ("action", "update") or not tb.collection or tb.id_param is None:
        return []
    nouns = set(noun_forms(tb.collection))
    words = {w for w in spec.name.lower().split("_") if len(w) > 3 and w not in nouns}
    hits = [a for a in ctx.ev.number_attributes(tb.collection) if words & set(a.split("_"))]
    params = {p.name for p in tb.params if p.name != tb.id_param}
    for s in doc_sentences(spec.description) if len(hits) == 1 else ():
        m = _CREDIT.search(s)
        onto = re.match(r"\s+to\s+(?:the\s+)?(?:\w+'s\s+)?`(\w+)`", s[m.end() :]) if m else None
        if m and m.group(1) in params and (onto is None or onto.group(1) == hits[0]):
            value = Value(source="param", name=m.group(1))
            return [Effect(kind="increment", record="target", collection=tb.collection,
                           attribute=hits[0], value=value, sentence=s)]  # fmt: skip
    return []


def not_stored(effects: list[Effect]) -> list[Effect]:
    """``effects`` without the write of a given parameter onto an attribute of the target when
    an increment of the target moves an attribute by that parameter: a payment's ``amount``
    added to ``amount_paid`` is not the invoice's new ``amount``, ``hours`` added to
    ``labour_hours`` does not replace them."""
    moved = {e.value.name for e in effects if e.kind == "increment" and e.record == "target"
             and e.value is not None and e.value.source == "param"}  # fmt: skip
    out: list[Effect] = []
    for e in effects:
        if e.kind == "set" and e.only_given and e.record == "target":
            kept = {a: v for a, v in e.fields.items()
                    if not (v.source == "param" and v.name in moved)}  # fmt: skip
            if not kept:
                continue
            e = e.model_copy(update={"fields": kept})
        out.append(e)
    return out


def _owners(attr: str, related: list[tuple[str | None, str | None]], ctx: Context) -> list[str]:
    """The collections among ``related`` that hold ``attr``."""
    return sorted({c for c, _ in related if c and attr in ctx.ev.attributes.get(c, [])})


def _that_named(s: str, attrs: list[str]) -> str:
    """``s`` with "that <word>" written as the attribute named earlier in code whose name
    begins with the word ("`stock_on_hand` is a number, that stock is reduced")."""
    for m in reversed(list(re.finditer(r"\bthat\s+(\w+)\b", s))):
        named = [a for a in re.findall(r"`(\w+)`", s[: m.start()]) if a in attrs]
        same = [a for a in named if a.split("_")[0] == m.group(1).lower()]
        if same:
            s = s[: m.start()] + f"`{same[-1]}`" + s[m.end() :]
    return s


def _negate(v: Value) -> Value:
    if v.source == "const":
        return Value(source="const", const=-v.const)
    if v.source == "formula" and isinstance(v.const, list) and v.const[:1] == ["target"]:
        return Value(source="formula", const=["target", v.const[1], -v.const[2]])
    return Value(source="param", name="-" + (v.name or ""))


def _amount(
    s: str,
    attr: str,
    params: list[str],
    own: tuple[list[str], list[str]] = ([], []),
    tb: ToolBehaviour | None = None,
    ctx: Context | None = None,
) -> tuple[int, Value] | None:
    """How a sentence moves ``attr``: (sign, amount). ``own``: the nouns and the number
    attributes of the record the tool acts on, which "by the invoice amount" may name; with
    ``tb`` and ``ctx``, "by `packs × pack_size`" is that product."""
    if attr.lower() not in s.lower():  # every reading below names the attribute
        return None
    a = rf"(?<![\w-])`?{re.escape(attr)}`?(?![\w-])"
    up = r"(increase[sd]?|raise[sd]?|goes up|go up|grows?|grew|rises?|rose|increment(?:s|ed)?)"
    down = (
        r"(decrease[sd]?|reduce[sd]?|lower(?:s|ed)?|goes down|go down|falls?|fell|drops?"
        r"|dropped|shrinks?|decrement(?:s|ed)?)"
    )
    by = r"by\s+(one|\d+|(the\s+)?`?(\w+)`?)"
    for pat, sign in (
        (rf"{up}\s+(the\s+)?(\w+'s\s+)?{a}\s+{by}", 1),
        (rf"{a}\s+(is\s+|then\s+)?{up}\s+{by}", 1),
        (rf"{down}\s+(the\s+)?(\w+'s\s+)?{a}\s+{by}", -1),
        (rf"{a}\s+(is\s+|then\s+)?{down}\s+{by}", -1),
    ):
        m = re.search(pat, s, re.I)
        if m:
            after = m.start() + m.group(0).lower().rfind("by ") + 3  # the words after "by"
            if re.match(r"\s*the\s+(?:number|count)\s+of\b", s[after:], re.I):
                return None  # a count of other records: the data's tallies keep it
            tail = _times(s[after:])
            named = _own_amount(tail, own)
            computed = amount_expr(tail, tb, ctx) if tb and ctx else None
            if computed is None and tail != s[after:]:
                return None  # "twice <something not read>": no amount, rather than a wrong one
            return sign, computed or named or _value(m.group(0), params, s[: m.start()])
    note = re.search(  # "`a` +1", "`a` -= `amount`"
        rf"{a}\s+(?P<sign>[+-])(?P<n>\d+)(?!\w|\.\d)|{a}\s*(?P<op>[+-])=\s*`?(?P<p>\w+)`?", s
    )
    if note:
        sign = -1 if (note.group("sign") or note.group("op")) == "-" else 1
        if note.group("n"):
            return sign, Value(source="const", const=int(note.group("n")))
        if note.group("p") in params:
            return sign, Value(source="param", name=note.group("p"))
    m = re.search(rf"adds?\s+(\d+|{number_words()})\s+to\s+(the\s+)?(\w+'s\s+)?{a}", s, re.I)
    if m:
        return 1, Value(source="const", const=count_of(m.group(1)))
    added = _own_added(s, a, attr, own[1])
    if added is not None:
        return added
    return _param_added(s, a, params) or _subject_amount(s, a, params) or _implicit_amount(s, a, tb)


def _param_added(s: str, a: str, params: list[str]) -> tuple[int, Value] | None:
    """ "Adds `quantity` bottles (1 to 500) to `stock`": a parameter, with its unit word and
    range if said, added to ``a``."""
    for p in params:
        pat = (
            rf"adds?\s+(the\s+)?`?{re.escape(p)}`?(\s+[a-z]+)?(\s*\([^)]*\))?\s+to\s+(the\s+)?"
            rf"(\w+'s\s+)?{a}\b"
        )
        if re.search(pat, s, re.I):
            return 1, Value(source="param", name=p)
    return None


def _own_added(s: str, a: str, attr: str, numbers: list[str]) -> tuple[int, Value] | None:
    """ "`final_amount` is added to their `lifetime_spend`", "The quantity goes back into the
    item's `stock`": a number attribute of the record
    the tool acts on (one of ``numbers``) moves ``attr`` (pattern ``a``) by its value."""
    added = re.search(
        rf"(?:the\s+)?(?:\w+'s\s+)?`?(\w+)`?\s+(?:is|are|goes|go)\s+(added\s+to|back\s+(?:in)?to|"
        rf"taken\s+off|subtracted\s+from|deducted\s+from)\s+(?:the\s+|their\s+|its\s+)?"
        rf"(?:\w+'s\s+)?{a}",
        s, re.I,
    )  # fmt: skip
    if added is None or added.group(1) not in numbers or added.group(1) == attr:
        return None
    sign = 1 if added.group(2).lower().startswith(("added", "back")) else -1
    return sign, Value(source="formula", const=["target", added.group(1), 1])


#: a multiple said in words before an amount ("twice the job's `distance_km`")
_TIMES = {"twice": "2 * ", "double": "2 * ", "three times": "3 * ", "half": "0.5 * "}


def _times(tail: str) -> str:
    """``tail`` with a multiple in words at its start written as arithmetic."""
    return re.sub(
        r"^\s*(twice|double|three\s+times|half)\s+(?:of\s+)?(?:the\s+)?(?:\w+'s\s+)?",
        lambda m: _TIMES[" ".join(m.group(1).lower().split())], tail, flags=re.I,
    )  # fmt: skip


def _implicit_amount(s: str, a: str, tb: ToolBehaviour | None) -> tuple[int, Value] | None:
    """ "Adds to `amount_paid` and lowers the client's `balance_due`", an active verb with no
    amount said: the amount is the tool's one number parameter (None when it has none or
    several, or when the sentence is passive: "X is added to ..." says its amount)."""
    numbers = [p.name for p in tb.params if p.number and p.name != tb.id_param] if tb else []
    if len(numbers) != 1:
        return None
    amount = Value(source="param", name=numbers[0])
    whose = r"(?:the\s+)?(?:\w+'s\s+)?"
    ways = ((r"adds?\s+to|raises|increases", 1), ("lowers|reduces|decreases", -1))
    for verbs, sign in ways:
        m = re.search(rf"\b(?:{verbs})\s+{whose}{a}(?![\w-])(?!`?\s+by\b)", s, re.I)
        if m and not re.search(r"\b(?:is|are|be|been)\s+$", s[: m.start()], re.I):
            return sign, amount
    return None


def _subject_amount(s: str, a: str, params: list[str]) -> tuple[int, Value] | None:
    """A parameter the sentence is about, moved onto ``a`` later in the same sentence:
    "`hours` is a multiple of 0.25 ..., added to `labour_hours`", "`amount` must not exceed
    `fines_due`, which is reduced by it", "The amount may not exceed `due`, which it reduces"."""
    head = re.match(r"^\s*`(\w+)`|^\s*the\s+(\w+)\b", s, re.I)
    if head is None or (head.group(1) or head.group(2)) not in params:
        return None
    subject = Value(source="param", name=head.group(1) or head.group(2))
    onto = r"\s+(to|onto)\s+(the\s+)?(\w+'s\s+)?"
    if re.search(rf",\s*(and\s+)?(is\s+|it\s+is\s+)?added{onto}{a}(?![\w-])", s, re.I):
        return 1, subject
    off = r"(subtracted|deducted|taken)\s+from\s+(the\s+)?(\w+'s\s+)?"
    if re.search(rf",\s*(and\s+)?(is\s+|it\s+is\s+)?{off}{a}(?![\w-])", s, re.I):
        return -1, subject
    which = r",?\s+which\s+(is\s+)?"
    it = rf"(it|`?{re.escape(subject.name or '')}`?)(?![\w-])"
    if re.search(rf"{a}{which}(increased|raised|goes\s+up)\s+by\s+{it}", s, re.I):
        return 1, subject
    if re.search(rf"{a}{which}(reduced|decreased|lowered|goes\s+down)\s+by\s+{it}", s, re.I):
        return -1, subject
    if re.search(rf"{a},?\s+which\s+{it}\s+(raises|increases)\b", s, re.I):
        return 1, subject
    if re.search(rf"{a},?\s+which\s+{it}\s+(reduces|decreases|lowers)\b", s, re.I):
        return -1, subject
    return None


def _own_amount(tail: str, own: tuple[list[str], list[str]]) -> Value | None:
    """ "the invoice amount", "the invoice's `total`", "the fee": a number attribute of the
    record the tool acts on, after "by" (value: that attribute, read before the writes)."""
    nouns, attrs = own
    noun = "|".join(re.escape(n) for n in nouns) or r"(?!x)x"
    m = re.match(rf"\s*(?:the\s+)?(?:(?:{noun})(?:'s)?\s+)?`?(\w+)`?", tail, re.I)
    if m is None or m.group(1) not in attrs:
        return None
    return Value(source="formula", const=["target", m.group(1), 1])


def _value(text: str, params: list[str], before: str) -> Value:
    """The amount "by ..." names: a number, a parameter, or (``it``) the parameter the
    sentence named last before the match ("increases by the amount and ... decreases by it")."""
    tail = text.split(" by ")[-1].strip(" `.").lower()
    if tail == "one":
        return Value(source="const", const=1)
    if tail == "it":
        named = [
            (m.start(), p) for p in params for m in re.finditer(rf"\b{re.escape(p)}\b", before)
        ]
        if named:
            return Value(source="param", name=max(named)[1])
    if re.fullmatch(r"\d+", tail):
        return Value(source="const", const=int(tail))
    word = tail.replace("the ", "").strip("` ")
    if word in params:
        return Value(source="param", name=word)
    return Value(source="const", const=1)
