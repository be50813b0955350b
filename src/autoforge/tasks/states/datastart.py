"""Start states S0 drawn from the real records of the data, as subsets with references intact.

When the environment's state comes from data (``forge --data``), a task's S0 is a subset of
those records, copied as they are: no value is invented, so every status, date, name and
derived field (a counter, a total, a list of keys) is one the data shows, and the facts a task
is built on exist in the real data as well.

A subset keeps the data's references and derived fields consistent:

- **references** are found in the records themselves, not only in the schema: any string value
  (nested ones included) equal to a key of another collection points at that record, so the
  record it points at is taken too (forward closure);
- **children come along**: a record belongs to the record its first top-level field naming
  another collection's record names (a comment to its task, not its author); a record taken as
  a seed brings every record that belongs to it, recursively (a project brings its tasks, a
  task its comments), and a record taken only because something points at it brings its *leaf*
  children (records nothing points at: a task's comments), so a count or total over children
  still adds up;
- **pairs of references** name a record too: a record carrying the same two references as a
  record of another collection whose pair tells its records apart (a reservation of a product
  at a place, the stock record of that product at that place) points at that record;
- collections whose records another collection's nested values name (a catalogue) are kept
  whole, as the generated states keep them.

Seeds are drawn at random among the records that belong to no other record (or only to a
catalogue kept whole) until the subset holds about :data:`SHARE` of the records (at least
:data:`LEAST`, at most :data:`MOST`), so successive tasks see different subsets of one data set.
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Mapping
from typing import Any

from autoforge.env import EnvironmentSpec
from autoforge.lexicon import session_owner, sign_in
from autoforge.tasks.gold.failures import scalars
from autoforge.tasks.states.population import copy_json

#: The share of the data's records a subset aims at.
SHARE = 0.4
#: A subset holds at least this many records (all of them when the data has fewer).
LEAST = 80
#: A subset stops growing past this many records (a seed's closure may overshoot it).
MOST = 600
#: The most records a collection kept whole (a catalogue other records' lists name) may hold.
CATALOGUE = 200

Ref = tuple[str, str]  # (collection, key)


def _strings(value: Any) -> Iterator[str]:
    """Every string inside ``value`` (nested dicts and lists included)."""
    return (v for v in scalars(value) if isinstance(v, str))


class DataSampler:
    """Draws S0s as subsets of the records in ``data`` (``state[collection][key] = record``).

    Built once per environment: the reference index (who points at whom) is computed here,
    and :meth:`sample` only walks it.
    """

    def __init__(self, spec: EnvironmentSpec, data: Mapping[str, Any]) -> None:
        self.spec = spec
        self.data = {name: records for name, records in data.items()
                     if isinstance(records, dict)}  # fmt: skip
        owners: dict[str, list[Ref]] = {}
        for coll, records in self.data.items():
            for key in records:
                owners.setdefault(str(key), []).append((coll, str(key)))
        self.points: dict[Ref, set[Ref]] = {}  # record -> records it names anywhere
        self.children: dict[Ref, set[Ref]] = {}  # record -> records naming it by a top field
        self.owner: dict[Ref, Ref] = {}  # record -> the record it belongs to
        for coll, records in self.data.items():
            for key, record in records.items():
                me = (coll, str(key))
                self.points[me] = self._named(record, owners, me)
                owner = self._owner(record, owners, me)
                if owner is not None:
                    self.children.setdefault(owner, set()).add(me)
                    self.owner[me] = owner
        for me, target in self._pair_references(owners):
            self.points[me].add(target)
        named = {ref for targets in self.points.values() for ref in targets}
        self.leaves = {ref for ref in self.points if ref not in named}
        self.kept = self._catalogues()
        self.total = sum(len(r) for r in self.data.values())

    @staticmethod
    def _owner(record: Any, owners: dict[str, list[Ref]], me: Ref) -> Ref | None:
        """The record ``record`` belongs to: the one its first top-level field naming a record
        of another collection names (a comment's task before its author)."""
        for value in record.values() if isinstance(record, dict) else ():
            if isinstance(value, str):
                for target in owners.get(value, ()):
                    if target != me and target[0] != me[0]:
                        return target
        return None

    def _pair_references(self, owners: dict[str, list[Ref]]) -> Iterator[tuple[Ref, Ref]]:
        """``(record, target)`` where ``record`` names ``target`` by a pair of references: the
        target's collection holds, in two top-level fields that name other records (a product
        and a place), a pair no two of its records share, and ``record`` carries both fields
        with one of those pairs (a reservation of a product at a place names the stock record
        of that product at that place)."""
        for coll, records in self.data.items():
            for x, y in self._pair_keys(records, owners):
                index = {(r.get(x), r.get(y)): (coll, str(k)) for k, r in records.items()}
                for other, rows in self.data.items():
                    if other == coll:
                        continue
                    for key, rec in rows.items():
                        if isinstance(rec, dict) and (hit := index.get((rec.get(x), rec.get(y)))):
                            yield (other, str(key)), hit

    @staticmethod
    def _pair_keys(records: Mapping[str, Any], owners: dict[str, list[Ref]]) -> list[Ref]:
        """Pairs of top-level fields of ``records`` that each name records of other
        collections and together tell every record apart."""
        rows = [r for r in records.values() if isinstance(r, dict)]
        if len(rows) < 2:
            return []
        fields = sorted({f for r in rows for f, v in r.items() if isinstance(v, str)})
        refs = [f for f in fields
                if all(isinstance(r.get(f), str) and r[f] in owners for r in rows)]  # fmt: skip
        return [
            (x, y)
            for i, x in enumerate(refs)
            for y in refs[i + 1 :]
            if len({(r[x], r[y]) for r in rows}) == len(rows)
        ]

    @staticmethod
    def _named(record: Any, owners: dict[str, list[Ref]], me: Ref) -> set[Ref]:
        found: set[Ref] = set()
        for text in _strings(record):
            for target in owners.get(text, ()):
                if target != me and target[0] != me[0]:
                    found.add(target)
        return found

    def _catalogues(self) -> set[str]:
        """Collections (of at most :data:`CATALOGUE` records) that nested values (inside lists
        or objects) of another collection name: kept whole, since a copied line naming a
        missing product, or a member list naming a missing member, could not be acted on."""
        nested: set[str] = set()
        for coll, records in self.data.items():
            for record in records.values():
                for value in record.values() if isinstance(record, dict) else ():
                    if isinstance(value, dict | list):
                        texts = set(_strings(value))
                        nested.update(
                            c for c in self.data if c != coll and not texts.isdisjoint(self.data[c])
                        )
        return {c for c in nested if len(self.data[c]) <= CATALOGUE}

    def target(self) -> int:
        """How many records a subset aims at."""
        return min(self.total, max(LEAST, min(MOST, round(self.total * SHARE))))

    def sample(self, rng: random.Random) -> dict[str, Any]:
        """A subset of the data: seeds with their children, what they name, and the leaf
        children of what they name; the signed-in user (where the docs show one) is a user of
        the subset."""
        taken: set[Ref] = set()
        for coll in sorted(self.kept):  # as they are, without their children
            taken.update((coll, key) for key in self.data[coll])
        for coll in sorted(self.kept):
            for key in self.data[coll]:
                self._close(list(self.points[(coll, key)]), taken)
        seeds = self._roots()
        rng.shuffle(seeds)
        want = self.target()
        expanded: set[Ref] = set()
        for seed in seeds:
            if len(taken) >= want:
                break
            if seed not in expanded:  # taken by reference, its family not yet: take it now
                self._take(seed, taken, expanded)
        state: dict[str, Any] = {name: {} for name in self.data}
        for coll, key in taken:
            state[coll][key] = copy_json(self.data[coll][key])
        for coll in state:  # the data's order, not the draw's
            order = list(self.data[coll])
            state[coll] = {k: state[coll][k] for k in order if k in state[coll]}
        self._sign_in(state, rng)
        return state

    def _roots(self) -> list[Ref]:
        """The records a subset grows from: those that belong to no record, or only to one of
        a catalogue kept whole (all records when there are none). Why: a record drawn from
        lower down brings its parent only by reference, without the parent's other children,
        so a count or list on the parent would no longer add up."""
        roots = [ref for ref in self.points if ref[0] not in self.kept
                 and (ref not in self.owner or self.owner[ref][0] in self.kept)]  # fmt: skip
        return roots or [ref for ref in self.points if ref[0] not in self.kept]

    def _take(self, seed: Ref, taken: set[Ref], expanded: set[Ref]) -> None:
        """Add ``seed`` with its children (recursively), then close over what is named."""
        stack, family = [seed], []
        while stack:
            ref = stack.pop()
            if ref in expanded:
                continue
            expanded.add(ref)
            taken.add(ref)
            family.append(ref)
            stack.extend(self.children.get(ref, ()))
        self._close([t for ref in family for t in self.points.get(ref, ())], taken)

    def _close(self, named: list[Ref], taken: set[Ref]) -> None:
        """Add ``named`` and what they name (recursively), each with its leaf children."""
        while named:
            ref = named.pop()
            if ref in taken:
                continue
            taken.add(ref)
            named.extend(self.points.get(ref, ()))
            leaves = [c for c in self.children.get(ref, ()) if c in self.leaves]
            for leaf in leaves:
                if leaf not in taken:
                    taken.add(leaf)
                    named.extend(self.points.get(leaf, ()))

    def _sign_in(self, state: dict[str, Any], rng: random.Random) -> None:
        owner = session_owner(self.spec.state_schema)
        users = sorted(state.get(owner[0]) or {}) if owner is not None else []
        if owner is not None and users:
            sign_in(state, self.spec.state_schema, rng.choice(users))


__all__ = ["CATALOGUE", "LEAST", "MOST", "SHARE", "DataSampler"]
