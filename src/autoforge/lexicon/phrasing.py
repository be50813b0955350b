"""How a person says things in a request: tool names as everyday verb phrases, field names
as labels, free text in quotes, a record said again as "that <noun>".

Pure string functions of names read from the environment's spec (tool names, argument and
field names, collection nouns); :mod:`autoforge.tasks.scenario.question` puts them together into a
user's request.
"""

from __future__ import annotations

import re

from autoforge.lexicon.dataflow import singular
from autoforge.lexicon.literals import Literals
from autoforge.lexicon.toolscope import FILLER, VERBS

#: Free text a person quotes when they say it: a sentence (ends in ``.``, ``!``, ``?``) or
#: four or more words without a digit (an address or a date is said bare).
_FREE_TEXT = re.compile(r"^(?:[^\"]*[^\s\"][.!?]|(?=[^\d\"]*$)\S+(?: \S+){3,})$")


#: A full stop right after a quote that ends a sentence itself ('"Ring twice.".').
QUOTED_STOP = re.compile(r'([.!?]")\.(?=\s|$)')


def quoted(text: str) -> str:
    """``text`` in quotes when it is free text (a note, a message), so that where it ends is
    clear ('with note "Ring twice."', not "with note Ring twice.."); anything else as it is."""
    return f'"{text}"' if _FREE_TEXT.match(text) else text


#: A capitalised name word (``Fuel`` of ``{"Fuel": ...}``), said in lower case like the rest.
_TITLE = re.compile(r"^[A-Z][a-z]+$")
_CAMEL = re.compile(r"(?<=[a-z0-9])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])")


def words(name: str) -> str:
    """``update_shipping_address`` -> ``update shipping address``; a camel-case name as its
    words too (``DeleteNamedQuery`` -> ``delete named query``, ``getHTTPStatus`` -> ``get HTTP
    status``: an acronym keeps its capitals), and a capitalised word in lower case."""
    said = []
    for part in name.replace("_", " ").replace("-", " ").split():
        pieces = _CAMEL.split(part)
        if len(pieces) == 1 and not _TITLE.match(part):
            said.append(part)
        else:
            said += [p if p.isupper() else p.lower() for p in pieces]
    return " ".join(said)


def record_noun(collection: str) -> str:
    """How a person names a record of ``collection``: ``named query`` for ``named_queries``."""
    return words(singular(collection))


def label(name: str) -> str:
    """An argument's name as a person says it before a value: without a trailing ``id``
    (``payment_method_id`` -> ``payment method``, ``new_item_ids`` -> ``new item``); a bare
    ``id`` stays."""
    said = words(name).split()
    if len(said) > 1 and said[-1].lower() in ("id", "ids"):
        said = said[:-1]
    return " ".join(said)


def api_prefix(names: list[str]) -> str:
    """The word every tool name starts with when it is no verb: the API's own name
    (``shedhost`` in ``shedhost_sheds_list``), which a person does not say; else ``""``."""
    said = [words(n).split() for n in names]
    if len(said) < 2 or any(len(w) < 3 for w in said):
        return ""
    first = {w[0] for w in said}
    return first.pop() if len(first) == 1 and not first & set(VERBS) else ""


def without_prefix(tool: str, prefix: str) -> str:
    """``tool`` without the API's name in front (:func:`api_prefix`), as a snake-case name."""
    said = words(tool).split()
    return "_".join(said[1:] if prefix and said[:1] == [prefix] else said)


_LIST_PREPOSITIONS = frozenset({"by", "for", "of", "in", "on", "with", "from"})


def listed_noun(tool: str) -> str:
    """What a listing tool lists, from its name without the verb: ``search_hotel_order`` ->
    ``hotel order``, ``search_books`` -> ``book``, ``list_tags_for_project`` -> ``tag``."""
    said = [w for w in words(tool).split()[1:] if w not in ("all", "my")]
    cut = next((i for i, w in enumerate(said) if w in _LIST_PREPOSITIONS), None)
    if cut:  # list_tags_for_project: tags, not "for project"
        said = said[:cut]
    said = [w for w in said if w not in _LIST_PREPOSITIONS]  # search_by_name: name
    if not said:
        return "result"
    return " ".join([*said[-2:-1], singular(said[-1])])


def enumerate_words(parts: list[str]) -> str:
    """``a``, ``a and b``, ``a, b and c``."""
    return parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " and " + parts[-1]


def request_on(tool: str, collection: str, key: str) -> str:
    """A request to run ``tool`` on the record ``key`` of ``collection``, in the user's words
    and without its arguments (a request the policy refuses needs none):
    ``cancel_order`` -> ``cancel order ORD-3``; ``update_shipping_address`` -> ``change the
    shipping address of order ORD-3``."""
    noun = singular(collection).replace("_", " ")
    parts = verb_first(words(tool).split(), set(noun.split()))
    verb = [EVERYDAY.get(parts[0], parts[0]), *parts[1:]]
    last = noun.split()[-1]
    if len(verb) == 1:
        return f"{verb[0]} {noun} {key}"
    if verb[-1] == last:
        return f"{' '.join(verb)} {key}"
    if last in verb[1:-1]:  # modify pending order address: the words after the record's noun
        verb = [verb[0], "the", *verb[verb.index(last, 1) + 1 :]]
        return f"{' '.join(verb)} of {noun} {key}"
    if len(verb) == 2:  # add review -> add a review for book B-1
        article = "an" if verb[1][0] in "aeiou" else "a"
        return f"{verb[0]} {article} {verb[1]} for {noun} {key}"
    return f"{verb[0]} the {' '.join(verb[1:])} of {noun} {key}"


