"""Binding documented tools to their Python implementations, and preparing call arguments.

Contract checked at load time (every problem is listed in one :class:`EnvLoadError`):

* every documented tool has exactly one top-level ``def`` of the same name in ``tools.py``;
* its first parameter is the positional ``state``; the others are exactly the documented
  parameters (as keyword-capable parameters), required ones without a default and optional
  ones with a default; no ``*args`` / ``**kwargs``;
* every other top-level function is a helper whose name starts with ``_``;
* every parameter schema is a valid JSON Schema object.

A documented parameter whose name Python or the sandbox refuses, or that would hide a name the
generated code relies on, is written with a trailing underscore in Python: keywords (``from`` ->
``from_``), ``state`` (a US state in an address tool), the sandbox's banned names (``id``,
``type``, ``hash``, ``object``, ``input``), the builtins the sandbox grants (``filter``,
``max``) and its importable modules (``re``, ``json``). A leading ``__`` (refused as a dunder)
becomes ``p__``; names that are not identifiers get ``_`` for each invalid character
(:func:`python_param_name`). Callers always use the documented name: the binding maps it to
the Python name, and back in every message that names a parameter.
"""

from __future__ import annotations

import ast
import inspect
import json
import keyword
import re
from collections import Counter
from collections.abc import Callable, Mapping
from typing import Any

from autoforge.env.artifact.files import TOOLS_FILE
from autoforge.env.artifact.spec import EnvironmentSpec
from autoforge.env.calls.validation import Validator, compile_validator, schema_problem
from autoforge.env.errors import EnvLoadError
from autoforge.env.isolation.sandbox import ALLOWED_MODULES, BANNED_NAMES, SAFE_BUILTIN_NAMES
from autoforge.env.state.values import jcopy
from autoforge.tooldocs import ToolSpec

_SCALARS = (str, int, float, bool, type(None))


#: Names a documented parameter cannot keep in a generated signature: ``state`` (the first
#: parameter), names the sandbox refuses, and names the generated code calls (builtins, modules).
RESERVED_PARAM_NAMES: frozenset[str] = frozenset(
    {"state", *BANNED_NAMES, *SAFE_BUILTIN_NAMES, *ALLOWED_MODULES}
)


def python_param_name(name: str) -> str:
    """The Python parameter name for documented parameter ``name``: the name itself when
    Python and the sandbox accept it and it hides nothing, else a renamed one."""
    if not name.isidentifier():
        fixed = re.sub(r"\W", "_", name)
        name = f"_{fixed}" if fixed[:1].isdigit() else fixed
    if name.startswith("__"):
        return f"p{name}"
    if keyword.iskeyword(name) or name in RESERVED_PARAM_NAMES:
        return f"{name}_"
    return name


def legacy_param_name(name: str) -> str:
    """The Python name earlier code gave ``name`` (only keywords and ``state`` were renamed);
    a stored environment whose functions still use it keeps loading."""
    if name.isidentifier():
        return f"{name}_" if keyword.iskeyword(name) or name == "state" else name
    fixed = re.sub(r"\W", "_", name)
    return f"_{fixed}" if fixed[:1].isdigit() else fixed


def bound_param_names(spec: ToolSpec, fn: Callable[..., Any] | None) -> dict[str, str]:
    """Documented name -> Python name for ``spec``'s parameters as ``fn`` declares them: the
    current names, or the legacy ones when ``fn`` (a stored environment) was written with them."""
    current = {p: python_param_name(p) for p in spec.param_names}
    legacy = {p: legacy_param_name(p) for p in spec.param_names}
    if fn is None or legacy == current:
        return current
    try:
        declared = set(inspect.signature(fn).parameters)
    except (TypeError, ValueError):
        return current
    if set(current.values()) <= declared or not set(legacy.values()) <= declared:
        return current
    return legacy


class ToolBinding:
    """A documented tool bound to its function, with its compiled argument validator."""

    __slots__ = ("fast", "fn", "params", "renamed", "spec", "validate")

    def __init__(self, spec: ToolSpec, fn: Callable[..., Any]) -> None:
        self.spec = spec
        self.fn = fn
        self.validate: Validator
        self.validate, self.fast = compile_validator(spec.parameters)
        self.params = bound_param_names(spec, fn)
        self.renamed = any(k != v for k, v in self.params.items())

    def prepare(
        self, arguments: Mapping[str, Any] | str | None
    ) -> tuple[dict[str, Any], str | None]:
        """``(keyword arguments for the function, None)`` or ``({}, problem)``.

        Arguments are validated against the schema and copied, so a tool mutating them
        cannot change the caller's objects.
        """
        checked, problem = self.check(arguments)
        if problem is not None:
            return {}, problem
        params = self.params
        if self.renamed:
            return {params[k]: _copy(v) for k, v in checked.items()}, None
        return {k: _copy(v) for k, v in checked.items()}, None

    def check(self, arguments: Mapping[str, Any] | str | None) -> tuple[dict[str, Any], str | None]:
        """``(arguments as a dict, None)`` or ``({}, problem)``: :meth:`prepare`'s checks
        without its copy, for a caller that only needs the verdict (a contained episode,
        whose worker prepares the call again from the arguments it receives)."""
        if arguments is None:
            arguments = {}
        elif isinstance(arguments, str):
            try:
                arguments = json.loads(arguments) if arguments.strip() else {}
            except json.JSONDecodeError as exc:
                return {}, f"arguments are not valid JSON ({exc.msg})"
        if type(arguments) is not dict:
            if not isinstance(arguments, Mapping):
                return {}, "arguments must be a JSON object"
            arguments = dict(arguments)
        params = self.params
        for key in arguments:
            if key not in params:
                expected = ", ".join(params) or "no arguments"
                return {}, f"unexpected argument {key!r} (expected: {expected})"
        problem = self.validate(arguments)
        if problem is not None:
            return {}, problem
        return arguments, None


