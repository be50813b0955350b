"""The derivability ceiling of a fidelity benchmark: which recorded outcomes a synthesizer that
may only use what the domain states (docs, policy, data) could reproduce in principle.

Fidelity (:mod:`autoforge.synth.fidelity.bench`) compares, per gold action, the error flag, the
returned value and the state it leaves with the oracle's recording. An outcome is *derivable*
when everything it holds can be read off the domain:

* every **attribute name** a task's state diff writes (path steps below the collection and keys
  of written objects; ids and dates in a path are not names) is a key of the data in that
  collection (anywhere in the data when the collection is not in it), a property name of the
  docs, or a phrase of the docs' or policy's text;
* every **key of a returned value** (as the fidelity compares it: after
  :func:`~autoforge.synth.fidelity.agreement.normalize_result`, so ``None`` values are dropped; a
  string
  that is a Python literal is read as one) is a key of the data, a property name of the docs, or
  a phrase of their text;
* every **string value** written or returned is a string of the data (keys included), a string
  of the call's own arguments, a generated id (it has a digit, or is all capitals, and the same
  shape as a record key or an ``*id`` value of the data: digits, capitals and small letters
  compared as classes), a date or timestamp (ISO 8601), or a phrase of the text; numbers,
  booleans and ``None`` always count as derivable;
* a **refusal** is derivable when an argument names an id the data does not hold, or a sentence
  of the docs or policy that names the tool's verb (its name's first word) or the tool's own
  description holds a constraint word (:data:`CONSTRAINT_WORDS`: ``only``, ``must``, ``not``,
  ...).

Phrase matching (the normalisation): names and texts are split into lower-case words (on
non-alphanumerics and camelCase boundaries). Three modes, strictest first: ``exact`` needs the
words equal, consecutive and in order inside one sentence (``cancel_reason`` = "cancel
reason"); ``phrase`` (the headline) also lets two words match when the shorter has at least
four letters and begins the longer (``cancel``/``cancellation``, ``item``/``items``);
``sentence`` (the loosest bound) needs the ``phrase``-matched words anywhere in one sentence, in
any order. A task is derivable when all its actions' outcomes and its whole diff are. The
ceiling is the share of replayable tasks that are. A task the null environment agrees on is
derivable (its diff is empty and every answer it matched is ``None``), so ``ceiling - null``
bounds what synthesis bound to the domain's own statements can add over doing nothing.

Pure core: the caller passes the loaded :class:`~autoforge.synth.fidelity.bench.Bench`, the data and
the docs' and policy's text.
"""

from __future__ import annotations

import ast
import re
from collections import Counter
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from autoforge.synth.fidelity.agreement import normalize_result
from autoforge.synth.fidelity.bench import NO_OUTPUT, Bench, BenchAction, BenchTask
from autoforge.tooldocs import PhraseMode, break_camel, phrase_in, word_match

Mode = PhraseMode
#: words of a sentence that states a rule (compared with :func:`words`' output)
CONSTRAINT_WORDS = frozenset(
    {"only", "must", "cannot", "not", "never", "unless", "no", "required", "requires", "should"}
)
_TIMESTAMP = re.compile(
    r"^\d{4}-\d{2}-\d{2}([T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?)?$"
)
_SENTENCE = re.compile(r"(?<=[.!?])\s+|\n+")


# -- words and phrases -------------------------------------------------------------------------


def words(text: str) -> tuple[str, ...]:
    """``text`` as lower-case words: split on camelCase boundaries and non-alphanumerics."""
    return tuple(re.findall(r"[a-z0-9]+", break_camel(text, " ").lower()))


def _top(counts: Counter[str], n: int) -> dict[str, int]:
    """The ``n`` commonest items, ties by name, so a report does not depend on set order."""
    return dict(sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))[:n])


def shape(value: str) -> str:
    """``value`` with digits, capitals and small letters replaced by their class."""
    return re.sub(r"[a-z]", "a", re.sub(r"[A-Z]", "A", re.sub(r"[0-9]", "9", value)))


def _id_candidate(value: str) -> bool:
    return any(c.isdigit() for c in value) or (value.isalnum() and value.isupper())


