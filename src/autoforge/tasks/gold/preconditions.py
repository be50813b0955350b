"""Preconditions of a call that the docs state beyond one record's status: the seam that says
whether a call is valid under the known rules, and which records and values would make it so.

Three kinds of rule are read from the policy text (generic forms, no domain named):

- **table**: a Markdown table pairing the values of one of the tool's enum parameters with
  the statuses of the record the tool names (a transition table ``from | to``; an event table
  ``event | allowed when status is``): the call's value must be paired with the record's
  current status;
- **children**: a sentence about the tool's action saying that *every* (or *all*) of the
  record's children (records of another collection referencing it) must have some statuses
  ("archiving only when every one of its tasks is done or cancelled");
- **link**: a sentence about the tool's action allowing it *only if* a record of a third
  collection with a stated status names every record the call names ("review a book only if
  they received it in a delivered order"); kept only when the data's existing records of what
  the tool creates all meet it (evidence that the sentence is read right).

:class:`Preconditions` holds them with the status and uniqueness guards of
:mod:`autoforge.tasks.gold.plausible` and answers :meth:`Preconditions.check` (the first breach of a
call in a state), :meth:`Preconditions.keys` (the records an entity argument may name) and
:meth:`Preconditions.values` (the values an enum argument may take). Another source of rules
(a typed behaviour model of the environment) plugs in as a further :class:`Rule`.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol

from autoforge.env import BehaviourModel, CollectionSchema, EnvironmentSpec
from autoforge.lexicon import entity_of, singular, status_values, tool_access
from autoforge.tasks.blueprints.blueprint import Blueprint, CallNode
from autoforge.tasks.gold.alike import DataColumns, data_columns
from autoforge.tasks.gold.dated import DataDates, data_dates
from autoforge.tasks.gold.failures import scalars
from autoforge.tasks.gold.plausible import Breach, Guard, breach, source_fact
from autoforge.tooldocs import ToolSpec, markdown_tables

#: Cells that mean "no value" in a table (a terminal status's empty successor list).
_EMPTY = {"", "-", "—", "none", "(none)", "n/a", "nothing"}
#: Header words of a column holding the record's current status.
_CURRENT = ("from", "when", "current", "allowed", "before", "if")
#: Header words of a column holding the value the call passes.
_TARGET = ("to", "new", "target", "next")


class Rule(Protocol):
    """One precondition of a tool's calls."""

    tool: str
    sentence: str

    def breach(self, args: Mapping[str, Any], state: Mapping[str, Any]) -> Breach | None:
        """Why the call breaks the rule in ``state`` (a :class:`Breach`), or None."""
        ...


def _record(state: Mapping[str, Any], coll: str, key: Any) -> Mapping[str, Any] | None:
    record = (state.get(coll) or {}).get(key) if isinstance(key, str) else None
    return record if isinstance(record, Mapping) else None


@dataclass(frozen=True)
class TableRule:
    """The value of ``param`` must be paired with the status (``attribute``) of the record of
    ``collection`` that ``key`` names: ``pairs`` holds ``(value, status)``."""

    tool: str
    param: str
    key: str
    collection: str
    attribute: str
    pairs: frozenset[tuple[str, str]]
    sentence: str = ""

    def statuses(self, value: Any) -> tuple[str, ...]:
        """The record statuses the value is allowed in."""
        return tuple(sorted(s for v, s in self.pairs if v == value))

    def allowed(self, status: Any) -> list[str]:
        """The values allowed while the record has ``status``."""
        return sorted(v for v, s in self.pairs if s == status)

    def breach(self, args: Mapping[str, Any], state: Mapping[str, Any]) -> Breach | None:
        record = _record(state, self.collection, args.get(self.key))
        value = args.get(self.param)
        if record is None or value is None or (value, record.get(self.attribute)) in self.pairs:
            return None
        allowed = self.statuses(value)
        guard = Guard(self.tool, self.key, self.collection, self.attribute, allowed,
                      rule=f"{self.param}={value} needs {self.attribute} in {allowed} "
                           f"(docs: {self.sentence})")  # fmt: skip
        why = (
            f"{args[self.key]} is {record.get(self.attribute)}: {self.param} {value} is "
            f"allowed only when {self.attribute} is {' or '.join(allowed) or 'never'} (policy)"
        )
        return Breach(guard, why, str(args[self.key]))


