"""Preconditions the docs, the policy and the parameter schemas state, enforced as guards.

A rule is kept only when it is stated about this tool and names values the domain has:

* **status** -- "Only `pending` orders can be cancelled", "Cancel an order that is still
  pending", "Shipped, delivered or already cancelled orders cannot be cancelled": the record the
  tool's key parameter names must (not) be in those statuses; the values must be enum values of
  the collection's status attribute, and a policy sentence must name the tool's action;
* **range** -- a parameter's JSON-schema ``minimum``/``maximum``, or a sentence naming the
  parameter with "from 1 to 5" / "between 1 and 5";
* **enum** -- a parameter's JSON-schema ``enum``, or a sentence about the tool's action that
  names the parameter and lists two or more quoted values ("a reason (`a`, `b` or `c`)");
* **unique** -- a create whose docs say it may happen "only once" ("may review each book only
  once"): no record of the collection may already hold the same values of the parameters
  that name other records (``customer_id`` + ``book_id``).

Each rule keeps the sentence it came from; the synthesis report lists them. :func:`guard_lines`
renders them as code that raises ``ToolError`` before the tool body runs, and :func:`guarded`
puts that code into any implementation (template, model answer or skeleton), so a rule holds
whoever wrote the rest.
"""

from __future__ import annotations

import ast
import math
import re
from typing import Any, Literal

from pydantic import BaseModel

from autoforge.env import CollectionSchema, StateSchema
from autoforge.synth.classify import Classification
from autoforge.synth.codegen import ToolCode, extract_function
from autoforge.synth.naming import singular, tokens
from autoforge.tooldocs import ONCE_ONLY, ToolSpec

RuleKind = Literal["status", "range", "enum", "unique"]


class DocRule(BaseModel):
    """One precondition and the sentence that states it."""

    tool: str
    kind: RuleKind
    param: str
    collection: str | None = None
    attribute: str | None = None
    allowed: list[Any] = []
    forbidden: list[Any] = []
    low: float | None = None
    high: float | None = None
    fields: list[str] = []
    sentence: str
    source: Literal["description", "policy", "parameter schema"]

    def describe(self) -> str:
        """The rule in words (for reports and error messages)."""
        if self.kind == "status":
            which = (
                f"one of {', '.join(map(str, self.allowed))}"
                if self.allowed
                else f"not {', '.join(map(str, self.forbidden))}"
            )
            return f"{self.collection}.{self.attribute} of {self.param} must be {which}"
        if self.kind == "unique":
            return f"one {self.collection} record per {' + '.join(self.fields)}"
        if self.kind == "range":
            return _range_text(self.param, self.low, self.high)
        return f"{self.param} must be one of {', '.join(map(str, self.allowed))}"


def _finite(value: float | None) -> bool:
    return value is not None and math.isfinite(value)


def _range_text(param: str, low: float | None, high: float | None) -> str:
    """``x must be from 1 to 5`` / ``at least 0`` / ``at most 9``: no infinite bound written."""
    if _finite(low) and _finite(high):
        return f"{param} must be from {low:g} to {high:g}"
    if _finite(low):
        return f"{param} must be at least {low:g}"
    return f"{param} must be at most {high:g}"


def _bounds(rule: DocRule, p: str) -> str:
    """The guard's comparison from the finite bounds only (``inf`` is no name in tool code)."""
    parts = [f"{rule.low!r} <= {p}"] if _finite(rule.low) else []
    parts += [f"{p} <= {rule.high!r}"] if _finite(rule.high) else []
    return " and ".join(parts) or "True"


def sentences(text: str) -> list[str]:
    """Sentences of Markdown-ish text, with emphasis and list markers removed."""
    body = re.sub(r"^\s*#.*$", "", text.replace("**", ""), flags=re.MULTILINE)
    out: list[str] = []
    for para in re.split(r"\n\s*\n|\n\s*[-*] ", body):
        flat = " ".join(para.split()).strip(" -*")
        out += [s.strip() for s in re.split(r"(?<=[.!?])\s+(?=[A-Z`'\"])", flat) if s.strip()]
    return out


def _plain(sentence: str) -> str:
    return re.sub(r"[`'\"]", "", sentence.lower())


