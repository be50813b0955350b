"""Which policy sentences speak of a tool: its sections, and the sentences naming it.

A section speaks of a tool when its heading names the tool exactly, or, where the heading
does not give the tool's name, when the heading belongs to it as follows.

Policies are written for people: rules sit under "### Booking", "### Cancelling", "### Parts".
A heading belongs to a write tool when a word of the heading shares its stem with the verb of
the tool's name or of its summary ("Booking" and a summary "Book a bike"; "Cancelling" and
``cancel_visit``), the nouns of the data's collections left out of the tool's words, and no
other write tool matches; failing that, when a one-word heading is a word of exactly one
write tool's name ("Parts" and ``add_part_to_ticket``). Where one verb fits several tools, a
word of the heading naming exactly one of them chooses it ("Retiring a kit" and
``retire_kit`` beside ``retire_tool``). A first-level heading is the
document's title and belongs to no tool. The stems drop an "-ing" and a silent "e" and keep four
letters, so "Taking" and "Take" agree. Every rule is stated without naming a domain.

A heading that names no action belongs to the tool its section's opening sentence says the
action of ("A claim is filed against ..."). A bold label opening a paragraph or list item
("**Opening a plan.**") heads a sub-section owned the same way as a heading. A list of
conditions opens after a lead-in that asks for them ("... checks that:") or that labels a
tool by name ("Filing (file_claim):").
"""

from __future__ import annotations

import re
from collections.abc import Collection, Iterator
from typing import TYPE_CHECKING

from autoforge.env import doc_sentences, refusal_alternatives
from autoforge.synth.behaviour.data import noun_forms

if TYPE_CHECKING:
    from autoforge.synth.behaviour.data import Context
    from autoforge.tooldocs import ToolSpec

_HEADING = re.compile(r"^\s{0,3}(?P<level>#{1,6})\s+(?P<title>.+?)\s*#*\s*$")
_SMALL = frozenset(
    {"a", "an", "the", "and", "or", "of", "in", "on", "to", "for", "up", "out", "no", "by"}
    | {"with", "at", "from", "into"}
)


def _stem(word: str) -> str:
    w = word.lower()
    w = w.removesuffix("ing") if len(w) > 5 else w
    return w.removesuffix("e")[:4]


def _verb_stems(verb: str) -> set[str]:
    """The stems of a verb as said and, for a past participle, without its ending ("hired":
    "hire", "hir"; "logged": "log")."""
    forms = (
        {verb, verb.removesuffix("ed"), verb.removesuffix("d")} if verb.endswith("ed") else {verb}
    )
    if verb.endswith("ed") and len(verb) > 5 and verb[-3] == verb[-4]:  # "logged": "log"
        forms.add(verb[:-3])
    return {_stem(f) for f in forms}


def _acting(verbs: dict[str, set[str]], said: set[str]) -> list[str]:
    """The write tools (of ``verbs``, per tool its stems) whose action one of ``said`` names."""
    return [t for t, v in verbs.items() if v & said]


def _words(text: str) -> list[str]:
    return [w for w in re.findall(r"[a-z]+", text.lower()) if w not in _SMALL and len(w) > 2]


def verb_stems(writes: list[tuple[str, str]], collections: list[str]) -> dict[str, set[str]]:
    """Per write tool (``(name, summary)``), the stems of the words of its name and of its
    summary's first word, the nouns of the data's collections left out."""
    nouns = {n for c in collections for f in noun_forms(c) for n in f.split()}
    out: dict[str, set[str]] = {}
    for name, summary in writes:
        own = [w for w in _words(name.replace("_", " ")) if w not in nouns]
        lead = [w for w in _words(summary)[:1] if w not in nouns]
        out[name] = {_stem(w) for w in own + lead}
    return out


def about_another(sentence: str, tool: str, verbs: dict[str, set[str]]) -> bool:
    """Whether ``sentence`` names another write tool's action and none of ``tool``'s ("Only
    suspended members can be reinstated" in a section about no-shows)."""
    said = {_stem(w) for w in _words(sentence)}
    mine = verbs.get(tool, set())
    others = set().union(*(v - mine for t, v in verbs.items() if t != tool)) if verbs else set()
    return bool(said & others) and not said & mine


#: "cannot be edited or (re)assigned", "may not be changed": the actions a sentence refuses
_REFUSED_ACTIONS = re.compile(
    r"\b(?:cannot|can\s*not|can't|may\s+not|must\s+not|must\s+never)\s+be\s+([^.;:!?]{0,80})",
    re.I,
)


