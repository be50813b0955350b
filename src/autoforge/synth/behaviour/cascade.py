"""Cascades: what a tool's description says happens to every record that refers to the target.

"every booking still `booked` becomes `no_show`", "every waitlisted booking is cancelled",
"Active reservations of the order become released": the records of another collection whose
reference attribute names the target and whose status is one of the named ones take the new
status, with the stamps the data shows records in that status carry. A counter on the record
such a child refers to ("and adds one to its member's `no_shows`") moves once per child.

The same reading gives a precondition: "in which nobody has checked in yet (no attended booking)"
refuses the call while a record of the target is in a named status.

Every rule is stated without naming a domain: a child collection is one whose attribute the data
shows pointing into the target's collection, and its statuses come from its documented enum.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, cast

from autoforge.env import Check, Effect, ToolBehaviour, Value, ValueSource, doc_sentences
from autoforge.lexicon import count_of, number_words
from autoforge.synth.behaviour.data import entry_stamps, noun_forms
from autoforge.synth.behaviour.headings import tool_sentences

if TYPE_CHECKING:
    from collections.abc import Iterator

    from autoforge.synth.behaviour.data import Context
    from autoforge.tooldocs import ToolSpec

_SETS = r"(?:becomes?|(?:is|are)\s+set\s+to|(?:is|are)\s+marked(?:\s+as)?|is|are)"


def children(tb: ToolBehaviour, ctx: Context) -> list[tuple[str, str]]:
    """``(collection, reference attribute)`` of every other collection whose records refer to
    the target's collection."""
    if tb.collection is None or tb.id_param is None or tb.kind in ("create", "list"):
        return []
    out = []
    for coll, attrs in ctx.ev.attributes.items():
        if coll == tb.collection:
            continue
        for a in attrs:
            if ctx.ev.references(coll, a) == tb.collection:
                out.append((coll, a))
                break
    return out


def _status_run(text: str, values: list[str]) -> list[str]:
    """The status values named in ``text`` (a run like "booked or waitlisted")."""
    found = []
    for v in values:
        if re.search(rf"(?<![\w-])`?{re.escape(v)}`?(?![\w-])", text, re.I):
            found.append(v)
    return found


def _clause_cascade(
    clause: str, sentence: str, nouns: str, values: list[str]
) -> tuple[list[str], str] | None:
    """``(from statuses, new status)`` a clause states for the child noun, or None: the words
    before the noun (after "every"/"each"/"all", or up to five words at the clause's start)
    and after it up to the verb name the statuses the children are in; the word after the
    verb is the new one."""
    for m in re.finditer(rf"\b(?:{nouns})\b", clause, re.I):
        after = re.match(
            rf"(?P<mid>(?:\s+of\s+the\s+\w+)?(?:\s+still)?(?:\s+`?[\w-]+`?(?:\s+or)?){{0,3}}?)"
            rf"\s+{_SETS}\s+`?(?P<to>[\w-]+)`?",
            clause[m.end() :],
            re.I,
        )
        if after is None:
            continue
        head = clause[: m.start()]
        every = re.search(r"\b(?:every|each|all)\b(?P<pre>[^.;:]*)$", head, re.I)
        if every is not None:
            pre = every.group("pre")
        elif re.search(r"\bof\s+the\b", after.group("mid")) and len(head.split()) <= 5:
            pre = head
        elif re.search(r"\bthe\s*$", head, re.I):
            lead = re.search(
                rf"\b(?:every|each|all)\b(?P<pre>[^.;:]*?)\b(?:{nouns})\b", sentence, re.I
            )
            if lead is None:
                continue
            pre = lead.group("pre")
        else:
            continue
        to = after.group("to")
        new = next((v for v in values if v.lower() == to.lower()), None)
        froms = [v for v in _status_run(pre + " " + after.group("mid"), values) if v != new]
        if new is not None and froms:
            return froms, new
    return None


def _child_counter(clause: str, child: str, ctx: Context) -> list[tuple[str, str, str, int]]:
    """``(reference attribute, collection, attribute, amount)`` of a counter the clause moves on
    the record a child refers to: "adds one to its member's `no_shows`"."""
    out = []
    for a in ctx.ev.attributes.get(child, []):
        coll = ctx.ev.references(child, a)
        if coll is None:
            continue
        nouns = "|".join(re.escape(n) for n in noun_forms(coll))
        for attr in ctx.ev.attributes.get(coll, []):
            m = re.search(
                rf"\badds?\s+(?P<n>{number_words()}|\d+)\s+to\s+(?:its|their|the)\s+(?:{nouns})'s\s+"
                rf"`?{re.escape(attr)}`?(?![\w-])",
                clause,
                re.I,
            )
            if m:
                n = m.group("n").lower()
                out.append((a, coll, attr, count_of(n)))
    return out