@dataclass(frozen=True)
class StatusRule:
    """The record of ``collection`` that ``key`` names must have ``attribute`` in
    ``allowed`` (a sentence of the action: "**Redirect**: only in draft or labelled")."""

    tool: str
    key: str
    collection: str
    attribute: str
    allowed: tuple[Any, ...]
    sentence: str = ""

    def breach(self, args: Mapping[str, Any], state: Mapping[str, Any]) -> Breach | None:
        guard = Guard(
            self.tool,
            self.key,
            self.collection,
            self.attribute,
            self.allowed,
            rule=f"{self.attribute} in {self.allowed} (docs: {self.sentence})",
        )
        return breach([guard], args, state)


@dataclass(frozen=True)
class ForbiddenRule:
    """The record ``key`` names, or the record it references by ``link`` (a collection
    ``target``), must not have ``attribute`` in ``forbidden`` ("suspended accounts cannot buy
    labels": the shipment's account)."""

    tool: str
    key: str
    collection: str
    link: str
    target: str
    attribute: str
    forbidden: tuple[str, ...]
    sentence: str = ""

    def holder(self, key: Any, state: Mapping[str, Any]) -> Mapping[str, Any] | None:
        """The record whose status the rule reads, for the record ``key``."""
        record = _record(state, self.collection, key)
        if record is None or not self.link:
            return record
        return _record(state, self.target, record.get(self.link))

    def breach(self, args: Mapping[str, Any], state: Mapping[str, Any]) -> Breach | None:
        holder = self.holder(args.get(self.key), state)
        if holder is None or holder.get(self.attribute) not in self.forbidden:
            return None
        guard = Guard(self.tool, self.key, self.collection, rule=self.sentence)
        why = (
            f"{args[self.key]}: its {self.target} is {holder.get(self.attribute)}, which "
            f"the policy forbids for this (policy)"
        )
        return Breach(guard, why, str(args[self.key]))


@dataclass(frozen=True)
class GroupRule:
    """The value of ``param`` must be in the same group as the ``param`` attribute the record
    ``key`` names already has ("the new country must be in the same zone as the current
    one"); ``groups``: the groups the text lists ("zone 2: BE, DE, LU")."""

    tool: str
    param: str
    key: str
    collection: str
    groups: tuple[frozenset[str], ...]
    sentence: str = ""

    def group(self, value: Any) -> frozenset[str] | None:
        """The group ``value`` is in, or None."""
        return next((g for g in self.groups if str(value) in g), None)

    def breach(self, args: Mapping[str, Any], state: Mapping[str, Any]) -> Breach | None:
        record = _record(state, self.collection, args.get(self.key))
        if record is None or args.get(self.param) is None:
            return None
        mine = self.group(record.get(self.param))
        if mine is None or str(args[self.param]) in mine:
            return None
        guard = Guard(self.tool, self.param, self.collection, rule=self.sentence)
        why = (
            f"{args[self.key]}: {self.param} {args[self.param]} is not in the same group as "
            f"{record.get(self.param)} ({', '.join(sorted(mine))}) (policy)"
        )
        return Breach(guard, why, str(args[self.key]))


@dataclass(frozen=True)
class ChildrenRule:
    """Every record of ``child`` whose ``link`` names the record ``key`` names must have
    ``attribute`` in ``allowed``."""

    tool: str
    key: str
    collection: str
    child: str
    link: str
    attribute: str
    allowed: tuple[str, ...]
    sentence: str = ""

    def admits(self, key: str, state: Mapping[str, Any]) -> bool:
        """Whether the record ``key`` meets the rule in ``state``."""
        return all(r.get(self.attribute) in self.allowed
                   for r in (state.get(self.child) or {}).values()
                   if isinstance(r, Mapping) and r.get(self.link) == key)  # fmt: skip

    def breach(self, args: Mapping[str, Any], state: Mapping[str, Any]) -> Breach | None:
        key = args.get(self.key)
        if _record(state, self.collection, key) is None or self.admits(str(key), state):
            return None
        guard = Guard(self.tool, self.key, self.collection, rule=self.sentence)
        why = f"{key}: every {self.child} record of it must be {' or '.join(self.allowed)} (policy)"
        return Breach(guard, why, str(key))


