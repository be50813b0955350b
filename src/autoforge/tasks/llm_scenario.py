"""The LLM scenario writer: a natural user message that states every fact and leaks nothing.

The template writer's scenario is the draft and the fallback. The model rewrites its intent
and question (schema-constrained); :func:`scenario_problems` checks that every user fact value
appears (exact or normalised) and that no value the agent must find out does; an answer with
problems is re-asked with them fed back, then the template is used. Part of
:mod:`autoforge.tasks.llm_hooks`.
"""

from __future__ import annotations

import asyncio
import re
import unicodedata
from collections.abc import Iterable, Sequence
from typing import Any, cast

from pydantic import BaseModel, Field

from autoforge.env.spec import EnvironmentSpec
from autoforge.llm import LLMClient
from autoforge.tasks.llm_base import HookStats, Message, ask, run_sync
from autoforge.tasks.model import Task, UserScenario
from autoforge.tasks.question import (
    ScenarioRequest,
    ScenarioWriter,
    TemplateWriter,
    fact_text,
    hidden_values,
)

_SCENARIO_SYSTEM = (
    "You write what a customer says to a support agent. Rewrite the draft request as the "
    "customer's natural first message: first person, polite, one short paragraph. Copy every "
    "fact listed under 'Facts' exactly as written (ids, emails, names, numbers). Describe what "
    "you want the way the draft does; never invent ids, numbers or answers, and never say "
    "what the agent has to find out. Also write the goal as one sentence starting with "
    "'You want'."
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
    if isinstance(value, dict):
        for item in value.values():
            yield from _scalars(item)
    elif isinstance(value, list):
        for item in value:
            yield from _scalars(item)
    elif value is not None and value != "":
        yield value


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
    template's own text, which never reveals them: a ``2`` there is not a leak).
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
    return problems


class LLMScenarioWriter:
    """A :class:`~autoforge.tasks.question.ScenarioWriter` backed by an LLM (module doc).

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
            problems = scenario_problems(
                text.intent,
                text.question,
                request.facts,
                request.hidden,
                f"{draft.question}\n{draft.known_info}",
            )
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
        prompt = (
            f"Draft request: {draft.question}\n\nFacts (copy exactly):\n{facts or '- (none)'}\n\n"
            'Answer with JSON: {"intent": "You want ...", "question": "..."}'
        )
        return [
            {"role": "system", "content": _SCENARIO_SYSTEM},
            {"role": "user", "content": prompt},
        ]


def _feedback(problems: list[str]) -> str:
    listed = "\n".join(f"- {p}" for p in problems[:8])
    return f"Your answer has problems:\n{listed}\nWrite it again and fix them."


def scenario_request(task: Task, spec: EnvironmentSpec) -> ScenarioRequest:
    """The writer's request for an existing task (what the pipeline asked when it made it)."""
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
