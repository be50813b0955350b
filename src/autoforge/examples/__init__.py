"""Bundled example environments and tool docs, shipped as package data.

``bookstore`` is a complete hand-written environment (``environment.json``, ``tools.py``,
``initial_state.json``, ``sequences.json``) plus the same tools as docs in three formats
(``tools.openai.json``, ``openapi.yaml``, ``policy.md``): the README's demo input, a test
fixture and a few-shot example for tool synthesis. ``todo`` holds docs only
(``tools.openai.json`` + ``policy.md``): the input of synthesis tests with a small model.
"""

from __future__ import annotations

from importlib.resources import files
from pathlib import Path

from autoforge.errors import UserError

DEFAULT_EXAMPLE = "bookstore"


__all__ = [
    "DEFAULT_EXAMPLE",
    "example_path",
    "list_examples",
]


def _examples_root() -> Path:
    """The directory of this package (a real directory: the package is never zipped)."""
    return Path(str(files(__name__)))


def list_examples() -> list[str]:
    """Names of the bundled examples, sorted (those that carry a runnable environment:
    :func:`autoforge.env.artifact.envdir.example_names`; the others are docs-only synthesis
    inputs)."""
    root = _examples_root()
    names = [
        p.name
        for p in root.iterdir()
        if p.is_dir() and not p.name.startswith(("_", ".")) and any(p.iterdir())
    ]
    return sorted(names)


def example_path(name: str = DEFAULT_EXAMPLE) -> Path:
    """The directory of the bundled example ``name``; ``UserError`` listing the choices if not."""
    known = list_examples()
    if name not in known:
        raise UserError(f"unknown example {name!r}; available: {', '.join(known)}")
    return _examples_root() / name