def status_values(coll: CollectionSchema, state: Any = None) -> tuple[str, list[str]] | None:
    """The status attribute of ``coll`` and its values: the schema's enum, else the distinct
    values the data shows (few records make no enum, yet their statuses are still known)."""
    for attr in coll.attributes:
        if "status" not in attr.name and attr.name != "state":
            continue
        if attr.enum:
            return attr.name, list(attr.enum)
        records = (state or {}).get(coll.name) or {}
        # only string values are statuses: a field named like one may hold an object
        strings = (r.get(attr.name) for r in records.values() if isinstance(r, dict))
        values = sorted({v for v in strings if isinstance(v, str)})
        if values:
            return attr.name, values
    return None


def _values_in(fragment: str, values: list[str]) -> list[str]:
    """The status values a list fragment ("shipped, delivered or already cancelled") names."""
    words = re.split(r",\s*|\s+or\s+|\s+and\s+|\s+nor\s+", fragment)
    found: list[str] = []
    for word in words:
        word = re.sub(r"^(already|still|not yet)\s+", "", word.strip())
        match = next((v for v in values if v.lower() == word), None)
        if match is None:
            return []
        found.append(match)
    return found


def _action_named(sentence: str, spec: ToolSpec, noun: str) -> bool:
    """Whether a sentence names the tool's action: its verb's stem or another word of its name."""
    toks = [t for t in tokens(spec.name) if t not in (noun, singular(noun), "order")]
    verb = toks[0][:5] if toks else ""
    if verb and re.search(rf"\b{re.escape(verb)}", sentence):
        return True
    return any(len(t) > 3 and t in sentence for t in toks[1:])


def _status_rule(
    spec: ToolSpec, coll: CollectionSchema, key: str, sentence: str, source: str, state: Any
) -> DocRule | None:
    found = status_values(coll, state)
    if found is None:
        return None
    attr, values = found
    low = _plain(sentence)
    noun = singular(coll.name).replace("_", " ")
    vals = "|".join(re.escape(v.lower()) for v in sorted(values, key=len, reverse=True))
    items = rf"((?:(?:already |still )?(?:{vals})(?:,\s*|\s+or\s+|\s+and\s+)?)+)"
    named = source == "description" or _action_named(low, spec, noun)
    base = dict(tool=spec.name, kind="status", param=key, collection=coll.name, attribute=attr)
    only = re.search(rf"\bonly {items} {re.escape(noun)}s? (?:can|may)\b", low)
    if only and named and (allowed := _values_in(only.group(1).strip(), values)):
        return DocRule(**base, allowed=allowed, sentence=sentence, source=source)  # type: ignore[arg-type]
    still = re.search(rf"\b(?:that|which) (?:is|are) (?:still )?({vals})\b", low)
    if still and source == "description":
        allowed = _values_in(still.group(1), values)
        return DocRule(**base, allowed=allowed, sentence=sentence, source=source)  # type: ignore[arg-type]
    never = re.search(rf"{items} {re.escape(noun)}s? (?:can ?not|can't|may not|cannot)\b", low)
    if never and named and (forbidden := _values_in(never.group(1).strip(), values)):
        return DocRule(**base, forbidden=forbidden, sentence=sentence, source=source)  # type: ignore[arg-type]
    return None


def _schema_rules(spec: ToolSpec) -> list[DocRule]:
    out: list[DocRule] = []
    for param, prop in spec.parameters.get("properties", {}).items():
        prop = prop or {}
        if prop.get("enum"):
            out.append(
                DocRule(
                    tool=spec.name,
                    kind="enum",
                    param=param,
                    allowed=list(prop["enum"]),
                    sentence=f"{param}: enum {prop['enum']}",
                    source="parameter schema",
                )
            )
        if prop.get("type") in ("integer", "number") and ("minimum" in prop or "maximum" in prop):
            out.append(
                DocRule(
                    tool=spec.name,
                    kind="range",
                    param=param,
                    low=float(prop.get("minimum", float("-inf"))),
                    high=float(prop.get("maximum", float("inf"))),
                    sentence=f"{param}: minimum {prop.get('minimum')}, "
                    f"maximum {prop.get('maximum')}",
                    source="parameter schema",
                )
            )
    return out


_RANGE = re.compile(r"\b(?:from|between) (-?\d+(?:\.\d+)?) (?:to|and) (-?\d+(?:\.\d+)?)\b")
_QUOTED = re.compile(r"`([^`]+)`|'([^']+)'|\"([^\"]+)\"")


def _listed_after(sentence: str, param: str) -> list[str]:
    """Quoted values in parentheses right after the parameter's name: "a reason (`a`, `b`)"."""
    for word in _param_words(param):
        m = re.search(rf"\b{re.escape(word)}\s*\(([^()]*)\)", sentence, re.IGNORECASE)
        if m is None:
            continue
        rest = _QUOTED.sub("", m.group(1))
        if re.sub(r",|\bor\b|\band\b|\s", "", rest):
            continue  # not only quoted values
        return [next(x for x in q if x) for q in _QUOTED.findall(m.group(1))]
    return []


