"""Values for one attribute of a generated state, from its schema and its name.

Person-like values (names, emails, phones, addresses, dates, free text) come from one shared,
seeded Faker; numbers and dates from the schema's bounds, else from what the attribute's name
says (a coordinate, a price, a year). :class:`autoforge.tasks.states.population.StateGenerator`
calls :func:`value_for` for every attribute its data and docs leave open.
"""

from __future__ import annotations

import functools
import random
from datetime import date, datetime
from typing import Any, cast

from faker import Faker

from autoforge.tasks.states.weighted import speed_up

_FAKER: Faker | None = None
_SEEDED_BY: list[random.Random] = []  # the rng that last seeded the shared instance


def faker(rng: random.Random) -> Faker:
    """The shared Faker instance, seeded from ``rng`` when a different rng asks for it (so
    values follow the caller's seed and stay deterministic).

    One instance for the process, reseeded only when the caller's rng changes: creating a
    Faker costs milliseconds and reseeding it for every value made state generation 3x slower.
    What is returned is the one locale's generator, which the Faker proxy forwards every
    provider method to: calling it directly gives the same values without the proxy's two
    attribute look-ups per value.
    """
    global _FAKER
    if _FAKER is None:
        _FAKER = speed_up(Faker("en_US"))  # same values, weighted tables summed once
    if not _SEEDED_BY or _SEEDED_BY[0] is not rng:
        _FAKER.seed_instance(rng.getrandbits(32))
        _SEEDED_BY[:] = [rng]
    return cast(Faker, _FAKER.factories[0])  # typed as the proxy: the same provider methods


PERSON_COLLECTIONS = frozenset(
    {
        "customers", "users", "people", "persons", "members", "clients", "patients",
        "employees", "students", "passengers", "guests", "accounts",
    }
)  # fmt: skip
_MONEY = ("price", "amount", "total", "subtotal", "cost", "fee", "balance", "discount", "salary")
_COUNTS = ("stock", "quantity", "count", "qty", "copies", "seats", "inventory")


def value_for(name: str, schema: dict[str, Any], rng: random.Random, person: bool = False) -> Any:
    """A plausible value for a field called ``name`` with JSON Schema ``schema``."""
    kind = schema.get("type")
    if isinstance(kind, list):
        kind = next((k for k in kind if k != "null"), None)
    if schema.get("enum"):
        return rng.choice(list(schema["enum"]))
    if kind == "object" or "properties" in schema:
        props = schema.get("properties", {})
        return {k: value_for(k, v, rng, person) for k, v in props.items() if isinstance(v, dict)}
    if kind == "array":
        items = schema.get("items") if isinstance(schema.get("items"), dict) else {}
        return [value_for(name, items or {"type": "string"}, rng, person)]
    if kind == "boolean":
        return rng.random() < 0.5
    if kind in ("integer", "number"):
        return _number(name, schema, rng, integer=kind == "integer")
    return _string(name.lower(), schema, rng, person)


def _number(name: str, schema: dict[str, Any], rng: random.Random, integer: bool) -> float | int:
    axis = _coordinate(name)
    if axis is not None and not integer:
        fake = faker(rng)
        return float(fake.latitude() if axis == "latitude" else fake.longitude())
    key = (name, schema.get("minimum"), schema.get("maximum"))
    try:
        span = _SPANS.get(key)
    except TypeError:  # a bound that is no number: worked out each time
        span = _span(name, schema)
    if span is None:
        span = _span(name, schema)
        if len(_SPANS) < 4096:
            _SPANS[key] = span
    low, high = span
    if integer:
        return rng.randint(int(low), int(high))
    return round(rng.uniform(float(low), float(high)), 2)


_AXES = {"latitude": "latitude", "lat": "latitude", "longitude": "longitude", "lng": "longitude",
          "lon": "longitude"}  # fmt: skip


@functools.lru_cache(maxsize=1024)
def _coordinate(name: str) -> str | None:
    """``latitude`` / ``longitude`` when a word of the field's name says it is one
    (``latitude2``, ``home_lat``, ``lng``), else None. Why: drawn as any number (0-100) a
    latitude fell outside the globe's range; Faker's lie on it."""
    words = [w.rstrip("0123456789") for w in name.lower().split("_")]
    return next((_AXES[w] for w in words if w in _AXES), None)


