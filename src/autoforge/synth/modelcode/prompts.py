"""Prompt text of every synthesis LLM call, kept small for 0.5B-1.5B local models.

Each builder returns OpenAI-format messages. Prompts show only what one decision needs: the
tools that touch one collection, the collections one tool touches, one real record per
collection, two examples of the same class of tool.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from typing import Any

from autoforge.env import CollectionSchema, StateSchema, python_param_name
from autoforge.llm import Message
from autoforge.synth.rulecode.classify import Classification
from autoforge.tooldocs import ToolSpec

ALLOWED_IMPORTS = ("copy", "math", "re", "datetime", "decimal", "json", "itertools", "collections")


def clip(text: str, limit: int) -> str:
    """``text`` cut to ``limit`` characters, marked when cut."""
    text = text.strip()
    return text if len(text) <= limit else text[: limit - 3].rstrip() + "..."


def _param_line(name: str, schema: Mapping[str, Any], required: bool) -> str:
    typ = schema.get("type", "any")
    if typ == "array" and isinstance(schema.get("items"), dict):
        typ = f"array of {schema['items'].get('type', 'any')}"
        keys = schema["items"].get("properties")
        if isinstance(keys, dict) and keys:  # the entries' shape: where each value is
            typ += (
                " {"
                + ", ".join(f"{k}: {(v or {}).get('type', 'any')}" for k, v in keys.items())
                + "}"
            )
    extra = f" one of {schema['enum']}" if schema.get("enum") else ""
    req = "required" if required else "optional"
    desc = clip(str(schema.get("description", "")).replace("\n", " "), 160)
    return f"  - {name} ({typ}, {req}{extra}): {desc}"


def tool_doc(spec: ToolSpec, desc_limit: int = 700) -> str:
    """A compact, readable rendering of one tool's documentation."""
    props = spec.parameters.get("properties", {})
    lines = [f"{spec.name}: {clip(spec.description, desc_limit)}"]
    if props:
        lines.append("  Parameters:")
        lines += [_param_line(p, props[p] or {}, p in spec.required) for p in props]
    else:
        lines.append("  Parameters: none")
    return "\n".join(lines)


def tool_line(spec: ToolSpec) -> str:
    """One line per tool: name, parameters (``*`` = required), first sentence of the doc."""
    params = ", ".join(p + ("*" if p in spec.required else "") for p in spec.param_names)
    first = clip(spec.description.split("\n")[0], 140)
    return f"- {spec.name}({params}): {first}"


def collection_doc(coll: CollectionSchema) -> str:
    """One collection as a compact attribute list."""
    attrs = []
    for a in coll.attributes:
        typ: str = a.type
        if a.enum:
            typ = f"enum {a.enum}"
        if a.references:
            typ += f" -> {a.references}"
        note = f" ({clip(a.description, 100)})" if a.description else ""
        attrs.append(f"    {a.name}: {typ}{note}")
    head = f"- {coll.name} (key {coll.primary_key}): {clip(coll.description, 120)}"
    return "\n".join([head, *attrs])


_GENERIC = {"get", "by", "the", "details", "detail", "all", "list", "find", "info", "a", "an"}


def policy_sections(policy: str) -> list[str]:
    """A policy split at its Markdown headings (each section keeps its heading)."""
    sections: list[list[str]] = [[]]
    for line in policy.replace("\r\n", "\n").split("\n"):
        if line.lstrip().startswith("#") and any(x.strip() for x in sections[-1]):
            sections.append([])
        sections[-1].append(line)
    return ["\n".join(x).strip() for x in sections if "\n".join(x).strip()]


