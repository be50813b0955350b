"""The status a change requires, said as the subject of the sentence that says what the record
becomes: "A placed order becomes `shipped`", "a `pending` request is set to `approved`".

For an action or update on a record whose collection has a status, a sentence of the tool's
description whose subject is "a/the <status> [<word>] <noun of the collection>" and whose verb
gives it another status ("becomes", "is set to", "turns", "moves to") says the call acts on
records in that status: a ``status_in`` check on the target, over every such subject status
the description names. Nothing is added when another reader already checks the target's
status. Every rule is stated without naming a domain.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from autoforge.env import Check, ToolBehaviour, doc_sentences
from autoforge.synth.behaviour.data import noun_forms

if TYPE_CHECKING:
    from autoforge.synth.behaviour.data import Context
    from autoforge.tooldocs import ToolSpec

_BECOMES = re.compile(
    r"\b(?:an?|the|each|any)\s+`?(?P<was>[\w-]+)`?\s+(?:`?[\w-]+`?\s+)?(?P<noun>\w+)\s+"
    r"(?:becomes|is\s+set\s+to|turns|moves\s+to|goes\s+to)\s+`?(?P<to>[\w-]+)`?",
    re.I,
)
_STATUS_CHECKS = ("status_in", "status_not_in", "transition")


def subject_status_checks(spec: ToolSpec, tb: ToolBehaviour, ctx: Context) -> list[Check]:
    """The ``status_in`` check the subjects of the description's "becomes" sentences give."""
    coll = tb.collection
    if tb.kind not in ("action", "update") or tb.id_param is None or coll is None:
        return []
    if any(c.kind in _STATUS_CHECKS and c.via is None and c.collection in (None, coll)
           for c in tb.checks):  # fmt: skip
        return []
    attr, values = ctx.status_enum(coll)
    nouns = set(noun_forms(coll))
    found: list[str] = []
    said = ""
    for s in doc_sentences(spec.description):
        for m in _BECOMES.finditer(s):
            was, to = m.group("was"), m.group("to")
            if m.group("noun").lower() in nouns and was in values and to in values and was != to:
                found.append(was)
                said = said or s
    if attr is None or not found:
        return []
    return [Check(kind="status_in", param=tb.id_param, collection=coll, attribute=attr,
                  values=sorted(set(found)), sentence=said)]  # fmt: skip
