"""Property: ingest of any mutation of a real tool document returns ToolDocs or raises one of
autoforge's own errors (``AutoforgeError``: a ``DocParseError`` naming the place), never a
``TypeError``, ``KeyError``, ``AttributeError``... from inside an importer.

The seeds are real documents of every format: the tooldocs fixtures, the bundled examples and,
when the shared data is beside the checkout, the reference APIs' ``openapi.yaml``. Hypothesis
mutates the parsed tree (a value replaced by one of another JSON type, a key dropped or renamed,
a subtree moved, a ``$ref`` aimed anywhere) or the text itself, and feeds the result through
``parse_text`` with format detection, as ``autoforge ingest`` does.

CI runs a fixed (derandomized) sample of ``FUZZ_EXAMPLES`` mutations per seed document, about
20 s in all; ``AUTOFORGE_FUZZ_EXAMPLES=10000`` runs a longer random search.
"""

from __future__ import annotations

import contextlib
import json
import os
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from autoforge.errors import AutoforgeError
from autoforge.tooldocs import DocParseError, parse_text
from autoforge.tooldocs.safeload import parse_json, parse_yaml

REPO = Path(__file__).resolve().parents[2]
FIXTURES = Path(__file__).parent / "fixtures"
EXAMPLES = REPO / "src" / "autoforge" / "examples"
LONG_RUN = os.environ.get("AUTOFORGE_FUZZ_EXAMPLES")
FUZZ_EXAMPLES = int(LONG_RUN) if LONG_RUN else 40


def refapis_root() -> Path:
    """The reference APIs (``../shared/refapis`` beside the checkout, or the env variable)."""
    env = os.environ.get("AUTOFORGE_REFAPIS_ROOT")
    return Path(env) if env else REPO.parent / "shared" / "refapis"


def _seed_files() -> list[Path]:
    own = sorted(FIXTURES.glob("*.*"))
    own += sorted(EXAMPLES.glob("*/openapi.yaml")) + sorted(EXAMPLES.glob("*/tools.openai.json"))
    return own


SEEDS = _seed_files()
REFAPI_SEEDS = sorted(refapis_root().glob("*/openapi.yaml"))


def _load(path: Path) -> Any:
    text = path.read_text(encoding="utf-8")
    return parse_json(text, path.name) if path.suffix == ".json" else parse_yaml(text, path.name)


# --- mutations of the parsed tree -------------------------------------------------------------

_ODD_VALUES = st.one_of(
    st.sampled_from([True, False, None, 0, -1, 1.5, 10**30, "", "x", "#/", [], {}, [True]]),
    st.sampled_from([{"type": True}, {"$ref": "#/nowhere"}, {"$ref": 3}, [None, 1], {"": None}]),
    st.recursive(
        st.none()
        | st.booleans()
        | st.integers()
        | st.floats(allow_nan=False)
        | st.text(max_size=8),
        lambda inner: (
            st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner, max_size=3)
        ),
        max_leaves=6,
    ),
)
#: a fresh copy of each drawn value: the sampled constants must never be mutated in place
ODD_VALUES = _ODD_VALUES.map(lambda v: json.loads(json.dumps(v)))
ODD_KEYS = st.sampled_from(
    ["$ref", "type", "properties", "items", "required", "enum", "allOf", "anyOf", "name", "in",
     "schema", "content", "parameters", "operationId", "", "__proto__", "x-y", "0", "get"]
) | st.text(max_size=10)  # fmt: skip


