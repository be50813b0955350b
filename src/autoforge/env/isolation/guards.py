"""Size guards called by sandboxed tool code (the sandbox rewrites operators to call them).

``a * b``, ``a + b``, ``a ** b``, ``a << b`` (and ``*=``, ``+=``...) in tool code become calls to
``__af_mul__`` & co., which refuse to build sequences of more than :data:`MAX_SEQUENCE` items
or integers of more than :data:`MAX_INT_BITS` bits before allocating anything. ``range``,
``pow``, ``math.factorial``/``comb``/``perm`` and the ``itertools`` combinatorics are capped the
same way, and so are the string methods that can blow up (``ljust``/``rjust``/``center``/
``zfill``/``expandtabs`` widths, ``replace``, ``join``, ``format`` widths), ``%``-formatting
widths, the builtin ``format`` and values computed in f-string format specs. They raise
:class:`~autoforge.env.calls.limits.ResourceLimit`, which tool code cannot catch.
"""

from __future__ import annotations

import ast
import collections
import copy
import decimal
import functools
import itertools
import marshal
import math
import re
import string
import types
from collections.abc import Callable
from typing import Any

from autoforge.env.calls.limits import ResourceLimit

MAX_SEQUENCE = 10_000_000
MAX_INT_BITS = 1_000_000
MAX_FACTORIAL = 20_000
MAX_DECIMAL_PREC = 10_000


_SEQ = (str, bytes, list, tuple, collections.deque)


def _size_error(what: str) -> ResourceLimit:
    return ResourceLimit(f"{what} exceeds the sandbox limit")


def _check_repeat(seq: Any, times: Any) -> None:
    if isinstance(times, int) and len(seq) * times > MAX_SEQUENCE:
        raise _size_error(f"a sequence of {len(seq)} x {times} items")


def _g_mul(a: Any, b: Any) -> Any:
    if isinstance(a, _SEQ):
        _check_repeat(a, b)
    elif isinstance(b, _SEQ):
        _check_repeat(b, a)
    elif type(a) is int and type(b) is int and a.bit_length() + b.bit_length() > MAX_INT_BITS:
        raise _size_error("an integer product")
    return a * b


def _g_add(a: Any, b: Any) -> Any:
    if isinstance(a, _SEQ) and isinstance(b, _SEQ) and len(a) + len(b) > MAX_SEQUENCE:
        raise _size_error(f"a sequence of {len(a) + len(b)} items")
    return a + b


def _g_pow(a: Any, b: Any) -> Any:
    big = type(a) is int and type(b) is int and b > 0 and abs(a) > 1
    if big and a.bit_length() * b > MAX_INT_BITS:
        raise _size_error(f"{a} ** {b}")
    return a**b


def _g_lshift(a: Any, b: Any) -> Any:
    if type(b) is int and type(a) is int and a and b + a.bit_length() > MAX_INT_BITS:
        raise _size_error(f"{a} << {b}")
    return a << b


def _g_iadd(a: Any, b: Any) -> Any:
    if isinstance(a, _SEQ) and isinstance(b, _SEQ) and len(a) + len(b) > MAX_SEQUENCE:
        raise _size_error(f"a sequence of {len(a) + len(b)} items")
    a += b
    return a


def _g_imul(a: Any, b: Any) -> Any:
    if isinstance(a, _SEQ):
        _check_repeat(a, b)
    elif type(a) is int and type(b) is int and a.bit_length() + b.bit_length() > MAX_INT_BITS:
        raise _size_error("an integer product")
    a *= b
    return a


def guarded_range(*args: Any) -> range:
    result = range(*args)
    if len(result) > MAX_SEQUENCE:
        raise _size_error(f"range of {len(result)} items")
    return result


def guarded_pow(base: Any, exp: Any, mod: Any = None) -> Any:
    if mod is None:
        return _g_pow(base, exp)
    return pow(base, exp, mod)


# -- string amplifiers: widths, replacements, joins, %-formatting ----------------------------

_WIDTH = re.compile(r"[0-9]+")
_PERCENT = re.compile(r"%[#0\- +]*(\*|[0-9]*)(?:\.(\*|[0-9]*))?")


def _check_width(width: Any, what: str) -> None:
    if isinstance(width, int) and width > MAX_SEQUENCE:
        raise _size_error(f"{what} of width {width}")


def _check_spec(spec: Any) -> None:
    """A format spec (``>10``, ``.3f``) must not ask for more than MAX_SEQUENCE characters."""
    if isinstance(spec, str):
        for digits in _WIDTH.findall(spec):
            _check_width(int(digits), "a format")
    else:
        _check_width(spec, "a format")


def guarded_spec(value: Any) -> Any:
    """Wraps values computed inside f-string format specs (``f"{x:>{w}}"``)."""
    _check_spec(value)
    return value


