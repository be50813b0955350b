"""Words the docs define as a set of statuses: "a request that is still open (requested,
scheduled or rescheduled)" makes "open" mean those three wherever it qualifies a record
("Moves an open request ... or a `missed` request to a new date", "Only open requests can be
cancelled").

A definition is a word right before a bracketed list of two or more status values of one
collection; the word is none of the values, nor a word for a status itself ("status",
"states"), nor a noun of the data's records. A use is the word right before a noun of that
collection (one modifier may sit between); it reads as the values written as code ("an
`requested`, `scheduled` or `rescheduled` request"), so every status rule reads it as it
reads written values. Nothing here names a domain.
"""

from __future__ import annotations

import re
from collections.abc import Collection

from autoforge.synth.behaviour.data import Context, noun_forms

_NOT_TERMS = {"status", "statuses", "state", "states", "one", "ones", "is", "are", "be", "of"}


def status_terms(text: str, values: list[str], nouns: Collection[str] = ()) -> dict[str, list[str]]:
    """``{word: statuses}`` for each word ``text`` defines as a bracketed list of statuses;
    a word in ``nouns`` (a record's noun: "a request (requested or scheduled)") is none."""
    if len(values) < 2:
        return {}
    ticked = "|".join(re.escape(v) for v in sorted(values, key=len, reverse=True))
    item = rf"`?(?:{ticked})`?"
    sep = r"(?:\s*,\s*(?:or\s+|and\s+)?|\s+or\s+|\s+and\s+)"
    out: dict[str, list[str]] = {}
    for m in re.finditer(rf"\b([a-z][a-z-]+)\s*\(\s*({item}(?:{sep}{item})+)\s*\)", text, re.I):
        word = m.group(1).lower()
        if word in _NOT_TERMS or word in values or word in nouns:
            continue
        named = re.findall(rf"(?<![\w-])({ticked})(?![\w-])", m.group(2))
        if len(set(named)) >= 2:
            out.setdefault(word, sorted(set(named), key=named.index))
    return out


def expand_terms(s: str, terms: dict[str, list[str]], coll: str) -> str:
    """``s`` with each defined word that qualifies a noun of ``coll`` written as its statuses
    in code."""
    if not terms:
        return s
    nouns = "|".join(re.escape(n) for n in noun_forms(coll))
    for word, vals in terms.items():
        said = ", ".join(f"`{v}`" for v in vals[:-1]) + f" or `{vals[-1]}`"
        pat = rf"\b{re.escape(word)}(?=\s+(?:[a-z][\w-]*\s+)?(?:{nouns})\b)"
        s = re.sub(pat, said, s, flags=re.I)
    return s


def record_nouns(ctx: Context) -> set[str]:
    """Every noun of the data's collections (each word of a two-word noun too)."""
    return {w for c in ctx.ev.attributes for n in noun_forms(c) for w in n.split()}
