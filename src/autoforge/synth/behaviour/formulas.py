"""Numbers the docs state as arithmetic over the call's arguments and the records it reaches.

"`price` = rate x nights x (100 - tier.discount_pct) / 100, rounded to 2 decimals",
"Fee: 4% of the price when nights >= 7, else 2% when nights >= 3, else 0",
"computes the fee (free for premium guests or when the price after discount is at least 50,
else 5)": a sentence gives a number attribute of the record the tool writes (the new record of
a create, else its target) as an expression. Every name in it must be read unambiguously, or
the formula is not used and its sentence stays unenforced: a parameter; an attribute of that
record; or an attribute of a record reached through at most two references from a parameter
or the record, written ``<noun>.<attribute>``, "the <noun>'s <attribute>", or bare when exactly
one reachable collection has it. Pieces "A when C, B when D, otherwise E" make a conditional;
a later piece that gives only a share takes the first piece's base; "N% of X" is N/100 x X;
"free" is 0; "<value> <nouns>" is the one reached record whose attribute can hold that value
having it; "X after Y" is X - Y or X + Y by their signs in a stated sum of the record. The
value is a ``formula`` ``["expr", tree, digits]`` (see :func:`expr_code`), rounded half up to
the stated decimals, else to the data's cents. Every rule is stated without naming a domain.
"""

from __future__ import annotations

import ast
import json
import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from autoforge.env import Effect, ToolBehaviour, Value, doc_sentences, python_param_name
from autoforge.lexicon import count_of, number_words
from autoforge.synth.behaviour.headings import tool_sentences
from autoforge.synth.behaviour.ledger import amount_digits
from autoforge.synth.behaviour.paths import Path, reach, record_code
from autoforge.synth.behaviour.prices import closed_values
from autoforge.synth.behaviour.text import new_record_sentences

if TYPE_CHECKING:
    from autoforge.synth.behaviour.data import Context

Tree = list[Any]


@dataclass
class _Scope:
    own: Path
    others: list[Path]
    params: set[str]
    attrs: dict[str, list[str]]  # collection -> attributes
    #: per string attribute of a reached record, its closed set of values
    values: dict[tuple[Path, str], list[str]] = field(default_factory=dict)
    #: the sign each attribute of the record has in a stated sum of its attributes
    signs: dict[str, int] = field(default_factory=dict)
    #: conditions named in words, each held under a placeholder name
    named: dict[str, Tree] = field(default_factory=dict)
    #: the attributes and parameters that hold dates (a difference of two is a count of days)
    dates: set[str] = field(default_factory=set)

    def has(self, path: Path, attr: str) -> bool:
        return attr in self.attrs.get(path.end, [])

    def bare(self, name: str) -> Tree | None:
        if name == "today" and "today" not in self.params:
            return ["today"]
        if name in self.params:
            return ["arg", name]
        if self.has(self.own, name):
            return _rec(self.own, name)
        return self._one([p for p in self.others if self.has(p, name)], name)

    def qualified(self, noun: str, name: str) -> Tree | None:
        noun = noun.lower().replace("_", " ")
        if self.has(self.own, name) and noun in self.own.words():
            return _rec(self.own, name)
        return self._one([p for p in self.others if self.has(p, name) and noun in p.words()], name)

    def _one(self, paths: list[Path], name: str) -> Tree | None:
        """The nearest record of the paths, when they all reach one collection by one
        shortest route."""
        if not paths or len({p.end for p in paths}) != 1:
            return None
        shortest = min(len(p.hops) for p in paths)
        near = [p for p in paths if len(p.hops) == shortest]
        return _rec(near[0], name) if len(near) == 1 else None


def _rec(path: Path, attr: str) -> Tree:
    return ["rec", path.start, path.coll, [list(h) for h in path.hops], attr]


_OPS = {ast.Add: "+", ast.Sub: "-", ast.Mult: "*", ast.Div: "/"}
_CMPS = {ast.Lt: "<", ast.LtE: "<=", ast.Gt: ">", ast.GtE: ">=", ast.Eq: "==", ast.NotEq: "!="}


