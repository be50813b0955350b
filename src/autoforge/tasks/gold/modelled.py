"""What the environment's behaviour model says a gold call must meet, as the task side's
guards and rules.

The compiled tools refuse a call that breaks a check of the behaviour model
(:class:`~autoforge.env.BehaviourModel`), so a gold call must meet every one. The status
checks on a record a key argument names become :class:`~autoforge.tasks.gold.plausible.Guard`
objects, which choose the facts and repair S0 as the stated rules' guards do; those on a
record reached through another's reference become
:class:`~autoforge.tasks.gold.preconditions.ForbiddenRule` objects, which narrow the keys an
argument may name. Checks that apply only when an optional argument is given stay with the
tool.
"""

from __future__ import annotations

import operator
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from datetime import date, timedelta
from typing import Any, ClassVar

from autoforge.env import BehaviourModel, Check, EnvironmentSpec, ToolBehaviour
from autoforge.tasks.gold.plausible import Breach, Guard, Left
from autoforge.tasks.gold.preconditions import ForbiddenRule


def model_guards(
    model: BehaviourModel | None,
    spec: EnvironmentSpec,
    data: Any,
    values: Mapping[tuple[str, str], list[Any]] | None = None,
) -> dict[str, list[Guard]]:
    """Per tool, the status checks of the environment's behaviour ``model`` as guards: the
    record a key argument names must (or must not) hold a status. The compiled tool refuses
    a call that breaks one, so a gold call must not; the guards let the facts be chosen and
    S0 be repaired to meet them, as the stated rules' guards are. Checks on a record reached
    through another (``via`` an attribute) and checks that apply only when an optional
    argument is given stay with the tool."""
    out: dict[str, list[Guard]] = {}
    for tb in model.tools if model is not None else ():
        for c in tb.checks:
            guard = _model_guard(tb, c, spec, data, values or {})
            if guard is not None:
                out.setdefault(tb.tool, []).append(guard)
    return out


def _model_guard(
    tb: ToolBehaviour, c: Check, spec: EnvironmentSpec, data: Any,
    values: Mapping[tuple[str, str], list[Any]],
) -> Guard | None:  # fmt: skip
    """The guard of one status check (see :func:`model_guards`), or None."""
    if c.kind not in ("status_in", "status_not_in") or c.when_given or not c.attribute:
        return None
    if c.via is None and tb.kind != "create":
        param = tb.id_param
    elif c.via is not None and c.via.startswith("param:"):
        param = c.via.split(":", 1)[1]
    else:
        return None
    if not param or not c.collection:
        return None
    op = "in" if c.kind == "status_in" else "not in"
    said = f"{c.attribute} {op} {c.values} (docs: {c.sentence})"
    if c.kind == "status_in":
        return Guard(tb.tool, param, c.collection, c.attribute, tuple(c.values), rule=said)
    allowed = tuple(v for v in _known_values(spec, data, values, c.collection, c.attribute)
                    if v not in c.values)  # fmt: skip
    if not allowed:
        return None
    return Guard(tb.tool, param, c.collection, c.attribute, allowed, rule=said,
                 forbidden=tuple(c.values))  # fmt: skip


def _known_values(
    spec: EnvironmentSpec, data: Any, values: Mapping[tuple[str, str], list[Any]],
    collection: str, attribute: str,
) -> list[Any]:  # fmt: skip
    """The values ``attribute`` of ``collection`` may hold: its enum, else those the data's
    records hold, else the domain's."""
    coll = spec.state_schema.collection(collection)
    attr = next((a for a in coll.attributes if a.name == attribute), None) if coll else None
    if attr is not None and attr.enum:
        return list(attr.enum)
    records = (data or {}).get(collection) or {}
    seen = [r.get(attribute) for r in records.values() if isinstance(r, Mapping)]
    held = list(dict.fromkeys(v for v in seen if isinstance(v, (str, int, float, bool))))
    return held or list(values.get((collection, attribute), []))