def guarded_format(value: Any, spec: str = "") -> str:
    """The builtin ``format`` with a width check."""
    _check_spec(spec)
    return format(value, spec)


def _arg(args: tuple[Any, ...], kwargs: dict[str, Any], index: int, name: str) -> Any:
    return args[index] if len(args) > index else kwargs.get(name)


def _check_pad(s: Any, args: tuple[Any, ...], kwargs: dict[str, Any]) -> None:
    _check_width(_arg(args, kwargs, 0, "width"), "padding")


def _check_tabs(s: Any, args: tuple[Any, ...], kwargs: dict[str, Any]) -> None:
    size = _arg(args, kwargs, 0, "tabsize")
    if isinstance(size, int):
        _check_width(len(s) + s.count("\t" if isinstance(s, str) else b"\t") * size, "tabs")


def _check_replace(s: Any, args: tuple[Any, ...], kwargs: dict[str, Any]) -> None:
    old, new = _arg(args, kwargs, 0, "old"), _arg(args, kwargs, 1, "new")
    if isinstance(old, type(s)) and isinstance(new, type(s)) and len(new) > len(old):
        hits = s.count(old) if old else len(s) + 1
        count = _arg(args, kwargs, 2, "count")
        if isinstance(count, int) and count >= 0:
            hits = min(hits, count)
        _check_width(len(s) + hits * (len(new) - len(old)), "a replacement")


def _check_format(s: Any, args: tuple[Any, ...], kwargs: dict[str, Any]) -> None:
    if isinstance(s, str):
        for _, _, spec, _ in string.Formatter().parse(s):
            if spec:
                _check_spec(spec)


_METHOD_CHECKS: dict[str, Callable[[Any, tuple[Any, ...], dict[str, Any]], None]] = {
    "ljust": _check_pad,
    "rjust": _check_pad,
    "center": _check_pad,
    "zfill": _check_pad,
    "expandtabs": _check_tabs,
    "replace": _check_replace,
    "format": _check_format,
}
GUARDED_METHODS = frozenset({*_METHOD_CHECKS, "join", "sub", "subn"})


def _guarded_join(sep: Any, method: Callable[..., Any]) -> Callable[..., Any]:
    def join(iterable: Any) -> Any:
        items = list(iterable)
        total = len(sep) * max(len(items) - 1, 0)
        total += sum(len(i) for i in items if isinstance(i, (str, bytes)))
        _check_width(total, "a join")
        return method(items)

    return join


def guarded_method(obj: Any, name: str) -> Any:
    """``obj.name``, checked first when ``obj`` is a string (or the ``str``/``bytes`` class: the
    unbound ``str.ljust(s, n)``) or a compiled pattern and the method can amplify."""
    method = getattr(obj, name)
    if name in _PATTERN_METHODS and type(obj) is re.Pattern:
        return _guarded_sub(method, 0, name == "subn")
    if obj in (str, bytes) and name == "join":
        return lambda sep, items: _guarded_join(sep, sep.join)(items)
    if obj in (str, bytes) and name in _METHOD_CHECKS:
        check = _METHOD_CHECKS[name]

        def unbound(s: Any, *args: Any, **kwargs: Any) -> Any:
            check(s, args, kwargs)
            return method(s, *args, **kwargs)

        return unbound
    if type(obj) not in (str, bytes) or name not in GUARDED_METHODS:
        return method
    if name == "join":
        return _guarded_join(obj, method)
    check = _METHOD_CHECKS[name]

    def call(*args: Any, **kwargs: Any) -> Any:
        check(obj, args, kwargs)
        return method(*args, **kwargs)

    return call


def _sub_bound(repl: Any, text: Any) -> int:
    """An upper bound on the size of ``re.sub(pattern, repl, text)``'s result."""
    if not isinstance(text, (str, bytes)):
        return 0
    literal = len(repl) if isinstance(repl, (str, bytes)) else 0
    refs = len(re.findall(r"\\(?:g<[^>]*>|[0-9])", repl)) if isinstance(repl, str) else 0
    return len(text) + (len(text) + 1) * literal + refs * len(text)


def _guarded_sub(fn: Callable[..., Any], offset: int, counted: bool) -> Callable[..., Any]:
    """``re.sub``/``subn`` (module functions: ``offset`` 1 for the pattern argument, pattern
    methods: 0) refusing results over MAX_SEQUENCE characters, before building them; a
    callable replacement is checked as it returns."""

    def sub(*args: Any, **kwargs: Any) -> Any:
        repl = args[offset] if len(args) > offset else kwargs.get("repl")
        text = args[offset + 1] if len(args) > offset + 1 else kwargs.get("string")
        if callable(repl):
            total = [len(text) if isinstance(text, (str, bytes)) else 0]

            def counted_repl(match: Any) -> Any:
                out = repl(match)
                total[0] += len(out) if isinstance(out, (str, bytes)) else 0
                _check_width(total[0], "a substitution")
                return out

            if len(args) > offset:
                args = (*args[:offset], counted_repl, *args[offset + 1 :])
            else:
                kwargs["repl"] = counted_repl
        else:
            _check_width(_sub_bound(repl, text), "a substitution")
        return fn(*args, **kwargs)

    return sub