def _param_words(param: str) -> list[str]:
    base = param.replace("_", " ")
    return [base, f"{base}s", f"{singular(base)}s"]


def _text_rules(spec: ToolSpec, sentence: str, source: str) -> list[DocRule]:
    """Range and enum rules a sentence states about one of the tool's parameters."""
    low = sentence.lower()
    props = spec.parameters.get("properties", {})
    out: list[DocRule] = []
    for param, prop in props.items():
        prop = prop or {}
        if not any(re.search(rf"\b{re.escape(w)}\b", low) for w in _param_words(param)):
            continue
        rng = _RANGE.search(low)
        if rng and prop.get("type") in ("integer", "number"):
            lo, hi = float(rng.group(1)), float(rng.group(2))
            out.append(
                DocRule(
                    tool=spec.name, kind="range", param=param, low=lo, high=hi,
                    sentence=sentence, source=source,  # type: ignore[arg-type]
                )
            )  # fmt: skip
        values = _listed_after(sentence, param)
        if len(values) >= 2 and prop.get("type") in (None, "string") and not prop.get("enum"):
            out.append(
                DocRule(
                    tool=spec.name, kind="enum", param=param, allowed=values,
                    sentence=sentence, source=source,  # type: ignore[arg-type]
                )
            )  # fmt: skip
    return out


def extract_rules(
    spec: ToolSpec,
    c: Classification,
    schema: StateSchema,
    policy: str | None = None,
    state: Any = None,
) -> list[DocRule]:
    """Every precondition the docs state about ``spec`` (see the module docstring); status
    values come from the schema or, in data mode, from the records in ``state``."""
    coll = schema.collection(c.collection) if c.collection else None
    rules = _schema_rules(spec)
    texts = [(s, "description") for s in sentences(spec.description)]
    texts += [(s, "policy") for s in sentences(policy or "")]
    write = c.cls not in ("lookup", "list", "compute", "generic")
    for sentence, source in texts:
        if coll is not None and c.cls == "create" and ONCE_ONLY.search(sentence):
            unique = _unique_rule(spec, c, coll, sentence, source)
            if unique is not None and (
                source == "description" or _action_named(_plain(sentence), spec, "")
            ):
                rules.append(unique)
        if coll is not None and c.key_param is not None and write:
            rule = _status_rule(spec, coll, c.key_param, sentence, source, state)
            if rule is not None:
                rules.append(rule)
        if source == "description" or _action_named(_plain(sentence), spec, ""):
            rules += _text_rules(spec, sentence, source)
    return _dedupe(rules)


def _unique_rule(
    spec: ToolSpec, c: Classification, coll: CollectionSchema, sentence: str, source: str
) -> DocRule | None:
    names = {a.name for a in coll.attributes}
    fields = [p for p in spec.param_names if p in c.refs and p in names]
    if not fields:
        return None
    return DocRule(
        tool=spec.name, kind="unique", param=fields[0], collection=coll.name, fields=fields,
        sentence=sentence, source=source,  # type: ignore[arg-type]
    )  # fmt: skip


def _dedupe(rules: list[DocRule]) -> list[DocRule]:
    """One rule per (kind, param): the first stated wins; an allowed set beats a forbidden one."""
    out: dict[tuple[str, str], DocRule] = {}
    for rule in rules:
        key = (rule.kind, rule.param)
        have = out.get(key)
        if have is None or (have.kind == "status" and not have.allowed and rule.allowed):
            out[key] = rule
    return list(out.values())


_REFUSAL = re.compile(r"\b(?:can ?not|can't|may not|must not|never|only)\b")
_STATE_WORDS = re.compile(
    r"\b(?:refund\w*|balance|deduct\w*|charg\w*|stock|total|amount|added|subtract\w*|"
    r"increase\w*|decrease\w*|append\w*|recorded|becomes?|set to|changed to)\b"
)