def left_by(model: BehaviourModel | None) -> dict[str, Left]:
    """Per state-changing tool of ``model``, the constants its unconditional writes always
    leave on the record it acts on (the status a transition moves it to, the one a create
    starts it in): a later call of the same task whose status check refuses that value can
    never succeed on that record (:func:`~autoforge.tasks.gold.plausible.doomed`)."""
    out: dict[str, Left] = {}
    for tb in model.tools if model is not None else ():
        if not tb.collection or (tb.kind != "create" and not tb.id_param):
            continue
        values: dict[str, Any] = {}
        for e in tb.effects:
            own = e.record == ("new" if tb.kind == "create" else "target")
            if (e.kind not in ("set", "create") or not own or e.when or e.over or e.only_given
                    or e.collection not in (None, tb.collection)):  # fmt: skip
                continue
            values.update({k: v.const for k, v in e.fields.items()
                           if v.source == "const" and v.const is not None})  # fmt: skip
        if values:
            param = None if tb.kind == "create" else tb.id_param
            out[tb.tool] = Left(tb.collection, param, values)
    return out


def unreachable_edges(
    graph_edges: Iterable[tuple[str, str, set[str]]],
    left: Mapping[str, Left],
    guards: Mapping[str, list[Guard]],
) -> set[tuple[str, str]]:
    """The edges ``(source, target)`` of a tool graph (given with the target parameters each
    one feeds) along which the target must fail: the source always leaves the record it
    hands on with a value the target's status guard on that parameter refuses (a pick
    followed by a cancel only unpicked records allow). A walk along one could only be
    rejected as ``doomed_after_status``."""
    out: set[tuple[str, str]] = set()
    for source, target, fed in graph_edges:
        mark = left.get(source)
        if mark is None:
            continue
        for guard in guards.get(target, ()):
            if guard.fields or guard.attribute not in mark.values or guard.param not in fed:
                continue
            value = mark.values[guard.attribute]
            if guard.collection == mark.collection and not guard.admits({guard.attribute: value}):
                out.add((source, target))
    return out


def model_rules(
    model: BehaviourModel | None,
    spec: EnvironmentSpec,
    data: Any,
    values: Mapping[tuple[str, str], list[Any]] | None = None,
) -> dict[str, list[ForbiddenRule]]:
    """Per tool, the status checks of the behaviour ``model`` on a record the target refers
    to (``via`` one of its attributes: "the booking's member must be active") as rules on the
    target's key: the statuses a ``status_in`` check does not allow are forbidden."""
    out: dict[str, list[ForbiddenRule]] = {}
    for tb in model.tools if model is not None else ():
        for c in tb.checks:
            if (c.kind not in ("status_in", "status_not_in") or c.when_given or not c.via
                    or ":" in c.via or not (c.attribute and c.collection)):  # fmt: skip
                continue
            if tb.kind == "create" or not (tb.id_param and tb.collection):
                continue
            forbidden = tuple(c.values)
            if c.kind == "status_in":
                known = _known_values(spec, data, values or {}, c.collection, c.attribute)
                forbidden = tuple(v for v in known if v not in c.values)
            if forbidden:
                rule = ForbiddenRule(tb.tool, tb.id_param, tb.collection, c.via, c.collection,
                                     c.attribute, forbidden, c.sentence)  # fmt: skip
                out.setdefault(tb.tool, []).append(rule)
    return out


_COMPARE: dict[str, Callable[[str, str], bool]] = {
    ">=": operator.ge, ">": operator.gt, "<=": operator.le, "<": operator.lt, "==": operator.eq,
}  # fmt: skip


class _KeyedRule:
    """What a rule on the record one key argument names shares: it narrows the keys a fact
    may name (:meth:`~autoforge.tasks.gold.preconditions.Preconditions.keys` reads
    ``narrows``) and refuses a call whose record :meth:`admits` says no to."""

    tool: str
    key: str
    collection: str
    sentence: str
    narrows: ClassVar[bool] = True

    def admits(self, key: Any, state: Mapping[str, Any]) -> bool:
        raise NotImplementedError

    def _why(self, key: Any) -> str:
        raise NotImplementedError

    def breach(self, args: Mapping[str, Any], state: Mapping[str, Any]) -> Breach | None:
        """Why the call breaks the rule in ``state``, or None."""
        key = args.get(self.key)
        if key is None or self.admits(key, state):
            return None
        guard = Guard(self.tool, self.key, self.collection, rule=self.sentence)
        return Breach(guard, self._why(key), str(key))


