"""Plain JSON values: fast copies, strict equality and the canonical JSON text used for hashing.

State records are small trees of dicts, lists and scalars. ``copy.deepcopy`` is general and
slow (memo dict, reduce protocol); :func:`jcopy` copies JSON trees about 3-4x faster, which
matters because the copy-on-write state copies a record every time a tool touches it.
"""

from __future__ import annotations

import copy
import json
import json.encoder
import math
from collections.abc import Callable, Mapping
from typing import Any

_CONTAINERS = (dict, list)

_DECODER = json.JSONDecoder()
try:  # a faster parser, used only where it decodes as json does
    import orjson
except ImportError:  # pragma: no cover - orjson is optional (the serve extra has it)
    orjson = None  # type: ignore[assignment]
_fast_loads: Callable[[bytes], Any] | None = None if orjson is None else orjson.loads
#: a run of 19 digits, found as 19 zeros once every digit is mapped to 0 (a regular
#: expression scans ten times slower): orjson reads integers outside 64 bits as floats
_ZEROS = bytes.maketrans(b"123456789", b"0" * 9)
_LONG_NUMBER = b"0" * 19

_DIGITS = frozenset("0123456789")
_FLOAT_END = frozenset(",}]")


def _may_need_canon(text: str) -> bool:
    """Whether the compact JSON ``text`` may hold a float needing canonicalisation: an
    integral float or ``-0.0`` (``86.0`` followed by ``,``, ``}``, ``]`` or the end), an
    exponent, NaN or an infinity. Strings that merely contain such text only send the value
    down the slow, exact path.

    ``json`` writes floats with ``float.__repr__``, whose exponents always carry a sign
    (``1e-05``, ``1e+16``). Found with ``str.find`` rather than one regular expression: the
    regex has no literal prefix and scanned a 1 KB record slower than encoding it, whenever
    the text held ``.0`` (any price like ``10.05``).
    """
    if "NaN" in text or "Infinity" in text:
        return True
    end = len(text)
    at = text.find(".0")
    while at >= 0:
        if at and text[at - 1] in _DIGITS and (at + 2 == end or text[at + 2] in _FLOAT_END):
            return True
        at = text.find(".0", at + 2)
    for sign in ("e-", "e+"):
        at = text.find(sign)
        while at >= 0:
            if at and text[at - 1] in _DIGITS and at + 2 < end and text[at + 2] in _DIGITS:
                return True
            at = text.find(sign, at + 2)
    return False


def json_loads(data: bytes) -> Any:
    """The value of the JSON text ``data`` (UTF-8), exactly as ``json`` reads it.

    Parsed with orjson where that gives the same value: orjson refuses what ``json`` reads
    differently or only ``json`` reads (``NaN``, ``Infinity``, numbers beyond the float range,
    lone surrogate escapes, nesting past its limit), and reads integers beyond 64 bits as
    floats, so texts with a run of 19 digits and texts orjson refuses go to ``json`` (which
    raises for invalid texts as before).
    """
    if _fast_loads is not None and _LONG_NUMBER not in data.translate(_ZEROS):
        try:
            return _fast_loads(data)
        except ValueError:  # orjson.JSONDecodeError: json decides
            pass
    return _DECODER.decode(data.decode())


def json_loads_text(text: str) -> Any:
    """``json.loads(text)``, through :func:`json_loads` (a result's content is ASCII JSON, so
    encoding it is a copy); a text UTF-8 cannot carry (a lone surrogate) goes to ``json``."""
    try:
        data = text.encode()
    except UnicodeEncodeError:
        return json.loads(text)
    return json_loads(data)


def jcopy(value: Any) -> Any:
    """An independent deep copy of a JSON-like value (dicts, lists, scalars).

    Tuples become lists; anything else that is not a plain JSON type falls back to
    ``copy.deepcopy`` so the result never aliases ``value``.
    """
    t = type(value)
    if t is dict:
        return {k: (jcopy(v) if type(v) in _CONTAINERS else v) for k, v in value.items()}
    if t is list:
        return [jcopy(v) if type(v) in _CONTAINERS else v for v in value]
    if t in (str, int, float, bool) or value is None:
        return value
    if isinstance(value, Mapping):
        return {k: jcopy(v) for k, v in value.items()}
    if t is tuple:
        return [jcopy(v) for v in value]
    return copy.deepcopy(value)


def strict_equal(a: Any, b: Any) -> bool:
    """``a == b`` that also tells ``True`` from ``1`` and ``1`` from ``1.0`` (types must match).

    Python's ``==`` says ``{"x": True} == {"x": 1}``; the state hash does not, so change
    detection uses this.
    """
    if type(a) is not type(b):
        return False
    if type(a) is dict:
        if len(a) != len(b):
            return False
        return all(k in b and strict_equal(v, b[k]) for k, v in a.items())
    if type(a) is list:
        return len(a) == len(b) and all(strict_equal(x, y) for x, y in zip(a, b, strict=True))
    return bool(a == b)