def _tree(node: ast.AST, scope: _Scope) -> Tree | None:
    """The formula tree of one arithmetic expression, None when any part is not read."""
    if isinstance(node, ast.Constant) and type(node.value) in (int, float):
        return ["num", node.value]
    if isinstance(node, ast.Name):
        return scope.bare(node.id)
    if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name):
        return scope.qualified(node.value.id, node.attr)
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        inner = _tree(node.operand, scope)
        return None if inner is None else ["op", "-", ["num", 0], inner]
    if isinstance(node, ast.BinOp) and type(node.op) in _OPS:
        left, right = _tree(node.left, scope), _tree(node.right, scope)
        if left is None or right is None:
            return None
        if isinstance(node.op, ast.Sub) and _dated(left, scope) and _dated(right, scope):
            return ["days", right, left]  # "today - closed_on": the days between them
        if _dated(left, scope) or _dated(right, scope):
            return None  # a date in arithmetic other than a difference of dates
        return ["op", _OPS[type(node.op)], left, right]
    if isinstance(node, ast.Call):
        return _call(node, scope)
    if isinstance(node, ast.IfExp):
        cond = _cond(node.test, scope)
        body, other = _tree(node.body, scope), _tree(node.orelse, scope)
        if cond is None or body is None or other is None:
            return None
        return ["if", [[cond, body]], other]
    return None


def _dated(t: Tree, scope: _Scope) -> bool:
    """Whether a read value is a date: today, or a date attribute or argument."""
    return t == ["today"] or (t[0] in ("rec", "arg") and t[-1] in scope.dates)


def _call(node: ast.Call, scope: _Scope) -> Tree | None:
    """``min(...)`` or ``max(...)`` of two or more read expressions; ``round(x, d)`` as ``x``
    (a formula is rounded once, to its stated decimals)."""
    name = node.func.id if isinstance(node.func, ast.Name) else ""
    if name == "round" and len(node.args) in (1, 2) and not node.keywords:
        return _tree(node.args[0], scope)
    if name not in ("min", "max") or len(node.args) < 2 or node.keywords:
        return None
    args = [_tree(a, scope) for a in node.args]
    return None if any(a is None for a in args) else ["fn", name, args]


def _cond(node: ast.AST, scope: _Scope) -> Tree | None:
    if isinstance(node, ast.Name) and node.id in scope.named:
        return scope.named[node.id]
    said = _said(node, scope)
    if said is not None:
        return said
    if isinstance(node, ast.Compare) and all(type(o) in _CMPS for o in node.ops):
        read = [_tree(t, scope) for t in [node.left, *node.comparators]]
        terms = [t for t in read if t is not None]
        if len(terms) != len(read):
            return None
        if any(_dated(t, scope) for t in terms):  # dates compare as day numbers
            if not all(_dated(t, scope) for t in terms):
                return None
            terms = [["day", t] for t in terms]
        return ["cmp", [_CMPS[type(o)] for o in node.ops], terms]
    if isinstance(node, ast.BoolOp):
        parts = [_cond(v, scope) for v in node.values]
        if any(p is None for p in parts):
            return None
        return ["and" if isinstance(node.op, ast.And) else "or", parts]
    return None


def _said(node: ast.AST, scope: _Scope) -> Tree | None:
    """A test of a read value against words: ``x == 'word'``, ``x in ('a', 'b')``, ``x is
    True``/``x == False``; None for any other node."""
    if not isinstance(node, ast.Compare) or len(node.ops) != 1:
        return None
    op, right = node.ops[0], node.comparators[0]
    if isinstance(op, ast.Eq | ast.Is) and isinstance(right, ast.Constant):
        words = [right.value]
    elif isinstance(op, ast.In) and isinstance(right, ast.Tuple | ast.List | ast.Set):
        words = [e.value for e in right.elts if isinstance(e, ast.Constant)]
        words = words if len(words) == len(right.elts) else []
    else:
        return None
    if not words or not all(isinstance(w, str | bool) for w in words):
        return None
    held = _tree(node.left, scope)
    if held is None or held[0] not in ("arg", "rec"):
        return None
    tests: list[Tree] = [["is", held, w] for w in words]
    return tests[0] if len(tests) == 1 else ["or", tests]


