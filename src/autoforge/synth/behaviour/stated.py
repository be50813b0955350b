"""Values the docs state for a record's attributes: today or now, and literals.

"`created_on` = today", "`completed_on` to today", "`count` 0", "`notes` null", "no
`parts`", "a fee of 40.00 is set as the visit's `penalty_fee`": what a write gives an
attribute when the docs say it in so many words. A date compared with today ("whose date is
today or later") or computed from it ("today + 30 days") is no such value, and neither is a
number that opens a formula ("10% of"). Every rule is stated without naming a domain.
"""

from __future__ import annotations

import re
from typing import Any

from autoforge.env import ValueSource, doc_sentences


def time_fields(text: str, attrs: list[str]) -> dict[str, ValueSource]:
    """Attributes a sentence sets to the domain's today or now (``created_on`` = today,
    ``completed_on`` to today, ``a`` set to today, ``a`` becomes today, ``a`` = ``b`` =
    today, ```a``` (today))."""
    flat = " ".join(text.split())
    out: dict[str, ValueSource] = {}
    for a in attrs:
        pat = rf"`?\b{re.escape(a)}\b`?((\s*(=|and|,)\s*`?\w+`?)*)"
        pat += r"\s*(=|(?:is\s+)?set\s+to|to|is|:|becomes)?\s*(today|now)\b"
        pat += r"(?!\s*(?:[+-]|plus\b|minus\b))"  # "today + 30 days" is a computed date
        pat += r"(?!\s+or\s+(?:later|earlier|before|after)\b)"  # a comparison, not a write
        for m in re.finditer(pat, flat):
            if re.search(
                r"\b(?:whose|where|if|when|unless)\s+$", flat[max(0, m.start() - 8) : m.start()]
            ):
                continue  # "whose date is today": a condition on the record
            if m.group(1) and flat[m.start()] != "`":
                continue  # a bare word before a list of names ("+= amount, `x` = today")
            if re.search(r"`\w+`\s+or\s+$", flat[: m.start()]):
                continue  # "`shipped_on` or `ready_on` becomes today": one of them, by case
            if _in_condition(flat, m.start()):
                continue  # "Only ... that have ended: date before today, or date = today"
            out[a] = "today" if m.group(5) == "today" else "now"
            break
        # "sets `tier` and `changed_on` (today)": the day in brackets right after the name
        bracketed = re.search(rf"`{re.escape(a)}`\s*\(\s*(today|now)\s*\)", flat)
        if a not in out and bracketed is not None:
            out[a] = "today" if bracketed.group(1) == "today" else "now"
        # "with today's date as `joined_on`", "today as `closed_on`"
        said = re.search(rf"\b(today|now)(?:'s\s+date)?\s+as\s+(?:its\s+)?`{re.escape(a)}`", flat)
        if a not in out and said is not None:
            out[a] = "today" if said.group(1) == "today" else "now"
    return out


def _in_condition(flat: str, at: int) -> bool:
    """Whether the name at ``at`` is tested, not written: an alternative after "or", or in a
    sentence that opens with "Only" (a restriction on which records the call may touch)."""
    if re.search(r"\bor\s+(?:either\s+)?$", flat[max(0, at - 12) : at]):
        return True
    stop = flat.rfind(". ", 0, at)
    opened = 0 if stop < 0 else stop + 2
    return re.match(r"\s*Only\b", flat[opened:at]) is not None


def dated_today(text: str) -> bool:
    """Whether a sentence on a new record says it is dated today without naming the
    attribute ("Creates a `Payment` dated today", "starts `open`, dated today"). A date the
    record must already have ("a reservation dated today can be seated") is a condition,
    not a stamp: sentences that make one are left out."""
    flat = " ".join(text.split())
    if re.search(r"\b(?:only|can|cannot|must|allowed|if|when|whose|unless)\b", flat, re.I):
        return False
    return re.search(r"\bdated\s+today\b", flat, re.I) is not None


def stated_params(text: str, attrs: list[str], params: list[str]) -> dict[str, str]:
    """``{attribute: parameter}`` a sentence assigns: "resulted_by = entered_by", "`a` is set
    to `p`", "`verified_by` is set to the initials" (the parameter whose name ends in the
    word: ``pharmacist_initials``), parameters that are no attribute of the record; "`a`
    equal to `p`", any parameter."""
    flat = " ".join(text.split())
    free = [p for p in params if p not in attrs]
    out: dict[str, str] = {}
    for a in attrs:
        pat = rf"(?<![\w`])`?{re.escape(a)}`?\s*(?:=|(?:is\s+)?set\s+to|(?:is\s+)?equal\s+to)"
        pat += r"\s*(?:the\s+)?`?(\w+)`?"
        for m in re.finditer(pat, flat):
            word = m.group(1)
            if word in params and word != a and "equal" in m.group(0):
                out[a] = word  # "with `remaining` equal to `authorized`": the argument as given
                break
            hits = [p for p in free if p == word or p.endswith("_" + word)]
            if len(hits) == 1:
                out[a] = hits[0]
                break
    return out