_PATTERN_METHODS = frozenset({"sub", "subn"})


def _safe_iter(*args: Any) -> Any:
    """The builtin ``iter`` without its two-argument form (``iter(int, 1)`` never ends, in C)."""
    if len(args) != 1:
        raise TypeError("iter(callable, sentinel) is not available in the sandbox")
    return iter(args[0])


def _check_prec(prec: Any) -> None:
    if isinstance(prec, int) and prec > MAX_DECIMAL_PREC:
        raise _size_error(f"a decimal precision of {prec}")


def _decimal_context(*args: Any, **kwargs: Any) -> decimal.Context:
    _check_prec(args[0] if args else kwargs.get("prec"))
    return decimal.Context(*args, **kwargs)


def _localcontext(ctx: Any = None, **kwargs: Any) -> Any:
    _check_prec(kwargs.get("prec"))
    if ctx is not None:
        _check_prec(getattr(ctx, "prec", None))
    return decimal.localcontext(ctx, **kwargs)


#: the ``__name__`` of the namespace tool code runs in (found in its functions' globals)
TOOL_MODULE = "sandboxed_tools"
#: what ``functools.wraps`` copies for tool code: names and text, nothing that leads anywhere
_WRAPS_ASSIGNED = ("__module__", "__name__", "__qualname__", "__doc__")


def _wraps(wrapped: Any, /) -> Callable[[Any], Any]:
    """``functools.wraps(f)`` in its documented positional use only, as a plain closure.

    The real one returns ``partial(update_wrapper, ...)``, whose keywords can be overridden
    (``updated=("__globals__",)`` copies a library module's globals into a tool function)
    and whose ``.func`` is ``update_wrapper`` itself. This one copies only the name, module,
    qualified name and docstring (strings), sets no ``__wrapped__`` and merges no
    ``__dict__``, and decorates only functions of the tool code (never a library one, which
    every episode shares).
    """

    def decorator(wrapper: Any, /) -> Any:
        if (
            not isinstance(wrapper, types.FunctionType)
            or wrapper.__globals__.get("__name__") != TOOL_MODULE
        ):
            raise TypeError("functools.wraps(f) decorates only functions of the tool code")
        for name in _WRAPS_ASSIGNED:
            value = getattr(wrapped, name, None)
            if type(value) is str:
                setattr(wrapper, name, value)
        return wrapper

    return decorator


def _partial(func: Any, /, *args: Any, **kwargs: Any) -> Callable[..., Any]:
    """``functools.partial`` as a plain closure: no ``.func``/``.args``/``.keywords`` to read,
    and immutable captured arguments (module-level partials are allowed)."""
    if not callable(func):
        raise TypeError("the first argument must be callable")
    frozen_args = tuple(args)
    frozen_kwargs = types.MappingProxyType(dict(kwargs))

    def partial(*more: Any, **extra: Any) -> Any:
        return func(*frozen_args, *more, **{**frozen_kwargs, **extra})

    return partial


def _g_mod(a: Any, b: Any) -> Any:
    if type(a) in (str, bytes):
        template = a if isinstance(a, str) else a.decode("latin-1")
        values = b if isinstance(b, tuple) else (b,)
        for width, precision in _PERCENT.findall(template):
            for part in (width, precision):
                if part == "*":
                    for v in values:
                        _check_width(v, "a %-format")
                elif part:
                    _check_width(int(part), "a %-format")
    return a % b


GUARDS: dict[type, tuple[str, Callable[..., Any]]] = {
    ast.Mult: ("__af_mul__", _g_mul),
    ast.Add: ("__af_add__", _g_add),
    ast.Pow: ("__af_pow__", _g_pow),
    ast.LShift: ("__af_lshift__", _g_lshift),
    ast.Mod: ("__af_mod__", _g_mod),
}
AUG_GUARDS: dict[type, tuple[str, Callable[..., Any]]] = {
    ast.Mult: ("__af_imul__", _g_imul),
    ast.Add: ("__af_iadd__", _g_iadd),
    ast.Pow: ("__af_pow__", _g_pow),
    ast.LShift: ("__af_lshift__", _g_lshift),
}
GUARD_GLOBALS: dict[str, Callable[..., Any]] = {
    name: fn for name, fn in [*GUARDS.values(), *AUG_GUARDS.values()]
}
GUARD_GLOBALS["__af_method__"] = guarded_method
GUARD_GLOBALS["__af_spec__"] = guarded_spec


