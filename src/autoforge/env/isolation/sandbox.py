"""The sandbox for tool code: an AST allow-list, restricted builtins and modules, size guards.

Tool code (often LLM-written) is checked *before* it runs. :func:`check_source` rejects, with
the line and the construct (:class:`SandboxViolation`):

* imports outside :data:`ALLOWED_MODULES` (no ``os``, ``sys``, ``random``, ``time``...);
* any name or attribute starting with ``__`` (``().__class__.__bases__``), any attribute
  starting with ``_`` (module internals such as ``collections._sys``), frame/code attributes
  (``gi_frame``, ``f_globals``...), ``mro``, ``format_map``, ``.format`` except on a literal
  template without attribute/index fields, clock reads (``now``, ``today``, ``utcnow``);
* the names ``eval``, ``exec``, ``compile``, ``open``, ``getattr``, ``setattr``, ``delattr``,
  ``globals``, ``locals``, ``vars``, ``dir``, ``input``, ``breakpoint``, ``help``,
  ``memoryview``, ``type`` (3-argument form builds classes), ``super``, ``object``, ``id``,
  ``hash`` (process-dependent), ``BaseException``...;
* assigning or deleting attributes (``Counter.most_common = ...`` would change a library
  class for the whole process; ``f.counter = 1`` would keep state on a function);
* ``global`` (module state would leak between episodes), class definitions (state is plain
  dicts; class attributes would be shared between episodes), ``async``/``await``, bare
  ``except:`` and ``except*`` (would swallow the sandbox's timeout), mutable default
  arguments (shared between calls).

Checked code is then rewritten so ``*``, ``**``, ``<<`` and ``+`` (and their augmented forms)
go through guards that refuse to build sequences over :data:`MAX_SEQUENCE` items or integers
over :data:`MAX_INT_BITS` bits, and ``range`` refuses more than :data:`MAX_SEQUENCE` items.
It runs with :data:`SAFE_BUILTINS` (``print`` is a no-op) and imports served from read-only
copies of the allowed modules that expose only allow-listed, non-module public names.
After the module body has run, module-level values are frozen (lists to tuples, dicts to
read-only mappings, sets to frozensets) so no episode can change what another sees; what
cannot be frozen is refused: closures over mutable values or that rebind a captured variable
(``nonlocal``), bound methods of mutable objects, ``decimal.Context`` objects.
"""

from __future__ import annotations

import ast
import builtins
import collections
import copy
import datetime
import decimal
import dis
import functools
import itertools
import json
import math
import operator
import re
import statistics
import string
import types
import typing
from collections.abc import Mapping
from typing import Any

from autoforge.env.artifact.files import TOOLS_FILE
from autoforge.env.calls.limits import ResourceLimit, call_limited
from autoforge.env.errors import EnvLoadError, SandboxViolation
from autoforge.env.isolation.guards import (
    AUG_GUARDS,
    GUARD_GLOBALS,
    GUARDED_METHODS,
    GUARDS,
    OPERATOR_NAMES,
    OVERRIDES,
    TOOL_MODULE,
    _safe_iter,
    guarded_format,
    guarded_pow,
    guarded_range,
)


def _names(text: str) -> frozenset[str]:
    return frozenset(text.split())


# module -> allowed public names (None: every public attribute that is not a module,
# minus DENIED_ATTRIBUTES[module]).
ALLOWED_MODULES: dict[str, frozenset[str] | None] = {
    "math": None,
    "datetime": _names("date datetime time timedelta timezone MINYEAR MAXYEAR UTC"),
    "re": None,
    "json": _names("dumps loads JSONDecodeError"),
    "copy": _names("copy deepcopy"),
    "itertools": None,
    "collections": _names("Counter OrderedDict defaultdict deque namedtuple ChainMap"),
    "statistics": None,
    "decimal": None,
    "string": _names(
        "ascii_letters ascii_lowercase ascii_uppercase digits hexdigits octdigits punctuation "
        "printable whitespace capwords Template"
    ),
    "functools": _names("reduce partial cmp_to_key wraps"),
    "operator": OPERATOR_NAMES,
    "typing": _names(
        "Any Optional Union List Dict Tuple Set FrozenSet Iterable Iterator Mapping "
        "MutableMapping Sequence Callable Literal cast"
    ),
}
DENIED_ATTRIBUTES: dict[str, frozenset[str]] = {
    # unbounded iterators that C functions (list, sum, max) would consume forever
    "itertools": _names("count cycle repeat"),
    "statistics": _names("NormalDist"),  # samples() is random
    # the thread's decimal context (and the module's template contexts) are mutable and would
    # carry settings from one call or episode to the next; localcontext() restores them
    "decimal": _names("getcontext setcontext DefaultContext BasicContext ExtendedContext"),
}
_MODULE_OBJECTS: dict[str, types.ModuleType] = {
    m.__name__: m
    for m in (
        math,
        datetime,
        re,
        json,
        copy,
        itertools,
        collections,
        statistics,
        decimal,
        string,
        functools,
        operator,
        typing,
    )
}

