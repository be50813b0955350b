"""The LLM scenario writer: a natural user message that states every fact and leaks nothing.

The template writer's scenario is the draft and the fallback. The model rewrites its intent
and question (schema-constrained); :func:`scenario_problems` checks that every user fact value
appears (exact or normalised) and that no value the agent must find out does; an answer with
problems is re-asked with them fed back, then the template is used. Part of
:mod:`autoforge.tasks.llm.hooks`.
"""

from __future__ import annotations

import asyncio
import re
import unicodedata
from collections.abc import Iterable, Sequence
from typing import Any, cast

from pydantic import BaseModel, Field

from autoforge.env import EnvironmentSpec
from autoforge.llm import LLMClient
from autoforge.tasks.blueprints.blueprint import Blueprint, ReasonNode
from autoforge.tasks.blueprints.reasoning import describe, field_words
from autoforge.tasks.gold.failures import scalars
from autoforge.tasks.llm.base import HookStats, Message, ask, run_sync
from autoforge.tasks.model import Task, UserScenario
from autoforge.tasks.scenario.question import ScenarioRequest, ScenarioWriter, TemplateWriter
from autoforge.tasks.scenario.spoken import fact_text, hidden_values

_SCENARIO_SYSTEM = (
    "You play a customer of an online service and write your first chat message to the "
    "support agent. Speak as the customer (I, my). Ask for everything the draft asks for, in "
    "plain words. Copy every fact exactly as given: ids, emails, names, numbers and codes "
    "like duplicate_entry. Never add ids, numbers or answers that the draft does not give. "
    "Also write your goal as one sentence starting with 'You want'."
)
#: One worked example (a user turn and the answer), shown before the real request: small
#: models follow an example far better than instructions alone. Its record kind ("entry"), its
#: values and its wording belong to no domain, so nothing of one domain leaks into another's
#: requests (:data:`_EXAMPLE_MARKERS` catches what a model copies anyway).
_EXAMPLE = (
    "Draft request: Hi! My email is k.moreno@example.org. Please close the newest entry "
    "on my account, with reason duplicate entry. Can you tell me the size of the entry with "
    "the largest size among the entries of my account?\n\nFacts (copy exactly):\n"
    "- email: k.moreno@example.org\n"
    "- reason: duplicate_entry",
    '{"intent": "You want the agent to close the newest entry on your account (reason: '
    'duplicate_entry) and to tell you the size of your largest entry.", "question": '
    '"Hi, my email is k.moreno@example.org. Please close the newest entry on my account, the '
    'reason is duplicate_entry. Also, what is the size of my largest entry?"}',
)


class _ScenarioText(BaseModel):
    intent: str = Field(min_length=10, max_length=500, description="'You want ...'")
    question: str = Field(min_length=10, max_length=800, description="the first message")


def normalise(text: str) -> str:
    """Text for loose matching: NFKC, lower case, ``_`` as space, whitespace collapsed."""
    flat = unicodedata.normalize("NFKC", text).lower().replace("_", " ")
    return " ".join(flat.split())


def _forms(value: Any) -> list[str]:
    """Acceptable renderings of one scalar fact value (``19.90`` and ``19.9``)."""
    forms = [fact_text(value)]
    if isinstance(value, float):
        forms += [f"{value:g}", str(value)]
    return [normalise(f) for f in forms if f]


def _scalars(value: Any) -> Iterable[Any]:
    return (v for v in scalars(value) if v is not None and v != "")


def _word_in(needle: str, haystack: str) -> bool:
    """Whether ``needle`` occurs in ``haystack`` as a whole token (not inside a longer one)."""
    pattern = r"(?<![\w-])" + re.escape(needle) + r"(?![\w-])"
    return re.search(pattern, haystack) is not None


def scenario_problems(
    intent: str,
    question: str,
    facts: dict[str, Any],
    hidden: Iterable[str] = (),
    allowed: str = "",
) -> list[str]:
    """What is wrong with an LLM-written scenario (empty: it can be used).

    Every part of every user fact must appear in the intent or question (exact, or after
    :func:`normalise`; ``19.9`` for ``19.90``). No ``hidden`` value (what the agent must find
    out) may appear as a token, unless it is also a fact or occurs in ``allowed`` (the
    template's own text, which never reveals them: a ``2`` there is not a leak). No email,
    id or number may appear that is neither a fact nor in ``allowed`` (an invented value).
    """
    text = normalise(f"{intent}\n{question}")
    problems = []
    for name, value in facts.items():
        for part in _scalars(value):
            if not any(form in text for form in _forms(part)):
                problems.append(f"the message must state the {name} exactly as {fact_text(part)!r}")
    known = {f for value in facts.values() for part in _scalars(value) for f in _forms(part)}
    context = normalise(allowed)
    for value in hidden:
        token = normalise(value)
        if token and token not in known and not _word_in(token, context) and _word_in(token, text):
            problems.append(f"the text reveals {value!r}, which the agent must find out itself")
    for token in sorted(_value_tokens(text) - _value_tokens(context)):
        if not any(token in form or form in token for form in known):
            problems.append(f"the text mentions {token!r}, which is not in the draft or facts")
    return problems


_TOKEN_EDGES = "\"'()[]{}<>.,;:!?"


def _value_tokens(text: str) -> set[str]:
    """Email-, id- and number-like tokens of a normalised text (they hold a digit or an @)."""
    tokens = {t.strip(_TOKEN_EDGES) for t in text.split()}
    return {t for t in tokens if "@" in t or any(c.isdigit() for c in t)}


