"""``SynthOptions``: the knobs of environment synthesis, owned here and used unchanged by
``autoforge synth env``, the forge's environment stage (``ForgeOptions.synth``) and the per-tool
loop (``synthesize_tool``).

One set of defaults for every caller, sized for the embedded model on a laptop: one repair round
per tool after the first attempt, one state-design feedback round, no LLM-proposed test cases
(the rule-derived tests and doc checks still run), templates for plain CRUD tools, and the rule
skeleton kept when the model's code never passes (see ``docs/synthesis.md``). A bigger endpoint
gains from ``--max-repairs 3 --design-rounds 2 --llm-tests``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal


@dataclass
class SynthOptions:
    """What a synthesis run can be told (the environment's name, repair budget, switches)."""

    name: str | None = None
    max_repairs: int = 1
    design_rounds: int = 1
    use_templates: bool = True
    llm_tests: bool = False
    fallback: bool = True
    policy: str | None = None
    only: list[str] = field(default_factory=list)
    conventions: str = "generic"
    max_tokens: int = 1200
    #: "todo": the model fills the draft's TODO steps one at a time (short prompts a 1.5B
    #: answers); "function": it rewrites the whole function from the draft. A draft with no
    #: step to fill (nothing placed, "not implemented") always takes the whole-function path.
    fill: Literal["todo", "function"] = "todo"
    fill_tokens: int = 300
