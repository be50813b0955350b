"""The day a data value names: an ISO date, or the date a timestamp starts with.

One reader for synthesis (dates the data's records carry, offsets between them) and task
generation (dates a new record's arguments take), so both read the same values as days.
"""

from __future__ import annotations

import datetime as dt
from typing import Any


def iso_day(v: Any) -> dt.date | None:
    """The date an ISO date or timestamp string starts with, None for anything else."""
    if not isinstance(v, str) or len(v) < 10:
        return None
    try:
        return dt.date.fromisoformat(v[:10])
    except ValueError:
        return None


__all__ = ["iso_day"]
