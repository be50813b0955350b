"""Literals finds what the regex alternation of the same literal strings finds."""

from __future__ import annotations

import random
import re

from autoforge.lexicon import Literals


def _regex(options: list[str], text: str, pos: int = 0) -> list[tuple[str, int, int]]:
    pattern = re.compile("|".join(map(re.escape, options)))
    return [(m.group(), m.start(), m.end()) for m in pattern.finditer(text, pos)]


def _ours(options: list[str], text: str, pos: int = 0) -> list[tuple[str, int, int]]:
    return [(m.group(), m.start(), m.end()) for m in Literals(options).finditer(text, pos)]


def test_first_listed_option_wins_at_the_leftmost_place() -> None:
    options = ["the red barn", "the red", "barn (old)"]
    text = "paint the red barn, then the red gate and barn (old) twice: barn (old)"
    assert _ours(options, text) == _regex(options, text)
    assert _ours(options, text)[0] == ("the red barn", 6, 18)
    assert _ours(["the red", "the red barn"], text)[0] == ("the red", 6, 13)


def test_matches_do_not_overlap_and_start_at_pos() -> None:
    assert _ours(["aa"], "aaaaa") == [("aa", 0, 2), ("aa", 2, 4)]
    assert _ours(["ab", "b"], "abab", 1) == [("b", 1, 2), ("ab", 2, 4)]
    assert _ours(["zebra"], "no such word") == []


def test_agrees_with_the_regex_on_random_texts() -> None:
    rng = random.Random(7)
    alphabet = "ab .*("
    for _ in range(2000):
        options = ["".join(rng.choices(alphabet, k=rng.randint(0, 4))) for _ in range(3)]
        text = "".join(rng.choices(alphabet, k=rng.randint(0, 20)))
        pos = rng.randint(0, 3)
        assert _ours(options, text, pos) == _regex(options, text, pos), (options, text, pos)
