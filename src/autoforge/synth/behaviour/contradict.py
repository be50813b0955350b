"""Status checks no record can pass together: a misreading, not a rule.

Two ``status_in`` checks on the same record whose values share none ("only `on_leave`" and
"only `active`") refuse every call of the tool, whatever the record. A documented tool that
refuses everything is not what its docs describe; such a pair comes from a sentence about the
value the call sets ("a tutor can be put `on_leave` only when ...", "setting `active` is always
allowed") read as the status the record must already have. The checks are dropped and their
sentences left as rules the model does not enforce, so the tool is marked partial rather than
compiled to refuse every call. Nothing here names a domain.
"""

from __future__ import annotations

from collections import defaultdict

from autoforge.env import BehaviourModel, Check, ToolBehaviour


def _group(c: Check) -> tuple[str | None, str | None, str | None, str | None]:
    return (c.via, c.collection, c.attribute, c.when_given)


def contradicted(tb: ToolBehaviour) -> list[Check]:
    """The ``status_in`` checks of ``tb`` that share a record and attribute with another
    such check and whose value sets have nothing in common."""
    groups: dict[tuple[str | None, ...], list[Check]] = defaultdict(list)
    for c in tb.checks:
        if c.kind == "status_in" and c.attribute:
            groups[_group(c)].append(c)
    out: list[Check] = []
    for checks in groups.values():
        if len(checks) < 2:
            continue
        common = set(map(repr, checks[0].values))
        for c in checks[1:]:
            common &= set(map(repr, c.values))
        if not common:
            out += checks
    return out


def drop_contradictions(model: BehaviourModel) -> None:
    """Take out of every tool the status checks :func:`contradicted` finds. Their sentences,
    carried by no check then, are listed as unenforced when the tool's code is recorded
    (:func:`~autoforge.synth.behaviour.run.fill_missing`), which marks the tool partial."""
    for tb in model.tools:
        gone = {id(c) for c in contradicted(tb)}
        if gone:
            tb.checks = [c for c in tb.checks if id(c) not in gone]


__all__ = ["contradicted", "drop_contradictions"]
