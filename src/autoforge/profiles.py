"""Benchmark profiles: the one hook through which a benchmark's conventions reach generic code.

The generic stages know no benchmark. What a benchmark format needs from them (an importer for
its domain directories, the name of its hand-off tool, an export layout) lives in a profile
module under ``autoforge.adapters`` and is read here, by attribute, when a stage asks for it:

- ``IMPORTERS``: keyword dicts for :func:`autoforge.tooldocs.register_importer`;
- ``TRANSFER_TOOLS``: tool names whose successful call hands the conversation to a human
  (the episode ends as ``TRANSFER``). Read only for the profile an evaluation opted into
  (:func:`named_profile_values`: a benchmark target, or an environment synthesized with
  ``--conventions NAME``), never by default: ``AgentConfig.transfer_tools`` is empty;
- ``TASK_EXPORTERS``: ``name -> write(tasks, spec, out_dir) -> [files]``, run by the forge
  ``exports`` stage into ``exports/<name>/``.

Profiles are imported by module name (:data:`PROFILE_MODULES`), so no stage imports an adapter
(the import contract in ``.importlinter`` keeps it so). Another profile is added with
:func:`register_profile`.
"""

from __future__ import annotations

import importlib
from types import ModuleType
from typing import Any

#: profile name -> module; every listed profile is active
PROFILE_MODULES: dict[str, str] = {"tau": "autoforge.adapters.tau.profile"}

_loaded: dict[str, ModuleType] = {}


def register_profile(name: str, module: str) -> None:
    """Make the profile module ``module`` active under ``name``."""
    PROFILE_MODULES[name] = module
    _loaded.pop(name, None)


def _profile(name: str) -> ModuleType:
    if name not in _loaded:
        _loaded[name] = importlib.import_module(PROFILE_MODULES[name])
    return _loaded[name]


def active_profiles() -> list[ModuleType]:
    """The profile modules, imported on first use, in registration order."""
    return [_profile(name) for name in list(PROFILE_MODULES)]


def named_profile_values(name: str, attribute: str) -> list[Any]:
    """The items of ``attribute`` (a sequence) of the profile called ``name`` alone; nothing
    when no profile has that name."""
    if name not in PROFILE_MODULES:
        return []
    return list(getattr(_profile(name), attribute, ()))


def profile_values(attribute: str) -> list[Any]:
    """Every active profile's items of ``attribute`` (a sequence), concatenated."""
    return [item for profile in active_profiles() for item in getattr(profile, attribute, ())]


def profile_mapping(attribute: str) -> dict[str, Any]:
    """Every active profile's ``attribute`` (a mapping), merged in registration order."""
    merged: dict[str, Any] = {}
    for profile in active_profiles():
        merged.update(getattr(profile, attribute, {}))
    return merged