_WORDS = (
    (r"`", ""),
    (r"\$(?=\d)", ""),
    (r"\b(?:the\s+)?(\w+)'s\s+(\w+)", r"\1.\2"),  # the plan's fee -> plan.fee
    (r"(\d+(?:\.\d+)?)\s*%\s*of\s+", r"(\1 / 100) * "),
    (r"(\d+(?:\.\d+)?)\s*%", r"(\1 / 100)"),
    (r"(?<=[\w)])\s+[x×]\s+(?=[\w(])", " * "),
    (r"×|·", "*"),
    (r"÷", "/"),
    (r"\bthe\s+", ""),
    (r"\bis\s+at\s+least\b", ">="),
    (r"\bis\s+at\s+most\b", "<="),
    (r"\bis\s+(?:above|over|more\s+than|greater\s+than)\b", ">"),
    (r"\bis\s+(?:below|under|less\s+than)\b", "<"),
    (r"(?<![<>=!])=(?!=)", "=="),
)


def _normal(text: str) -> str:
    for pat, rep in _WORDS:
        text = re.sub(pat, rep, text, flags=re.I)
    return text.strip()


def _worded(text: str, scope: _Scope, cond: bool) -> str:
    """``text`` with what words say put as code: "X after Y" as X - Y or X + Y by their signs
    in a stated sum of the record; in a condition, "<value> <nouns>" (a value exactly one
    reached record's attribute can hold) as a placeholder for that record having it."""

    def after(m: re.Match[str]) -> str:
        x, y = m.group(1), m.group(2)
        if x not in scope.signs or y not in scope.signs:
            return m.group(0)
        return f"({x} {'-' if scope.signs[x] != scope.signs[y] else '+'} {y})"

    text = re.sub(r"\b(\w+)\s+after\s+(\w+)\b", after, re.sub(r"\bthe\s+", "", text))
    if not cond:
        return re.sub(r"^\s*(?:free|nothing)\s*$", "0", text, flags=re.I)
    text = re.sub(r"\b(or|and)\s+(?:when|if)\b", r"\1", text, flags=re.I)
    for word in set(re.findall(r"\b([\w-]+)\s+[a-z]+s\b", text)):
        holders = [k for k, vs in scope.values.items() if word in vs]
        if len(holders) == 1:
            (path, attr), name = holders[0], f"_said{len(scope.named)}"
            scope.named[name] = ["is", _rec(path, attr), word]
            text = re.sub(rf"\b{re.escape(word)}\s+[a-z]+s\b", name, text)
    return text


def _parse(text: str, scope: _Scope, cond: bool = False) -> Tree | None:
    try:
        node = ast.parse(_normal(_worded(text, scope, cond)), mode="eval").body
    except SyntaxError:
        return None
    return _cond(node, scope) if cond else _tree(node, scope)


def _longest(text: str, scope: _Scope) -> tuple[Tree, str] | None:
    """The tree of the longest leading run of words that is a whole expression, and the rest."""
    cuts = [m.start() for m in re.finditer(r"[\s,;]|\.(?=\s|$)", text)] + [len(text)]
    for cut in sorted(set(cuts), reverse=True):
        tree = _parse(text[:cut], scope)
        if tree is not None:
            return tree, text[cut:]
    return None


def _split(text: str) -> list[str]:
    """``text`` cut at commas and semicolons outside parentheses and before "else" or
    "otherwise"."""
    parts, depth, cur = [], 0, ""
    for ch in text:
        depth += (ch == "(") - (ch == ")")
        if ch in ",;" and depth == 0:
            parts.append(cur)
            cur = ""
        else:
            cur += ch
    parts.append(cur)
    out = []
    for p in parts:
        out += [q for q in re.split(r"\s+(?=(?:else|otherwise)\b)", p) if q.strip()]
    return [p.strip() for p in out]