BANNED_NAMES = _names(
    "eval exec compile open getattr setattr delattr hasattr globals locals vars dir input "
    "breakpoint help memoryview type super object id hash exit quit classmethod staticmethod "
    "property BaseException KeyboardInterrupt SystemExit GeneratorExit bytearray bytes"
)
BANNED_ATTRIBUTES = _names(
    "gi_frame gi_code gi_yieldfrom gi_running cr_frame cr_code cr_await ag_frame ag_code "
    "ag_await f_back f_globals f_locals f_builtins f_code f_trace tb_frame tb_next co_code "
    "func_globals func_code mro format_map now today utcnow"
)
_WHY = {
    "now": "reads the clock (nondeterministic); take dates from the state or arguments",
    "today": "reads the clock (nondeterministic); take dates from the state or arguments",
    "utcnow": "reads the clock (nondeterministic); take dates from the state or arguments",
    "hash": "differs between processes (nondeterministic)",
    "id": "differs between runs (nondeterministic)",
}

_SAFE_BUILTIN_NAMES = _names(
    "abs all any ascii bin bool callable chr dict divmod enumerate filter float format "
    "frozenset hex int isinstance issubclass iter len list map max min next oct ord repr "
    "reversed round set slice sorted str sum tuple zip Exception ArithmeticError "
    "AssertionError AttributeError IndexError KeyError LookupError NotImplementedError "
    "OverflowError RuntimeError StopIteration TypeError ValueError ZeroDivisionError "
    "NameError UnboundLocalError RecursionError ImportError NotImplemented Ellipsis "
    "True False None"
)


#: The builtins tool code may call (public: parameter naming keeps them unshadowed).
SAFE_BUILTIN_NAMES = _SAFE_BUILTIN_NAMES


def _violation(node: ast.AST, message: str, construct: str) -> SandboxViolation:
    line = getattr(node, "lineno", None)
    return SandboxViolation(message, line=line, construct=construct)


def _format_is_safe(template: str) -> bool:
    try:
        fields = list(string.Formatter().parse(template))
    except ValueError:
        return False
    return all(
        (f is None or ("." not in f and "[" not in f)) and "{" not in (spec or "")
        for _, f, spec, _ in fields
    )