@dataclass(frozen=True)
class LinkRule:
    """A record of ``via`` whose ``attribute`` is ``status`` must name every value of the
    call's arguments ``params``."""

    tool: str
    params: tuple[str, ...]
    via: str
    attribute: str
    status: str
    sentence: str = ""

    def linked(self, values: Iterable[str], state: Mapping[str, Any]) -> bool:
        """Whether some record of ``via`` with the status names all ``values``."""
        wanted = set(values)
        return any(isinstance(r, Mapping) and r.get(self.attribute) == self.status
                   and wanted <= set(_strings(r))
                   for r in (state.get(self.via) or {}).values())  # fmt: skip

    def breach(self, args: Mapping[str, Any], state: Mapping[str, Any]) -> Breach | None:
        values = [args.get(p) for p in self.params]
        if not all(isinstance(v, str) for v in values) or self.linked(map(str, values), state):
            return None
        guard = Guard(self.tool, self.params[-1], self.via, rule=self.sentence)
        why = (
            f"{' + '.join(map(str, values))}: no {self.status} {self.via} record names them "
            f"(policy)"
        )
        return Breach(guard, why, str(values[-1]))


def _strings(value: Any) -> Iterator[str]:
    """Every string inside ``value`` (nested dicts and lists included)."""
    return (v for v in scalars(value) if isinstance(v, str))


@dataclass
class Preconditions:
    """The known preconditions per tool: status/uniqueness guards and the rules above."""

    guards: Mapping[str, list[Guard]] = field(default_factory=dict)
    rules: dict[str, list[Any]] = field(default_factory=dict)
    #: where the behaviour model says a create's date argument is measured from
    dates: DataDates | None = None
    #: where the behaviour model says a write stores its other arguments
    columns: DataColumns | None = None

    def date(self, tool: str, param: str, partial: Mapping[str, Any],
             state: Mapping[str, Any], rng: random.Random) -> str | None:  # fmt: skip
        """A date for a create's date argument placed as the data's records place theirs
        (:meth:`~autoforge.tasks.gold.dated.DataDates.value`); None where no model says."""
        return self.dates.value(tool, param, partial, state, rng) if self.dates else None

    def stored_like(
        self, tool: str, param: str, partial: Mapping[str, Any], state: Mapping[str, Any],
        rng: random.Random, allowed: Callable[[Any], bool],
    ) -> tuple[bool, Any]:  # fmt: skip
        """A value for an argument a write stores on a record, like that collection's own
        records' (:meth:`~autoforge.tasks.gold.alike.DataColumns.value`); ``(False, None)``
        where no model says."""
        if self.columns is None:
            return False, None
        return self.columns.value(tool, param, partial, state, rng, allowed)

    def check(self, tool: str, args: Mapping[str, Any], state: Mapping[str, Any]) -> Breach | None:
        """The first known precondition the call breaks in ``state``, or None: is this call
        valid under what the docs say?"""
        guards = self.guards.get(tool)
        found = breach(guards, args, state) if guards else None
        for rule in self.rules.get(tool, ()):
            if found is not None:
                break
            found = rule.breach(args, state)
        return found

    def keys(self, tool: str, param: str, partial: Mapping[str, Any], coll: str,
             state: Mapping[str, Any]) -> set[str] | None:  # fmt: skip
        """The keys of ``coll`` that argument ``param`` may name given the arguments chosen so
        far (None: no rule narrows it)."""
        records = state.get(coll) or {}
        out: set[str] | None = None
        for rule in self.rules.get(tool, ()):
            ok: set[str] | None = None
            if isinstance(rule, TableRule) and rule.key == param:
                value = partial.get(rule.param)
                statuses = (
                    set(rule.statuses(value)) if value is not None else {s for _, s in rule.pairs}
                )
                ok = {k for k, r in records.items() if r.get(rule.attribute) in statuses}
            elif isinstance(rule, ChildrenRule) and rule.key == param:
                ok = {k for k in records if rule.admits(k, state)}
            elif isinstance(rule, ForbiddenRule) and rule.key == param:
                ok = {k for k in records if (h := rule.holder(k, state)) is not None
                      and h.get(rule.attribute) not in rule.forbidden}  # fmt: skip
            elif isinstance(rule, StatusRule) and rule.key == param:
                ok = {k for k, r in records.items() if r.get(rule.attribute) in rule.allowed}
            elif getattr(rule, "narrows", False) and rule.key == param:  # a model's rule
                ok = {k for k in records if rule.admits(k, state)}
            elif isinstance(rule, LinkRule) and param in rule.params:
                others = [partial.get(p) for p in rule.params if p != param]
                if all(isinstance(v, str) for v in others):
                    ok = {k for k in records if rule.linked([*map(str, others), k], state)}
            if ok is not None:
                out = ok if out is None else out & ok
        return out

    def values(self, tool: str, param: str, partial: Mapping[str, Any],
               state: Mapping[str, Any]) -> list[str] | None:  # fmt: skip
        """The values enum argument ``param`` may take given the record already chosen
        (None: no rule narrows it)."""
        for rule in self.rules.get(tool, ()):
            if isinstance(rule, TableRule) and rule.param == param:
                record = _record(state, rule.collection, partial.get(rule.key))
                if record is not None:
                    return rule.allowed(record.get(rule.attribute))
            if isinstance(rule, GroupRule) and rule.param == param:
                record = _record(state, rule.collection, partial.get(rule.key))
                mine = rule.group(record.get(param)) if record is not None else None
                if mine is not None:
                    return sorted(mine)
        return None

    def fact_keys(self, bp: Blueprint) -> dict[str, list[tuple[str, str]]]:
        """Per fact of ``bp`` that names the record a ruled call's argument takes (directly,
        or through calls that echo their key argument): ``(tool, argument)`` pairs."""
        nodes = {n.id: n for n in bp.nodes}
        out: dict[str, list[tuple[str, str]]] = {}
        for node in bp.nodes:
            if not isinstance(node, CallNode):
                continue
            params = {p for rule in self.rules.get(node.tool, ()) for p in _keyed(rule)}
            for param in sorted(params):
                name = source_fact(node.args.get(param), nodes)
                if name is not None:
                    out.setdefault(name, []).append((node.tool, param))
        return out


