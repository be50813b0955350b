"""Counts written as words: "three days", "at least two items", "a fee of fifteen".

Docs and policies spell small counts in words as often as in digits. Every reader of a stated
count (deadlines, limits, decimals, cascades, settings) takes the words and their values from
here, so one sentence reads the same number wherever it is read.
"""

from __future__ import annotations

#: the count each number word says
NUMBER_WORDS: dict[str, int] = {
    "zero": 0, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7,
    "eight": 8, "nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "fifteen": 15, "twenty": 20,
    "thirty": 30, "fifty": 50, "hundred": 100,
}  # fmt: skip


def number_words(most: int | None = None) -> str:
    """A regex alternation of the number words up to ``most`` (all of them without it),
    longest first so that no word stops at a shorter word it starts with."""
    said = [w for w, n in NUMBER_WORDS.items() if most is None or n <= most]
    return "|".join(sorted(said, key=len, reverse=True))


def count_of(said: str) -> int:
    """The count ``said`` in digits or as a number word; ValueError for anything else."""
    word = said.strip().lower()
    if word in NUMBER_WORDS:
        return NUMBER_WORDS[word]
    return int(word)


__all__ = ["NUMBER_WORDS", "count_of", "number_words"]