def _pieces(text: str, scope: _Scope) -> Tree | None:
    """A conditional "A when C, B when D, otherwise E" (every piece read), else None."""
    arms: list[list[Any]] = []
    default: Tree | None = None
    shape = "{}"
    for n, piece in enumerate(_split(text)):
        piece = re.sub(r"^(?:and\s+|or\s+)?(?:else|otherwise)\s*,?\s*", "", piece, flags=re.I)
        if n == 0:
            shape = _shape(piece)
        else:  # "10% of X when ..., 5% when ...": the later shares are of X too
            share = re.match(rf"^({_PCT})(?!\s*of\b)", piece)
            piece = shape.format(share.group(1)) + piece[share.end() :] if share else piece
        tail = re.match(r"^(?P<v>.+?)\s+(?:otherwise|else)$", piece, re.I)
        m = re.match(r"^(?P<v>.+?)\s+(?:when|if|for)\s+(?P<c>.+)$", piece, re.I)
        if m:
            value, cond = _parse(m.group("v"), scope), _parse(m.group("c"), scope, cond=True)
            if value is None or cond is None or default is not None:
                return None
            arms.append([cond, value])
            continue
        value = _parse(tail.group("v") if tail else piece, scope)
        if value is None or default is not None:
            break  # prose after the last piece
        default = value
    if not arms or default is None:
        return None
    return ["if", arms, default]


_PCT = r"\d+(?:\.\d+)?\s*%"


def _shape(first: str) -> str:
    """How the first piece applies its share ("{} of X", "X x {}"), for pieces that give
    only a share."""
    m = re.match(rf"^{_PCT}\s+(of\s+.+?)(?=\s+(?:when|if|for)\b|$)", first, re.I)
    if m:
        return "{} " + m.group(1).replace("{", "").replace("}", "")
    m = re.match(rf"^(.+?\s+(?:x|\*|×)\s*){_PCT}", first, re.I)
    if m:
        return m.group(1).replace("{", "").replace("}", "") + "{}"
    return "{}"


def _digits(text: str) -> int | None:
    m = re.search(rf"rounded\s+(?:half\s+up\s+)?to\s+(\d+|{number_words(3)})\s+decimal", text, re.I)
    if m is None:
        return (
            2
            if re.search(r"rounded\s+(?:half\s+up\s+)?to\s+(?:the\s+)?cents?\b", text, re.I)
            else None
        )
    return count_of(m.group(1))


_ROUNDING = re.compile(r"\s*[,(]?\s*\(?\s*(?:and\s+)?rounded\b[^)]*\)?", re.I)


def _formula(a: str, text: str, scope: _Scope) -> tuple[Tree, int | None] | None:
    """``a``'s formula in ``text`` ("`a` = ...", "A: ...", "`a` = `b` = ..."), with its stated
    decimals."""
    words = rf"(?:{re.escape(a)}|{re.escape(a.replace('_', ' '))})"
    head = re.search(rf"(?<![\w.`])`?{words}`?\s*(?:(?<![<>!=])=(?!=)|:)\s*", text, re.I)
    verb = r"\b(?:computes|calculates|works\s+out)\s+(?:the\s+)?"
    said = re.search(rf"{verb}`?{words}`?\s*\((?P<rhs>[^)]*)\)", text, re.I)
    if head is None and said is None:
        return None
    rhs = said.group("rhs") if said else text[head.end() :] if head else ""
    while chain := re.match(r"`?\w+`?\s*=(?!=)\s*", rhs):  # "`a` = `b` = value": a = value
        rhs = rhs[chain.end() :]
    digits = _digits(rhs)
    rhs = re.split(r"\.\s+", _ROUNDING.sub("", rhs))[0].strip().rstrip(".")
    tree = _pieces(rhs, scope)
    if tree is None:
        found = _longest(rhs, scope)
        if found is None or re.match(r"^\s*(?:when|if|for\b|=|[-+*/×(%]|x\s)", found[1], re.I):
            return None  # an unread condition or operand
        tree = found[0]
    return tree, digits


