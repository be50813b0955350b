"""Phrases of documentation text whose meaning every stage reads the same way.

The rule extractor (:mod:`autoforge.env.rules`) reads them; synthesis turns its rules into
guards in the tool code and task generation into preconditions it checks before calling.
"""

from __future__ import annotations

import re

#: a create the docs allow only once per combination of its references ("may review each book
#: only once", "one review per book", "at most once")
ONCE_ONLY = re.compile(r"\bonly once\b|\bonce per\b|\bat most once\b", re.IGNORECASE)

__all__ = ["ONCE_ONLY"]
