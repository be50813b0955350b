"""State diffs in the shape of ``db_diff`` in tau2-bench's ``gt_replay.json``.

The rules, read off the recorded diffs:

* dicts are compared key by key: keys of ``old`` in their order (``remove`` when gone from
  ``new``, recursion when present), then keys only in ``new`` in their order (``add``);
* lists of equal length are compared element by element (path elements are ints); lists whose
  length changed are one ``replace`` of the whole list (``payment_history`` gaining an entry);
* any other difference is a ``replace`` with ``old`` and ``new``; a type change is a difference
  (tau-bench records ``9`` -> ``9.0`` as a ``replace``), so scalars are equal only when their
  types are. (The state hash, unlike the diff, treats ``9`` and ``9.0`` as the same number.)

``remove`` has no ``new`` key and ``add`` has no ``old`` key, as in the recording.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from autoforge.env.state.values import jcopy


def _same(a: Any, b: Any) -> bool:
    return type(a) is type(b) and bool(a == b)


def diff_into(old: Any, new: Any, path: list[Any], out: list[dict[str, Any]]) -> None:
    """Append to ``out`` the operations that turn ``old`` into ``new`` below ``path``."""
    if old is new:
        return
    if isinstance(old, Mapping) and isinstance(new, Mapping):
        for key in old:
            if key not in new:
                out.append({"op": "remove", "path": [*path, key], "old": jcopy(old[key])})
            else:
                diff_into(old[key], new[key], [*path, key], out)
        for key in new:
            if key not in old:
                out.append({"op": "add", "path": [*path, key], "new": jcopy(new[key])})
        return
    if isinstance(old, list) and isinstance(new, list) and len(old) == len(new):
        for i, (a, b) in enumerate(zip(old, new, strict=True)):
            diff_into(a, b, [*path, i], out)
        return
    if not _same(old, new):
        out.append({"op": "replace", "path": list(path), "old": jcopy(old), "new": jcopy(new)})


def diff_states(old: Mapping[str, Any], new: Mapping[str, Any]) -> list[dict[str, Any]]:
    """The list of ``{"op", "path", "old", "new"}`` operations turning ``old`` into ``new``.

    Values in the result are copies (never aliases of either state).
    """
    out: list[dict[str, Any]] = []
    diff_into(old, new, [], out)
    return out
