"""``SynthOptions``: the knobs of environment synthesis, owned here and used unchanged by
``autoforge synth env``, the forge's environment stage (``ForgeOptions.synth``) and the per-tool
loop (``synthesize_tool``).

One set of defaults for every caller: up to 3 repair rounds per tool after the first attempt,
2 state-design feedback rounds, LLM-proposed test cases on, templates for plain CRUD tools, and
the rule skeleton kept when the model's code never passes (see ``docs/synthesis.md``).
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass
class SynthOptions:
    """What a synthesis run can be told (the environment's name, repair budget, switches)."""

    name: str | None = None
    max_repairs: int = 3
    design_rounds: int = 2
    use_templates: bool = True
    llm_tests: bool = True
    fallback: bool = True
    policy: str | None = None
    only: list[str] = field(default_factory=list)
    conventions: str = "generic"
    max_tokens: int = 1200