def covered_by_rules(sentence: str, rules: list[DocRule], statuses: list[str]) -> bool:
    """Whether the guards already enforce what ``sentence`` says, so no code must be written
    for it: it is the sentence a rule came from, or it refuses records in statuses (named from
    ``statuses``, the collection's status values) that a status rule refuses already, and
    states no effect on the state ("Orders that have shipped cannot be redirected" when the
    rule allows only ``pending``)."""
    if any(r.sentence == sentence for r in rules):
        return True
    low = _plain(sentence)
    if not _REFUSAL.search(low) or _STATE_WORDS.search(low):
        return False
    status = [r for r in rules if r.kind == "status"]
    named = [v for v in statuses if re.search(rf"\b{re.escape(v.lower())}\b", low)]
    if not status or not named:
        return False
    return all(
        any((r.allowed and v not in r.allowed) or v in r.forbidden for r in status) for v in named
    )


def guard_for(c: Classification, rules: list[DocRule]) -> tuple[str, str] | None:
    """The single status a tool needs, for choosing test records that meet it."""
    if c.guard is not None:
        return c.guard
    for rule in rules:
        if rule.kind == "status" and rule.attribute and len(rule.allowed) == 1:
            return rule.attribute, str(rule.allowed[0])
    return None


def meet_rules(
    happy: dict[str, Any], rules: list[DocRule], refs: dict[str, str], state: Any
) -> dict[str, Any]:
    """Test arguments that a uniqueness rule does not refuse: the last field of the rule gets
    another existing key of the collection it references until the combination is new."""
    out = dict(happy)
    for rule in rules:
        if rule.kind != "unique" or not all(f in out for f in rule.fields):
            continue
        taken = {
            tuple(r.get(f) for f in rule.fields)
            for r in ((state or {}).get(rule.collection) or {}).values()
            if isinstance(r, dict)
        }
        last = rule.fields[-1]
        for key in (state or {}).get(refs.get(last, ""), {}) or {}:
            if tuple(out[f] for f in rule.fields) not in taken:
                break
            out[last] = key
    return out


def _quote(text: str) -> str:
    short = text if len(text) <= 160 else text[:157] + "..."
    return short.replace("\\", "").replace('"', "'").replace("{", "(").replace("}", ")")


def guard_lines(rules: list[DocRule], names: dict[str, str]) -> list[str]:
    """Code (4-space indented) that raises ``ToolError`` when a call breaks a rule."""
    lines: list[str] = []
    for rule in rules:
        p = names.get(rule.param)
        if p is None:
            continue
        why = _quote(f"{rule.describe()} (docs: {rule.sentence})")
        if rule.kind == "status":
            values = tuple(rule.allowed or rule.forbidden)
            test = "not in" if rule.allowed else "in"
            lines += [
                f"    _rec = state.get({rule.collection!r}, {{}}).get(str({p}))",
                f"    if isinstance(_rec, dict) and "
                f"_rec.get({rule.attribute!r}) {test} {values!r}:",
                f'        raise ToolError(f"{{{p}}} is {{_rec.get({rule.attribute!r})}}: {why}")',
            ]
        elif rule.kind == "unique":
            same = " and ".join(f"_r.get({f!r}) == {names.get(f, f)}" for f in rule.fields)
            lines += [
                f"    for _r in state.get({rule.collection!r}, {{}}).values():",
                f"        if isinstance(_r, dict) and {same}:",
                f'            raise ToolError("{why}")',
            ]
        elif rule.kind == "range":
            lines += [
                f"    if isinstance({p}, (int, float)) and not isinstance({p}, bool) and not "
                f"({_bounds(rule, p)}):",
                f'        raise ToolError("{why}")',
            ]
        else:
            lines += [
                f"    if {p} is not None and {p} not in {tuple(rule.allowed)!r}:",
                f'        raise ToolError("{why}")',
            ]
    return lines


def guarded(code: ToolCode, lines: list[str]) -> ToolCode:
    """``code`` with ``lines`` run first in the tool function (after its docstring)."""
    if not lines:
        return code
    tree = ast.parse(code.body)
    fn = next(
        (n for n in tree.body if isinstance(n, ast.FunctionDef) and n.name == code.name), None
    )
    if fn is None or not fn.body:
        return code
    first = fn.body[0]
    is_doc = isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant)
    anchor = fn.body[1] if is_doc and len(fn.body) > 1 else first
    if is_doc and len(fn.body) == 1:
        return code
    src = code.body.splitlines()
    at = anchor.lineno - 1
    indent = src[at][: len(src[at]) - len(src[at].lstrip())]
    if any(ln.strip() == lines[0].strip() for ln in src):
        return code  # already guarded
    block = [indent + ln[4:] for ln in lines]
    body = "\n".join([*src[:at], *block, *src[at:]])
    head = "\n".join(code.imports)
    return extract_function(f"{head}\n\n{body}\n" if head else body, code.name)