def _keyed(rule: Any) -> tuple[str, ...]:
    """The arguments of a rule that name records."""
    return rule.params if isinstance(rule, LinkRule) else (rule.key,)


# -- reading the rules -----------------------------------------------------------------------


def _tokens(cell: str) -> list[str]:
    return [t for t in (x.strip(" `*_.").lower() for x in re.split(r",|\bor\b|\band\b|/", cell))
            if t]  # fmt: skip


def _column(rows: list[list[str]], index: int, values: set[str]) -> list[list[str]] | None:
    """Each row's values in column ``index`` when every token is one of ``values`` (or
    empty), else None."""
    out = []
    for row in rows:
        cell = row[index] if index < len(row) else ""
        tokens = [t for t in _tokens(cell) if t not in _EMPTY]
        if any(t not in values for t in tokens):
            return None
        out.append(tokens)
    return out if any(out) else None


def _enum(tool: ToolSpec, param: str) -> list[str]:
    prop = (tool.parameters.get("properties") or {}).get(param) or {}
    return [str(v) for v in prop.get("enum") or []]


def _states(coll: CollectionSchema, data: Mapping[str, Any]) -> list[tuple[str, list[str]]]:
    """``(attribute, values)`` of each attribute of ``coll`` with a known set of values: the
    schema's enums, and the status the data shows where the schema gives it no enum."""
    out = [(a.name, [str(v) for v in a.enum]) for a in coll.attributes if a.enum]
    found = status_values(coll, data)
    if found is not None and all(found[0] != name for name, _ in out):
        out.append((found[0], [str(v) for v in found[1]]))
    return out


def _key_params(tool: ToolSpec, spec: EnvironmentSpec) -> list[tuple[str, CollectionSchema]]:
    out = []
    for param in tool.parameters.get("properties") or {}:
        name = entity_of(param, None, spec.state_schema)
        coll = spec.state_schema.collection(name) if name else None
        if coll is not None:
            out.append((param, coll))
    return out


def table_rules(spec: EnvironmentSpec, text: str, data: Mapping[str, Any]) -> list[TableRule]:
    """The table rules of ``text`` for the write tools of ``spec``."""
    found = list(markdown_tables(text))
    out: list[TableRule] = []
    for tool in spec.tools:
        if tool_access(tool) != "write":
            continue
        for key, coll in _key_params(tool, spec):
            for attr, statuses in _states(coll, data):
                for param in tool.parameters.get("properties") or {}:
                    enum = _enum(tool, param)
                    if param == key or not enum:
                        continue
                    for table in found:
                        rule = _table_rule(tool.name, param, key, coll.name, attr,
                                           set(enum), set(statuses), table)  # fmt: skip
                        if rule is not None:
                            out.append(rule)
    return out