class LLMScenarioWriter:
    """A :class:`~autoforge.tasks.scenario.question.ScenarioWriter` backed by an LLM (module doc).

    The template writer's scenario is the draft and the fallback: the model rewrites its
    intent and question; persona and known/unknown info are kept. An answer with problems
    (:func:`scenario_problems`) is re-asked up to ``retries`` times with the problems fed back;
    then the template scenario is used. ``UserScenario.writer`` says which one it is.
    """

    def __init__(
        self,
        client: LLMClient,
        *,
        role: str = "synthesizer",
        retries: int = 2,
        fallback: ScenarioWriter | None = None,
        max_tokens: int = 400,
    ) -> None:
        self.client = client
        self.role = role
        self.name = f"llm:{client.endpoint(role).model}"
        self.retries = retries
        self.fallback = fallback or TemplateWriter()
        self.max_tokens = max_tokens
        self.stats = HookStats(hook="scenario_writer")

    def write(self, request: ScenarioRequest) -> UserScenario:
        """The scenario for ``request`` (sync: runs :meth:`write_async` on the hooks' loop)."""
        return run_sync(self.write_async(request))

    async def write_async(self, request: ScenarioRequest) -> UserScenario:
        """Ask, check, re-ask with the problems; the template scenario when all tries fail."""
        draft = self.fallback.write(request)
        self.stats.decided += 1
        messages = self._messages(request, draft)
        reason = "llm_failure"
        for attempt in range(self.retries + 1):
            answer = await ask(
                self.client,
                messages,
                _ScenarioText,
                self.stats,
                role=self.role,
                purpose="tasks.scenario",
                max_tokens=self.max_tokens,
            )
            if answer is None:
                reason = "llm_failure"
                break
            text = cast(_ScenarioText, answer)
            context = f"{draft.question}\n{draft.known_info}"
            problems = scenario_problems(
                text.intent, text.question, request.facts, request.hidden, context
            )
            problems += _copied_example(f"{text.intent}\n{text.question}", context)
            problems += missing_asks(f"{text.intent}\n{text.question}", request.blueprint)
            if not problems:
                self.stats.by_llm += 1
                return draft.model_copy(
                    update={
                        "intent": text.intent.strip(),
                        "question": text.question.strip(),
                        "writer": "llm",
                    }
                )
            reason = "leak" if any("reveals" in p for p in problems) else "missing_fact"
            if attempt < self.retries:
                self.stats.retries += 1
                messages = [
                    *messages,
                    {"role": "assistant", "content": text.model_dump_json()},
                    {"role": "user", "content": _feedback(problems)},
                ]
        self.stats.fallback(reason)
        return draft

    def _messages(self, request: ScenarioRequest, draft: UserScenario) -> list[Message]:
        facts = "\n".join(
            f"- {name.replace('_', ' ')}: {fact_text(value)}"
            for name, value in request.facts.items()
        )
        prompt = f"Draft request: {draft.question}\n\nFacts (copy exactly):\n{facts or '- (none)'}"
        return [
            {"role": "system", "content": _SCENARIO_SYSTEM},
            {"role": "user", "content": _EXAMPLE[0]},
            {"role": "assistant", "content": _EXAMPLE[1]},
            {"role": "user", "content": prompt},
        ]


def missing_asks(text: str, blueprint: Blueprint) -> list[str]:
    """Problems for required outputs the text does not ask for: the field of each reasoning
    output (``total``, ``name``) or, for a count, ``how many``/``number`` must be mentioned."""
    said = normalise(text)
    problems = []
    for node_id in blueprint.outputs:
        node = blueprint.node(node_id)
        if not isinstance(node, ReasonNode):
            continue
        field = field_words(node.spec.field)
        cues = ["how many", "number"] if node.spec.op == "count" else []
        if field != "value":
            cues.append(normalise(field.split()[-1]))
        if cues and not any(_word_in(cue, said) for cue in cues):
            problems.append(f"the message must also ask for {describe(node.spec, node.noun)}")
    return problems


#: Phrases of :data:`_EXAMPLE` that a small model may copy into an unrelated task.
_EXAMPLE_MARKERS = ("k.moreno", "duplicate entry", "largest entry")


def _copied_example(text: str, context: str) -> list[str]:
    """Problems for phrases copied from the worked example (absent from this draft)."""
    said, draft = normalise(text), normalise(context)
    return [
        f"the message copies {marker!r} from the example; write only what this draft asks"
        for marker in _EXAMPLE_MARKERS
        if marker in said and marker not in draft
    ]


def _feedback(problems: list[str]) -> str:
    listed = "\n".join(f"- {p}" for p in problems[:8])
    return f"Your answer has problems:\n{listed}\nWrite it again and fix them."


def scenario_request(task: Task, spec: EnvironmentSpec) -> ScenarioRequest:
    """The writer's request for an existing task (what the pipeline asked when it made it);
    ``ValueError`` for a task without a blueprint (imported: nothing to write from)."""
    if task.blueprint is None:
        raise ValueError(f"task {task.id} has no blueprint: only synthesized tasks are rewritten")
    hidden = hidden_values(task.required_outputs, task.gold_calls, task.user_facts)
    return ScenarioRequest(
        spec=spec, blueprint=task.blueprint, facts=task.user_facts, seed=task.seed, hidden=hidden
    )


async def write_scenarios(
    tasks: Sequence[Task], spec: EnvironmentSpec, writer: LLMScenarioWriter, concurrency: int = 8
) -> list[Task]:
    """The tasks with scenarios written by ``writer``, ``concurrency`` at a time, in order."""
    gate = asyncio.Semaphore(max(1, concurrency))

    async def one(task: Task) -> Task:
        async with gate:
            scenario = await writer.write_async(scenario_request(task, spec))
        return task.model_copy(update={"scenario": scenario})

    return list(await asyncio.gather(*(one(t) for t in tasks)))
