"""What the docs say an argument's own value must be: decimals, a sign, a date window.

Read from the tool's description and the policy sentences that speak of the tool, each rule
stated without naming a domain; a parameter is named by its name in code, by its words ("the
date of birth" for ``date_of_birth``), or, for a rule about amounts or dates, as the tool's
only number or date parameter:

- "at most two decimals", "in whole cents", "no fractions of a cent": ``["decimals", 2]``;
- "must be above 0", "must be positive", "greater than zero": ``[">", 0]``;
- for two dates bounding a range (``date_from``/``date_to``, ``start_*``/``end_*``), a sentence
  saying the first after the second is an error: ``["<=", "param:<second>"]``;
- for a date: "after today" or "in the future" refused, "may be today but not in the
  future": ``["<=", ["today", 0]]``; "no more than N days ahead", "more than N days ahead"
  refused, "between today and N days from today", "today + N is still OK":
  ``["<=", ["today", N]]``; "today or later", "between today and ...": ``[">=", ["today", 0]]``;
  "at least N days after today", "at least N days in advance": ``[">=", ["today", N]]``;
  "must be after today", "between tomorrow and ...": ``[">=", ["today", 1]]``; "may be today or
  up to N days after today": both ``[">=", ["today", 0]]`` and ``["<=", ["today", N]]``; "at
  most N days before today", "within the last N days": ``[">=", ["today", -N]]``;
- for a text: "must end in .pdf, .jpg or .png (case-insensitive)": ``["suffix", [[".pdf",
  ".jpg", ".png"], true]]`` (the flag: any case).

Each becomes a check of kind ``argument`` (``values`` ``[op, operand]``) carrying its sentence.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from autoforge.env import Check, ToolBehaviour, doc_sentences, python_param_name
from autoforge.lexicon import count_of, number_words
from autoforge.synth.behaviour.headings import tool_sentences

if TYPE_CHECKING:
    from autoforge.synth.behaviour.data import Context
    from autoforge.tooldocs import ToolSpec

_DECIMALS = re.compile(
    rf"\b(?:at\s+most|no\s+more\s+than|up\s+to)\s+({number_words(3)}|[123])\s+decimals?\b"
    r"|\bin\s+whole\s+cents\b|\bno\s+fractions?\s+of\s+a\s+cent\b",
    re.I,
)
_POSITIVE = re.compile(
    r"\bmust\s+be\s+(?:positive|(?:above|greater\s+than|more\s+than|over)\s+(?:0(?:\.0+)?|zero))\b",
    re.I,
)
_FUTURE = re.compile(
    r"\b(?:is|are)\s+(?:after\s+today|in\s+the\s+future)\b|\bbut\s+not\s+in\s+the\s+future\b", re.I
)
_AHEAD = re.compile(
    r"\b(?:no\s+more\s+than|at\s+most|more\s+than|within|up\s+to)\s+(?P<n>\d+)\s+days?\s+"
    r"(?:ahead|from\s+today|after\s+today|in\s+advance)"
    r"|\bbetween\s+(?:today|tomorrow)\s+and\s+(?P<m>\d+)\s+days?\s+(?:from|after)\s+today"
    r"|\btoday\s*\+\s*(?P<k>\d+)\s+is\s+still\s+ok",
    re.I,
)
_FROM_TODAY = re.compile(
    r"\btoday\s+or\s+later\b|\bbetween\s+today\s+and\b"
    r"|\bbe\s+today\s+or\s+(?:up\s+to|within|no\s+more\s+than|at\s+most|any\s+day\s+after)\b",
    re.I,
)
_LEAD_TIME = re.compile(
    r"\bat\s+least\s+(?P<n>\d+)\s+days?\s+(?:after\s+today|from\s+today|ahead|in\s+advance)\b", re.I
)
_AFTER_TODAY = re.compile(
    r"\bmust\s+be\s+after\s+today\b|\bbetween\s+tomorrow\s+and\b|\bfrom\s+tomorrow\s+(?:on|up\s+to)\b",
    re.I,
)
_BEFORE = re.compile(
    r"\b(?:no\s+more\s+than|at\s+most|within|up\s+to)\s+(?P<n>\d+)\s+days?\s+"
    r"(?:before\s+today|ago|in\s+the\s+past)\b|\bwithin\s+the\s+last\s+(?P<m>\d+)\s+days?\b",
    re.I,
)


_DAY_NAMES = ("Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday")
_DAY = r"(?:sun|mon|tues|wednes|thurs|fri|satur)days?|weekends?"
_NO_DAY = re.compile(
    rf"\b(?:not\s+(?:on\s+)?an?|no|never\s+(?:on\s+)?an?|never\s+on|closed\s+on|except)\s+"
    rf"((?:{_DAY})(?:\s*(?:,|\bor\b|\band\b)\s*(?:{_DAY}))*)",
    re.I,
)


def _weekdays_refused(s: str) -> list[int]:
    """Days of the week a sentence says a date may not fall on ("not a Sunday", "no
    Saturdays or Sundays", "closed on weekends"): 0 for Sunday to 6 for Saturday."""
    out: set[int] = set()
    for m in _NO_DAY.finditer(s):
        for word in re.findall(_DAY, m.group(1), re.I):
            w = word.lower()
            if w.startswith("weekend"):
                out |= {0, 6}
            else:
                out |= {i for i, n in enumerate(_DAY_NAMES) if w.startswith(n.lower()[:3])}
    return sorted(out)


_ORDER = re.compile(r"\b(?:after|later\s+than)\b", re.I)
_REFUSED = re.compile(r"\b(?:error|400|refused|rejected|invalid|not\s+allowed)\b", re.I)
_ENDS = (("_from", "_to"), ("from_", "to_"), ("start_", "end_"), ("_start", "_end"))


def _date_pair(dates: list[str]) -> tuple[str, str] | None:
    """``(first, last)`` of two date parameters that bound a range by their names."""
    for a in dates:
        for one, two in _ENDS:
            if one in a and (b := a.replace(one, two)) in dates:
                return a, b
    return None


def _named(s: str, names: list[str]) -> list[str]:
    """Parameters of ``names`` the sentence names in code or by their words."""
    low = s.lower()
    out = []
    for n in names:
        words = n.replace("_", " ")
        if f"`{n}`" in s or re.search(rf"\b(?:{re.escape(words)}|{re.escape(n)})\b", low):
            out.append(n)
    return out


def _texts(spec: ToolSpec, tb: ToolBehaviour, ctx: Context) -> list[str]:
    return doc_sentences(spec.description) + tool_sentences(
        ctx.policy, tb.tool, ctx.headed, ctx.verbs
    )


_SUFFIX = re.compile(
    r"\bends?\s+(?:in|with)\s+(?:one\s+of\s+)?(?P<list>`?\.\w+`?(?:\s*(?:,|\bor\b)\s*`?\.\w+`?)*)",
    re.I,
)
_ANY_CASE = re.compile(r"case[- ]insensitive|any\s+case|upper\s+or\s+lower", re.I)


def _pick(s: str, candidates: list[str]) -> str | None:
    named = _named(s, candidates)
    if len(named) == 1:
        return named[0]
    return candidates[0] if len(candidates) == 1 and not named else None


def argument_checks(
    spec: ToolSpec, tb: ToolBehaviour, ctx: Context, pair_only: bool = False
) -> list[Check]:
    """The ``argument`` checks of ``tb`` (see the module docstring and :func:`choice_rules`);
    with ``pair_only`` (a read tool) only the order of a range's two dates, and the rules of
    a sentence naming one of its dates in code ("`date` may be today or up to 90 days after
    today")."""
    props = spec.parameters.get("properties") or {}
    numbers = [p.name for p in tb.params if (props.get(p.name) or {}).get("type") == "number"]
    dates = [p.name for p in tb.params if p.format in ("date", "date-time")]
    texts = [p.name for p in tb.params if (props.get(p.name) or {}).get("type") == "string"]
    texts = [p for p in texts if p not in dates and p != tb.id_param]
    out: list[Check] = []
    seen: set[tuple[str, str]] = set()

    def add(param: str | None, op: str, operand: Any, s: str) -> None:
        if param is not None and (param, op) not in seen:
            seen.add((param, op))
            out.append(Check(kind="argument", param=param, values=[op, operand], sentence=s))

    pair = _date_pair(dates)
    for said in _texts(spec, tb, ctx):
        s = said.replace("**", "")  # "no more than **42 days** after today"
        if (
            pair
            and _ORDER.search(s)
            and _REFUSED.search(s)
            and set(_named(s, list(pair)))
            | {w for w in ("start", "end", "from", "to") if re.search(rf"\b{w}\b", s, re.I)}
        ):
            add(pair[0], "<=", f"param:{pair[1]}", s)
        if pair_only and not any(f"`{d}`" in s for d in dates):
            continue  # a read's own date named in code: its window holds for reads too
        if (m := _DECIMALS.search(s)) is not None:
            add(_pick(s, numbers), "decimals", count_of(m.group(1) or "2"), s)
        if _POSITIVE.search(s):
            add(_pick(s, numbers), ">", 0, s)
        if (m := _SUFFIX.search(s)) is not None:
            ends = re.findall(r"\.\w+", m.group("list"))
            add(_pick(s[: m.start()], texts), "suffix", [ends, bool(_ANY_CASE.search(s))], s)
        if not dates:
            continue
        if _FUTURE.search(s):
            add(_pick(s, dates), "<=", ["today", 0], s)
        if (m := _AHEAD.search(s)) is not None:
            n = int(m.group("n") or m.group("m") or m.group("k"))
            add(_pick(s, dates), "<=", ["today", n], s)
        if _FROM_TODAY.search(s):
            add(_pick(s, dates), ">=", ["today", 0], s)
        if (m := _LEAD_TIME.search(s)) is not None:
            add(_pick(s, dates), ">=", ["today", int(m.group("n"))], s)
        if _AFTER_TODAY.search(s):
            add(_pick(s, dates), ">=", ["today", 1], s)
        if (m := _BEFORE.search(s)) is not None:
            add(_pick(s, dates), ">=", ["today", -int(m.group("n") or m.group("m"))], s)
        if days := _weekdays_refused(s):
            add(_pick(s, dates), "weekday_not", days, s)
    return out if pair_only else out + choice_rules(spec, tb)


def choice_rules(spec: ToolSpec, tb: ToolBehaviour) -> list[Check]:
    """Arguments one value of a choice parameter requires or forbids: "`reference` is
    mandatory (non-blank) for `bank_transfer` ... and must not be sent for `cash`",
    "* `reject` -> status `rejected`; `reject_reason` is required": ``["required_when",
    [choice, value]]`` and ``["forbidden_when", [choice, value]]``."""
    props = spec.parameters.get("properties") or {}
    owner = {str(v): n for n, sch in props.items() if isinstance(sch, dict)
             for v in (sch.get("enum") or [])}  # fmt: skip
    names = {p.name for p in tb.params}
    out: list[Check] = []
    for s in doc_sentences(spec.description):
        lead = re.match(r"\s*[*-]?\s*`(\w+)`\s*(?:→|->)", s)
        for m in re.finditer(r"`(\w+)`\s+is\s+(?:mandatory|required)\b([^.;]*)", s):
            said = re.search(r"\b(?:for|when|with)\s+`(\w+)`", m.group(2))
            value = said.group(1) if said else (lead.group(1) if lead else None)
            _choice_rule(out, m.group(1), value, owner, names, "required_when", s)
        for m in re.finditer(
            r"`(\w+)`[^.;]*?\bmust\s+not\s+be\s+sent\s+(?:for|with|when)\s+`(\w+)`", s
        ):
            _choice_rule(out, m.group(1), m.group(2), owner, names, "forbidden_when", s)
    return out


def _choice_rule(
    out: list[Check], param: str, value: str | None, owner: dict[str, str], names: set[str],
    op: str, s: str,
) -> None:  # fmt: skip
    choice = owner.get(value or "")
    if choice and param in names and choice in names and choice != param:
        out.append(Check(kind="argument", param=param, values=[op, [choice, value]], sentence=s))


def argument_lines(c: Check, p: str, why: str) -> list[str]:
    """The guard of an ``argument`` check on parameter ``p`` (a given value only)."""
    op, operand = c.values[0], c.values[1]
    given = f"({p} is not None and {p} != '<unset>')"
    if op in ("required_when", "forbidden_when"):
        choice, value = python_param_name(str(operand[0])), str(operand[1])
        if op == "forbidden_when":
            return [
                f"if str({choice}) == {value!r} and {given}:",
                f"    raise ToolError({f'{p} must not be sent when {choice} is {value}' + why!r})",
            ]
        blank = f"(not {given} or (isinstance({p}, str) and not {p}.strip()))"
        return [
            f"if str({choice}) == {value!r} and {blank}:",
            f"    raise ToolError({f'{p} is required when {choice} is {value}' + why!r})",
        ]
    number = f"{given} and isinstance({p}, (int, float)) and not isinstance({p}, bool)"
    if op == "decimals":
        scale = 10 ** int(operand)
        return [
            f"if {number} and abs({p} * {scale} - round({p} * {scale})) > 1e-6:",
            f"    raise ToolError({f'{p} may have at most {operand} decimals' + why!r})",
        ]
    if op == "suffix":
        ends, any_case = operand
        value = f"str({p}).lower()" if any_case else f"str({p})"
        wanted = tuple(e.lower() for e in ends) if any_case else tuple(ends)
        return [
            f"if {given} and not {value}.endswith({wanted!r}):",
            f"    raise ToolError({f'{p} must end in ' + ', '.join(ends) + why!r})",
        ]
    if op == "weekday_not":  # days of the week the date may not fall on (0: Sunday)
        names = ", ".join(_DAY_NAMES[d] for d in operand)
        return [
            f"if {given} and _weekday({p}) in {tuple(operand)!r}:",
            f"    raise ToolError({f'{p} may not fall on a {names}' + why!r})",
        ]
    if isinstance(operand, str) and operand.startswith("param:"):  # one date after another
        other = python_param_name(operand.split(":", 1)[1])
        both = f"{given} and ({other} is not None and {other} != '<unset>')"
        return [
            f"if {both} and str({p}) > str({other}):",
            f"    raise ToolError({f'{p} may not be after {other}' + why!r})",
        ]
    if isinstance(operand, list):  # a date against today plus days
        bound = f"_plus_days(_today, {int(operand[1])})"
        broken = "<" if op == ">=" else ">"
        return [
            f"if {given} and {bound} is not None and str({p}) {broken} {bound}:",
            f"    raise ToolError({f'{p} must be {op} today + {operand[1]} days' + why!r})",
        ]
    return [
        f"if {number} and not ({p} {op} {operand!r}):",
        f"    raise ToolError({f'{p} must be {op} {operand}' + why!r})",
    ]