class _Checker(ast.NodeVisitor):
    """Raises the first :class:`SandboxViolation` found in a module."""

    def __init__(self) -> None:
        self.module_aliases: dict[str, str] = {}

    def visit_Import(self, node: ast.Import) -> None:
        for alias in node.names:
            self._check_module(node, alias.name)
            self._check_ident(node, alias.asname)
            self.module_aliases[alias.asname or alias.name] = alias.name

    def visit_ImportFrom(self, node: ast.ImportFrom) -> None:
        module = node.module or ""
        if node.level:
            raise _violation(node, "relative imports are not allowed", "import")
        if module == "__future__":
            return
        self._check_module(node, module)
        allowed = _allowed_names(module)
        for alias in node.names:
            if alias.name == "*":
                raise _violation(node, f"'from {module} import *' is not allowed", "import *")
            if alias.name not in allowed:
                raise _violation(
                    node, f"'{module}.{alias.name}' is not available in the sandbox", "import"
                )
            self._check_ident(node, alias.asname)

    def _check_module(self, node: ast.AST, module: str) -> None:
        if module not in ALLOWED_MODULES:
            allowed = ", ".join(sorted(ALLOWED_MODULES))
            raise _violation(
                node, f"import of '{module}' is not allowed (allowed: {allowed})", "import"
            )

    def _check_ident(self, node: ast.AST, name: str | None) -> None:
        if name is None:
            return
        if name.startswith("__"):
            raise _violation(node, f"name '{name}' is not allowed (dunder names)", name)
        if name in BANNED_NAMES:
            why = _WHY.get(name, "escapes or weakens the sandbox")
            raise _violation(node, f"name '{name}' is not allowed: it {why}", name)

    def visit_Name(self, node: ast.Name) -> None:
        self._check_ident(node, node.id)

    def visit_arg(self, node: ast.arg) -> None:
        self._check_ident(node, node.arg)
        self.generic_visit(node)

    def visit_Attribute(self, node: ast.Attribute) -> None:
        attr = node.attr
        if not isinstance(node.ctx, ast.Load):
            raise _violation(
                node,
                f"assigning or deleting attribute '{attr}' is not allowed (it could change "
                "shared objects such as library classes); keep data in dicts",
                "attribute assignment",
            )
        if attr.startswith("_"):
            raise _violation(node, f"attribute '{attr}' is not allowed (private/dunder)", attr)
        if attr in BANNED_ATTRIBUTES:
            why = _WHY.get(attr, "reaches interpreter internals")
            raise _violation(node, f"attribute '{attr}' is not allowed: it {why}", attr)
        value = node.value
        if isinstance(value, ast.Name) and value.id in self.module_aliases:
            module = self.module_aliases[value.id]
            if attr not in _allowed_names(module):
                raise _violation(node, f"'{module}.{attr}' is not available in the sandbox", attr)
        if attr == "format" and not (
            isinstance(node.value, ast.Constant)
            and isinstance(node.value.value, str)
            and _format_is_safe(node.value.value)
        ):
            raise _violation(
                node,
                "'.format' is only allowed on a literal template without '.'/'[' fields or "
                "nested specs; use an f-string",
                "format",
            )
        self.generic_visit(node)

    def _check_function(self, node: ast.FunctionDef | ast.Lambda) -> None:
        if isinstance(node, ast.FunctionDef):
            self._check_ident(node, node.name)
        defaults = [*node.args.defaults, *(d for d in node.args.kw_defaults if d is not None)]
        for default in defaults:
            if not _is_immutable(default):
                raise _violation(
                    default,
                    "mutable or computed default argument (it would be shared between "
                    "calls); use None and create the value inside the function",
                    "default argument",
                )
        self.generic_visit(node)

    def visit_FunctionDef(self, node: ast.FunctionDef) -> None:
        self._check_function(node)

    def visit_Lambda(self, node: ast.Lambda) -> None:
        self._check_function(node)

    def visit_Call(self, node: ast.Call) -> None:
        func = node.func
        if isinstance(func, ast.Name) and func.id == "iter" and len(node.args) > 1:
            raise _violation(
                node,
                "two-argument iter(callable, sentinel) is not allowed (it can loop forever "
                "inside C code); write a while loop",
                "iter",
            )
        self.generic_visit(node)

    def visit_ExceptHandler(self, node: ast.ExceptHandler) -> None:
        if node.type is None:
            raise _violation(
                node, "bare 'except:' is not allowed; catch Exception or narrower", "except"
            )
        self._check_ident(node, node.name)
        self.generic_visit(node)

    def visit_MatchClass(self, node: ast.MatchClass) -> None:
        for attr in node.kwd_attrs:
            if attr.startswith("_") or attr in BANNED_ATTRIBUTES:
                raise _violation(node, f"pattern attribute '{attr}' is not allowed", attr)
        self.generic_visit(node)

    def generic_visit(self, node: ast.AST) -> None:
        banned = _BANNED_NODES.get(type(node))
        if banned is not None:
            raise _violation(node, banned, type(node).__name__)
        super().generic_visit(node)


_BANNED_NODES: dict[type, str] = {
    ast.Global: "'global' is not allowed: module state would leak between episodes",
    ast.ClassDef: "class definitions are not allowed: keep state in plain dicts",
    ast.AsyncFunctionDef: "async functions are not allowed",
    ast.Await: "'await' is not allowed",
    ast.AsyncFor: "'async for' is not allowed",
    ast.AsyncWith: "'async with' is not allowed",
    ast.TryStar: "'except*' is not allowed",
}


