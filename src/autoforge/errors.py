"""The one error tree of autoforge.

``AutoforgeError`` is the root of every error autoforge raises on purpose, so a library user can
catch them all. Its ``UserError`` branch holds the mistakes a user can fix (a malformed document,
an environment directory that does not load, a configuration that names no model, an LLM endpoint
that fails): the CLI prints them as one clear message and exits with status 2, without a
traceback. Internal failures that are counted and never reach a user (a rejected task attempt, a
tool that fails its checks) derive from ``AutoforgeError`` directly.

Tool code's own business error, ``autoforge.env.ToolError``, is deliberately outside the tree: it
belongs to the environment being simulated, not to autoforge.
"""

from __future__ import annotations


class AutoforgeError(Exception):
    """Root of the errors autoforge raises on purpose."""


class UserError(AutoforgeError):
    """A mistake of the user's (bad input, missing file, bad configuration): no traceback."""


#: What the CLI (and ``autoforge forge``) reports in one line instead of a traceback.
USER_FIXABLE: tuple[type[BaseException], ...] = (UserError, FileNotFoundError)


def install_hint(extra: str) -> str:
    """How to install one of autoforge's extras, for a message: ``pip install
    'autoforge[extra]'``, and from a source checkout (an editable install, as the README's
    clone is) the command that works there, ``pip install -e '.[extra]'``."""
    from pathlib import Path

    hint = f"pip install 'autoforge[{extra}]'"
    root = Path(__file__).resolve().parents[2]
    if (root / "pyproject.toml").is_file() and (root / "src" / "autoforge").is_dir():
        hint += f" (in this checkout: pip install -e '.[{extra}]')"
    return hint
