"""Name handling: tokens, singular/plural, id-like names of tools, parameters and records.

Synthesis (classification, state design) and the rules every stage reads
(:mod:`autoforge.env.artifact.rules`) share these helpers. Tool names (``get_order_details``,
``listBooks``) and parameter names (``user_id``, ``item_ids``) are the cheapest signal about
which collection a tool touches; these helpers turn them into comparable tokens without any
model.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from typing import Literal

# A camelCase boundary: an upper-case letter after a lower-case letter or a digit (``get2Order``
# breaks before ``O``); the second form breaks only after a letter (``get2Order`` stays whole).
_CAMEL = re.compile(r"(?<=[a-z0-9])(?=[A-Z])")
_CAMEL_AFTER_LETTER = re.compile(r"(?<=[a-z])(?=[A-Z])")
_SPLIT = re.compile(r"[^A-Za-z0-9]+")

ID_SUFFIXES = ("_id", "_ids", "id", "ids", "_key", "_code", "_number", "_no")
NAME_LIKE = ("name", "title", "username", "login", "handle")
EMAIL_LIKE = ("email", "e_mail", "mail")
PHONE_LIKE = ("phone", "phone_number", "mobile")
#: Words that say a call only reads, wherever they stand first: a tool's name (``get_order``),
#: the last segment of a path a POST goes to (``/search``). The lexicon adds the verbs that
#: only a name uses this way (``check``, ``compute``).
READ_VERBS = frozenset(
    [
        "get",
        "fetch",
        "read",
        "show",
        "view",
        "retrieve",
        "find",
        "lookup",
        "describe",
        "list",
        "search",
        "query",
        "browse",
        "count",
    ]
)


def break_camel(name: str, sep: str = "_", *, after_digit: bool = True) -> str:
    """``name`` with ``sep`` put at every camelCase boundary, all else (case included) kept:
    ``getHotelOrder`` -> ``get_Hotel_Order``.

    The one place the boundary is defined; every stage that splits identifiers into words builds
    on it. A boundary is an upper-case letter after a lower-case letter or, when
    ``after_digit``, a digit (``get2Order`` -> ``get2_Order``; without it ``get2Order``).
    """
    return (_CAMEL if after_digit else _CAMEL_AFTER_LETTER).sub(sep, name)


def to_snake(name: str) -> str:
    """``name`` lower-cased with camelCase boundaries, ``-`` and spaces as ``_``; every other
    character kept (``hotelName`` / ``hotel-name`` -> ``hotel_name``).

    Unlike :func:`snake` it neither drops punctuation nor merges repeated separators, so a name
    keeps its exact shape for suffix tests (``full_name`` ends in ``_name``).
    """
    return break_camel(name).lower().replace("-", "_").replace(" ", "_")


def snake_words(name: str) -> list[str]:
    """The ``_``-separated words of ``name`` after :func:`break_camel`, lower-cased, ``-`` read
    as ``_`` (``getHotel_order`` -> get, hotel, order).

    Empty words from leading or doubled separators are kept, so ``[0]`` is always what the name
    begins with (``_get`` begins with ``""``); filter them out for the words alone.
    """
    return break_camel(name).lower().replace("-", "_").split("_")


def tokens(name: str) -> list[str]:
    """Lower-case word tokens of a snake, kebab or camel case identifier."""
    parts = _SPLIT.split(break_camel(name))
    return [p.lower() for p in parts if p]


def singular(word: str) -> str:
    """The one crude English singular of the project, lower case: ``orders`` -> ``order``,
    ``categories`` -> ``category``, ``addresses`` -> ``address``, ``boxes`` -> ``box``,
    ``statuses`` -> ``status``, and ``cases`` -> ``case`` (only a consonant before ``-us``
    makes ``-uses`` lose ``es``: ``causes`` -> ``cause``)."""
    w = word.lower()
    if w.endswith("ies") and len(w) > 4:
        return w[:-3] + "y"
    if w.endswith(("sses", "xes", "zes", "ches", "shes")) and len(w) > 4:
        return w[:-2]
    if re.search(r"[^aeiou]uses$", w) and len(w) > 5:
        return w[:-2]
    if w.endswith("s") and not w.endswith("ss") and len(w) > 3:
        return w[:-1]
    return w


def plural(word: str) -> str:
    """A crude English plural, the inverse of :func:`singular` for ordinary nouns."""
    w = word.lower()
    if w.endswith("y") and len(w) > 2 and w[-2] not in "aeiou":
        return w[:-1] + "ies"
    if w.endswith(("s", "x", "z", "ch", "sh")):
        return w + "es"
    return w + "s"


def is_id_like(name: str) -> bool:
    """Whether a parameter or attribute name holds an identifier (``order_id``, ``isbn``)."""
    low = name.lower()
    if low in ("id", "ids", "isbn", "sku", "uuid", "key", "code", "slug"):
        return True
    toks = tokens(name)
    return bool(toks) and toks[-1] in ("id", "ids", "key", "number", "code", "isbn", "sku")


def is_entity_param(name: str) -> bool:
    """Whether a tool parameter names an entity: an id, a name, an e-mail or a phone number.

    These are the parameters whose values must exist somewhere in the state, so the state
    design must have an attribute for each of them.
    """
    low = name.lower()
    if is_id_like(name):
        return True
    toks = tokens(name)
    last = toks[-1] if toks else low
    return last in NAME_LIKE or last in ("email", "mail") or low in EMAIL_LIKE + PHONE_LIKE


def id_base(name: str) -> str:
    """The attribute an id-list parameter refers to: ``item_ids`` -> ``item_id``
    (camel case in snake form: ``NamedQueryIds`` -> ``named_query_id``)."""
    low = snake(name) if _CAMEL.search(name) else name.lower()
    if low.endswith("_ids"):
        return low[:-1]
    if low.endswith("ids") and len(low) > 3:
        return low[:-1]
    return low


def snake(name: str) -> str:
    """``getOrderDetails`` -> ``get_order_details``."""
    return "_".join(tokens(name))


def identifier(name: str) -> str:
    """A valid Python identifier from any name (for collection/attribute names from the LLM)."""
    out = "_".join(tokens(name)) or "x"
    return out if not out[0].isdigit() else f"x_{out}"


#: How :func:`phrase_in` matches words: ``exact`` (equal, consecutive), ``phrase`` (consecutive,
#: a word of four letters or more may begin the other), ``sentence`` (phrase-matched words
#: anywhere in one sentence, in any order).
PhraseMode = Literal["exact", "phrase", "sentence"]


def word_match(a: str, b: str) -> bool:
    """Equal words, or the shorter (four letters or more) begins the longer."""
    if a == b:
        return True
    short, long = (a, b) if len(a) <= len(b) else (b, a)
    return len(short) >= 4 and long.startswith(short)


def _phrase_at(ws: Sequence[str], sentence: Sequence[str], i: int, exact: bool = False) -> bool:
    if exact:
        return tuple(sentence[i : i + len(ws)]) == tuple(ws)
    return all(word_match(w, sentence[i + j]) for j, w in enumerate(ws))


def phrase_in(ws: Sequence[str], sentences: Iterable[Sequence[str]], mode: PhraseMode) -> bool:
    """Whether the words ``ws`` occur in one of ``sentences`` (lists of lower-case words), as
    ``mode`` (:data:`PhraseMode`) matches them."""
    if not ws:
        return True
    for s in sentences:
        if mode != "sentence":
            if any(_phrase_at(ws, s, i, mode == "exact") for i in range(len(s) - len(ws) + 1)):
                return True
        elif all(any(word_match(w, x) for x in s) for w in ws):
            return True
    return False
