"""What "the same result" means when comparing a synthesized tool with a reference, and the
null environment every fidelity figure is shown beside.

Result normalisation (documented in ``docs/synthesis.md``), applied to both sides:

* a string that is a JSON text is decoded (tools return JSON text or values interchangeably);
  any other string is compared with surrounding whitespace stripped;
* mappings compare without regard to key order, after dropping ``None``-valued keys (an unset
  optional field dumped as ``null`` equals an absent one);
* numbers compare as floats rounded to 6 places (``10`` equals ``10.0``; ``true`` is not ``1``);
* lists compare in order, except for the parameters named in ``unordered`` (lists the docs call
  a set), which compare as sorted multisets.

The null environment accepts every call, returns nothing and changes nothing. Every agreement
figure is computed for it by the same code, so a figure it reaches is no evidence of fidelity.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any


def _decode(value: Any) -> Any:
    if isinstance(value, str):
        text = value.strip()
        if text[:1] in '{["-0123456789tfn' and text:
            try:
                return json.loads(text)
            except ValueError:
                return text
        return text
    return value


def normalize_result(value: Any, unordered: frozenset[str] = frozenset()) -> Any:
    """``value`` in the canonical form results are compared in (see the module docstring)."""
    value = _decode(value)
    if isinstance(value, Mapping):
        return {
            str(k): (
                sorted(map(_key, normalize_result(v, unordered)))
                if k in unordered and isinstance(v, list)
                else normalize_result(v, unordered)
            )
            for k, v in value.items()
            if v is not None
        }
    if isinstance(value, list):
        return [normalize_result(v, unordered) for v in value]
    if isinstance(value, bool) or value is None:
        return value
    if isinstance(value, int | float):
        return round(float(value), 6)
    return value


def _key(value: Any) -> str:
    return json.dumps(value, sort_keys=True, default=str)


def results_equal(ours: Any, theirs: Any, unordered: frozenset[str] = frozenset()) -> bool:
    """Whether two returned values are the same after :func:`normalize_result`."""
    return _key(normalize_result(ours, unordered)) == _key(normalize_result(theirs, unordered))


class NullObservation:
    """A successful call that returned nothing."""

    def __init__(self, tool: str) -> None:
        self.tool = tool
        self.ok = True
        self.content = "null"
        self.error_kind = None
        self.result = None


class NullEpisode:
    """An episode over a fixed state that no call changes."""

    def __init__(self, state: Mapping[str, Any]) -> None:
        self._state = state

    def call(self, tool: str, arguments: Any = None) -> NullObservation:
        return NullObservation(tool)

    def snapshot(self) -> dict[str, Any]:
        return json.loads(json.dumps(self._state))

    def state_hash(self) -> str:
        return "null"


class NullEnvironment:
    """The do-nothing baseline: every tool exists, every call succeeds, nothing changes."""

    def __init__(self, state: Mapping[str, Any], tool_names: list[str]) -> None:
        self.state = state
        self.tool_names = list(tool_names)

    def episode(self, state: Mapping[str, Any] | None = None) -> NullEpisode:
        return NullEpisode(self.state if state is None else state)
