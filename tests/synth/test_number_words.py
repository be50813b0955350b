"""Counts written as words are read the same wherever a rule states them."""

import re

import pytest

from autoforge.lexicon import NUMBER_WORDS, count_of, number_words


def test_count_of_reads_digits_and_words_in_any_case() -> None:
    assert count_of("12") == 12
    assert count_of("Three") == 3
    assert count_of(" fifteen ") == 15
    with pytest.raises(ValueError):
        count_of("several")


def test_number_words_bounds_and_prefers_the_longer_word() -> None:
    assert set(number_words(3).split("|")) == {"zero", "one", "two", "three"}
    assert set(number_words().split("|")) == set(NUMBER_WORDS)
    # "fifteen" must not stop at a shorter word it starts with
    m = re.match(rf"({number_words()})", "fifteen days")
    assert m is not None and count_of(m.group(1)) == 15