# -- the domain's vocabulary -------------------------------------------------------------------


def _walk(value: Any, parent: str = "") -> Iterator[tuple[str, str, Any]]:
    """``(kind, parent key, item)`` for every key (``"key"``) and scalar (``"value"``)."""
    if isinstance(value, Mapping):
        for k, v in value.items():
            yield "key", parent, str(k)
            yield from _walk(v, str(k))
    elif isinstance(value, list | tuple):
        for v in value:
            yield from _walk(v, parent)
    else:
        yield "value", parent, value


@dataclass
class Vocabulary:
    """What a domain states: its data's keys (per collection) and strings, its id shapes, the
    docs' property names, and the docs' and policy's sentences as words."""

    collection_keys: dict[str, set[str]] = field(default_factory=dict)
    keys: set[str] = field(default_factory=set)
    strings: set[str] = field(default_factory=set)
    id_shapes: set[str] = field(default_factory=set)
    doc_names: set[str] = field(default_factory=set)
    sentences: list[tuple[str, ...]] = field(default_factory=list)
    tool_texts: dict[str, str] = field(default_factory=dict)

    def add_data(self, data: Any) -> None:
        """Every key and string of ``data``; a top-level mapping's entries are collections
        whose record keys give the id shapes."""
        if isinstance(data, Mapping):
            for name, coll in data.items():
                self.collection_keys.setdefault(str(name), set()).update(
                    item for kind, _, item in _walk(coll) if kind == "key"
                )
                if isinstance(coll, Mapping):
                    self.id_shapes |= {shape(str(k)) for k in coll if _id_candidate(str(k))}
        for kind, parent, item in _walk(data):
            if kind == "key":
                self.keys.add(item)
                self.strings.add(item)
            elif isinstance(item, str):
                self.strings.add(item)
                if parent.lower().endswith("id") and _id_candidate(item):
                    self.id_shapes.add(shape(item))

    def with_data(self, data: Any) -> Vocabulary:
        """A copy that also holds ``data`` (a task's own initial state)."""
        out = Vocabulary(
            {k: set(v) for k, v in self.collection_keys.items()}, set(self.keys),
            set(self.strings), set(self.id_shapes), self.doc_names, self.sentences,
            self.tool_texts,
        )  # fmt: skip
        out.add_data(data)
        return out


def _doc_names(value: Any) -> Iterator[str]:
    """Property names of every ``properties`` mapping in a docs dump."""
    if isinstance(value, Mapping):
        for k, v in value.items():
            if k == "properties" and isinstance(v, Mapping):
                yield from map(str, v)
            yield from _doc_names(v)
    elif isinstance(value, list):
        for v in value:
            yield from _doc_names(v)


def sentences(text: str) -> list[tuple[str, ...]]:
    """``text`` split into sentences (at ``.!?`` + space, or a line break), each as words."""
    return [w for part in _SENTENCE.split(text) if (w := words(part))]


def vocabulary(data: Any, docs: Mapping[str, Any], texts: Sequence[str] = ()) -> Vocabulary:
    """The vocabulary of a domain: ``data`` (its ``db.json`` or state), ``docs`` (a tool docs
    dump with ``tools`` of ``name``/``description``/``parameters``/``returns``, and
    ``policy``/``description``), and any further ``texts`` (a policy given apart)."""
    vocab = Vocabulary()
    vocab.add_data(data)
    vocab.doc_names = set(_doc_names(docs))
    strings = [s for kind, _, s in _walk(docs) if kind == "value" and isinstance(s, str)]
    for text in [*strings, *texts]:
        vocab.sentences.extend(sentences(text))
    for tool in docs.get("tools") or []:
        vocab.tool_texts[str(tool.get("name"))] = str(tool.get("description") or "")
    return vocab


# -- one outcome -------------------------------------------------------------------------------


class Gap(BaseModel):
    """One thing an outcome holds that the domain does not state."""

    model_config = ConfigDict(frozen=True)

    kind: Literal["attribute", "value", "result key", "result value", "refusal"]
    item: str
    tool: str = ""

    def label(self) -> str:
        return f"{self.kind}: {self.item}"


