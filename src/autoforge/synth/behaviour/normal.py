"""Normal forms of text arguments: what the docs say a text argument becomes before it is used
("the handle is trimmed and kept in lower case", "the plate has all spaces removed and is
converted to upper case", "the motto is kept without surrounding spaces").

The tool applies the normal form first, so its checks, lookups and writes all see the cleaned
value. A case the data contradicts (a stored value that is not in that case) is not applied.
Nothing here names a domain.
"""

from __future__ import annotations

import re
from typing import Any

from autoforge.env import ParamInfo
from autoforge.synth.behaviour.data import Context, noun_forms

#: phrases that name both cases (a comparison that ignores case), removed before the cues
_BOTH = re.compile(
    r"\b(?:upper\s*(?:or|and|/)\s*lower|lower\s*(?:or|and|/)\s*upper)(?:[- ]?case)?\b", re.I
)
_CUES: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("strip", re.compile(
        r"\btrimmed\b|\bwithout\s+(?:the\s+)?(?:surrounding|leading\s+(?:and|or)\s+trailing)\s+"
        r"(?:spaces|whitespace|blanks)|\b(?:surrounding|leading\s+and\s+trailing)\s+"
        r"(?:spaces|whitespace)\s+(?:are\s+|is\s+)?(?:removed|stripped|dropped)", re.I)),
    ("nospace", re.compile(
        r"(?<!surrounding\s)(?<!trailing\s)\b(?:all\s+)?spaces\s+(?:are\s+|get\s+)?"
        r"(?:removed|stripped|dropped)|\bremov(?:es?|ing)\s+(?:all\s+|any\s+)?spaces", re.I)),
    ("lower", re.compile(
        r"\b(?:in|to|into|as)\s+lower[- ]?case\b|\blower[- ]?cased\b|\bmade\s+lower[- ]?case",
        re.I)),
    ("upper", re.compile(
        r"\b(?:in|to|into|as)\s+upper[- ]?case\b|\bupper[- ]?cased\b|\bmade\s+upper[- ]?case",
        re.I)),
)  # fmt: skip


def _mentions(sentence: str, name: str, nouns: list[str]) -> bool:
    """The sentence names the parameter, or (``nouns``) the records it refers to."""
    flat = sentence.lower().replace("-", "")
    words = " ".join(name.lower().split("_"))
    said = "|".join(re.escape(w) for w in [words, *nouns])
    return f"`{name.lower()}`" in flat or re.search(rf"\b(?:{said})\b", flat) is not None


def _texts(param: ParamInfo, schema: Any) -> bool:
    """Whether the parameter is free text (a string, or a nullable one, with no enum, date
    or id format)."""
    if not isinstance(schema, dict) or "enum" in schema:
        return False
    kind = schema.get("type")
    if kind != "string" and not (isinstance(kind, list) and set(kind) <= {"string", "null"}):
        return False
    return schema.get("format") not in ("date", "date-time", "uuid")


def normal_forms(
    params: list[ParamInfo], schemas: dict[str, Any], sentences: list[str], ctx: Context,
    coll: str | None, tb_id: str | None = None,
) -> None:  # fmt: skip
    """Set ``normal`` on each free-text parameter the sentences give a normal form (``tb_id``:
    the tool's id parameter)."""
    for p in params:
        if not _texts(p, schemas.get(p.name)):
            continue
        # the records it names stand for a value of theirs, not for a key ("`x_id`")
        keyed = p.name.lower().endswith(("_id", "id")) or p.name == tb_id
        nouns = noun_forms(p.references) if p.references and not keyed else []
        said = [s for s in sentences if _mentions(s, p.name, nouns)]
        ops: list[str] = []
        for s in said:
            plain = _BOTH.sub(" ", s)
            ops += [op for op, cue in _CUES if cue.search(plain) and op not in ops]
        ops = [op for op in ops if op not in ("lower", "upper") or _fits(ctx, coll, p.name, op)]
        if "lower" in ops and "upper" in ops:
            ops = [op for op in ops if op not in ("lower", "upper")]
        p.normal = ops


def _fits(ctx: Context, coll: str | None, attr: str, op: str) -> bool:
    """The data holds no value of the attribute outside that case."""
    vals = [r.get(attr) for r in ctx.ev.state.get(coll or "", {}).values() if isinstance(r, dict)]
    texts = [v for v in vals if isinstance(v, str)]
    return all((v.lower() if op == "lower" else v.upper()) == v for v in texts)


def normal_lines(params: list[ParamInfo], unset: str) -> list[str]:
    """The prelude of a compiled tool: each such argument takes its normal form first (an
    optional one left out, ``unset``, stays so)."""
    code = {"strip": ".strip()", "lower": ".lower()", "upper": ".upper()",
            "nospace": ".replace(' ', '')"}  # fmt: skip
    out: list[str] = []
    for p in params:
        if p.normal:
            ops = "".join(code[op] for op in p.normal if op in code)
            out += [f"if isinstance({p.name}, str) and {p.name} != {unset!r}:",
                    f"    {p.name} = {p.name}{ops}"]  # fmt: skip
    return out