def _canon_key(key: Any) -> str:
    if isinstance(key, str):
        return key
    if isinstance(key, bool) or key is None:
        return json.dumps(key)
    if isinstance(key, float):
        return json.dumps(_canon_float(key))
    return str(key)


def _canon_float(value: float) -> Any:
    if math.isnan(value):
        return "NaN"
    if math.isinf(value):
        return "Infinity" if value > 0 else "-Infinity"
    if value.is_integer():
        return int(value)
    return value


def canonical(value: Any) -> Any:
    """``value`` as plain JSON in canonical form.

    Integral floats become ints (``86.0`` and ``86`` are the same number), ``-0.0`` becomes
    ``0``, NaN/infinities become strings, tuples become lists, sets become sorted lists, keys
    become strings, other objects become ``str(obj)`` (as tau2's ``default=str``).
    """
    if isinstance(value, bool) or value is None or isinstance(value, (str, int)):
        return value
    if isinstance(value, float):
        return _canon_float(value)
    if isinstance(value, Mapping):
        return {_canon_key(k): canonical(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [canonical(v) for v in value]
    if isinstance(value, (set, frozenset)):
        items = [canonical(v) for v in value]
        return sorted(items, key=lambda v: json.dumps(v, sort_keys=True))
    return str(value)


def _not_serialisable(value: Any) -> Any:
    raise TypeError(f"Object of type {type(value).__name__} is not JSON serializable")


def json_encoder(
    *,
    default: Callable[[Any], Any] | None = None,
    separators: tuple[str, str] = (", ", ": "),
    sort_keys: bool = False,
    ensure_ascii: bool = True,
    allow_nan: bool = True,
) -> Callable[[Any], str]:
    """``json.dumps`` with these options, with its C encoder built once instead of per call.

    ``JSONEncoder.encode`` makes a new C encoder on every call, about a quarter of the cost of
    encoding a 1 KB record; the text is the same. The encoder keeps no circular-reference
    bookkeeping (a shared ``markers`` dict could not be used from several threads at once):
    a value that contains itself fails with ``RecursionError`` instead of ``ValueError``.
    Without the C accelerator it falls back to ``JSONEncoder.encode``.
    """
    hook = default or _not_serialisable
    make = getattr(json.encoder, "c_make_encoder", None)  # not in typeshed: CPython's _json
    if make is None:  # pragma: no cover - CPython always has _json
        encoder = json.JSONEncoder(
            default=hook,
            separators=separators,
            sort_keys=sort_keys,
            ensure_ascii=ensure_ascii,
            allow_nan=allow_nan,
        )
        return encoder.encode
    item_sep, key_sep = separators
    quote = json.encoder.encode_basestring_ascii if ensure_ascii else json.encoder.encode_basestring
    chunks = make(None, hook, quote, None, key_sep, item_sep, sort_keys, False, allow_nan)
    join = "".join

    def encode(value: Any) -> str:
        return join(chunks(value, 0))

    return encode


_ENCODE = json_encoder(sort_keys=True, separators=(",", ":"), ensure_ascii=False)
_STRICT_ENCODE = json_encoder(
    sort_keys=True, separators=(",", ":"), ensure_ascii=False, allow_nan=False
)


def canonical_json(value: Any) -> str:
    """The canonical JSON text of ``value``: sorted keys, no spaces, UTF-8, canonical numbers.

    Fast path: ``json.dumps`` in C; only texts that may contain a float needing care (or values
    ``json`` cannot dump directly) go through :func:`canonical` first.
    """
    try:
        text: str | None = _ENCODE(value)
    except (TypeError, ValueError):
        text = None
    if text is None or _may_need_canon(text):
        text = _STRICT_ENCODE(canonical(value))
    return text


def checked_canonical_json(value: Any) -> str:
    """:func:`canonical_json` of a value that must be JSON data (a changed state record).

    Raises what ``json.dumps(value, default=to_jsonable)`` raises for a value that is not
    JSON data (``TypeError`` for an object, ``RecursionError`` for a value containing itself or
    nested too deep) where :func:`canonical_json` would write ``str()`` of the object. One
    encoding both checks a committed record and gives the text its digest is made from.
    """
    try:
        text: str | None = _ENCODE(value)
    except TypeError:
        _ENCODE_JSONABLE(value)  # raises unless views/tuples were all that json refused
        text = None
    if text is None or _may_need_canon(text):
        text = _STRICT_ENCODE(canonical(value))
    return text


def to_jsonable(value: Any) -> Any:
    """``json.dumps`` ``default=`` hook: mappings (state views) become dicts, tuples lists."""
    if isinstance(value, Mapping):
        return dict(value.items())
    raise TypeError(f"Object of type {type(value).__name__} is not JSON serializable")


_ENCODE_JSONABLE = json_encoder(default=to_jsonable)