def relevant_policy(policy: str | None, spec: ToolSpec, limit: int = 1000) -> str:
    """The policy sections about the tool (its verb in the heading counts most), in order.

    A 6 kB policy does not fit a small model's prompt for every tool; the section headed
    "Exchange delivered order" does, for ``exchange_delivered_order_items``.
    """
    if not policy:
        return ""
    from autoforge.tooldocs import tokens

    toks = [t for t in tokens(spec.name) if t not in _GENERIC and len(t) > 2]
    verb = toks[0][:5] if toks else ""
    # the verb and the last noun (the object) say most about which section applies
    weights = {t[:5]: 1 for t in toks}
    if toks:
        weights[toks[-1][:5]] = 2
    scored = []
    for i, section in enumerate(policy_sections(policy)):
        head_low, low = section.partition("\n")[0].lower(), section.lower()
        score = 3 * (bool(verb) and verb in head_low)
        score += sum(2 * w for t, w in weights.items() if t in head_low)
        score += sum(w for t, w in weights.items() if t in low)
        if score:
            scored.append((-score, i, section))
    picked: list[tuple[int, str]] = []
    used = 0
    best = -min(scored)[0] if scored else 0
    scored = [x for x in scored if -x[0] * 2 > best]  # clearly about this tool
    for rank, (_, i, section) in enumerate(sorted(scored)):
        if rank == 0 and len(section) > limit:
            section = clip(section, limit)
        if used + len(section) > limit:
            continue
        picked.append((i, section))
        used += len(section) + 2
    return "\n\n".join(section for _, section in sorted(picked))


# -- state design ------------------------------------------------------------------------------


def entities_messages(tools: Iterable[ToolSpec], policy: str | None) -> list[Message]:
    """Step 1 of state design: which collections (entities) the state has."""
    lines = "\n".join(tool_line(t) for t in tools)
    pol = f"\nPolicy excerpt:\n{clip(policy, 1200)}\n" if policy else ""
    user = (
        f"Tools of an application:\n{lines}\n{pol}\n"
        "Design the database these tools work on. List its collections: one per kind of "
        "entity the tools read, create or change (e.g. beds, plants). For each give name "
        "(plural snake_case), primary_key (the attribute holding its id, e.g. bed_id) and a "
        "short description. Do not add collections no tool needs.\n"
        'Example answer for a greenhouse app: {"collections": [{"name": "beds", "primary_key": '
        '"bed_id", "description": "beds of the greenhouse"}, {"name": "plantings", '
        '"primary_key": "planting_id", "description": "what was sown in which bed"}]}'
    )
    return [
        {"role": "system", "content": "You design databases for simulated apps. Answer in JSON."},
        {"role": "user", "content": user},
    ]


SYSTEM_TOOL = f"""You write one Python function that implements a tool of a simulated app.
Rules:
- `state` is a dict of collections: state[collection][key] = record (a dict of JSON values).
- Read and change `state` in place. Return a JSON-serialisable value (dict, list, str, number).
- On a business error (unknown id, wrong status, invalid value) raise ToolError("message").
  ToolError already exists: do not import or define it.
- Deterministic: no random, no clock, no I/O. Allowed imports: {", ".join(ALLOWED_IMPORTS)}.
- Check everything before changing the state, so a failed call changes nothing.
- Never ask for input or confirmation: the agent has confirmed with the user before the call.
- Answer with one ```python code block holding the function (helpers must start with _)."""