def _literal(token: str, enum: list[str]) -> tuple[bool, Any]:
    t = token.strip("`.,;")
    if t in ("null", "true", "false"):
        return True, {"null": None, "true": True, "false": False}[t]
    if re.fullmatch(r"-?\d+", t):
        return True, int(t)
    if re.fullmatch(r"-?\d+\.\d+", t):
        return True, float(t)
    if token.startswith("`") and t in enum:
        return True, t
    return False, None


def literal_fields(
    text: str,
    attrs: list[str],
    enum: list[str],
    lists: set[str] | None = None,
    floats: set[str] | None = None,
    enums: dict[str, list[str]] | None = None,
) -> dict[str, Any]:
    """Attributes a sentence gives a literal value (```count` 0``, ``x null``, ``x becomes
    null``, ``flag false``, ``a/b null``, ``a and b become null``, ```a: v``` with ``v`` one of
    the values ``enums`` documents for ``a``); of ``lists`` (attributes
    the data holds lists in), those it says start empty ("no parts", "an empty `tags` list")
    get ``[]``; a whole number given to one of ``floats`` (attributes the data holds floats
    in) is written as a float."""
    flat = " ".join(text.split())
    out: dict[str, Any] = _set_as(flat, attrs, floats or set())
    out.update({a: None for a in cleared_fields(flat, attrs)})
    for a in sorted(lists or ()):
        word = re.escape(a).replace("_", "[_ ]")
        if re.search(rf"\b(no|empty)\s+`?{word}`?(?![\w-])", flat, re.I):
            out[a] = []
    for a in attrs:
        for m in re.finditer(
            rf"(?<![\w/])`?{re.escape(a)}`?((?:(?:/|\s+and\s+)\s*`?\w+`?)*)"
            rf"\s*(?:=|:|becomes?\b|to\b)?\s*(`?[\w.-]+`?)",
            flat,
        ):
            to = re.search(r"\sto\s+\S+$", m.group(0)) is not None
            head = re.split(r"(?<=[.;:])\s+", flat[: m.start()])[-1]
            own = r"\s*(?:(?:it|this|the\s+call|and|also)\s+)*sets?\b"
            if to and not re.match(own, head, re.I):
                continue  # "limits `x` to 5" is a bound; "Sets ... `x` to 0" a write of the
                # call ("Every cancellation sets `x` to ..." is another call's)
            if " and " in m.group(1) and not re.search(r"[=:]|\bbecome", m.group(0)):
                continue  # "an empty `ids` and `count` 0": the value is the last one's only
            ok, value = _literal(m.group(2), enum)
            span = re.fullmatch(r"`\w+\s*[:=]\s*([\w.-]+)`", m.group(0))  # "`a: v`", one span
            if not ok and span and span.group(1) in (enums or {}).get(a, ()):
                ok, value = True, span.group(1)  # a documented value of that attribute
            if re.match(r"\s*(?:%|percent\b|[+*/×]|-\s|x\s|of\b)", flat[m.end() :]):
                ok = False  # "`discount` = 10% of ...": the start of a formula, no literal
            if "become" in m.group(0) and re.search(
                r"\b(?:whose|if|when|once|until|unless)\s+(?:[`\w']+\s+){0,3}$", flat[: m.start()]
            ):
                ok = False  # "a patron whose `fines_due` becomes 0.00 is ...": a condition
            if ok and type(value) is int and a in (floats or ()):
                value = float(value)
            if ok and a not in out:
                out[a] = value
                for other in re.findall(r"\w+", m.group(1)):
                    if other in attrs:
                        out[other] = value
                break
    return out


#: a sentence that states a case, not what the call always does
CONDITIONAL = re.compile(r"\b(?:if|when|whenever|unless|otherwise|instead)\b", re.I)
#: a sentence opening on a condition ("When ...", "If ..."): a case, left to the readers of cases
OPENS_ON_CONDITION = re.compile(r"^\s*(?:if|when|whenever|unless|once)\b", re.I)
_IF = r"\b(?:if|when|whose|unless|once)\s+(?:[`\w']+\s+){0,3}$"
_NAMES = r"`\w+`(?:\s*(?:,|\band\b|,\s*and\b)\s*`\w+`)*"


