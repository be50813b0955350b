"""One input document: its name, its text, and its parsed JSON/YAML data.

Importers receive a :class:`DocInput` and never open files themselves (except the directory-based
benchmark importer), so the same importer serves files and in-memory text. Syntax errors of JSON
and YAML are turned into :class:`DocParseError` with the line number taken from the parser.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from autoforge.tooldocs.safeload import DEFAULT_LIMITS, DocLimits, parse_json, parse_yaml, read_text
from autoforge.tooldocs.spec import DocParseError

JSON_SUFFIXES = frozenset({".json"})
YAML_SUFFIXES = frozenset({".yaml", ".yml"})
_UNPARSED = object()
#: Makes the LLM client an importer may use (called at most once, only when it is needed).
LLMFactory = Callable[[], Any]
GENERIC_STEMS = frozenset(
    {"openapi", "swagger", "api", "spec", "tools", "tool", "functions", "mcp", "schema"}
)


@dataclass
class DocInput:
    """A document to import: a file, a directory (``text is None``) or in-memory text.

    ``filename`` is what error messages and :class:`SourceLocation` call it. ``llm`` is the
    caller's zero-argument factory of an ``autoforge.llm`` client for importers that can use a
    model (Markdown prose); None: they read by rules only.
    """

    filename: str
    text: str | None = None
    path: Path | None = None
    _data: Any = field(default=_UNPARSED, repr=False)
    llm: LLMFactory | None = field(default=None, repr=False, compare=False)

    @classmethod
    def from_path(cls, path: str | Path, *, llm: LLMFactory | None = None) -> DocInput:
        """Read ``path`` (a file, or a directory for directory-based formats)."""
        p = Path(path)
        if p.is_dir():
            return cls(filename=str(path), text=None, path=p, llm=llm)
        if not p.exists():
            raise DocParseError(
                "file not found", file=str(path), hint="check the path (and the current directory)"
            )
        text = read_text(p)
        return cls(filename=str(path), text=text, path=p, llm=llm)

    @property
    def is_dir(self) -> bool:
        """Whether this input is a directory (no text of its own)."""
        return self.text is None

    @property
    def suffix(self) -> str:
        """The lower-case file suffix (``".yaml"``), or ``""``."""
        return Path(self.filename).suffix.lower()

    @property
    def stem(self) -> str:
        """The file (or directory) name without suffix, used as the default domain."""
        name = self.path.resolve().name if self.path is not None else Path(self.filename).name
        return Path(name).stem or "default"

    @property
    def domain(self) -> str:
        """The default domain name: the file stem, or the folder's name when the stem is
        generic (``openapi.yaml``, ``tools.json``, ``tools.openai.json`` in ``bookstore/``)."""
        stem = self.stem
        generic = stem.split(".")[0].lower() in GENERIC_STEMS
        if generic and self.path is not None and not self.is_dir:
            return self.path.resolve().parent.name or stem
        return stem

    def looks_structured(self) -> bool:
        """Whether this input should be JSON or YAML (by suffix, or a leading ``{``/``[``)."""
        if self.text is None:
            return False
        if self.suffix in JSON_SUFFIXES | YAML_SUFFIXES:
            return True
        return self.text.lstrip()[:1] in ("{", "[")

    def data(self) -> Any:
        """The parsed JSON/YAML value; raises :class:`DocParseError` on a syntax error."""
        if self._data is _UNPARSED:
            if self.text is None:
                raise DocParseError(
                    "is a directory, not a JSON/YAML file",
                    file=self.filename,
                    hint="pass a file, or use --format bench for a benchmark domain directory",
                )
            self._data = parse_structured(self.text, self.filename, self.suffix)
        return self._data

    def try_data(self) -> Any | None:
        """The parsed value, or None when this input is not parseable JSON/YAML."""
        try:
            return self.data()
        except DocParseError:
            return None


def parse_structured(
    text: str, filename: str, suffix: str = "", limits: DocLimits = DEFAULT_LIMITS
) -> Any:
    """Parse JSON or YAML text into plain JSON values, with line numbers on errors and the
    bounds of :mod:`autoforge.tooldocs.safeload` (alias bombs, depth, huge integers)."""
    use_json = suffix in JSON_SUFFIXES or (
        suffix not in YAML_SUFFIXES and text.lstrip()[:1] in ("{", "[")
    )
    if use_json:
        return parse_json(text, filename, limits)
    return _jsonify(parse_yaml(text, filename, limits))


def _jsonify(value: Any) -> Any:
    """Make YAML values JSON-like: mapping keys become strings (``200:`` -> ``"200"``)."""
    if isinstance(value, dict):
        return {_key(k): _jsonify(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_jsonify(v) for v in value]
    return value


def _key(key: Any) -> str:
    if isinstance(key, bool):
        return "true" if key else "false"
    return key if isinstance(key, str) else str(key)


def pointer_join(pointer: str, *parts: str | int) -> str:
    """Append reference tokens to a JSON pointer, escaping ``~`` and ``/`` (RFC 6901)."""
    for part in parts:
        token = part if isinstance(part, str) else str(part)
        if "~" in token or "/" in token:
            token = token.replace("~", "~0").replace("/", "~1")
        pointer = f"{pointer}/{token}"
    return pointer
