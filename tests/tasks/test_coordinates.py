"""Numbers named as coordinates (latitude, lng, home_lat2) lie on the globe, from Faker."""

from __future__ import annotations

import random

from autoforge.tasks.states.population import value_for


def test_coordinates_by_name_lie_on_the_globe() -> None:
    rng = random.Random(3)
    for name, bound in (("latitude2", 90), ("home_lat", 90), ("lng", 180), ("longitude", 180)):
        values = [value_for(name, {"type": "number"}, rng) for _ in range(200)]
        assert all(-bound <= v <= bound for v in values), name
        assert any(v < 0 for v in values), name  # not the 0-100 any number is drawn from
    assert all(value_for("latitude_count", {"type": "integer"}, rng) >= 0 for _ in range(50))
    plain = [value_for("depth", {"type": "number"}, rng) for _ in range(200)]
    assert all(0 <= v <= 100 for v in plain)  # other numbers keep the generic range