def _table_rule(tool: str, param: str, key: str, coll: str, attr: str, enum: set[str],
                statuses: set[str], table: list[list[str]]) -> TableRule | None:  # fmt: skip
    """The rule one table states for ``tool``'s ``param`` and the status ``attr``, or None
    when the table pairs other things (or which column is which is unclear)."""
    header, rows = [h.lower() for h in table[0]], table[1:]
    current = [i for i, h in enumerate(header) if _column(rows, i, statuses)
               and any(re.search(rf"\b{w}\b", h) for w in _CURRENT)]  # fmt: skip
    target = [i for i, h in enumerate(header) if i not in current and _column(rows, i, enum)
              and (param.lower() in h.replace(" ", "_")
                   or any(re.search(rf"\b{w}\b", h) for w in _TARGET))]  # fmt: skip
    if len(current) != 1 or not target:
        return None
    now = _column(rows, current[0], statuses) or []
    to = _column(rows, target[0], enum) or []
    pairs = frozenset((v, s) for vs, ss in zip(to, now, strict=True) for v in vs for s in ss)
    if not pairs:
        return None
    said = " | ".join(table[0])
    return TableRule(tool, param, key, coll, attr, pairs, sentence=f"table {said}")


def _sentences(text: str) -> list[str]:
    return [s.strip() for s in re.split(r"(?<=[.;])\s+|\n\s*[-*]\s+|\n\n", text) if s.strip()]


def _verbs(tool: ToolSpec, spec: EnvironmentSpec) -> list[str]:
    """The stems of the tool name's words that say what it does, not which record it names
    (``archive_project`` -> ``archiv``; ``add_review`` -> ``review``)."""
    keys = _key_params(tool, spec)
    named = {_noun(c.name) for _, c in keys} | {re.sub(r"_?ids?$", "", p) for p, _ in keys}
    words = [w for w in re.split(r"[_\W]+", tool.name.lower()) if len(w) >= 4]
    stems = [w[:-1] if w.endswith("e") else w for w in words if _noun(w) not in named]
    return stems


def _noun(name: str) -> str:
    return singular(name.lower())


def _named(sentence: str, word: str) -> bool:
    return re.search(rf"\b{re.escape(word)}", sentence.lower()) is not None


def _any_named(sentence: str, words: Iterable[str]) -> bool:
    return any(_named(sentence, w) for w in words)


def _about(sentence: str, stems: Iterable[str], marker: str = "only") -> bool:
    """Whether ``sentence`` names the action (one of ``stems``) before ``marker``."""
    head, found, _ = sentence.lower().partition(marker)
    return bool(found) and _any_named(head, stems)


def _mentioned(sentence: str, values: Iterable[str]) -> list[str]:
    low = sentence.lower()
    return [v for v in values if re.search(rf"(?<![\w-]){re.escape(v.lower())}(?![\w-])", low)]


def status_rules(spec: EnvironmentSpec, text: str, data: Mapping[str, Any]) -> list[StatusRule]:
    """The "<Action>: only <status> or <status> ..." rules of ``text``: a sentence that names
    the tool's action before "only" and statuses of the record it names after it (up to the
    first parenthesis, semicolon or full stop); a status the action's own verb names (the
    state it leads to: "archived" for archive) is never one it needs."""
    out: list[StatusRule] = []
    sentences = _sentences(text)
    for tool in spec.tools:
        if tool_access(tool) != "write":
            continue
        stems = _verbs(tool, spec)
        for key, coll in _key_params(tool, spec):
            found = status_values(coll, data)
            if found is None:
                continue
            for sentence in sentences:
                low = sentence.lower()
                head, only, tail = low.partition("only")
                if not only or not _any_named(head, stems):
                    continue
                clause = re.split(r"[(;]|\.\s", tail, maxsplit=1)[0]
                allowed = tuple(v for v in _mentioned(clause, found[1])
                                if not any(v.lower().startswith(s) for s in stems))  # fmt: skip
                if allowed:
                    out.append(StatusRule(tool.name, key, coll.name, found[0], allowed, sentence))
    return out


