"""The head of a generated tool function: its ``def`` line, its docstring, its parameter names.

Shared by the templates (:mod:`autoforge.synth.rulecode.templates`), the effect snippets
(:mod:`autoforge.synth.rulecode.effects`) and the LLM-facing drafts
(:mod:`autoforge.synth.modelcode.functions`), so
every generated function binds its parameters the way the runtime does.
"""

from __future__ import annotations

from autoforge.env import python_param_name
from autoforge.tooldocs import ToolSpec


def signature(spec: ToolSpec) -> tuple[str, dict[str, str]]:
    """The ``def`` line for ``spec`` and, per parameter, the Python name that holds it.

    Follows the runtime's binding rules: ``state`` first, then every documented parameter
    under its Python name (``from`` -> ``from_``), required ones first and without a default,
    optional ones defaulting to ``None``; no ``**kwargs``.
    """
    names = {p: python_param_name(p) for p in spec.param_names}
    required = [names[p] for p in spec.param_names if p in spec.required]
    optional = [f"{names[p]}=None" for p in spec.param_names if p not in spec.required]
    return f"def {spec.name}({', '.join(['state', *required, *optional])}):", names


def head(spec: ToolSpec) -> tuple[list[str], dict[str, str]]:
    """The ``def`` line and the docstring, plus the parameter expressions."""
    line, exprs = signature(spec)
    return [line, _doc(spec)], exprs


def _doc(spec: ToolSpec) -> str:
    first = (spec.description.strip().splitlines() or [spec.name])[0].replace('"""', "'")
    first = first.replace("\\", "/")
    return f'    """{first[:200]}"""'
