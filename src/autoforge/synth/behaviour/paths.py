"""The records a tool can read or write: its own, and those a parameter or that record refers
to through at most two references; and the code that finds one inside a compiled tool.

Formulas read numbers from them ("tier.discount_pct"); counters move numbers on them ("the
holder's `claims_filed` goes up by 1" where the holder is the policy's). Every rule is stated
without naming a domain.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import TYPE_CHECKING

from autoforge.env import ToolBehaviour, python_param_name
from autoforge.synth.behaviour.data import noun_forms

if TYPE_CHECKING:
    from autoforge.synth.behaviour.data import Context


@dataclass(frozen=True)
class Path:
    """A record the tool can read: ``start`` (``new``, ``target`` or ``param:<name>``) in
    collection ``coll``, then each ``(reference attribute, collection)`` hop."""

    start: str
    coll: str
    hops: tuple[tuple[str, str], ...] = ()

    @property
    def end(self) -> str:
        return self.hops[-1][1] if self.hops else self.coll

    def words(self) -> set[str]:
        """The nouns a sentence may call this record by: its collection's, and the reference's
        own name less ``_id`` (``space_id`` -> space)."""
        out = set(noun_forms(self.end))
        ref = self.hops[-1][0] if self.hops else self.start.removeprefix("param:")
        if self.hops or self.start.startswith("param:"):
            out.add(re.sub(r"_?(id|key|code|no|number)$", "", ref).replace("_", " "))
        return {w.lower() for w in out if w}


def reach(tb: ToolBehaviour, ctx: Context) -> tuple[Path | None, list[Path]]:
    """``(own, others)``: the record the tool writes and the records a parameter or that
    record refers to, through at most two references."""
    if not tb.collection:
        return None, []
    own = Path("new" if tb.kind == "create" else "target", tb.collection)
    first: list[Path] = []
    for p in tb.params:
        if p.references and p.name != tb.id_param:
            first.append(Path(f"param:{p.name}", p.references))
    names = {p.name for p in tb.params}
    for a in ctx.ev.attributes.get(tb.collection, []):
        ref = ctx.ev.references(tb.collection, a)
        if ref and ref != tb.collection and not (own.start == "new" and a in names):
            first.append(Path(own.start, own.coll, ((a, ref),)))
    second = []
    for path in first:
        for b in ctx.ev.attributes.get(path.end, []):
            ref = ctx.ev.references(path.end, b)
            if ref and ref != path.end and len(path.hops) < 2:
                second.append(Path(path.start, path.coll, (*path.hops, (b, ref))))
    return own, first + second


def single_routes(
    paths: list[Path], skip: set[str], prefer_own: bool = False
) -> list[tuple[str, Path]]:
    """Per collection the paths reach (those in ``skip`` left out), the one route to it: the
    shortest, when only one is; with ``prefer_own``, on a tie the one from the tool's own
    record. A collection with no single route is left out (which record is meant is not
    known)."""
    out = []
    for end in sorted({p.end for p in paths} - skip):
        far = [p for p in paths if p.end == end]
        best = [p for p in far if len(p.hops) == min(len(q.hops) for q in far)]
        own = [p for p in best if p.start in ("new", "target")]
        best = own if prefer_own and len(own) == 1 else best
        if len(best) == 1:
            out.append((end, best[0]))
    return out


def path_record(path: Path) -> str:
    """The ``record`` of an effect on the record ``path`` ends at (``path:<json>``)."""
    return "path:" + json.dumps([path.start, path.coll, [list(h) for h in path.hops]])


def record_code(start: str, coll: str, hops: list[list[str]]) -> str:
    """The expression of the record a path ends at inside a compiled tool (None when a
    reference on the way names nothing)."""
    if start == "new":
        out = "_new"
    elif start == "target":
        out = "_rec"
    else:
        out = f"state.get({coll!r}, {{}}).get(str({python_param_name(start.split(':', 1)[1])}))"
    for attr, c in hops:
        out = f"state.get({c!r}, {{}}).get(str(({out} or {{}}).get({attr!r})))"
    return out


def effect_record(via: str | None) -> str:
    """The ``record`` of an effect on a record reached as ``via`` says (see ``related_records`` in
    :mod:`text`): the target for None, a parameter's record as is, else through the target's
    attribute."""
    if via is None:
        return "target"
    return via if via.startswith("param:") else f"via:{via}"