def forbidden_rules(
    spec: EnvironmentSpec, text: str, data: Mapping[str, Any]
) -> list[ForbiddenRule]:
    """The "<status> <records> cannot <action>" rules of ``text``: on the record the tool
    names, or on the record that one references."""
    out: list[ForbiddenRule] = []
    sentences = _sentences(text)
    for tool in spec.tools:
        if tool_access(tool) != "write":
            continue
        stems = _verbs(tool, spec)
        for key, coll in _key_params(tool, spec):
            holders = [("", coll)] + [
                (a.name, t) for a in coll.attributes if a.references and a.type != "array"
                and (t := spec.state_schema.collection(a.references)) is not None]  # fmt: skip
            for link, target in holders:
                out += _forbidding(tool.name, key, coll.name, link, target, stems, sentences,
                                   data)  # fmt: skip
    return out


def _forbidding(tool: str, key: str, coll: str, link: str, target: CollectionSchema,
                stems: list[str], sentences: list[str], data: Mapping[str, Any]
                ) -> list[ForbiddenRule]:  # fmt: skip
    found = status_values(target, data)
    if found is None:
        return []
    out = []
    nouns = {_noun(target.name), target.name.lower()}
    for sentence in sentences:
        low = sentence.lower().lstrip("-* ")
        parts = re.split(r"\b(cannot|can't|may not|can not)\b", low, maxsplit=1)
        if len(parts) != 3:
            continue
        head, _, tail = parts
        if not _any_named(tail, stems) or not any(_named(head, n) for n in nouns):
            continue
        statuses = tuple(_mentioned(head, found[1]))
        if statuses:
            out.append(ForbiddenRule(tool, key, coll, link, target.name, found[0], statuses,
                                     sentence))  # fmt: skip
    return out


def once_rules(spec: EnvironmentSpec, text: str) -> list[StatusRule]:
    """The "<action> at most once per <record>" rules of ``text`` where the record counts the
    action (an integer attribute named after it and ending in ``_count``): the count must
    still be 0."""
    out: list[StatusRule] = []
    sentences = [s for s in _sentences(text) if re.search(r"\b(at most|only) once\b", s.lower())]
    for tool in spec.tools:
        if tool_access(tool) != "write" or not sentences:
            continue
        stems = _verbs(tool, spec)
        for key, coll in _key_params(tool, spec):
            counts = [a.name for a in coll.attributes if a.type == "integer"
                      and a.name.endswith("_count")
                      and _any_named(a.name.replace("_", " "), stems)]  # fmt: skip
            for sentence in sentences:
                if counts and _about(sentence, stems, "once"):
                    out.append(StatusRule(tool.name, key, coll.name, counts[0], (0,), sentence))
    return out


def _groups(text: str) -> dict[str, list[frozenset[str]]]:
    """Per group noun, the groups the text lists one per line ("- zone 2: BE, DE, LU"), when
    it lists at least two."""
    found: dict[str, list[frozenset[str]]] = {}
    for line in text.splitlines():
        match = re.fullmatch(r"\s*[-*]?\s*([A-Za-z]+)\s+\w+\s*:\s*(.+?)\s*", line)
        if match is None:
            continue
        values = [v.strip(" `*.") for v in match.group(2).split(",")]
        if values and all(re.fullmatch(r"[\w-]+", v) for v in values):
            found.setdefault(match.group(1).lower(), []).append(frozenset(values))
    return {noun: groups for noun, groups in found.items() if len(groups) >= 2}


def group_rules(spec: EnvironmentSpec, text: str) -> list[GroupRule]:
    """The "<param> must be in the same <group> as the current one" rules of ``text``, for
    write tools that pass ``param`` for a record that already holds it."""
    groups = _groups(text)
    out: list[GroupRule] = []
    for sentence in _sentences(text) if groups else ():
        low = sentence.lower()
        for noun, listed in groups.items():
            if f"same {noun}" not in low:
                continue
            for tool in spec.tools:
                if tool_access(tool) != "write":
                    continue
                for key, coll in _key_params(tool, spec):
                    names = {a.name for a in coll.attributes}
                    for param in tool.parameters.get("properties") or {}:
                        said = param.lower() in low or param.replace("_", " ").lower() in low
                        if param != key and param in names and said:
                            out.append(GroupRule(tool.name, param, key, coll.name,
                                                 tuple(listed), sentence))  # fmt: skip
    return out