def _participles(clause: str) -> list[str]:
    """The participles a refusal starts with: "edited or (re)assigned, and have ..." ->
    ``edited``, ``assigned``."""
    out = []
    for word in re.findall(r"[a-z]+", re.sub(r"\(re\)", "", clause.lower())):
        if word in ("or", "and", "nor", "either"):
            continue
        if not word.endswith("ed"):
            break
        out.append(word)
    return out


def refused_for(sentence: str, tool: str, verbs: dict[str, set[str]]) -> bool:
    """Whether ``sentence`` refuses, in the passive, an action ``tool`` performs ("Closed
    tasks cannot be edited or (re)assigned" for a tool whose name or summary verb is "edit"
    or "assign"), wherever in the policy it stands."""
    mine = verbs.get(tool, set())
    for m in _REFUSED_ACTIONS.finditer(sentence):
        for word in _participles(m.group(1)):
            if _verb_stems(word) & mine:
                return True
    return False


def heading_owners(
    policy: str, writes: list[tuple[str, str]], collections: list[str]
) -> dict[str, str]:
    """``{heading title: tool name}`` for the headings that belong to one of the write tools
    ``writes`` (``(name, summary)`` pairs)."""
    verbs = verb_stems(writes, collections)
    names = {name: {w.rstrip("s") for w in _words(name.replace("_", " "))} for name, _ in writes}
    out: dict[str, str] = {}
    lines = policy.splitlines()
    for at, line in enumerate(lines):
        head, label = _HEADING.match(line), bold_label(line, lines[at - 1] if at else "")
        if label is not None:  # a bold label inside a section: its words, then its line's
            owner = _title_owner(label, verbs, names, line)
            out.update({label: owner} if owner else {})
        if head is None or len(head.group("level")) == 1:  # a document's title covers all
            continue
        title = head.group("title")
        owner = _title_owner(title, verbs, names)
        if owner is not None:
            out[title] = owner
        elif not any(re.search(rf"(?<!\w){re.escape(t)}(?!\w)", title) for t in verbs):
            opening = _opening_owner(lines[at + 1 :], verbs, names)
            out.update({title: opening} if opening else {})
    return out


def _title_owner(
    title: str, verbs: dict[str, set[str]], names: dict[str, set[str]], context: str = ""
) -> str | None:
    """The one write tool a heading's words name: by the verb of its action (the noun
    choosing among tools of one verb, from the heading or else from ``context``: a bold
    label's line, "**Cancellation** is possible only while the stay is booked"), or, for a
    one-word heading, by a word of its name."""
    words = _words(title)
    by_verb = [t for t, v in verbs.items() if v & {_stem(w) for w in words}]
    for said in (words, _words(re.sub(r"`[^`]*`", " ", context))):
        if len(by_verb) > 1:  # one verb, several tools: a noun chooses
            heads = {w.rstrip("s") for w in said}
            shared = set.intersection(*(names[t] for t in by_verb))
            named = [t for t in by_verb if (names[t] - shared) & heads]
            by_verb = named if len(named) == 1 else by_verb
    one = {words[0].rstrip("s")} if len(words) == 1 else set()
    by_noun = [t for t, n in names.items() if n & one]
    chosen = by_verb if by_verb else by_noun
    return chosen[0] if len(chosen) == 1 else None


#: a paragraph or list item opening on a bold label ("**Opening a plan.** The patient ...",
#: "- **Check-in** happens only ..."): a sub-heading of its section
_LABEL = re.compile(r"^\s*(?:[-*+]\s+)?\*\*(?P<label>[^*\n]{2,60}?)\*\*")


def bold_label(line: str, before: str = "") -> str | None:
    """The label a paragraph or list item opens on in bold, without its closing stop, or
    None; ``before``: the line before (a line that goes on with a sentence is no opening)."""
    m = _LABEL.match(line)
    if m is None or (before.strip() and not _ITEM.match(line)):
        return None
    return m.group("label").strip().rstrip(".:").strip()


#: a sentence opening on a record and the action done to it: "A claim is filed against ...",
#: "Holds are placed on ...", "Each refund can be issued ..."
_PASSIVE = re.compile(
    r"\s*(?:(?:a|an|the|each|every)\s+)?(?:[a-z-]+\s+)?(?P<noun>[a-z]+)\s+"
    r"(?:is|are|can\s+be|may\s+be|must\s+be|gets?)\s+(?:only\s+)?(?P<verb>[a-z]+ed)\b",
    re.I,
)


