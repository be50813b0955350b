"""A new value for a column whose text values never repeat (file names, e-mail addresses):
made from one of them so it keeps their shape, and never one the data already holds; written
for this test."""

from __future__ import annotations

import random

import pytest

from autoforge.tasks.gold.alike import fresh_like


@pytest.mark.parametrize(
    ("seen", "shape"),
    [
        (["scan-0041.pdf", "scan-0107.pdf", "scan-0233.pdf"], r"scan-\d{4}\.pdf"),
        (["lease.pdf", "photo.jpg"], r"(lease\d\.pdf|photo\d\.jpg)"),
        (["kim@north.example", "lee@south.example"], r"\w+@\w+\d\.example"),
        (["alpha", "beta"], r"(alpha|beta)\d"),
    ],
)
def test_a_new_value_keeps_the_shape_and_is_new(seen: list[str], shape: str) -> None:
    import re

    rng = random.Random(3)
    for _ in range(20):
        got = fresh_like(seen, rng)
        assert isinstance(got, str) and re.fullmatch(shape, got) and got not in seen