def formula_texts(description: str, tb: ToolBehaviour, ctx: Context) -> list[str]:
    """Where a tool's formulas are stated: its description, its policy sections (and, for a
    create, the policy's sentences on a new record), then each property description of the
    record that holds arithmetic ("Amount charged: subtotal - discount + shipping_fee")."""
    coll = tb.collection or ""
    texts = [description, *tool_sentences(ctx.policy, tb.tool, ctx.headed, ctx.verbs)]
    if tb.kind == "create":
        texts += new_record_sentences(ctx.policy, coll)
    for a, schema in ctx.schemas.get(coll, {}).items():
        desc = schema.get("description") if isinstance(schema, dict) else None
        if isinstance(desc, str) and re.search(r"\w\s*(?:[-+*/×]|\sx)\s+\w", desc):
            texts.append(f"`{a}` = " + desc.rsplit(":", 1)[-1].strip())
    return texts


def _scope_of(tb: ToolBehaviour, ctx: Context) -> _Scope | None:
    """The names a formula of ``tb`` may use: its parameters and the records it reaches."""
    own, others = reach(tb, ctx)
    if own is None:
        return None
    colls = {own.end} | {p.end for p in others}
    scope = _Scope(
        own, others, {p.name for p in tb.params}, {c: ctx.ev.attributes.get(c, []) for c in colls}
    )
    scope.values = {
        (path, a): vs for path in [own, *others] for a, vs in closed_values(ctx, path.end).items()
    }
    scope.dates = {a for c in colls for a in ctx.ev.dated_attributes(c)}
    scope.dates |= {p.name for p in tb.params if p.format == "date"}
    return scope


def formula_scope(tb: ToolBehaviour, ctx: Context) -> _Scope | None:
    """The names a formula of ``tb`` may use (its parameters, its record and the records it
    reaches), for :func:`expression_tree`."""
    return _scope_of(tb, ctx)


def expression_tree(code: str, scope: _Scope) -> Tree | None:
    """The formula tree of one Python expression (arithmetic, ``min``/``max``, ``x if c else
    y``, comparisons, tests against words), None unless every name in it is read in
    ``scope``."""
    try:
        node = ast.parse(code.strip(), mode="eval").body
    except SyntaxError:
        return None
    return _tree(node, scope)


def amount_expr(text: str, tb: ToolBehaviour, ctx: Context) -> Value | None:
    """The arithmetic ``text`` opens with ("`packs × pack_size` units and ..."), as an
    ``expr`` formula, when every name in it is read and it is more than one name or number:
    the amount a counter moves by."""
    scope = _scope_of(tb, ctx)
    found = _longest(text.strip(), scope) if scope is not None else None
    if found is None or found[0][0] != "op":
        return None
    return Value(source="formula", const=["expr", found[0], None])


def named_amount(text: str, tb: ToolBehaviour, ctx: Context) -> Value | None:
    """The amount a whole phrase names ("the plan's guest_pass_fee", "`rate × hours`") as an
    ``expr`` formula, when every name in it is read: a record the call reaches, or arithmetic
    over what it reaches."""
    scope = _scope_of(tb, ctx)
    tree = _parse(text.strip(), scope) if scope is not None else None
    if tree is None or tree[0] not in ("rec", "op", "fn"):
        return None
    return Value(source="formula", const=["expr", tree, None])


def condition_tree(text: str, tb: ToolBehaviour, ctx: Context) -> Tree | None:
    """``text`` ("filled_count < capacity") as a formula condition over the call's arguments
    and the records it reaches; None unless every name in it is read."""
    scope = _scope_of(tb, ctx)
    return _parse(text, scope, cond=True) if scope is not None else None


def cond_code(tree: Tree) -> str:
    """The Python test of a formula condition inside a compiled tool."""
    return _code(tree)


def formula_values(texts: list[str], tb: ToolBehaviour, ctx: Context) -> dict[str, Value]:
    """``{attribute: formula}`` for each attribute of the record ``tb`` writes that a sentence
    of ``texts`` gives as an expression every name of which is read (see the module)."""
    scope = _scope_of(tb, ctx)
    if scope is None:
        return {}
    own = scope.own
    out: dict[str, Value] = {}
    ints = set(ctx.ev.typed_attributes(own.coll, "int"))
    numbers = number_attributes(ctx, own.coll)
    sentences = [s for t in texts for s in doc_sentences(t)]
    for _ in range(2):  # again once the stated sums give each attribute its sign
        for s in sentences:
            for a in scope.attrs.get(own.coll, []):
                if a in out or a in scope.params or a == tb.id_param or a not in numbers:
                    continue
                found = _formula(a, s, scope)
                if found is None or found[0] == _rec(own, a):
                    continue
                tree, digits = found
                if digits is None:
                    digits = 0 if a in ints else amount_digits(ctx, own.coll, a)
                out[a] = Value(source="formula", const=["expr", tree, digits])
        for v in out.values():
            scope.signs |= _signs(v.const[1], 1)
    return out