def _opening_owner(
    after: list[str], verbs: dict[str, set[str]], names: dict[str, set[str]]
) -> str | None:
    """The one write tool the first sentence of a section (``after``: the lines after its
    heading) says the action of, in its own words: the verb of its name in any form ("A claim
    is filed against ...") and a noun of its name ("claim" of ``file_claim``); words in code
    left out; no other sentence of the section opens so on another tool's action. A heading
    need not name the tool its section is about ("Lost and damaged items")."""
    body: list[str] = []
    for line in after:
        if _HEADING.match(line):
            break
        body.append(re.sub(r"^\s*(?:[-*+]|\d+[.)])\s+", "", line))
    sentences = doc_sentences("\n".join(body))
    first = _passive_owners(sentences[0] if sentences else "", verbs, names)
    if len(first) != 1:
        return None
    others = {t for s in sentences[1:] for t in _passive_owners(s, verbs, names)}
    return first[0] if others <= set(first) else None  # a section of several actions: none


def _passive_owners(
    sentence: str, verbs: dict[str, set[str]], names: dict[str, set[str]]
) -> list[str]:
    """The write tools whose action ``sentence`` opens on (:data:`_PASSIVE`)."""
    m = _PASSIVE.match(re.sub(r"`[^`]*`", " ", sentence))
    if m is None:
        return []
    said, noun = _verb_stems(m.group("verb").lower()), m.group("noun").lower().rstrip("s")
    return [t for t, v in verbs.items() if v & said and noun in names[t]]


def opens_on_action(sentence: str, tool: str, verbs: dict[str, set[str]]) -> bool:
    """Whether ``sentence`` opens on ``tool``'s action done to its record, in the passive
    ("A claim is filed against ..." for ``file_claim``), and on no other tool's."""
    names = {t: {w.rstrip("s") for w in _words(t.replace("_", " "))} for t in verbs}
    return _passive_owners(sentence, verbs, names) == [tool]


def _owned_sections(policy: str, tool: str, headed: dict[str, str] | None) -> list[list[str]]:
    """The lines of each policy section whose heading names ``tool`` by its exact name or, in
    ``headed``, belongs to it. A bold label opening a paragraph or list item
    (:func:`bold_label`) heads a sub-section: in a section whose heading names a tool
    exactly, or under a label of no tool's action, the lines stay the section's; otherwise a
    label that belongs to a tool gives its lines, up to the next label or heading, to that
    tool ("## Cancellations, no-shows and completion" then "**Completing** is ...")."""
    sections: list[list[str]] = []
    inside = False
    parent: str | None = None  # the tool the current heading's section belongs to
    named = False  # whether that heading gives the tool's exact name
    lines = policy.splitlines()
    for at, line in enumerate(lines):
        head, label = _HEADING.match(line), bold_label(line, lines[at - 1] if at else "")
        if head is not None or label is not None:
            title = head.group("title") if head is not None else str(label)
            exact = re.search(rf"(?<!\w){re.escape(tool)}(?!\w)", title) is not None
            owner = tool if exact else (headed or {}).get(title)
            was = inside
            if head is not None:
                code = _NAMED_TOOL.search(title)
                parent, named = (code.group("name"), True) if code else (owner, False)
                inside = exact or parent == tool
            else:
                inside = exact or (parent if named or owner is None else owner) == tool
            if inside and (head is not None or not was):
                sections.append([])
            if head is not None:
                continue
            line = _without_label(line)
        if inside:
            sections[-1].append(line)
    return sections


#: a tool's own name in parentheses in a heading ("Writing an order (`create_order`)")
_NAMED_TOOL = re.compile(r"\(\s*`?(?P<name>[a-z][a-z0-9]*(?:_[a-z0-9]+)+)`?\s*\)")


def _without_label(line: str) -> str:
    """A labelled line's text: a label closed by a stop ("**Opening a plan.** The ...") is a
    heading and goes; one that opens the sentence ("**Cancelling** is possible ...") stays,
    unbolded."""
    m = _LABEL.match(line)
    if m is None:
        return line
    rest = line[m.end() :]
    if m.group("label").rstrip().endswith((".", ":")) or rest.lstrip().startswith((".", ":")):
        return line[: m.start("label") - 2] + rest.lstrip().lstrip(".:").lstrip()
    return line[: m.start("label") - 2] + m.group("label") + rest