def children_rules(spec: EnvironmentSpec, text: str, data: Mapping[str, Any]) -> list[ChildrenRule]:
    """The "only when every one of its <children> is A or B" rules of ``text``."""
    out: list[ChildrenRule] = []
    sentences = _sentences(text)
    for tool in spec.tools:
        if tool_access(tool) != "write":
            continue
        stems = _verbs(tool, spec)
        for key, coll in _key_params(tool, spec):
            for child in spec.state_schema.collections:
                link = next((a.name for a in child.attributes if a.references == coll.name
                             and a.type != "array"), None)  # fmt: skip
                if link is None or child.name == coll.name:
                    continue
                pattern = rf"\b(every|all)\b[\w\s]*\b{re.escape(_noun(child.name))}"
                for attr, values in _states(child, data):
                    for sentence in sentences:
                        if not (
                            _any_named(sentence, stems)
                            and "only" in sentence.lower()
                            and re.search(pattern, sentence.lower())
                        ):
                            continue  # fmt: skip
                        tail = re.split(pattern, sentence.lower(), maxsplit=1)[-1]
                        allowed = tuple(_mentioned(tail, values))
                        if allowed:
                            out.append(ChildrenRule(tool.name, key, coll.name, child.name,
                                                    link, attr, allowed, sentence))  # fmt: skip
    return out


def link_rules(spec: EnvironmentSpec, text: str, data: Mapping[str, Any]) -> list[LinkRule]:
    """The "<verb> only if a <status> <collection> names them" rules of ``text``, kept when
    the data's records of what the tool creates meet them."""
    out: list[LinkRule] = []
    sentences = _sentences(text)
    for tool in spec.tools:
        keys = _key_params(tool, spec)
        if tool_access(tool) != "write" or len(keys) < 2:
            continue
        stems, named = _verbs(tool, spec), {c.name for _, c in keys}
        for via in spec.state_schema.collections:
            if via.name in named:
                continue
            for attr, values in _states(via, data):
                for sentence in sentences:
                    low = sentence.lower()
                    if not (
                        _any_named(sentence, stems)
                        and "only if" in low
                        and _named(sentence, _noun(via.name))
                    ):
                        continue  # fmt: skip
                    for status in _mentioned(sentence, values):
                        rule = LinkRule(tool.name, tuple(p for p, _ in keys), via.name,
                                        attr, status, sentence)  # fmt: skip
                        if _evidenced(rule, spec, tool, data):
                            out.append(rule)
    return out


def _evidenced(rule: LinkRule, spec: EnvironmentSpec, tool: ToolSpec,
               data: Mapping[str, Any]) -> bool:  # fmt: skip
    """Whether the data's records holding the tool's key arguments as fields (what it
    created before) all meet the rule; True when the data has none."""
    made = 0
    for coll in spec.state_schema.collections:
        names = {a.name for a in coll.attributes}
        if coll.name == rule.via or not set(rule.params) <= names:
            continue
        for record in (data.get(coll.name) or {}).values():
            if not isinstance(record, Mapping):
                continue
            made += 1
            if not rule.linked([str(record.get(p)) for p in rule.params], data):
                return False
    return made > 0 or not any(data.values())


def preconditions(
    spec: EnvironmentSpec,
    guards: Mapping[str, list[Guard]],
    data: Mapping[str, Any] | None,
    model: BehaviourModel | None = None,
) -> Preconditions:
    """The preconditions of ``spec``'s tools: ``guards`` and the rules its policy and tool
    descriptions state (:func:`table_rules`, :func:`children_rules`, :func:`link_rules`),
    with the dates the behaviour ``model`` places
    (:func:`~autoforge.tasks.gold.dated.data_dates`) and the columns its writes store
    their arguments in (:func:`~autoforge.tasks.gold.alike.data_columns`)."""
    text = "\n\n".join([spec.policy, *(t.description for t in spec.tools)])
    rules: dict[str, list[Any]] = {}
    data = data or {}
    found: list[Any] = [
        *table_rules(spec, text, data),
        *status_rules(spec, text, data),
        *children_rules(spec, text, data),
        *link_rules(spec, text, data),
        *group_rules(spec, text),
        *once_rules(spec, text),
        *forbidden_rules(spec, text, data),
    ]
    for rule in found:
        rules.setdefault(rule.tool, []).append(rule)
    return Preconditions(guards, rules, data_dates(model), data_columns(model))


__all__ = [
    "ChildrenRule",
    "ForbiddenRule",
    "GroupRule",
    "LinkRule",
    "Preconditions",
    "Rule",
    "StatusRule",
    "TableRule",
    "children_rules",
    "forbidden_rules",
    "group_rules",
    "link_rules",
    "once_rules",
    "preconditions",
    "status_rules",
    "table_rules",
]
