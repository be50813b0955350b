"""The benchmark domain layout: a directory with ``tools.json``, ``policy.md``, ``tools_meta.json``.

``tools.json`` is an OpenAI tool list (the agent's tools; ``user_tools.json`` is ignored),
``policy.md`` becomes the policy, and ``tools_meta.json`` gives ``access``: ``mutates_state``
when present, else ``tool_type`` (``write`` -> write; ``read``/``generic``/``think`` -> read).
The domain is the directory name.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from autoforge.tooldocs import (
    AccessHint,
    DocInput,
    DocParseError,
    ToolDocs,
    parse_structured,
    pointer_join,
    read_text,
)
from autoforge.tooldocs.importers import tool_items, tools_from_items

TOOLS_FILE = "tools.json"
POLICY_FILE = "policy.md"
META_FILE = "tools_meta.json"
_READ_TYPES = frozenset({"read", "generic", "think"})


def detect(doc: DocInput) -> bool:
    """A directory that holds a ``tools.json``."""
    return doc.is_dir and doc.path is not None and (doc.path / TOOLS_FILE).is_file()


def load(doc: DocInput) -> ToolDocs:
    """Tools, policy and access hints of one benchmark domain directory."""
    folder = _folder(doc)
    tools_path = folder / TOOLS_FILE
    if not tools_path.is_file():
        raise DocParseError(
            f"no {TOOLS_FILE} in this directory",
            file=str(folder),
            hint=f"the bench format needs <domain dir>/{TOOLS_FILE} (an OpenAI tool list)",
        )
    file = str(tools_path)
    items, base = tool_items(_read(tools_path), file=file)
    tools = tools_from_items(items, file=file, base=base)
    access = _access_map(folder / META_FILE)
    tools = [t.model_copy(update={"access": access.get(t.name, t.access)}) for t in tools]
    policy_path = folder / POLICY_FILE
    policy = read_text(policy_path).strip() if policy_path.is_file() else None
    return ToolDocs(domain=folder.resolve().name, policy=policy, tools=tools)


def _folder(doc: DocInput) -> Path:
    if doc.path is not None and doc.is_dir:
        return doc.path
    if doc.path is not None and doc.path.name == TOOLS_FILE:
        return doc.path.parent
    raise DocParseError(
        "the bench format reads a directory, not a single file",
        file=doc.filename,
        hint=f"pass the domain directory that holds {TOOLS_FILE}",
    )


def _read(path: Path) -> Any:
    return parse_structured(read_text(path), str(path), path.suffix)


def _access_map(meta_path: Path) -> dict[str, AccessHint]:
    """Tool name -> access from ``tools_meta.json`` (empty when the file is absent)."""
    if not meta_path.is_file():
        return {}
    data = _read(meta_path)
    if isinstance(data, dict):
        data = [{"name": k, **v} if isinstance(v, dict) else v for k, v in data.items()]
    if not isinstance(data, list):
        raise DocParseError(
            "tools_meta.json must be a list of {name, tool_type, mutates_state}",
            file=str(meta_path),
            pointer="",
            hint='write [{"name": "get_order", "tool_type": "read"}, ...]',
        )
    found: dict[str, AccessHint] = {}
    for i, entry in enumerate(data):
        if not isinstance(entry, dict) or not isinstance(entry.get("name"), str):
            raise DocParseError(
                "a tools_meta.json entry needs a string 'name'",
                file=str(meta_path),
                pointer=pointer_join("", i),
                hint='write {"name": "get_order", "tool_type": "read"}',
            )
        hint = _access(entry)
        if hint is not None:
            found[entry["name"]] = hint
    return found


def _access(entry: dict[str, Any]) -> AccessHint | None:
    mutates = entry.get("mutates_state")
    if isinstance(mutates, bool):
        return "write" if mutates else "read"
    kind = entry.get("tool_type")
    if kind == "write":
        return "write"
    return "read" if kind in _READ_TYPES else None