def _is_immutable(node: ast.AST) -> bool:
    if isinstance(node, ast.Constant):
        return True
    if isinstance(node, ast.Tuple):
        return all(_is_immutable(e) for e in node.elts)
    if isinstance(node, ast.UnaryOp):
        return _is_immutable(node.operand)
    if isinstance(node, ast.BinOp):
        return _is_immutable(node.left) and _is_immutable(node.right)
    return False


def check_source(source: str, filename: str = TOOLS_FILE) -> ast.Module:
    """Parse and check tool code: the AST, or a :class:`SandboxViolation` (line, construct)."""
    try:
        tree = ast.parse(source, filename=filename)
        _Checker().visit(tree)
    except SyntaxError as exc:
        raise SandboxViolation(
            f"syntax error: {exc.msg}", line=exc.lineno, construct="syntax"
        ) from None
    except (RecursionError, MemoryError):  # the parser's or the checker's recursion
        raise SandboxViolation(
            "the code is nested too deeply to check; flatten the expression", construct="nesting"
        ) from None
    return tree


def _simple_target(node: ast.AST) -> bool:
    """A target that can be evaluated twice without side effects."""
    if isinstance(node, ast.Name):
        return True
    if isinstance(node, ast.Attribute):
        return _simple_target(node.value)
    if isinstance(node, ast.Subscript):
        return _simple_target(node.value) and isinstance(node.slice, (ast.Name, ast.Constant))
    return False


def _load(node: ast.expr) -> ast.expr:
    clone = copy.deepcopy(node)
    for sub in ast.walk(clone):
        if hasattr(sub, "ctx"):
            sub.ctx = ast.Load()
    return clone


class _Guard(ast.NodeTransformer):
    """Routes size-amplifying operators through the guards."""

    def visit_BinOp(self, node: ast.BinOp) -> ast.AST:
        self.generic_visit(node)
        guard = GUARDS.get(type(node.op))
        if guard is None:
            return node
        call = ast.Call(ast.Name(guard[0], ast.Load()), [node.left, node.right], [])
        return ast.copy_location(call, node)

    def visit_AugAssign(self, node: ast.AugAssign) -> ast.AST:
        self.generic_visit(node)
        guard = AUG_GUARDS.get(type(node.op))
        if guard is None or not _simple_target(node.target):
            return node
        call = ast.Call(ast.Name(guard[0], ast.Load()), [_load(node.target), node.value], [])
        return ast.copy_location(ast.Assign([node.target], call), node)

    def visit_Attribute(self, node: ast.Attribute) -> ast.AST:
        """``x.ljust`` (called or stored in a variable) -> ``__af_method__(x, "ljust")``."""
        self.generic_visit(node)
        if node.attr in GUARDED_METHODS and isinstance(node.ctx, ast.Load):
            getter = ast.Call(
                ast.Name("__af_method__", ast.Load()), [node.value, ast.Constant(node.attr)], []
            )
            return ast.copy_location(getter, node)
        return node

    def visit_FormattedValue(self, node: ast.FormattedValue) -> ast.AST:
        self.generic_visit(node)
        spec = node.format_spec
        if isinstance(spec, ast.JoinedStr):
            for part in spec.values:
                if isinstance(part, ast.FormattedValue):
                    part.value = ast.Call(ast.Name("__af_spec__", ast.Load()), [part.value], [])
        return node


# -- restricted modules and builtins ----------------------------------------------------------


def _allowed_names(module: str) -> frozenset[str]:
    names = ALLOWED_MODULES[module]
    if names is not None:
        return frozenset(n for n in names if hasattr(_MODULE_OBJECTS[module], n))
    real = _MODULE_OBJECTS[module]
    denied = DENIED_ATTRIBUTES.get(module, frozenset())
    return frozenset(
        n
        for n in dir(real)
        if not n.startswith("_")
        and n not in denied
        and not isinstance(getattr(real, n), types.ModuleType)
        and not _imported_from_elsewhere(getattr(real, n), module)
    )