def _mentions(v: Value, attrs: set[str]) -> set[str]:
    """The attributes of ``attrs`` a formula value names (any formula kind)."""
    if v.source != "formula":
        return set()
    said = json.dumps(v.const)
    return {a for a in attrs if f'"{a}"' in said}


def after_computed(effects: list[Effect]) -> list[Effect]:
    """``effects`` with each formula of a create that reads an attribute a later write of the
    new record computes (a sum over its lines) moved into that write, before the first field
    that reads it; one that write computes anyway is left to it."""
    create = next((e for e in effects if e.kind == "create" and e.record == "new"), None)
    later = [e for e in effects if e.kind == "set" and e.record == "new"]
    if create is None or not later:
        return effects
    written = {a for e in later for a in e.fields}
    moving: dict[str, Value] = {}
    for _ in range(len(create.fields)):
        for a, v in create.fields.items():
            expr = a not in moving and v.const and v.const[0] == "expr"
            if expr and _mentions(v, written | set(moving)) - {a}:
                moving[a] = v
    if not moving:
        return effects
    create.fields = {a: v for a, v in create.fields.items() if a not in moving}
    last, fields = later[-1], dict[str, Value]()
    for a, v in last.fields.items():
        for m in sorted(_mentions(v, set(moving)) - set(fields) - written):
            fields[m] = moving[m]
        fields[a] = v
    last.fields = fields | {m: v for m, v in moving.items() if m not in fields and m not in written}
    return effects


def _signs(t: Tree, sign: int) -> dict[str, int]:
    """The sign of each attribute of the record in a sum of its attributes, empty for any
    other tree."""
    if t[0] == "rec" and t[1] in ("new", "target") and not t[3]:
        return {t[4]: sign}
    if t[0] == "op" and t[1] in "+-":
        left, right = _signs(t[2], sign), _signs(t[3], sign if t[1] == "+" else -sign)
        return left | right if left and right else {}
    return {}


def number_attributes(ctx: Context, coll: str) -> set[str]:
    """The attributes of ``coll`` that hold numbers: so typed in the schema, else in the data."""
    out = set(ctx.ev.float_attributes(coll)) | set(ctx.ev.typed_attributes(coll, "int"))
    for a, schema in ctx.schemas.get(coll, {}).items():
        types = schema.get("type") if isinstance(schema, dict) else None
        types = types if isinstance(types, list) else [types]
        if "number" in types or "integer" in types:
            out.add(a)
    return out


def uses_expr(tb: ToolBehaviour) -> bool:
    """Whether a write of ``tb`` computes an ``expr`` formula (and needs its helpers)."""
    values = [v for e in tb.effects for v in [*e.fields.values(), e.value] if v is not None]
    cases = any(len(e.when) == 3 and e.when[0] == "expr" for e in tb.effects)
    cases = cases or any(c.kind == "holds" for c in tb.checks)
    return cases or any(v.source == "formula" and v.const and v.const[0] == "expr" for v in values)


def tree_nodes(tree: Any, kind: str) -> list[Tree]:
    """The nodes of ``kind`` ("rec", "arg", ...) anywhere in a formula tree."""
    if not isinstance(tree, list):
        return []
    own = [tree] if tree and tree[0] == kind else []
    return own + [n for t in tree if isinstance(t, list) for n in tree_nodes(t, kind)]


def expr_code(tree: Tree, digits: int | None) -> str:
    """The Python expression of an ``expr`` formula inside a compiled tool; a missing or
    non-numeric operand makes the value None (a comparison on one is false)."""
    return f"_rd({_code(tree)}, {digits!r})"


