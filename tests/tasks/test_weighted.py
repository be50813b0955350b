"""Faker's weighted draws with cumulative weights summed once: same values, same draws."""

from __future__ import annotations

from collections import OrderedDict

from faker import Faker

from autoforge.tasks.states import weighted
from autoforge.tasks.states.weighted import cumulative, speed_up

#: A made-up weighted table (uneven weights, floats and ints mixed).
_MOONS = OrderedDict([("io", 0.5), ("europa", 3), ("ganymede", 0.25), ("callisto", 7.0),
                      ("amalthea", 1e-3), ("himalia", 2)])  # fmt: skip


def test_made_up_table_draws_are_fakers_own() -> None:
    plain, fast = Faker("en_US"), speed_up(Faker("en_US"))
    ways = [
        {"length": 1},  # the sped-up draw
        {"length": 3},
        {"length": 2, "unique": True},
        {"length": 1, "use_weighting": False},
        {},  # length drawn too
    ]
    # a provider's own method, as Faker's providers call it (the generator's attribute is
    # the method Faker bound when it added the provider)
    draw, fast_draw = plain.factories[0].providers[0], fast.factories[0].providers[0]
    for seed in range(40):
        plain.seed_instance(seed)
        fast.seed_instance(seed)
        for i in range(60):
            way = ways[i % len(ways)]
            table = _MOONS if i % 3 else list(_MOONS)
            assert fast_draw.random_elements(table, **way) == draw.random_elements(table, **way)
            if i % 3:
                assert fast_draw.random_element(table) == draw.random_element(table)
        assert fast.random.random() == plain.random.random()  # the same draws were made
    assert weighted._CUMULATIVE[id(_MOONS)][0] is _MOONS  # the summed-once way was taken


def test_faker_values_unchanged() -> None:
    plain, fast = Faker("en_US"), speed_up(Faker("en_US"))
    made = ("name", "first_name", "last_name", "street_address", "city", "email", "word",
            "catch_phrase", "sentence", "postcode", "state_abbr", "secondary_address")  # fmt: skip
    for seed in range(20):
        plain.seed_instance(seed)
        fast.seed_instance(seed)
        for i in range(120):
            kind = made[(i * 5 + seed) % len(made)]
            assert getattr(fast, kind)() == getattr(plain, kind)()


def test_cumulative_weights_once_per_table() -> None:
    keys, cum = cumulative(_MOONS)
    assert keys == tuple(_MOONS)
    assert cum == [0.5, 3.5, 3.75, 10.75, 10.751, 12.751]
    assert cumulative(_MOONS)[1] is cum  # summed once
    grown = OrderedDict(_MOONS)
    assert cumulative(grown)[1] is not cum  # another table, its own sums
    fast = speed_up(Faker("en_US"))
    fast.seed_instance(3)
    table = OrderedDict(_MOONS)
    cumulative(table)
    table["metis"] = 50.0  # changed after its sums were taken: Faker's own draw
    plain = Faker("en_US")
    plain.seed_instance(3)
    for _ in range(30):
        assert fast.random_element(table) == plain.random_element(table)