def section_sentences(
    policy: str, tool: str, headed: dict[str, str] | None = None, others: Collection[str] = ()
) -> list[str]:
    """The sentences of the policy sections whose heading names ``tool`` by its exact name
    ("## Receiving (receive_purchase_order)") or, in ``headed``, belongs to it
    (:func:`~autoforge.synth.behaviour.headings.heading_owners`): rules stated there are that
    tool's. A list item there that opens with the name of one of ``others`` ("- issue_invoice:
    ...") is that tool's and is left out."""
    lines = [line for section in _owned_sections(policy, tool, headed) for line in section]
    return doc_sentences("\n".join(_without_items_of(lines, others)))


def _without_items_of(lines: list[str], others: Collection[str]) -> list[str]:
    """``lines`` without the list items (with their indented continuations) that open with
    one of the names ``others`` and a colon."""
    names = "|".join(re.escape(n) for n in sorted(others, key=len, reverse=True))
    if not names:
        return lines
    out: list[str] = []
    skipping = False
    for line in lines:
        item = _ITEM.match(line)
        if item is not None:
            skipping = re.match(rf"\**`?(?:{names})`?\**\s*:", item.group("text")) is not None
        elif not re.match(r"^\s{2,}\S", line):
            skipping = False
        if not skipping:
            out.append(line)
    return out


#: a line that opens a list of conditions: "Before it lets an invoice go, the system checks
#: that:", "Booking requires all of the following:", "A boat may be put on a berth when:",
#: or a short label naming a tool in parentheses ("Filing (file_claim):")
_LEAD_IN = re.compile(
    r"\b(?:checks?|verif(?:y|ies)|ensures?|requires?|needs?|must|only\s+(?:if|when)|"
    r"conditions?|all\s+of\s+(?:these|the\s+following))\b[^:]*:\s*$"
    r"|\b(?:when|if|unless|provided|hold|true|fails?)\s*:\s*$"
    r"|^\W*(?:\w+\s+){0,3}\(\s*`?[a-z][a-z0-9]*(?:_[a-z0-9]+)+`?\s*\)\s*:\s*$",
    re.I,
)
_ITEM = re.compile(r"^\s*(?:[-*+]|\d+[.)])\s+(?P<text>.+)$")
#: a lead-in to what a call does, not to what it needs ("which does all of the following at
#: once:")
_DONE = re.compile(
    r"\b(?:does|do)\s+(?:all\s+of\s+)?(?:the\s+following|these|this)\b|\bat\s+once\b"
    r"|\bhappens?\b|\btakes?\s+place\b|\bcarr(?:y|ies)\s+out\b",
    re.I,
)


def _lists(lines: list[str]) -> Iterator[tuple[str, list[str]]]:
    """``(lead-in sentence, items)`` of each list of conditions in ``lines``: the items that
    follow a paragraph whose last sentence opens them (:data:`_LEAD_IN`)."""
    opened, text, items = False, "", []
    for line in [*lines, "#"]:
        item = _ITEM.match(line)
        if item is not None and opened:
            items.append(item.group("text").strip().rstrip(";.").strip())
            continue
        if not line.strip():  # a blank line neither opens nor closes a list
            continue
        if items and re.match(r"^\s{2,}\S", line):  # an item's text goes on
            items[-1] = f"{items[-1]} {line.strip()}".rstrip(";.").strip()
            continue
        if items:
            yield text, items
            items = []
        if _HEADING.match(line) or line.lstrip().startswith("|"):
            opened, text = False, ""
        elif item is None:
            text = f"{text} {line.strip()}" if not opened else line.strip()
            text = re.split(r"(?<=[.!?])\s+", text.strip())[-1]
            opened = bool(_LEAD_IN.search(text)) and not _DONE.search(text)


def leads_to(lead: str, verbs: dict[str, set[str]]) -> str | None:
    """The one write tool a list's lead-in sentence names by the verb of its action ("A
    volunteer can be signed up for a shift only when all of these hold:" and ``sign_up``);
    words in code (statuses: "an `accepted` job") are not the action. None when no tool or
    several match. A lead-in that names one of the tools by its exact name is that tool's."""
    named = [t for t in verbs if re.search(rf"(?<![\w]){re.escape(t)}(?!\w)", lead)]
    if len(named) == 1:
        return named[0]
    hits = _acting(verbs, {_stem(w) for w in _words(re.sub(r"`[^`]*`", " ", lead))})
    return hits[0] if len(hits) == 1 else None


def as_requirement(item: str) -> str:
    """A condition from a list of them said as a requirement: "the invoice is still a draft"
    -> "the invoice must be a draft", "the room is not closed" -> "the room cannot be
    closed"."""
    said = re.sub(r"\b(is|are)\s+not\s+(?:yet\s+)?", "cannot be ", item, count=1, flags=re.I)
    if said != item:
        return said
    return re.sub(r"\b(is|are)\s+(?:still\s+|already\s+|currently\s+)?", "must be ", item,
                  count=1, flags=re.I)  # fmt: skip


