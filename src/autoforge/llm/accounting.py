"""Token and latency accounting per (role, purpose), and a rich table of it.

Every call records one entry, cache hits included (with their tokens counted separately as
saved), so a run report can say what each pipeline stage cost and how much the cache saved.
"""

from __future__ import annotations

import statistics
from dataclasses import dataclass, field
from typing import Any

from rich.console import Console
from rich.table import Table

from autoforge.llm.types import TokenUsage


@dataclass
class UsageStats:
    """Accumulated figures of one (role, purpose) pair."""

    calls: int = 0
    cache_hits: int = 0
    failures: int = 0
    retries: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0
    cached_prompt_tokens: int = 0
    cached_completion_tokens: int = 0
    latencies_s: list[float] = field(default_factory=list)


class UsageLedger:
    """Per-role, per-purpose accounting of one client. ``summary()`` gives table rows."""

    def __init__(self) -> None:
        self._stats: dict[tuple[str, str], UsageStats] = {}

    def _get(self, role: str, purpose: str) -> UsageStats:
        return self._stats.setdefault((role, purpose), UsageStats())

    def record(
        self,
        role: str,
        purpose: str,
        *,
        prompt_tokens: int,
        completion_tokens: int,
        latency_s: float,
        cached: bool,
    ) -> None:
        """One answered call (from the endpoint or from the cache)."""
        stats = self._get(role, purpose)
        stats.calls += 1
        if cached:
            stats.cache_hits += 1
            stats.cached_prompt_tokens += prompt_tokens
            stats.cached_completion_tokens += completion_tokens
        else:
            stats.prompt_tokens += prompt_tokens
            stats.completion_tokens += completion_tokens
            stats.latencies_s.append(latency_s)

    def record_retry(self, role: str, purpose: str) -> None:
        self._get(role, purpose).retries += 1

    def record_failure(self, role: str, purpose: str) -> None:
        self._get(role, purpose).failures += 1

    def stats(self, role: str, purpose: str) -> UsageStats:
        """The figures of one pair (zeros when it never called)."""
        return self._stats.get((role, purpose), UsageStats())

    def total(self) -> TokenUsage:
        """Calls, cache hits, tokens spent and latency over every (role, purpose) so far."""
        total = TokenUsage()
        for s in self._stats.values():
            total += TokenUsage(
                calls=s.calls,
                cache_hits=s.cache_hits,
                prompt_tokens=s.prompt_tokens,
                completion_tokens=s.completion_tokens,
                latency_s=sum(s.latencies_s),
            )
        return total

    def summary(self) -> list[dict[str, Any]]:
        """One row per (role, purpose), sorted, then a ``total`` row."""
        rows = [self._row(role, purpose, s) for (role, purpose), s in sorted(self._stats.items())]
        if rows:
            total = UsageStats()
            for s in self._stats.values():
                total.calls += s.calls
                total.cache_hits += s.cache_hits
                total.failures += s.failures
                total.retries += s.retries
                total.prompt_tokens += s.prompt_tokens
                total.completion_tokens += s.completion_tokens
                total.cached_prompt_tokens += s.cached_prompt_tokens
                total.cached_completion_tokens += s.cached_completion_tokens
                total.latencies_s.extend(s.latencies_s)
            rows.append(self._row("total", "", total))
        return rows

    @staticmethod
    def _row(role: str, purpose: str, s: UsageStats) -> dict[str, Any]:
        lat = s.latencies_s
        return {
            "role": role,
            "purpose": purpose,
            "calls": s.calls,
            "cache_hits": s.cache_hits,
            "failures": s.failures,
            "retries": s.retries,
            "prompt_tokens": s.prompt_tokens,
            "completion_tokens": s.completion_tokens,
            "saved_tokens": s.cached_prompt_tokens + s.cached_completion_tokens,
            "latency_total_s": round(sum(lat), 3),
            "latency_median_s": round(statistics.median(lat), 3) if lat else 0.0,
        }


_COLUMNS = [
    ("role", "role"),
    ("purpose", "purpose"),
    ("calls", "calls"),
    ("cache_hits", "cached"),
    ("failures", "failed"),
    ("retries", "retries"),
    ("prompt_tokens", "prompt tok"),
    ("completion_tokens", "compl. tok"),
    ("saved_tokens", "saved tok"),
    ("latency_median_s", "median s"),
    ("latency_total_s", "total s"),
]


def usage_table(rows: list[dict[str, Any]], title: str = "LLM usage") -> Table:
    """A rich table of ``UsageLedger.summary()`` rows."""
    table = Table(title=title)
    for i, (_, header) in enumerate(_COLUMNS):
        table.add_column(header, justify="left" if i < 2 else "right")
    for row in rows:
        style = "bold" if row["role"] == "total" else None
        table.add_row(*(str(row[key]) for key, _ in _COLUMNS), style=style)
    return table


def print_usage(ledger: UsageLedger, console: Console | None = None) -> None:
    """Print the usage table (nothing when no call was made)."""
    rows = ledger.summary()
    if rows:
        (console or Console()).print(usage_table(rows))