def tool_messages(
    spec: ToolSpec,
    c: Classification,
    schema: StateSchema,
    samples: Mapping[str, str],
    examples: list[tuple[str, str]],
    skeleton: str | None,
    signature_line: str,
    policy: str | None = None,
) -> list[Message]:
    """The prompt that asks for one tool function."""
    colls = relevant_collections(spec, c, schema)
    schema_text = "\n".join(collection_doc(x) for x in colls) or "(no collections)"
    sample_text = "\n".join(f"{n}: {samples[n]}" for n in (x.name for x in colls) if n in samples)
    parts = [
        f"Tool to implement ({c.cls}):\n{tool_doc(spec)}",
        f"State collections:\n{schema_text}",
    ]
    if sample_text:
        parts.append(f"One real record per collection ({{key: record}}):\n{sample_text}")
    excerpt = relevant_policy(policy, spec)
    if excerpt:
        parts.append(f"App policy (the parts about this tool):\n{excerpt}")
    for name, code in examples:
        parts.append(f"Example of a similar tool from another app ({name}):\n{_fenced(code)}")
    if skeleton:
        parts.append(
            "Start from this draft. It is NOT complete: it does not yet do what the TODO lines "
            f"say. Keep what is right and write code for every TODO line:\n{_fenced(skeleton)}"
        )
    renamed = [
        f"`{p}` is `{python_param_name(p)}`" for p in spec.param_names if python_param_name(p) != p
    ]
    if renamed:
        parts.append(f"In Python, parameter {', '.join(renamed)}.")
    parts.append(f"Write `{signature_line}` now.")
    return [
        {"role": "system", "content": SYSTEM_TOOL},
        {"role": "user", "content": "\n\n".join(parts)},
    ]


def relevant_collections(
    spec: ToolSpec, c: Classification, schema: StateSchema
) -> list[CollectionSchema]:
    """The collections a tool's prompt shows: its target, those its parameters or text name."""
    from autoforge.synth.rulecode.classify import collection_of_key
    from autoforge.tooldocs import singular

    names: list[str] = []
    if c.collection:
        names.append(c.collection)
    for param in spec.param_names:
        coll = collection_of_key(param, schema)
        if coll is not None:
            names.append(coll.name)
    text = (spec.name + " " + spec.description).lower()
    for coll in schema.collections:
        if singular(coll.name) in text:
            names.append(coll.name)
    if not names:
        names = [x.name for x in schema.collections]
    target = schema.collection(c.collection) if c.collection else None
    if target is not None:
        names += [a.references for a in target.attributes if a.references]
    seen: list[str] = []
    for n in names:
        if n not in seen:
            seen.append(n)
    return [x for n in seen[:5] if (x := schema.collection(n)) is not None]


def repair_messages(
    first: list[Message], code: str, problems: list[str], hints: Iterable[str] = ()
) -> list[Message]:
    """The original prompt, the failed attempt, what failed (only the last attempt kept) and
    ``hints`` on where the failure is (:func:`autoforge.synth.modelcode.repair.crash_hints`)."""
    listed = "\n".join(f"- {clip(p, 400)}" for p in problems[:6])
    notes = "\n".join(f"- {clip(h, 600)}" for h in hints)
    where = f"Where it fails:\n{notes}\n" if notes else ""
    return [
        *first,
        {"role": "assistant", "content": f"```python\n{code}\n```"},
        {
            "role": "user",
            "content": (
                f"The function failed these checks:\n{listed}\n{where}"
                "Fix it: change the code that fails, do not send the same function again. "
                "Answer with the complete corrected function in one ```python block."
            ),
        },
    ]


def tests_messages(spec: ToolSpec, c: Classification, state_text: str) -> list[Message]:
    """Ask for a few test calls of one tool against a small given state."""
    user = (
        f"Tool ({c.cls}):\n{tool_doc(spec, 500)}\n\n"
        f"Current state (JSON):\n{state_text}\n\n"
        "Propose up to 3 test calls of this tool on this state: arguments (JSON object using "
        "ids that exist in the state, or on purpose one that does not), and expect_error "
        "(true if the call must fail with an error, false if it must succeed). Include at "
        "least one call that must succeed and one that must fail."
    )
    return [
        {"role": "system", "content": "You write test cases for tools. Answer in JSON."},
        {"role": "user", "content": user},
    ]


def _fenced(code: str) -> str:
    return f"```python\n{code}\n```"


def compact_json(value: Any, limit: int) -> str:
    """JSON of ``value`` cut to ``limit`` characters."""
    return clip(json.dumps(value, ensure_ascii=False, default=str), limit)