def _imported_from_elsewhere(value: Any, module: str) -> bool:
    """Whether a callable of a wholesale-allowed module is a name it imported from another
    module (``statistics.repeat`` is ``itertools.repeat``, ``statistics.mul`` is
    ``operator.mul``): such names would bypass their home module's denials and guards, so
    they are reached through their own module only."""
    home = getattr(value, "__module__", None)
    return callable(value) and isinstance(home, str) and home not in (module, "_" + module)


class SafeModule(types.SimpleNamespace):
    """A read-only copy of an allowed module holding only its allow-listed names."""

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError(f"sandbox modules are read-only (cannot set '{name}')")

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"sandbox modules are read-only (cannot delete '{name}')")


def _safe_module(module: str) -> SafeModule:
    real = _MODULE_OBJECTS[module]
    attrs = {n: OVERRIDES.get((module, n), getattr(real, n)) for n in _allowed_names(module)}
    return SafeModule(**attrs)


def _future() -> SafeModule:
    import __future__

    return SafeModule(annotations=__future__.annotations)


def _noop_print(*args: Any, **kwargs: Any) -> None:
    """``print`` in tool code: output is discarded (tools talk through return values)."""


def make_builtins() -> dict[str, Any]:
    """A fresh restricted builtins dict (one per environment; imports served per environment)."""
    safe: dict[str, Any] = {n: getattr(builtins, n) for n in _SAFE_BUILTIN_NAMES}
    modules = {name: _safe_module(name) for name in ALLOWED_MODULES}
    modules["__future__"] = _future()

    def _import(
        name: str,
        globals: Mapping[str, Any] | None = None,
        locals: Mapping[str, Any] | None = None,
        fromlist: tuple[str, ...] = (),
        level: int = 0,
    ) -> SafeModule:
        if level or name not in modules:
            raise ImportError(f"import of '{name}' is not allowed in the sandbox")
        return modules[name]

    safe.update(
        {
            "__import__": _import,
            "print": _noop_print,
            "range": guarded_range,
            "pow": guarded_pow,
            "format": guarded_format,
            "iter": _safe_iter,
        }
    )
    return safe


# -- loading ------------------------------------------------------------------------------------


def freeze(value: Any) -> Any:
    """A read-only version of a module-level value, or :class:`SandboxViolation` if impossible."""
    if isinstance(value, (str, int, float, bool, bytes, type(None), decimal.Decimal)):
        return value
    if type(value) in (list, tuple) or isinstance(value, collections.deque):
        return tuple(freeze(v) for v in value)
    if isinstance(value, tuple):  # a namedtuple instance
        return type(value)(*(freeze(v) for v in value))
    if isinstance(value, Mapping):
        return types.MappingProxyType({k: freeze(v) for k, v in value.items()})
    if isinstance(value, (set, frozenset)):
        return frozenset(freeze(v) for v in value)
    if isinstance(value, types.FunctionType):
        return _checked_function(value)
    if isinstance(value, types.BuiltinFunctionType) and not _immutable(value.__self__):
        raise SandboxViolation(
            f"module-level bound method '{value.__name__}' of a mutable object would be "
            "shared by all episodes; call the method inside a function",
            construct="module state",
        )
    immutable = (
        types.BuiltinFunctionType,
        SafeModule,
        type,
        re.Pattern,
        datetime.date,
        datetime.time,
        datetime.timedelta,
        datetime.tzinfo,
        type(typing.Any),
        typing.TypeVar,
        types.MappingProxyType,
        range,
    )
    if isinstance(value, decimal.Context):
        raise SandboxViolation(
            "a module-level decimal.Context is mutable (its flags, traps and precision) and "
            "would be shared by all episodes; create it inside the function that needs it, "
            "or use decimal.localcontext()",
            construct="module state",
        )
    if isinstance(value, immutable) or type(value).__module__ == "typing":
        return value
    raise SandboxViolation(
        f"module-level value of type {type(value).__name__} is mutable and would be shared "
        "by all episodes; build it inside the function that needs it",
        construct="module state",
    )