#: Verbs of tool names and the everyday verb a person uses instead.
EVERYDAY = {
    "modify": "change", "update": "change", "create": "make", "delete": "remove",
    "get": "look up", "retrieve": "look up", "fetch": "look up", "set": "change",
}  # fmt: skip


#: A new record's mention before its noun: "a new order", "the new instore product order".
_NEW = r"\b(?:a|the) new (?:[\w-]+ ){0,3}"


def refer_back(texts: list[str], selections: dict[str, str]) -> list[str]:
    """``texts`` (said in order) with each selection described once: a later mention of the
    selection said last for its noun becomes ``that <noun>`` ("pay the order whose date is
    2025-07-29 among my hotel orders" ... "cancel that order"), as a person refers back. A
    mention after another selection, a named record (``order ORD-7``) or a new record of the
    same noun stays in full, as ``that`` would be ambiguous there; the first mention, which
    states the facts, always does."""
    if not selections:
        return texts
    pattern = Literals(sorted(selections, key=len, reverse=True))  # (not a regex compiled per task)
    said: set[str] = set()
    last: dict[str, str] = {}

    def note(phrase: str) -> None:
        forget(phrase)
        for inner in pattern.finditer(phrase, 1):  # selections inside it are described too
            said.add(inner.group())
            last[selections[inner.group()]] = inner.group()
        said.add(phrase)
        last[selections[phrase]] = phrase

    def forget(gap: str) -> str:
        for noun in [n for n in last if re.search(rf"\b{re.escape(n)} \S*\d", gap)]:
            del last[noun]  # "order ORD-7" named in between: "that order" is ambiguous
        return gap

    def swap(text: str) -> str:
        out: list[str] = []
        at = 0
        for match in pattern.finditer(text):
            gap = forget(text[at : match.start()])
            phrase, noun = match.group(), selections[match.group()]
            if phrase in said and last.get(noun) == phrase:
                out += [gap, f"that {noun}"]
            else:
                note(phrase)
                out += [gap, phrase]
            at = match.end()
        out.append(forget(text[at:]))
        for noun in [n for n in last if re.search(rf"{_NEW}{re.escape(n)}\b", text)]:
            del last[noun]  # after "make a new order", "that order" could be the new one
        return "".join(out)

    return [swap(text) for text in texts]


#: Verbs a person says that the tool classifier (:data:`VERBS`) puts in no action class.
SPOKEN_VERBS = frozenset({
    "buy", "order", "purchase", "rate", "rent", "request", "reset", "review", "schedule",
    "subscribe", "track", "transfer", "unsubscribe",
})  # fmt: skip
#: Verbs of API operation names: the classifier's action verbs (not its computations such as
#: ``total``, its no-ops such as ``log`` or its name fillers such as ``all``, nouns as often
#: as verbs in a name) and :data:`SPOKEN_VERBS`. A tool named ``<prefix>_cancel_book`` is
#: asked with "cancel" when its first word is none of these.
API_VERBS = (
    frozenset(w for w, c in VERBS.items() if c not in ("compute", "generic")) - frozenset(FILLER)
) | SPOKEN_VERBS
#: First words of tool names that make a new record ("make a new order for ...").
CREATE_VERBS = frozenset({"create", "make", "add", "place", "new", "open", "submit"})


def verb_first(parts: list[str], nouns: set[str]) -> list[str]:
    """A tool name's words with its verb first: ``instore cancel book`` -> ``cancel instore
    book`` when the first word is no common API verb and a later one is (a word that names a
    record of the environment, ``book`` among books, counts as a noun there)."""
    if not parts or parts[0] in API_VERBS:
        return parts
    at = next((i for i, p in enumerate(parts[1:], 1) if p in API_VERBS and p not in nouns), None)
    return parts if at is None else [parts[at], *parts[:at], *parts[at + 1 :]]


def updates(tool: str) -> bool:
    """Whether a tool changes a record's fields (its verb is an update verb: ``modify``,
    ``edit``), so that one value it is given is said as "change the <field> of X to V"."""
    return VERBS.get(verb_first(words(tool).split(), set())[0]) == "update"


def field_said(name: str) -> str:
    """An argument's field as a person names it: ``new_date`` -> ``date`` (the new value is
    what "change ... to" gives)."""
    said = label(name).split()
    return " ".join(said[1:] if len(said) > 1 and said[0] == "new" else said)


#: Verbs a person says with a preposition before what they act on ("pay for my order").
_PREPOSITIONS = {"pay": "for"}


def with_preposition(verb: str) -> str:
    """``pay my order`` -> ``pay for my order`` (a verb of :data:`_PREPOSITIONS`)."""
    head, _, rest = verb.partition(" ")
    prep = _PREPOSITIONS.get(head)
    if prep is None or not rest or rest.startswith(prep + " "):
        return verb
    return f"{head} {prep} {rest}"


def same_as(subject: str, details: list[str]) -> tuple[str, list[str]]:
    """Parts read off one record, said once: ``the hotel of P`` with the detail ``the room of
    P`` -> ``the same hotel and room as P`` (the other details stay)."""
    head, sep, record = subject.partition(" of ")
    if not sep or not head.startswith("the "):
        return subject, details
    same = [d for d in details if d.startswith("the ") and d.endswith(f" of {record}")
            and " of " not in d[4 : -len(record) - 4]]  # fmt: skip
    if not same:
        return subject, details
    parts = [head[4:], *(d[4 : -len(record) - 4] for d in same)]
    rest = [d for d in details if d not in same]
    return f"the same {enumerate_words(parts)} as {record}", rest