def _code(t: Tree) -> str:
    kind = t[0]
    if kind == "num":
        return repr(t[1])
    if kind == "arg":
        return python_param_name(t[1])
    if kind == "rec":
        return f"({record_code(t[1], t[2], t[3])} or {{}}).get({t[4]!r})"
    if kind == "op":
        return f"_ar({_code(t[2])}, {t[1]!r}, {_code(t[3])})"
    if kind == "fn":
        return f"_mm({t[1] == 'max'!r}, [{', '.join(_code(a) for a in t[2])}])"
    if kind == "cmp":
        return f"_cm([{', '.join(_code(a) for a in t[2])}], {t[1]!r})"
    if kind == "is":
        return f"({_code(t[1])} == {t[2]!r})"
    if kind in ("and", "or"):
        return "(" + f" {kind} ".join(_code(c) for c in t[1]) + ")"
    if kind == "days":
        return f"_days_between({_code(t[1])}, {_code(t[2])})"
    if kind == "today":
        return "_today"
    if kind == "day":
        return f"_day_number({_code(t[1])})"
    if kind == "ceil":
        return f"_ceil_of({_code(t[1])})"
    if kind == "if":
        out = _code(t[2])
        for cond, value in reversed(t[1]):
            out = f"({_code(value)} if {_code(cond)} else {out})"
        return out
    raise ValueError(f"unknown formula node {kind!r}")


def helper_lines() -> list[str]:
    """The arithmetic an ``expr`` formula calls: numbers only, None through."""
    return [
        "def _nm(_v):",
        "    return _v if isinstance(_v, (int, float)) and not isinstance(_v, bool) else None",
        "def _ar(_a, _o, _b):",
        "    _a, _b = _nm(_a), _nm(_b)",
        "    if _a is None or _b is None or (_o == '/' and _b == 0):",
        "        return None",
        "    if _o == '+':",
        "        return _a + _b",
        "    if _o == '-':",
        "        return _a - _b",
        "    return _a * _b if _o == '*' else _a / _b",
        "def _mm(_hi, _xs):",
        "    _xs = [_nm(_x) for _x in _xs]",
        "    if None in _xs:",
        "        return None",
        "    return max(_xs) if _hi else min(_xs)",
        "def _cm(_xs, _os):",
        "    _xs = [_nm(_x) for _x in _xs]",
        "    if None in _xs:",
        "        return False",
        "    for _i in range(len(_os)):",
        "        _a, _b, _o = _xs[_i], _xs[_i + 1], _os[_i]",
        "        _ok = {'<': _a < _b, '<=': _a <= _b, '>': _a > _b, '>=': _a >= _b,",
        "               '==': _a == _b, '!=': _a != _b}[_o]",
        "        if not _ok:",
        "            return False",
        "    return True",
        "def _day_number(_s):",
        "    _s = str(_s)",
        "    if len(_s) < 10 or not (_s[:4] + _s[5:7] + _s[8:10]).isdigit():",
        "        return None",
        "    _y, _m, _d = int(_s[:4]), int(_s[5:7]), int(_s[8:10])",
        "    _y -= _m <= 2",
        "    _era = _y // 400",
        "    _yoe = _y - _era * 400",
        "    _doy = (153 * (_m + (-3 if _m > 2 else 9)) + 2) // 5 + _d - 1",
        "    return _era * 146097 + _yoe * 365 + _yoe // 4 - _yoe // 100 + _doy",
        "def _days_between(_a, _b):",
        "    _a, _b = _day_number(_a), _day_number(_b)",
        "    return None if _a is None or _b is None else _b - _a",
        "def _ceil_of(_v):",
        "    _v = _nm(_v)",
        "    if _v is None:",
        "        return None",
        "    return int(_v) + (1 if _v > int(_v) else 0)",
        "def _rd(_v, _d):",
        "    _v = _nm(_v)",
        "    if _v is None or _d is None:",
        "        return _v",
        "    _s = 10 ** _d",
        "    _r = int(abs(_v) * _s + 0.5 + 1e-9) / _s",
        "    _r = _r if _v >= 0 else -_r",
        "    return int(_r) if _d == 0 else _r",
    ]