def cleared_fields(text: str, attrs: list[str]) -> list[str]:
    """Attributes a sentence says the write empties: "clears `a` and `b`", "`a` goes back to
    null", "`a` and `b` (both become null)", "resets `a` to null". A condition ("if it clears
    `a`") is no write of the call."""
    flat = " ".join(text.split())
    out: list[str] = []
    pats = [
        rf"\b(?:clears?|clearing|empties|resets?)\s+(?:the\s+)?({_NAMES})(?!\s+(?:to|as)\s+(?!null))",
        rf"({_NAMES})\s+(?:(?:goes|go|is|are|gets?)\s+)?(?:back|reset)\s+to\s+null\b",
        rf"\bsets?\s+(?:the\s+)?({_NAMES})\s+(?:back\s+)?to\s+null\b",
        rf"({_NAMES})\s*\(\s*(?:both|all|each|they)\s+(?:become|are\s+set\s+to|go\s+back\s+to)\s+null\b",
    ]
    for pat in pats:
        for m in re.finditer(pat, flat, re.I):
            if re.search(_IF, flat[: m.start()]):
                continue
            out += [a for a in re.findall(r"`(\w+)`", m.group(1)) if a in attrs and a not in out]
    return out


def kept_fields(text: str, attrs: list[str]) -> list[str]:
    """Attributes a sentence says the write leaves as they are: "`a` is kept", "keeps `a`",
    "`a` is unchanged", "`a` and `b` stay as they were", "leaves `a` untouched"."""
    flat = " ".join(text.split())
    pats = [
        rf"({_NAMES})\s+(?:is|are)\s+(?:kept|unchanged|left\s+(?:as\s+(?:it\s+)?is|unchanged|alone))\b",
        rf"({_NAMES})\s+(?:stays?|remains?)\s+(?:as\s+(?:it|they)\s+(?:is|are|was|were)|unchanged)\b",
        rf"\b(?:keeps?|preserves?|leaves?)\s+(?:the\s+)?({_NAMES})(?=\s*(?:[.;,)]|$|\s+(?:as|unchanged|untouched|alone)\b))",
    ]
    out: list[str] = []
    for pat in pats:
        for m in re.finditer(pat, flat, re.I):
            out += [a for a in re.findall(r"`(\w+)`", m.group(1)) if a in attrs and a not in out]
    return out


def _set_as(flat: str, attrs: list[str], floats: set[str]) -> dict[str, Any]:
    """ "A <...> fee of 40.00 is set as the <noun>'s `a`" in a sentence without a condition."""
    out: dict[str, Any] = {}
    for s in doc_sentences(flat):
        if re.match(r"\s*(if|when|whenever|unless|once)\b", s, re.I):
            continue
        for m in re.finditer(r"\bof\s+(-?\d+(?:\.\d+)?)\s+is\s+(?:set|recorded)\s+as\s+"
                             r"(?:the\s+)?(?:\w+'s\s+)?`(\w+)`", s):  # fmt: skip
            if m.group(2) in attrs:
                n = (
                    float(m.group(1))
                    if "." in m.group(1) or m.group(2) in floats
                    else int(m.group(1))
                )
                out.setdefault(m.group(2), n)
    return out


def named_values(text: str, enums: dict[str, list[str]]) -> dict[str, str]:
    """Values of listed attributes a sentence gives by the value and the attribute's words
    ("starts on the `standard` support level", "its priority is `normal`"): the value written as
    code, one of the attribute's documented values, right before or after its words."""
    flat = " ".join(text.split())
    out: dict[str, str] = {}
    for a, values in enums.items():
        words = r"\s+".join(re.escape(w) for w in a.lower().split("_"))
        for v in values:
            code = rf"`{re.escape(v)}`"
            before = rf"{code}\s+{words}\b"
            after = rf"\b{words}\s+(?:is\s+|of\s+|=\s*|set\s+to\s+)?{code}"
            if re.search(before, flat, re.I) or re.search(after, flat, re.I):
                out.setdefault(a, v)
    return out


_LITERAL = r"\"([^\"]*)\"|'([^']*)'|`([^`]*)`|(-?\d+(?:\.\d+)?|true|false)\b|([a-z][\w-]*)\b"


def stated_default(texts: list[str], name: str, enum: list[str]) -> tuple[Any] | None:
    """``(value,)`` when a sentence says parameter ``name`` defaults to a literal: "`name`
    defaults to 5", "name defaults to `basic`", "... default to false and name to basic"; a
    bare word counts only when it is one of the parameter's documented values (``enum``)."""
    n = re.escape(name)
    pats = (
        rf"(?<![\w`])`?{n}`?\s+defaults\s+to\s+(?:{_LITERAL})",
        rf"\bdefaults?\s+to\s+[^.;]*?\band\s+`?{n}`?\s+to\s+(?:{_LITERAL})",
    )
    for s in texts:
        for pat in pats:
            m = re.search(pat, s)
            if m is None:
                continue
            quoted, word, bare = m.groups()[:3], m.group(4), m.group(5)
            if word is not None:
                if word in ("true", "false"):
                    return (word == "true",)
                return (float(word) if "." in word else int(word),)
            if bare is not None:
                if bare in enum:
                    return (bare,)
                continue
            return (next(g for g in quoted if g is not None),)
    return None