def _copy(value: Any) -> Any:
    return value if type(value) in _SCALARS else jcopy(value)


def _signature_problems(spec: ToolSpec, fn: Callable[..., Any]) -> list[str]:
    name = spec.name
    try:
        params = list(inspect.signature(fn).parameters.values())
    except (TypeError, ValueError):
        return [f"tool '{name}': its signature cannot be read"]
    names = bound_param_names(spec, fn)
    documented = {names[p]: p in spec.required for p in spec.param_names}
    want = ", ".join(["state", *(p if r else f"{p}=None" for p, r in documented.items())])
    fix = f"(fix: def {name}({want}))"
    problems: list[str] = []
    first = params[0] if params else None
    if (
        first is None
        or first.name != "state"
        or first.kind
        not in (
            inspect.Parameter.POSITIONAL_ONLY,
            inspect.Parameter.POSITIONAL_OR_KEYWORD,
        )
    ):
        problems.append(f"tool '{name}': the first parameter must be 'state' {fix}")
    rest = params[1:] if first is not None and first.name == "state" else params
    seen = set()
    for p in rest:
        if p.kind in (inspect.Parameter.VAR_POSITIONAL, inspect.Parameter.VAR_KEYWORD):
            problems.append(f"tool '{name}': *args/**kwargs are not allowed ({p}) {fix}")
            continue
        if p.kind is inspect.Parameter.POSITIONAL_ONLY:
            problems.append(f"tool '{name}': parameter '{p.name}' must not be positional-only")
        if p.name not in documented:
            problems.append(f"tool '{name}': parameter '{p.name}' is not documented {fix}")
            continue
        seen.add(p.name)
        required = documented[p.name]
        has_default = p.default is not inspect.Parameter.empty
        if required and has_default:
            problems.append(f"tool '{name}': required parameter '{p.name}' must have no default")
        if not required and not has_default:
            problems.append(
                f"tool '{name}': optional parameter '{p.name}' needs a default (e.g. None)"
            )
    for missing in documented.keys() - seen:
        problems.append(f"tool '{name}': documented parameter '{missing}' is missing {fix}")
    return problems


def _spec_problems(spec: EnvironmentSpec) -> list[str]:
    problems = []
    counts = Counter(t.name for t in spec.tools)
    problems += [f"tool '{n}' is documented {c} times" for n, c in counts.items() if c > 1]
    for tool in spec.tools:
        if tool.name.startswith("_") or not tool.name.isidentifier():
            problems.append(
                f"tool '{tool.name}': not a public Python identifier (dunder and private names "
                "would shadow Python's own names); rename it"
            )
        why = schema_problem(tool.parameters)
        if why is not None:
            problems.append(f"tool '{tool.name}': invalid parameters schema: {why}")
        elif tool.parameters.get("type", "object") != "object":
            problems.append(f"tool '{tool.name}': parameters schema must be of type 'object'")
        names = [python_param_name(p) for p in tool.param_names]
        if len(set(names)) != len(names):
            problems.append(
                f"tool '{tool.name}': parameter names collide in Python ({', '.join(names)})"
            )
    return problems


def _remote(*args: Any, **kwargs: Any) -> Any:
    raise RuntimeError("this tool runs in the sandbox worker, not in this process")


def bind_specs(spec: EnvironmentSpec) -> dict[str, ToolBinding]:
    """Validators for the documented tools of a contained environment (the functions live in
    the sandbox worker, which binds and checks them; :class:`EnvLoadError` for a bad spec)."""
    problems = _spec_problems(spec)
    if problems:
        listing = "\n  - ".join(problems)
        raise EnvLoadError(f"the spec's tools are invalid:\n  - {listing}")
    return {tool.name: ToolBinding(tool, _remote) for tool in spec.tools}


def bind_tools(
    spec: EnvironmentSpec,
    namespace: Mapping[str, Any],
    defs: list[ast.FunctionDef],
    filename: str = TOOLS_FILE,
) -> dict[str, ToolBinding]:
    """Bind every documented tool to its function; :class:`EnvLoadError` lists all problems."""
    problems = _spec_problems(spec)
    if problems:
        listing = "\n  - ".join(problems)
        raise EnvLoadError(f"the spec's tools are invalid:\n  - {listing}")
    def_counts = Counter(d.name for d in defs)
    documented = {t.name for t in spec.tools}
    for fname, count in def_counts.items():
        if count > 1:
            problems.append(f"function '{fname}' is defined {count} times (keep one)")
        if fname not in documented and not fname.startswith("_"):
            problems.append(
                f"function '{fname}' is not a documented tool (rename helpers to '_{fname}')"
            )
    bindings: dict[str, ToolBinding] = {}
    for tool in spec.tools:
        fn = namespace.get(tool.name) if tool.name in def_counts else None
        if fn is None or not callable(fn):
            want = ", ".join(["state", *map(python_param_name, tool.param_names)])
            problems.append(
                f"tool '{tool.name}' has no implementation (add: def {tool.name}({want}))"
            )
            continue
        sig = _signature_problems(tool, fn)
        problems += sig
        if not sig and tool.name not in bindings:
            bindings[tool.name] = ToolBinding(tool, fn)
    if problems:
        listing = "\n  - ".join(problems)
        raise EnvLoadError(f"{filename} does not match the spec:\n  - {listing}")
    return bindings