def _child_refunds(
    clause: str, child: str, ctx: Context, over: list[str], where: dict[str, list[str]], s: str
) -> list[Effect]:
    """ "... is cancelled with a (full) refund": each child's amount ``<c>_<qualifier>`` goes
    back to attribute ``c`` of the record the child refers to (``credits_charged`` ->
    ``credits``)."""
    if not re.search(r"\bwith\s+(?:a\s+)?(?:full\s+)?refunds?\b|\band\s+refunded\b", clause, re.I):
        return []
    out = []
    for via in ctx.ev.attributes.get(child, []):
        coll = ctx.ev.references(child, via)
        if coll is None or coll == child:
            continue
        for c in ctx.ev.attributes.get(coll, []):
            for a in ctx.ev.attributes.get(child, []):
                if a.startswith(c + "_"):
                    value = Value(source="formula", const=["target", a, 1])
                    out.append(_each_increment(via, coll, c, value, over, where, s))
    return out


def _child_enums(tb: ToolBehaviour, ctx: Context) -> Iterator[tuple[str, str, str, list[str], str]]:
    """``(child, reference, status attribute, statuses, noun pattern)`` of each collection whose
    records refer to the target and have a status."""
    for child, ref in children(tb, ctx):
        status_attr, values = ctx.status_enum(child)
        if status_attr is not None:
            yield child, ref, status_attr, values, "|".join(map(re.escape, noun_forms(child)))


def _each_increment(
    via: str, coll: str, attr: str, value: Value, over: list[str],
    where: dict[str, list[str]], sentence: str,
) -> Effect:  # fmt: skip
    """A counter moved on the record (``via``) each selected child refers to."""
    return Effect(
        kind="increment", record=f"via:{via}", collection=coll, attribute=attr, value=value,
        over=over, where=where, sentence=sentence,
    )  # fmt: skip


def cascades(spec: ToolSpec, tb: ToolBehaviour, ctx: Context) -> list[Effect]:
    """The cascade effects the tool's description states, else the policy's sentences on the
    tool (see the module docstring). Counters come before the status change, so both select
    the children by their status before it."""
    out: list[Effect] = []
    said = doc_sentences(spec.description)
    said += [s for s in tool_sentences(ctx.policy, tb.tool, ctx.headed, ctx.verbs) if s not in said]
    for child, ref, status_attr, values, nouns in _child_enums(tb, ctx):
        done = False
        for s in said:
            if done:
                break  # the description's word first; the policy only where it says nothing
            for clause in re.split(r";\s*", s):
                found = _clause_cascade(clause, s, nouns, values)
                if found is None:
                    continue
                froms, new = found
                over, where = [child, ref], {status_attr: froms}
                out += _child_refunds(clause, child, ctx, over, where, s)
                for via, coll, attr, n in _child_counter(clause, child, ctx):
                    value = Value(source="const", const=n)
                    out.append(_each_increment(via, coll, attr, value, over, where, s))
                fields = {status_attr: Value(source="const", const=new)}
                stamps = entry_stamps(ctx.ev, child, status_attr, new)
                fields.update({a: Value(source=cast(ValueSource, v)) for a, v in stamps.items()})
                out.append(
                    Effect(
                        kind="set",
                        collection=child,
                        fields=fields,
                        over=over,
                        where=where,
                        sentence=s,
                    )
                )
                done = True
    return out


_RULE = re.compile(r"\b(only|must|refused|rejected|cannot|may not|unless|while)\b", re.I)


def child_checks(spec: ToolSpec, tb: ToolBehaviour, ctx: Context) -> list[Check]:
    """ "no <status> <child noun>" in a sentence that states a rule: the call is refused while a
    record of the child collection that refers to the target is in one of those statuses."""
    out: list[Check] = []
    for child, ref, status_attr, values, nouns in _child_enums(tb, ctx):
        for s in doc_sentences(spec.description):
            if not _RULE.search(s):
                continue
            for m in re.finditer(rf"\bno\s+(?P<run>[\w`\s,]{{1,60}}?)\s*\b(?:{nouns})\b", s, re.I):
                found = _status_run(m.group("run"), values)
                words = re.findall(r"[\w-]+", m.group("run").replace("`", ""))
                if found and all(w.lower() in ("or", "and") or w in found for w in words):
                    out.append(
                        Check(
                            kind="no_child",
                            collection=child,
                            attribute=status_attr,
                            via=ref,
                            values=found,
                            sentence=s,
                        )
                    )
    return out
