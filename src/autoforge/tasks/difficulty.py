"""Task difficulty: structural metrics of a blueprint, presets and explicit ranges.

Difficulty is measured on the gold blueprint, never guessed: how many tool calls, how many
distinct tools, how many reasoning steps, how deep and wide the dependency DAG is and how many
walks were merged into it. A :class:`DifficultySpec` is a range per metric; the presets
``easy``, ``medium`` and ``hard`` also set the walk lengths and merge counts used to reach them.
"""

from __future__ import annotations

from collections.abc import Collection
from typing import Literal

from pydantic import BaseModel, Field

from autoforge.errors import UserError
from autoforge.tasks.blueprints.blueprint import Blueprint

Preset = Literal["easy", "medium", "hard", "any"]

METRICS = (
    "tool_calls",
    "distinct_tools",
    "write_calls",
    "reasoning_nodes",
    "depth",
    "width",
    "merged_walks",
)


class DifficultyMetrics(BaseModel):
    """What makes a task hard, measured on its blueprint."""

    tool_calls: int = 0
    distinct_tools: int = 0
    write_calls: int = 0
    reasoning_nodes: int = 0
    depth: int = 0
    width: int = 0
    merged_walks: int = 0

    def level(self) -> str:
        """The hardest preset whose ranges these metrics meet (``any`` if none)."""
        for name in ("hard", "medium", "easy"):
            if not preset(name).violations(self):
                return name
        return "any"


class DifficultySpec(BaseModel):
    """Inclusive ``[min, max]`` ranges per metric (``None``: unbounded) and generation knobs."""

    name: str = "custom"
    ranges: dict[str, tuple[int | None, int | None]] = Field(default_factory=dict)
    walk_length: tuple[int, int] = (1, 4)
    walks_per_task: tuple[int, int] = (1, 1)
    reasoning_rate: float = Field(default=0.5, ge=0.0, le=1.0)

    def violations(self, metrics: DifficultyMetrics, skip: Collection[str] = ()) -> list[str]:
        """The metrics outside their range, as ``name=value not in [lo, hi]`` (``skip``: metrics
        not to check, e.g. ``write_calls`` before the gold run has shown which calls write)."""
        out = []
        for name, (lo, hi) in self.ranges.items():
            if name in skip:
                continue
            value = getattr(metrics, name)
            if (lo is not None and value < lo) or (hi is not None and value > hi):
                out.append(f"{name}={value} not in [{lo}, {hi}]")
        return out


_PRESETS: dict[str, DifficultySpec] = {
    "easy": DifficultySpec(
        name="easy",
        ranges={"tool_calls": (1, 3), "reasoning_nodes": (0, 1), "merged_walks": (1, 1)},
        walk_length=(1, 3),
        walks_per_task=(1, 1),
        reasoning_rate=0.3,
    ),
    "medium": DifficultySpec(
        name="medium",
        ranges={"tool_calls": (3, 6), "reasoning_nodes": (1, 3), "distinct_tools": (2, None)},
        walk_length=(2, 4),
        walks_per_task=(1, 2),
        reasoning_rate=0.6,
    ),
    "hard": DifficultySpec(
        name="hard",
        ranges={
            "tool_calls": (5, None),
            "reasoning_nodes": (2, None),
            "distinct_tools": (3, None),
            "merged_walks": (2, None),
        },
        walk_length=(3, 5),
        walks_per_task=(2, 3),
        reasoning_rate=0.9,
    ),
    "any": DifficultySpec(name="any", walk_length=(1, 5), walks_per_task=(1, 3)),
}


def preset(name: str) -> DifficultySpec:
    """The preset called ``name`` (easy, medium, hard, any); ``UserError`` otherwise."""
    try:
        return _PRESETS[name].model_copy(deep=True)
    except KeyError:
        raise UserError(
            f"unknown difficulty {name!r}; use one of {', '.join(_PRESETS)} or explicit ranges"
        ) from None


def parse_difficulty(text: str) -> DifficultySpec:
    """A preset name, or explicit ranges ``tool_calls=3-6,reasoning_nodes=1-`` on ``any``.

    Example: ``parse_difficulty("medium")``, ``parse_difficulty("tool_calls=4-,depth=3-5")``.
    """
    if "=" not in text:
        return preset(text.strip())
    spec = preset("any")
    spec.name = "custom"
    for part in filter(None, (p.strip() for p in text.split(","))):
        name, _, bounds = part.partition("=")
        name = name.strip()
        if name not in METRICS:
            raise UserError(f"unknown difficulty metric {name!r}; known: {', '.join(METRICS)}")
        lo, sep, hi = bounds.partition("-")
        try:
            low = int(lo) if lo.strip() else None
            high = int(hi) if hi.strip() else (None if sep else low)
        except ValueError:
            raise UserError(f"bad range {part!r}; write e.g. tool_calls=3-6 or depth=2-") from None
        spec.ranges[name] = (low, high)
    calls = spec.ranges.get("tool_calls", (None, None))
    spec.walk_length = (max(1, min(calls[0] or 1, 5)), max(2, min(calls[1] or 5, 6)))
    spec.walks_per_task = (1, 3 if (calls[0] or 0) >= 4 else 2)
    return spec


def measure(
    blueprint: Blueprint, write_tools: Collection[str] = (), shape: bool = True
) -> DifficultyMetrics:
    """The difficulty metrics of a blueprint; ``write_tools`` names the state-changing tools.

    ``shape=False`` leaves ``depth`` and ``width`` at 0: they need the dependency levels of the
    DAG, the one costly metric, and a check of other ranges (before instantiation) need not
    pay for them."""
    calls = blueprint.calls
    return DifficultyMetrics(
        tool_calls=len(calls),
        write_calls=sum(1 for c in calls if c.tool in write_tools),
        distinct_tools=len({c.tool for c in calls}),
        reasoning_nodes=len(blueprint.reasoning),
        depth=blueprint.depth() if shape else 0,
        width=blueprint.width() if shape else 0,
        merged_walks=max(1, len(blueprint.walks)),
    )
