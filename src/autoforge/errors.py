"""Errors that mean the user asked for something that cannot be done (bad input, missing file).

The CLI prints these as one clear message and exits with status 2, without a traceback.
Stage-specific errors (``DocParseError``, ``EnvLoadError``, ...) are registered in
``autoforge.cli.main.USER_ERRORS``.
"""

from __future__ import annotations


class UserError(Exception):
    """A mistake of the user's, to be reported without a traceback."""