class _Judge:
    """Derivability checks against one vocabulary, in one phrase mode."""

    def __init__(self, vocab: Vocabulary, mode: Mode) -> None:
        self.vocab, self.mode = vocab, mode

    def in_text(self, item: str) -> bool:
        return phrase_in(words(item), self.vocab.sentences, self.mode)

    def name(self, name: str, collection: str | None) -> bool:
        v = self.vocab
        place = v.collection_keys.get(collection or "") if collection is not None else None
        return (
            name in (place if place is not None else v.keys)
            or name in v.doc_names
            or self.in_text(name)
        )

    def value(self, value: Any, args: set[str]) -> bool:
        if not isinstance(value, str) or not value.strip():
            return True
        v = self.vocab
        return (
            value in v.strings
            or value in args
            or bool(_TIMESTAMP.match(value))
            or (_id_candidate(value) and shape(value) in v.id_shapes)
            or self.in_text(value)
        )

    def path_step(self, step: Any) -> bool:
        """Whether a diff path step is a name to judge (not an index, id or date)."""
        return isinstance(step, str) and not _id_candidate(step) and not _TIMESTAMP.match(step)

    def refusal(self, action: BenchAction) -> bool:
        v = self.vocab
        named = [
            s for kind, _, s in _walk(action.arguments) if kind == "value" and isinstance(s, str)
        ]
        if any(_id_candidate(s) and s not in v.strings for s in named):
            return True  # the data lacks the record the call names
        verb = (words(action.name) or ("",))[0]
        own = sentences(v.tool_texts.get(action.name, ""))
        stated = [s for s in v.sentences if any(word_match(verb, w) for w in s)]
        return any(CONSTRAINT_WORDS & set(s) for s in [*own, *stated])


def _strings(value: Any) -> set[str]:
    return {s for kind, _, s in _walk(value) if kind == "value" and isinstance(s, str)}


def _result_value(output: Any) -> Any:
    """The returned value as fidelity compares it; a Python-literal string read as its value."""
    value = normalize_result(output)
    if isinstance(value, str) and value[:1] in "{[(":
        try:
            return normalize_result(ast.literal_eval(value))
        except (ValueError, SyntaxError, MemoryError, RecursionError):
            return value
    return value


def result_gaps(action: BenchAction, judge: _Judge, args: set[str]) -> list[Gap]:
    """What the oracle's answer (or refusal) to ``action`` holds that the domain does not;
    ``args``: the strings of this call's arguments and of the task's earlier calls (what they
    wrote a read may return)."""
    if action.oracle_error:
        ok = judge.refusal(action)
        return [] if ok else [Gap(kind="refusal", item=action.name, tool=action.name)]
    if action.oracle_output is NO_OUTPUT:
        return []
    out: list[Gap] = []
    for kind, _, item in _walk(_result_value(action.oracle_output)):
        if kind == "key" and not judge.name(item, None):
            out.append(Gap(kind="result key", item=item, tool=action.name))
        elif kind == "value" and not judge.value(item, args):
            out.append(Gap(kind="result value", item=str(item)[:80], tool=action.name))
    return out


def diff_gaps(op: Mapping[str, Any], judge: _Judge, args: set[str], tool: str) -> list[Gap]:
    """What one diff operation writes that the domain does not state (a removal writes
    nothing)."""
    if op.get("op") == "remove":
        return []
    path = list(op.get("path") or [])
    coll = str(path[0]) if path else None
    out = [
        Gap(kind="attribute", item=str(step), tool=tool)
        for step in path[1:]
        if judge.path_step(step) and not judge.name(str(step), coll)
    ]
    for kind, _, item in _walk(op.get("new")):
        if kind == "key" and judge.path_step(item) and not judge.name(item, coll):
            out.append(Gap(kind="attribute", item=item, tool=tool))
        elif kind == "value" and not judge.value(item, args):
            out.append(Gap(kind="value", item=str(item)[:80], tool=tool))
    return out


# -- tasks and reports -------------------------------------------------------------------------