def _capped(fn: Callable[..., Any], limit: int) -> Callable[..., Any]:
    @functools.wraps(fn)
    def wrapper(n: Any, *rest: Any) -> Any:
        if isinstance(n, int) and n > limit:
            raise _size_error(f"{fn.__name__}({n})")
        return fn(n, *rest)

    return wrapper


def _combinatoric(fn: Callable[..., Any], count: Callable[..., int]) -> Callable[..., Any]:
    """itertools.product & co., refusing results over MAX_SEQUENCE items (C loops that
    ``list()`` would run uninterruptibly)."""

    @functools.wraps(fn)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        pools = [tuple(a) for a in args]
        n = count(pools, **kwargs)
        if n > MAX_SEQUENCE:
            raise _size_error(f"{fn.__name__} of {n} items")
        return fn(*pools, **kwargs)

    return wrapper


def _n_product(pools: list[tuple[Any, ...]], repeat: int = 1) -> int:
    return math.prod(len(p) for p in pools) ** repeat


def _bounded(n: int, r: int, count: Callable[[int, int], int]) -> int:
    """``count(n, r)``, or a number over the limit when computing it would itself be costly."""
    if r > 64 and n > 1:
        return MAX_SEQUENCE + 1
    return count(n, r)


def _n_perm(pools: list[tuple[Any, ...]], r: int | None = None) -> int:
    n = len(pools[0])
    return _bounded(n, n if r is None else min(r, n), math.perm)


def _n_comb(pools: list[tuple[Any, ...]], r: int) -> int:
    n = len(pools[0])
    return _bounded(n, min(r, n), math.comb)


def _n_comb_rep(pools: list[tuple[Any, ...]], r: int) -> int:
    n = len(pools[0])
    return _bounded(n + r - 1, r, math.comb) if n else 0


# the restricted operator module: arithmetic (guarded), comparisons, itemgetter; no
# attrgetter/methodcaller (attribute access by string) and nothing that calls by name
_OPERATOR_TEXT = (
    "abs add and_ concat contains countOf eq floordiv ge getitem gt iadd iand iconcat "
    "ifloordiv ilshift imod imul index indexOf inv invert ior ipow irshift is_ is_not isub "
    "itemgetter itruediv ixor le lshift lt mod mul ne neg not_ or_ pos pow rshift sub truediv "
    "truth xor"
)
OPERATOR_NAMES = frozenset(_OPERATOR_TEXT.split())


def _deepcopy(value: Any, memo: dict[int, Any] | None = None) -> Any:
    """``copy.deepcopy`` for tool code: plain data (dicts and lists of JSON-like values, what
    state records are) is copied through ``marshal`` version 4, in C and 4-5x faster; it keeps
    exact types (``True`` is not ``1``), shared references and cycles as ``deepcopy`` does.
    Anything ``marshal`` refuses (a read-only module-level mapping, nesting over its depth
    limit) goes through ``copy.deepcopy`` itself."""
    if memo is None and type(value) in (dict, list):
        try:
            return marshal.loads(marshal.dumps(value, 4))
        except ValueError:
            pass
    return copy.deepcopy(value, memo)


OVERRIDES: dict[tuple[str, str], Callable[..., Any]] = {
    ("copy", "deepcopy"): _deepcopy,
    ("operator", "mul"): _g_mul,
    ("operator", "imul"): _g_imul,
    ("operator", "add"): _g_add,
    ("operator", "iadd"): _g_iadd,
    ("operator", "concat"): _g_add,
    ("operator", "iconcat"): _g_iadd,
    ("operator", "pow"): _g_pow,
    ("operator", "ipow"): _g_pow,
    ("operator", "lshift"): _g_lshift,
    ("operator", "mod"): _g_mod,
    ("operator", "imod"): _g_mod,
    ("operator", "ilshift"): _g_lshift,
    ("re", "sub"): _guarded_sub(re.sub, 1, False),
    ("re", "subn"): _guarded_sub(re.subn, 1, True),
    ("decimal", "Context"): _decimal_context,
    ("decimal", "localcontext"): _localcontext,
    ("functools", "wraps"): _wraps,
    ("functools", "partial"): _partial,
    ("math", "factorial"): _capped(math.factorial, MAX_FACTORIAL),
    ("math", "comb"): _capped(math.comb, MAX_FACTORIAL * 5),
    ("math", "perm"): _capped(math.perm, MAX_FACTORIAL * 5),
    ("itertools", "product"): _combinatoric(itertools.product, _n_product),
    ("itertools", "permutations"): _combinatoric(itertools.permutations, _n_perm),
    ("itertools", "combinations"): _combinatoric(itertools.combinations, _n_comb),
    ("itertools", "combinations_with_replacement"): _combinatoric(
        itertools.combinations_with_replacement, _n_comb_rep
    ),
}
