"""Faker's weighted draws with their cumulative weights summed once instead of on every draw.

Faker draws a first name, a last name (and so a person's name, a street and a city) from
``OrderedDict`` tables of a few hundred to a thousand weighted entries, and for each single
draw copies the weights and sums them (``random.choices(keys, weights=...)``): about a tenth of
the CPU a whole task generation run spends, on the same few tables. :func:`speed_up` gives a
Faker instance's providers a ``random_elements`` that, for exactly those draws (one weighted
element of an ``OrderedDict``), passes the table's cumulative weights, summed once, as
``cum_weights`` to the same ``random.choices`` call. ``random.choices`` sums ``weights``
into these very ``cum_weights`` itself, so it makes the same single ``random()`` call and
picks the same element: the values, and every draw after them, are unchanged. Every other
draw goes to Faker's own method. Tables are taken as constants, as Faker itself does when it
caches their keys (``_key_cache``); one that grew since falls back to Faker's own draw.
"""

from __future__ import annotations

import itertools
from collections import OrderedDict
from collections.abc import Callable, Sequence
from typing import Any

from faker import Faker

#: ``id(table) -> (table, its keys, their cumulative weights)``; Faker's tables are module
#: constants, held here so that their ids stay theirs.
_CUMULATIVE: dict[int, tuple[Any, tuple[Any, ...], list[float]]] = {}


def cumulative(table: OrderedDict[Any, float]) -> tuple[tuple[Any, ...], list[float]]:
    """The keys of a weighted table and their cumulative weights (summed once per table)."""
    entry = _CUMULATIVE.get(id(table))
    if entry is None or entry[0] is not table:
        if len(_CUMULATIVE) > 1024:
            _CUMULATIVE.clear()
        keys = tuple(table.keys())
        entry = _CUMULATIVE[id(table)] = (table, keys, list(itertools.accumulate(table.values())))
    return entry[1], entry[2]


def _fast(provider: Any, original: Callable[..., Sequence[Any]]) -> Callable[..., Sequence[Any]]:
    def random_elements(
        elements: Any = ("a", "b", "c"),
        length: int | None = None,
        unique: bool = False,
        use_weighting: bool | None = None,
    ) -> Sequence[Any]:
        weighted = provider.__use_weighting__ if use_weighting is None else use_weighting
        if length == 1 and not unique and weighted and isinstance(elements, OrderedDict):
            keys, cum = cumulative(elements)
            if len(keys) == len(elements):  # a table changed since: Faker's own way
                return provider.generator.random.choices(keys, cum_weights=cum, k=1)
        return original(elements, length, unique, use_weighting)

    return random_elements


def speed_up(fake: Faker) -> Faker:
    """``fake`` with the cumulative weights of its single weighted draws summed once (in place;
    the draws and values are Faker's own)."""
    for factory in fake.factories:
        for provider in factory.providers:
            if "random_elements" not in vars(provider):
                provider.random_elements = _fast(provider, provider.random_elements)
    return fake


__all__ = ["cumulative", "speed_up"]
