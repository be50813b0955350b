"""Phrases of documentation text whose meaning every stage reads the same way.

Synthesis turns them into guards in the tool code (:mod:`autoforge.synth.doc_rules`) and task
generation into preconditions it checks before calling (:mod:`autoforge.tasks.plausible`); one
pattern keeps the two readings of a document from drifting apart.
"""

from __future__ import annotations

import re

#: a create the docs allow only once per combination of its references ("may review each book
#: only once", "one review per book", "at most once")
ONCE_ONLY = re.compile(r"\bonly once\b|\bonce per\b|\bat most once\b", re.IGNORECASE)

__all__ = ["ONCE_ONLY"]