def _all_required(item: str) -> str:
    """Every clause of a listed condition said as a requirement (:func:`as_requirement` until
    nothing changes): "the patient is active, the prescriber's status is `active`" names no
    status the call writes."""
    said = as_requirement(item)
    while said != item:
        item, said = said, as_requirement(said)
    return said


def led_items(policy: str, tool: str, verbs: dict[str, set[str]] | None) -> list[str]:
    """The items of the lists of conditions anywhere in the policy whose lead-in names
    ``tool``'s action (:func:`leads_to`): rules of that tool wherever the section stands."""
    if not verbs:
        return []
    out: list[str] = []
    for lead, items in _lists(policy.splitlines()):
        if leads_to(lead, verbs) == tool:
            out += [i for i in items if i not in out]
    return out


def checklist_items(
    policy: str,
    tool: str,
    headed: dict[str, str] | None = None,
    verbs: dict[str, set[str]] | None = None,
) -> list[str]:
    """The items of a list of conditions (:func:`_lists`) that are ``tool``'s: in its policy
    sections, or anywhere when the list's lead-in names its action (:func:`led_items`, given
    ``verbs``). Each is something the call requires, though it says "is" rather than "must
    be" ("... checks that:" then "- the invoice is still a draft; ...")."""
    out: list[str] = []
    for section in _owned_sections(policy, tool, headed):
        out += [i for _, items in _lists(section) for i in items]
    return out + [i for i in led_items(policy, tool, verbs) if i not in out]


def tool_sentences(
    policy: str,
    tool: str,
    headed: dict[str, str] | None = None,
    verbs: dict[str, set[str]] | None = None,
) -> list[str]:
    """The policy's sentences about ``tool``: those of the sections its heading names
    (:func:`section_sentences`), the items of the lists of its conditions elsewhere
    (:func:`led_items`, given ``verbs``) and any other sentence naming it by its exact name."""
    named = [
        s
        for s in doc_sentences(policy)
        if re.search(rf"(?<![\w`]){re.escape(tool)}(?!\w)|`{re.escape(tool)}`", s)
    ]
    out = section_sentences(policy, tool, headed)
    led = [_all_required(i) for i in led_items(policy, tool, verbs)]  # conditions, not effects
    out += [s for i in led for s in doc_sentences(i) if s not in out]
    out += [s for s in restricting(policy, tool, verbs) if s not in out]
    return out + [s for s in named if s not in out]


#: "only ... can book", "cannot book", "may not book", "we will not renew": the verb a
#: restriction is about
_RESTRICTS = re.compile(
    r"\b(?:only\b[^.;:]*?\b(?:can|may)|cannot|can\s*not|can't|may\s+not|must\s+not|"
    r"will\s+not|won't)"
    r"\s+(?:be\s+)?(?P<verb>[a-z]+)",
    re.I,
)


def restricting(policy: str, tool: str, verbs: dict[str, set[str]] | None) -> list[str]:
    """Sentences anywhere in the policy that restrict ``tool``'s action by the verb of its
    name or summary, in the active voice ("Only `active` households can book.", "A household
    whose balance is above 150.00 cannot book a new pickup", "We will not renew a card
    while ..."), when that verb is no other write tool's."""
    if not verbs or not verbs.get(tool):
        return []
    out = []
    for s in doc_sentences(policy):
        said = {x for m in _RESTRICTS.finditer(s) for x in _verb_stems(m.group("verb"))}
        if _acting(verbs, said) == [tool]:
            out.append(s)
    return out


def own_sentences(spec: ToolSpec, ctx: Context) -> list[str]:
    """The sentences of a tool's description, then the policy's sentences on it
    (:func:`tool_sentences`): every sentence that can state the tool's rules."""
    return doc_sentences(spec.description) + tool_sentences(
        ctx.policy, spec.name, ctx.headed, ctx.verbs
    )


def carried_part(sentence: str, pattern: str | re.Pattern[str]) -> str:
    """The part of ``sentence`` a check read at ``pattern`` carries: in "Rejected if A, B, or
    C", the one alternative where the pattern matches (the others stay unenforced until
    something carries them); else the whole sentence."""
    alternatives = refusal_alternatives(sentence)[1]
    found = pattern if isinstance(pattern, re.Pattern) else re.compile(pattern, re.I)
    hit = [a for a in alternatives if found.search(a)]
    return hit[0] if len(alternatives) > 1 and hit else sentence