#: ``(field name, minimum, maximum) -> (low, high)``: :func:`_span`, worked out once per name.
_SPANS: dict[tuple[str, Any, Any], tuple[Any, Any]] = {}


def _span(name: str, schema: dict[str, Any]) -> tuple[Any, Any]:
    """The range a number called ``name`` is drawn from: by what its name says it counts,
    within the schema's ``minimum`` and ``maximum``."""
    lname = name.lower()
    low, high = 0, 100
    if any(w in lname for w in _MONEY):
        low, high = (0, 20) if "discount" in lname or "fee" in lname else (5, 80)
    elif any(w in lname for w in _COUNTS):
        low, high = (1, 4) if "quantity" in lname or "qty" in lname else (0, 40)
    elif "year" in lname:
        low, high = 1950, 2024
    elif "percent" in lname or "rate" in lname:
        low, high = 5, 30
    elif "rating" in lname or "stars" in lname:
        low, high = 1, 5
    if schema.get("minimum") is not None:
        low = max(low, schema["minimum"]) if schema.get("maximum") is None else schema["minimum"]
    if schema.get("maximum") is not None:
        high = schema["maximum"]
    return low, max(low, high)


def _string(name: str, schema: dict[str, Any], rng: random.Random, person: bool) -> str:
    """A string for a field called ``name``: person-like values (names, emails, phones,
    addresses, dates, free text) from Faker, seeded by ``rng``."""
    fmt = schema.get("format")
    fake = faker(rng)
    if fmt == "date" or name.endswith("date") or name.endswith("_on"):
        return fake.date_between(date(2023, 1, 1), date(2025, 12, 31)).isoformat()
    if fmt == "date-time" or name.endswith(("_at", "time", "timestamp")):
        start, end = datetime(2023, 1, 1), datetime(2025, 12, 31)
        return fake.date_time_between(start, end).replace(microsecond=0).isoformat()
    if "email" in name:
        return fake.email(safe=True)
    if "phone" in name:
        return fake.numerify("+1-###-###-####")
    if name in ("first_name", "firstname", "given_name"):
        return str(fake.first_name())
    if name in ("last_name", "lastname", "surname", "family_name"):
        return str(fake.last_name())
    if name in ("author",) or (person and name in ("name", "full_name")):
        return str(fake.name())
    if name in ("title", "name", "label", "full_name"):
        return str(fake.catch_phrase()).title()
    if name in ("address2", "line2", "address_line2"):
        return str(fake.secondary_address())
    if "street" in name or name in ("address_line", "line1", "address1"):
        return str(fake.street_address())
    if name == "city":
        return str(fake.city())
    if name == "country":
        return str(fake.country_code())
    if name == "state":
        return str(fake.state_abbr())
    if "postal" in name or "zip" in name:
        return str(fake.postcode())
    if name in ("text", "description", "comment", "note", "notes", "body", "message"):
        return str(fake.sentence(nb_words=8))
    return _by_word(name, fake) or str(fake.word())


def _by_word(name: str, fake: Faker) -> str | None:
    """A Faker value for a field one of whose words names the kind of value (``address``,
    ``home_address``, ``city_name``, ``zip``, ``website_url``, ``year``), else None.

    Why: names matched whole (``city``, ``street``) left ``address`` or ``city_name`` a random
    word ("right"), a value no address or city ever is."""
    words = set(name.split("_"))
    if words & {"address", "addr", "location"} and not words & {"ip", "mac", "email"}:
        return str(fake.address()).replace("\n", ", ")
    if words & {"street", "road"}:
        return str(fake.street_address())
    if words & {"city", "town"}:
        return str(fake.city())
    if words & {"zip", "zipcode", "postcode"}:
        return str(fake.postcode())
    if words & {"url", "website", "link", "homepage"}:
        return str(fake.url())
    if words & {"phone", "mobile", "telephone", "tel"}:
        return str(fake.numerify("+1-###-###-####"))
    if words & {"year"}:
        return str(fake.year())
    if words & {"date"}:
        return fake.date_between(date(2023, 1, 1), date(2025, 12, 31)).isoformat()
    if words & {"time", "timestamp", "datetime"}:
        start, end = datetime(2023, 1, 1), datetime(2025, 12, 31)
        return fake.date_time_between(start, end).replace(microsecond=0).isoformat()
    return None