@dataclass(frozen=True)
class DateRule(_KeyedRule):
    """A ``date_window`` check of the behaviour model: the date ``attribute`` of the record
    ``key`` names (of ``collection``), or of the ``target`` record its ``link`` attribute
    names, compares to the domain's today plus ``days`` by ``op`` ("only a visit dated today
    or later can be cancelled"). A record without the date meets it, as the tool lets it."""

    tool: str
    key: str
    collection: str
    link: str
    target: str
    attribute: str
    op: str
    days: int
    today: str
    sentence: str = ""

    def _day(self, key: Any, state: Mapping[str, Any]) -> str:
        record = (state.get(self.collection) or {}).get(str(key))
        if isinstance(record, Mapping) and self.link:
            record = (state.get(self.target) or {}).get(str(record.get(self.link)))
        return str(record.get(self.attribute) or "")[:10] if isinstance(record, Mapping) else ""

    def _bound(self, state: Mapping[str, Any]) -> str:
        today = str((state.get("meta") or {}).get("today") or self.today)[:10]
        if not self.days:
            return today
        return (date.fromisoformat(today) + timedelta(days=self.days)).isoformat()

    def admits(self, key: Any, state: Mapping[str, Any]) -> bool:
        """Whether the record ``key`` names meets the window."""
        day = self._day(key, state)
        try:
            return not day or _COMPARE[self.op](day, self._bound(state))
        except ValueError:  # a today that is no date: nothing to compare with
            return True

    def _why(self, key: Any) -> str:
        return f"{key}: its {self.attribute} is not {self.op} today + {self.days} days (docs)"


def date_rules(model: BehaviourModel | None) -> dict[str, list[DateRule]]:
    """Per tool, the behaviour ``model``'s date windows on the target record or a record it
    or an argument refers to, as :class:`DateRule` objects."""
    out: dict[str, list[DateRule]] = {}
    for tb in model.tools if model is not None else ():
        for c in tb.checks:
            if c.kind != "date_window" or not c.values or c.when_given or not c.attribute:
                continue
            op, days = str(c.values[0]), int(c.values[1]) if len(c.values) > 1 else 0
            if op not in _COMPARE or not (tb.today and c.collection):
                continue
            key, coll, link = tb.id_param, tb.collection, c.via or ""
            if link.startswith("param:"):
                key, coll, link = link.split(":", 1)[1], c.collection, ""
            elif ":" in link or tb.kind == "create":
                continue
            if key and coll:
                rule = DateRule(tb.tool, key, coll, link, c.collection, c.attribute, op, days,
                                tb.today, c.sentence)  # fmt: skip
                out.setdefault(tb.tool, []).append(rule)
    return out


@dataclass(frozen=True)
class ItemsRule(_KeyedRule):
    """A ``min_items`` check of the behaviour model: the list ``attribute`` of the record
    ``key`` names holds at least ``low`` items ("a plan with at least one item")."""

    tool: str
    key: str
    collection: str
    attribute: str
    low: int
    sentence: str = ""

    def admits(self, key: Any, state: Mapping[str, Any]) -> bool:
        """Whether the record ``key`` names holds enough items (a missing record: yes)."""
        record = (state.get(self.collection) or {}).get(str(key))
        if not isinstance(record, Mapping):
            return True
        held = record.get(self.attribute)
        return len(held) >= self.low if isinstance(held, list) else self.low <= 0

    def _why(self, key: Any) -> str:
        return f"{key}: its {self.attribute} holds fewer than {self.low} items (docs)"


def items_rules(model: BehaviourModel | None) -> dict[str, list[ItemsRule]]:
    """Per tool, the behaviour ``model``'s ``min_items`` checks as :class:`ItemsRule`."""
    out: dict[str, list[ItemsRule]] = {}
    for tb in model.tools if model is not None else ():
        for c in tb.checks:
            if c.kind == "min_items" and c.attribute and c.low and tb.id_param and tb.collection:
                rule = ItemsRule(tb.tool, tb.id_param, tb.collection, c.attribute, int(c.low),
                                 c.sentence)  # fmt: skip
                out.setdefault(tb.tool, []).append(rule)
    return out


def modelled_rules(
    model: BehaviourModel | None,
    spec: EnvironmentSpec,
    data: Any,
    values: Mapping[tuple[str, str], list[Any]] | None = None,
) -> dict[str, list[Any]]:
    """Per tool, the rules of :func:`model_rules`, :func:`date_rules` and :func:`items_rules`
    together."""
    out: dict[str, list[Any]] = {}
    for tool, found in model_rules(model, spec, data, values).items():
        out.setdefault(tool, []).extend(found)
    for tool, dated in date_rules(model).items():
        out.setdefault(tool, []).extend(dated)
    for tool, held in items_rules(model).items():
        out.setdefault(tool, []).extend(held)
    return out