def _immutable(value: Any) -> bool:
    """Whether ``value`` cannot be changed by tool code (so episodes may share it)."""
    if value is None or isinstance(value, (str, int, float, bytes, decimal.Decimal, range)):
        return True
    if isinstance(value, (types.ModuleType, SafeModule, type)):
        return True
    if isinstance(value, (tuple, frozenset)):
        return all(_immutable(v) for v in value)
    if isinstance(value, types.MappingProxyType):
        return all(_immutable(v) for v in value.values())
    if isinstance(value, types.FunctionType):
        try:
            _checked_function(value)
        except SandboxViolation:
            return False
        return True
    if isinstance(value, types.BuiltinFunctionType):
        return _immutable(value.__self__)
    return isinstance(value, (re.Pattern, datetime.date, datetime.time, datetime.timedelta))


def _checked_function(fn: types.FunctionType) -> types.FunctionType:
    """A module-level function, refused when it captures mutable values (a closure over a
    list, a record or a bound method would carry data from one episode to the next) or when
    it rebinds a captured variable (``nonlocal``: the cell itself is then module state)."""
    if fn.__closure__:
        rebound = _rebound_free_variable(fn.__code__, frozenset(fn.__code__.co_freevars))
        if rebound is not None:
            raise SandboxViolation(
                f"module-level function '{fn.__name__}' rebinds the captured variable "
                f"'{rebound}' (nonlocal), which all episodes would share; keep changing "
                "values in the state",
                construct="module state",
            )
    for cell in fn.__closure__ or ():
        try:
            content = cell.cell_contents
        except ValueError:  # an empty cell
            continue
        if content is not fn and not _immutable(content):
            raise SandboxViolation(
                f"module-level function '{fn.__name__}' captures a mutable "
                f"{type(content).__name__} that all episodes would share; build it inside "
                "the function",
                construct="module state",
            )
    return fn


_REBINDS = frozenset({"STORE_DEREF", "DELETE_DEREF"})


def _rebound_free_variable(code: types.CodeType, free: frozenset[str]) -> str | None:
    """The first of the captured variables ``free`` that ``code`` (or a function nested in
    it, which shares the cell) assigns or deletes, or None."""
    if not free:
        return None
    for ins in dis.get_instructions(code):
        if ins.opname in _REBINDS and ins.argval in free:
            return str(ins.argval)
    for const in code.co_consts:
        if isinstance(const, types.CodeType):
            found = _rebound_free_variable(const, free & frozenset(const.co_freevars))
            if found is not None:
                return found
    return None


def exec_module(
    source: str,
    filename: str,
    extra_globals: Mapping[str, Any],
    timeout_s: float = 5.0,
) -> tuple[dict[str, Any], list[ast.FunctionDef]]:
    """Check, guard and run tool code; ``(namespace, top-level function definitions)``.

    Raises :class:`SandboxViolation` (forbidden construct, module body too slow, mutable module
    state) or :class:`EnvLoadError` (the module body raised).
    """
    tree = check_source(source, filename)
    defs = [n for n in tree.body if isinstance(n, ast.FunctionDef)]
    try:
        guarded = ast.fix_missing_locations(_Guard().visit(tree))
        code = compile(guarded, filename, "exec")
    except (RecursionError, MemoryError):
        raise SandboxViolation(
            "the code is nested too deeply to compile; flatten the expression",
            construct="nesting",
        ) from None
    namespace: dict[str, Any] = {"__builtins__": make_builtins(), "__name__": TOOL_MODULE}
    namespace.update(GUARD_GLOBALS)
    namespace.update(extra_globals)
    timed_out, _, error = call_limited(exec, (code, namespace), {}, timeout_s)
    if isinstance(error, KeyboardInterrupt | SystemExit):
        raise error  # a Ctrl-C during loading stops the command; it is not a broken module
    if timed_out:
        raise SandboxViolation(
            f"module-level code ran longer than {timeout_s:g} s", construct="timeout"
        )
    if isinstance(error, ResourceLimit):
        raise SandboxViolation(f"module-level code: {error}", construct="resource limit")
    if error is not None:
        raise EnvLoadError(
            f"{filename}: running the module failed: {type(error).__name__}: {error}"
        ) from error
    reserved = {"__builtins__", "__name__", *GUARD_GLOBALS, *extra_globals}
    for name, value in list(namespace.items()):
        if name not in reserved:
            namespace[name] = freeze(value)
    return namespace, defs