def _paths(node: Any, at: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
    yield at
    if isinstance(node, dict):
        for key, value in node.items():
            yield from _paths(value, (*at, key))
    elif isinstance(node, list):
        for i, value in enumerate(node):
            yield from _paths(value, (*at, i))


def _get(node: Any, path: tuple[Any, ...]) -> Any:
    for part in path:
        node = node[part]
    return node


def _pointer(path: tuple[Any, ...]) -> str:
    return "#/" + "/".join(str(p).replace("~", "~0").replace("/", "~1") for p in path)


@st.composite
def _mutate_once(draw: st.DrawFn, tree: Any) -> Any:
    paths = list(_paths(tree))
    path = draw(st.sampled_from(paths))
    kind = draw(st.sampled_from(["replace", "drop", "rename", "move", "ref", "wrap", "add"]))
    if not path:
        return draw(ODD_VALUES) if kind == "replace" else tree
    parent, last = _get(tree, path[:-1]), path[-1]
    value = parent[last]
    if kind == "replace":
        parent[last] = draw(ODD_VALUES)
    elif kind == "drop":
        del parent[last]
    elif kind == "rename" and isinstance(parent, dict):
        parent[draw(ODD_KEYS)] = parent.pop(last)
    elif kind == "move":
        other = draw(st.sampled_from(paths))
        parent[last] = json.loads(json.dumps(_get(tree, other))) if other != path else value
    elif kind == "ref":
        target = _pointer(draw(st.sampled_from(paths)))
        parent[last] = {
            "$ref": draw(st.sampled_from([target, target + "/x", "#", "other.yaml#/a"]))
        }
    elif kind == "wrap":
        parent[last] = draw(st.sampled_from([[value], {"x": value}, [value, value]]))
    elif kind == "add" and isinstance(value, dict):
        value[draw(ODD_KEYS)] = draw(ODD_VALUES)
    return tree


@st.composite
def mutated_text(draw: st.DrawFn, path: Path, tree: Any) -> tuple[str, str]:
    """(filename, text) of one mutation of the document at ``path``."""
    mutated = json.loads(json.dumps(tree))
    for _ in range(draw(st.integers(1, 4))):
        mutated = draw(_mutate_once(mutated))
    as_yaml = path.suffix != ".json" and draw(st.booleans())
    text = yaml.safe_dump(mutated, sort_keys=False) if as_yaml else json.dumps(mutated)
    if draw(st.integers(0, 9)) == 0:  # now and then damage the text itself
        cut = draw(st.integers(0, len(text)))
        text = (
            text[:cut]
            + draw(st.sampled_from(["", "\x00", "{", "]", "&a *a", "\ufffd"]))
            + text[cut:]
        )
    return ("doc.yaml" if as_yaml else "doc.json"), text


def _ingest_raises_only_own_errors(filename: str, text: str) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with contextlib.suppress(AutoforgeError):
            parse_text(text, filename=filename)


def _fuzz(path: Path) -> None:
    tree = _load(path)

    @settings(
        max_examples=FUZZ_EXAMPLES,
        deadline=None,
        derandomize=not LONG_RUN,
        database=None,
        suppress_health_check=list(HealthCheck),
    )
    @given(mutated_text(path, tree))
    def run(case: tuple[str, str]) -> None:
        _ingest_raises_only_own_errors(*case)

    run()


@pytest.mark.parametrize("path", SEEDS, ids=[f"{p.parent.name}/{p.name}" for p in SEEDS])
def test_ingest_of_mutated_documents_raises_only_autoforge_errors(path: Path) -> None:
    _fuzz(path)


@pytest.mark.parametrize(
    "path", REFAPI_SEEDS or [None], ids=[p.parent.name for p in REFAPI_SEEDS] or ["absent"]
)
def test_ingest_of_mutated_reference_apis_raises_only_autoforge_errors(path: Path | None) -> None:
    if path is None:
        pytest.skip(f"no reference APIs at {refapis_root()} (set AUTOFORGE_REFAPIS_ROOT)")
    _fuzz(path)


#: What a list or an object is confused with in the sweep below (the issue's TypeErrors).
CONFUSIONS = [True, 3, None]


@pytest.mark.parametrize("path", SEEDS, ids=[f"{p.parent.name}/{p.name}" for p in SEEDS])
def test_every_node_replaced_by_a_scalar_gives_only_autoforge_errors(path: Path) -> None:
    """Exhaustive, not sampled: each list or object of the document in turn becomes ``true``,
    a number or ``null`` (``required: true`` once raised "'bool' object is not iterable")."""
    tree = _load(path)
    swept = 0
    for where in _paths(tree):
        if not where or not isinstance(_get(tree, where), (list, dict)):
            continue
        for odd in CONFUSIONS:
            mutated = json.loads(json.dumps(tree))
            _get(mutated, where[:-1])[where[-1]] = odd
            _ingest_raises_only_own_errors("doc.json", json.dumps(mutated))
            swept += 1
    assert swept >= len(CONFUSIONS)


def test_yaml_with_a_control_character_is_a_doc_error() -> None:
    with pytest.raises(DocParseError, match=r"line 2.*not allowed in YAML"):
        parse_text("openapi: 3.0.0\ninfo: {title: \x00}\n", filename="api.yaml")


def test_the_seeds_ingest_cleanly() -> None:
    """The unmutated seeds load: the fuzz starts from documents that work."""
    for path in SEEDS + REFAPI_SEEDS:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            docs = parse_text(path.read_text(encoding="utf-8"), filename=path.name)
        assert docs.tools, path