def _writer(op: Mapping[str, Any], actions: Sequence[BenchAction], writes: set[str]) -> int:
    """The index of the action a diff operation is credited to: the first write (a tool the
    benchmark marks as mutating, or any when it marks none) that did not fail and whose
    arguments name a key on the op's path; else the last such write; -1 when none."""
    cands = [
        i for i, a in enumerate(actions) if not a.oracle_error and (not writes or a.name in writes)
    ]
    path = {str(p) for p in list(op.get("path") or [])[1:]}
    for i in cands:
        args = actions[i].arguments
        named = _strings(args) | {str(v) for v in args.values() if isinstance(v, int)}
        if path & named:
            return i
    return cands[-1] if cands else -1


class TaskCeiling(BaseModel):
    """One task: whether each action's outcome, and so the task, is derivable, and why not."""

    id: str
    derivable: bool
    actions: int
    derivable_actions: int
    gaps: list[Gap] = Field(default_factory=list)


def task_ceiling(task: BenchTask, vocab: Vocabulary, writes: set[str], mode: Mode) -> TaskCeiling:
    """Derivability of one task (its own initial state, if any, counts as data)."""
    judge = _Judge(vocab.with_data(task.initial) if task.initial else vocab, mode)
    seen: set[str] = set()
    per_action: list[list[Gap]] = []
    for action in task.actions:
        seen |= _strings(action.arguments)
        per_action.append(result_gaps(action, judge, seen))
    unplaced: list[Gap] = []
    for op in task.diff:
        i = _writer(op, task.actions, writes)
        args = _strings(task.actions[i].arguments) if i >= 0 else set()
        gaps = diff_gaps(op, judge, args, task.actions[i].name if i >= 0 else "(no action)")
        (per_action[i] if i >= 0 else unplaced).extend(gaps)
    every = list(dict.fromkeys(g for gs in [*per_action, unplaced] for g in gs))
    return TaskCeiling(
        id=task.id, derivable=not every, actions=len(task.actions),
        derivable_actions=sum(not gs for gs in per_action), gaps=every,
    )  # fmt: skip


class CeilingReport(BaseModel):
    """The derivability ceiling of one benchmark split in one phrase mode."""

    mode: str
    tasks: int = 0
    derivable_tasks: int = 0
    ceiling: float = 0.0
    actions: int = 0
    derivable_actions: int = 0
    ceiling_without_result_values: float = Field(
        default=0.0,
        description="share of tasks derivable if returned string values were not compared "
        "(every gap is a result value, e.g. a reply message no doc states)",
    )
    top_gaps: dict[str, int] = Field(
        default_factory=dict, description="gap label -> tasks it makes non-derivable"
    )
    sole_gaps: dict[str, int] = Field(
        default_factory=dict,
        description="item -> tasks it alone makes non-derivable (as a name, a key or a value)",
    )
    task_results: list[TaskCeiling] = Field(default_factory=list)

    def derivable_ids(self) -> set[str]:
        return {t.id for t in self.task_results if t.derivable}


def bench_ceiling(
    bench: Bench, vocab: Vocabulary, mode: Mode = "phrase", *, top: int = 12
) -> CeilingReport:
    """The ceiling over the replayable tasks of ``bench`` (those fidelity replays)."""
    tasks = [t for t in bench.tasks if not t.skipped]
    results = [task_ceiling(t, vocab, bench.writes, mode) for t in tasks]
    counts: Counter[str] = Counter()
    sole: Counter[str] = Counter()
    for r in results:
        counts.update({g.label() for g in r.gaps})
        items = {g.item for g in r.gaps}
        if len(items) == 1:
            sole.update(items)
    derivable = sum(r.derivable for r in results)
    values_only = sum(all(g.kind == "result value" for g in r.gaps) for r in results)
    return CeilingReport(
        mode=mode,
        tasks=len(results),
        derivable_tasks=derivable,
        ceiling=round(derivable / len(results), 4) if results else 0.0,
        actions=sum(r.actions for r in results),
        derivable_actions=sum(r.derivable_actions for r in results),
        ceiling_without_result_values=round(values_only / len(results), 4) if results else 0.0,
        top_gaps=_top(counts, top),
        sole_gaps=_top(sole, top),
        task_results=results,
    )
