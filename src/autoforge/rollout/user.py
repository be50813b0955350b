"""Simulated users: an LLM playing the customer, a scripted one, and a fault-injecting wrapper.

The LLM user plays the task's scenario with its known facts under a versioned prompt
(``prompts/user_v2.md``; ``user_v1`` is kept for reproducing older runs, ``user_v3`` also shows
the checklist in the prompt); it reveals facts only when asked, never
invents, and ends with ``###STOP###`` when the goal is met or impossible. It carries a checklist
(:mod:`goals`): the goals code derived from the task, marked said by code after every
message. A first message that says none of its requests and questions is asked again, then
replaced by the task's own request. A stop while a request or question is neither said nor
declined by the agent (facts alone do not hold it) is turned into one nudge ("you still need
to ..."); a nudge that says none of them, or a second such stop, ends the episode as
``user_incomplete``. Its
reasoning (``reasoning_content`` or ``<think>`` blocks) is stripped before the agent sees its
message. Small models need deterministic guards around the prompt (:mod:`user_guards`): the
first message never stops and is never a refusal, the stop token is found in mangled forms, and
a reply that runs on into the agent's next line is cut, and one that mixes the agent's line
into the customer's (role confusion) or names a place or person found nowhere in the task or
the chat is asked again; each guard that fires is noted in
``LLMUser.notes`` (and the trajectory's ``user_notes``). Under ``user_choice_v1`` (for models
too small to play the customer, :mod:`user_choice`) code writes the customer's messages and the
model only judges whether the request is done.

:class:`FaultyUser` wraps any user and, with probability ``p`` per turn, changes a known fact,
invents one, or stops early, or (decided at the first turn, given the checklist) drops a goal:
every sentence that would say it is left out. It records each fault; it is the ground truth for
validating the MEU judge.
"""

from __future__ import annotations

import functools
import random
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from importlib import resources
from typing import Any, Literal, Protocol

from pydantic import BaseModel, Field

from autoforge.llm import TokenUsage
from autoforge.rollout.agent import ChatClient
from autoforge.rollout.goals import (
    Goal,
    checklist_text,
    conveyed,
    fact_leaves,
    goal_said,
    open_goals,
    stems,
    task_brief,
    task_goals,
    unanswered,
)
from autoforge.rollout.thinking import split_thinking
from autoforge.rollout.trajectory import FaultRecord
from autoforge.rollout.user_choice import (
    NOTHING,
    OTHER,
    DoneChoice,
    compose,
    rule_choice,
    rule_done,
)
from autoforge.rollout.user_guards import (
    DETAIL_NOT_GIVEN,
    READ_BRIEF,
    SPOKE_AS_AGENT,
    STOP_TOKEN,
    Reading,
    TurnContext,
    asks_for_information,
    details_asked,
    echoes_agent,
    fact_label,
    first_person_facts,
    holds_value,
    opening_request,
    read_reply,
    request_terms,
    split_stop,
    task_request,
)
from autoforge.tasks import Task

USER_PROMPT_VERSION = "user_v2"

FaultKind = Literal["change_fact", "invent_fact", "stop_early", "drop_goal"]
FAULT_KINDS: tuple[FaultKind, ...] = ("change_fact", "invent_fact", "stop_early", "drop_goal")


@dataclass
class UserReply:
    """What the user says next; ``stop`` ends the episode (the text is then not delivered);
    ``incomplete``: it stopped with a goal of its checklist still unsaid."""

    text: str
    stop: bool = False
    incomplete: bool = False


class SimulatedUser(Protocol):
    """One user for one episode."""

    @property
    def usage(self) -> TokenUsage: ...

    @property
    def faults(self) -> list[FaultRecord]: ...

    @property
    def prompt_version(self) -> str | None: ...

    async def reply(self, agent_text: str) -> UserReply:
        """The user's answer to the agent's last visible message."""
        ...


_TURN_MARKER = "<!-- TURN -->"


@functools.lru_cache(maxsize=8)
def _prompt_parts(version: str) -> tuple[str, str]:
    text = resources.files("autoforge.rollout").joinpath(f"prompts/{version}.md").read_text()
    text = re.sub(r"\A<!--.*?-->\s*", "", text, flags=re.DOTALL)
    system, _, turn = text.partition(_TURN_MARKER)
    return system.strip() + "\n", (turn.strip() or "{agent_message}")


def load_user_prompt(version: str = USER_PROMPT_VERSION) -> str:
    """The system-prompt template (without its leading comment) shipped as package data."""
    return _prompt_parts(version)[0]


def render_user_turn(agent_text: str, version: str = USER_PROMPT_VERSION) -> str:
    """How an agent message reaches the user model (the prompt's per-turn template)."""
    template = _prompt_parts(version)[1].replace("{stop_token}", STOP_TOKEN)
    return template.replace("{agent_message}", agent_text.strip())


def uses_transcript(version: str = USER_PROMPT_VERSION) -> bool:
    """Whether the prompt sends the chat as one transcript (``{transcript}``, v2) instead of
    alternating chat turns (``{agent_message}``, v1)."""
    return "{transcript}" in _prompt_parts(version)[1]


def uses_choices(version: str = USER_PROMPT_VERSION) -> bool:
    """Whether the model only chooses and code speaks (``request_done``, ``user_choice_v1``)."""
    return '"request_done"' in _prompt_parts(version)[1]


def render_transcript(
    lines: Sequence[tuple[str, str]], version: str = USER_PROMPT_VERSION, open_goals: str = ""
) -> str:
    """The per-turn message of a transcript prompt: ``Agent: ...`` / ``Customer: ...`` lines,
    and (v3) what the customer still has to say."""
    chat = "\n".join(f"{who}: {' '.join(text.split())}" for who, text in lines)
    template = _prompt_parts(version)[1].replace("{stop_token}", STOP_TOKEN)
    still = open_goals or "nothing (everything is said)"
    return template.replace("{transcript}", chat).replace("{open_goals}", still)


def render_user_prompt(
    scenario: str,
    facts: Mapping[str, str],
    version: str = USER_PROMPT_VERSION,
    goals: Sequence[Goal] = (),
) -> str:
    """The user's system prompt for a scenario, its facts and (v3) its checklist.

    ``{known_facts}`` lists ``- name: value`` (v1); ``{my_facts}`` lists the same facts in the
    first person, ``- My customer id: C-1`` (v2, v3); ``{checklist}`` lists the goals (v3).
    """
    lines = "\n".join(f"- {k}: {v}" for k, v in facts.items()) or "- (none)"
    template = load_user_prompt(version)
    return (
        template.replace("{scenario}", scenario.strip())
        .replace("{known_facts}", lines)
        .replace("{my_facts}", first_person_facts(facts))
        .replace("{checklist}", checklist_text(goals, set()))
        .replace("{stop_token}", STOP_TOKEN)
    )


class UserConfig(BaseModel):
    """How the LLM user calls the model."""

    temperature: float = 0.0
    max_tokens: int = 256
    prompt_version: str = USER_PROMPT_VERSION
    guards: bool | None = Field(
        default=None,
        description="deterministic guards (user_guards); None: on except for prompt user_v1",
    )
    checklist: bool | None = Field(
        default=None,
        description="hold the user to its goals (nudge, user_incomplete); None: on with the "
        "guards (off to reproduce runs before the checklist)",
    )

    def guards_on(self) -> bool:
        """Whether the guards run (off by default for ``user_v1``, to reproduce old runs)."""
        return self.guards if self.guards is not None else self.prompt_version != "user_v1"

    def checklist_on(self) -> bool:
        """Whether the checklist is enforced (by default with the guards: not for user_v1)."""
        return self.checklist if self.checklist is not None else self.guards_on()


_NUDGE_FIRST = (
    "(Stay in the role-play: you are the customer, not an assistant. Write the customer's "
    "first message: say what you want.)"
)
_FIRST_MESSAGE = (
    "Chat so far:\n{transcript}\n\nWrite the customer's first message: say what the customer "
    "wants, in one or two short sentences (only the message)."
)
_NUDGE = (
    "(Stay in the role-play: you are the customer, not an assistant. Write only the "
    "customer's next message.)"
)
_NUDGE_DETAIL = (
    "(Stay in the role-play: you are the customer. The agent asked for your {labels}. Write "
    "the customer's next message giving it exactly as written in your details.)"
)
_NUDGE_UNANSWERED = (
    "(Do not end the chat yet: the agent has said nothing about this request of yours: "
    "{goals}. Write the customer's next message asking the agent about it, without ending the "
    "chat.)"
)
#: The guard problems that end the chat when the model repeats them, unless a message written
#: by rule can carry the customer's part (:meth:`LLMUser._by_rule`).
_GIVE_UP_PROBLEMS = ("refusal", "repeated a message", SPOKE_AS_AGENT, READ_BRIEF)
_NUDGE_GOALS = (
    "(Do not end the chat yet: you still need to tell the agent this: {goals}. Write the "
    "customer's next message saying it, without ending the chat.)"
)


class LLMUser:
    """The customer, played by the ``user`` role of the LLM layer."""

    def __init__(
        self,
        client: ChatClient,
        task: Task,
        config: UserConfig | None = None,
        seed: int | None = None,
    ) -> None:
        self.client = client
        self.config = config or UserConfig()
        self.seed = seed
        self.usage = TokenUsage()
        self.faults: list[FaultRecord] = []
        self.notes: list[str] = []
        self.prompt_version: str | None = self.config.prompt_version
        self.scenario = task.scenario.as_text()
        self.facts = task.known_facts()
        self.terms = request_terms(self.scenario, self.facts)
        self.brief = task_brief(task)
        self.chat: list[tuple[str, str]] = []
        self.goals = task_goals(task) if self.config.checklist_on() else []
        self.delivered: list[str] = []
        self.nudged = False
        self.asked_unanswered = False
        system = render_user_prompt(
            self.scenario, self.facts, self.config.prompt_version, self.goals
        )
        self.messages: list[dict[str, Any]] = [{"role": "system", "content": system}]

    @property
    def turns(self) -> int:
        """How many messages the customer has sent."""
        return sum(1 for who, _ in self.chat if who == "Customer")

    def _request(self) -> list[dict[str, Any]]:
        """The messages for the next call: the whole transcript (v2) or the chat turns (v1)."""
        version = self.config.prompt_version
        if not uses_transcript(version):
            return list(self.messages)
        if uses_choices(version):  # a free-text first message (see user_choice_v1.md)
            chat = "\n".join(f"{who}: {text}" for who, text in self.chat)
            turn = _FIRST_MESSAGE.replace("{transcript}", chat)
        else:
            turn = render_transcript(self.chat, version, self._still_open())
        return [self.messages[0], {"role": "user", "content": turn}]

    def _open(self) -> list[Goal]:
        """The goals not yet said in a delivered message nor declined by the agent."""
        heard = [text for who, text in self.chat if who == "Agent"]
        return open_goals(self.goals, self.delivered, heard)

    def _still_open(self) -> str:
        return "; ".join(g.text for g in self._open())

    def _states_a_goal(self, reading: Reading, ctx: TurnContext) -> Reading:
        """A first message that says none of the checklist's requests and questions is a
        problem (a list of the customer's details is no request), so it is asked again."""
        asks = [g for g in self.goals if g.kind != "fact"]
        if not ctx.first or reading.problem is not None or not asks:
            return reading
        if conveyed(asks, [reading.text]):
            return reading
        return Reading(reading.text, reading.stop, reading.notes, "first message states no goal")

    def _opening(self) -> str:
        """The fallback first message: the task's own request, else its goals' sentences."""
        asks = [g.text for g in self.goals if g.kind != "fact"]
        if task_request(self.scenario) is None and asks:
            return " ".join(asks)
        return opening_request(self.scenario)

    async def _hold_to_goals(self, reading: Reading, ctx: TurnContext) -> tuple[Reading, bool]:
        """A stop while goals are open: kept when it says one of them (then not a stop),
        else nudged once; ``(reading, incomplete)``."""
        left = self._open()
        if not reading.stop:
            return reading, False
        if all(g.kind == "fact" for g in left):  # facts alone never hold a stop
            return await self._ask_unanswered(reading, ctx), False
        keys = {g.key for g in left}
        if conveyed(left, [*self.delivered, reading.text]) & keys:
            self.notes.append(f"turn {self.turns}: a stop that says an open goal; kept talking")
            return Reading(reading.text, False, reading.notes, None), False
        names = [g.key for g in left]
        if self.nudged:
            self.notes.append(f"turn {self.turns}: stopped again with {names} open")
            return reading, True
        self.nudged = True
        nudge = _NUDGE_GOALS.replace("{goals}", "; ".join(g.text for g in left))
        retry = [*self._request(), {"role": "assistant", "content": reading.text}]
        again = await self._nudged(retry, nudge, ctx)
        said = conveyed(left, [*self.delivered, again.text]) & keys
        rejected = f" but {again.problem}" if again.problem else ""
        self.notes.append(
            f"turn {self.turns}: stopped with {names} open; nudged, said {sorted(said)}{rejected}"
        )
        if said and again.problem is None:
            return Reading(again.text, False, again.notes, None), False
        return reading, True

    async def _ask_unanswered(self, reading: Reading, ctx: TurnContext) -> Reading:
        """A stop while a request the customer said goes unanswered (the agent reported on
        another and said nothing of this one: :func:`unanswered`): nudged once to ask about
        it; a nudged reply that fails the guards is replaced by the request's own words."""
        heard = [text for who, text in self.chat if who == "Agent"]
        said = conveyed(self.goals, self.delivered)
        quiet = unanswered([g for g in self.goals if g.key in said], heard)
        if not quiet or self.asked_unanswered:
            return reading
        self.asked_unanswered = True
        nudge = _NUDGE_UNANSWERED.replace("{goals}", "; ".join(g.text for g in quiet))
        retry = [*self._request(), {"role": "assistant", "content": reading.text}]
        again = await self._nudged(retry, nudge, ctx)
        keys = [g.key for g in quiet]
        if again.problem is None and again.text and not again.stop:
            self.notes.append(f"turn {self.turns}: stopped with {keys} unanswered; asked")
            return Reading(again.text, False, again.notes, None)
        self.notes.append(f"turn {self.turns}: stopped with {keys} unanswered; asked by rule")
        return Reading(f"What about my other request? {quiet[0].text}", False, [], None)

    async def _nudged(self, retry: list[dict[str, Any]], nudge: str, ctx: TurnContext) -> Reading:
        """The answer to a goal nudge; one with a guard problem (the model wrote the agent's
        line, echoed, ...) is asked again once with the role-play reminder, as any turn is."""
        again = read_reply(
            await self._generate([*retry, {"role": "user", "content": nudge}]), ctx, guards=True
        )
        if again.problem is None:
            return again
        self.notes.append(f"turn {self.turns}: the nudged reply {again.problem}; asked again")
        reminder = f"{_NUDGE} {nudge}"
        return read_reply(
            await self._generate([*retry, {"role": "user", "content": reminder}]), ctx, guards=True
        )

    async def _choose(self, ctx: TurnContext) -> Reading:
        """``user_choice_v1``: code answers questions; the model only says whether the request
        is done when the agent asks nothing (see ``user_choice``)."""
        last = ctx.heard[0] if ctx.heard else ""
        by_rule = rule_choice(last, self.facts)
        if not by_rule and rule_done(last):
            self.notes.append(f"turn {self.turns}: the agent closed the chat")
            return Reading("Thank you, that's all.", True, [], None)
        if by_rule or ctx.asked:
            text, stop = compose(by_rule or [OTHER], False, self.facts, ctx.earlier)
            self.notes.append(f"turn {self.turns}: answered {by_rule or [OTHER]} by rule")
            return Reading(text, stop, [], None)
        done = await self._ask_done(last)
        text, stop = compose(NOTHING, done, self.facts, ctx.earlier)
        self.notes.append(f"turn {self.turns}: model says done={done}")
        return Reading(text, stop, [], None)

    async def _ask_done(self, last: str) -> bool:
        """The one model decision of ``user_choice_v1``, schema-constrained."""
        structured = getattr(self.client, "structured_response", None)
        if structured is None:
            raise TypeError("prompt user_choice_v1 needs a client with structured_response")
        turn = render_transcript(self.chat, self.config.prompt_version)
        turn = turn.replace("{agent_message}", " ".join(last.split()))
        value, resp = await structured(
            [self.messages[0], {"role": "user", "content": turn}],
            DoneChoice,
            role="user",
            purpose="rollout.user",
            temperature=self.config.temperature,
            max_tokens=32,
            seed=self.seed,
        )
        self._record(resp)
        return bool(value.request_done)

    def _record(self, resp: Any) -> None:
        """Add a response's token usage and latency to the user's account."""
        self.usage.add_response(resp)

    async def _generate(self, messages: list[dict[str, Any]]) -> str:
        """One model answer, its reasoning stripped; usage recorded."""
        resp = await self.client.chat(
            messages,
            role="user",
            purpose="rollout.user",
            temperature=self.config.temperature,
            max_tokens=self.config.max_tokens,
            seed=self.seed,
        )
        self._record(resp)
        visible, _ = split_thinking(resp.message.get("content"))
        return visible

    async def _repair(self, visible: str, reading: Reading, ctx: TurnContext) -> Reading:
        """Re-ask once with a nudge; on the first turn fall back to the task's own request."""
        said = " ".join(visible.split())[:80]
        self.notes.append(f"turn {self.turns}: {reading.problem} ({said!r}); asked again")
        nudge = _NUDGE_FIRST if ctx.first else _NUDGE
        if reading.problem == DETAIL_NOT_GIVEN:
            nudge = _NUDGE_DETAIL.replace("{labels}", " and ".join(ctx.wanted_labels))
        retry = [*self._request(), {"role": "assistant", "content": visible}]
        again = await self._generate([*retry, {"role": "user", "content": nudge}])
        second = self._states_a_goal(read_reply(again, ctx, guards=True), ctx)
        if second.problem is None:
            return second
        if ctx.first:
            said = " ".join(again.split())[:80]
            self.notes.append(
                f"turn {self.turns}: {second.problem} ({said!r}); used the task's request"
            )
            return Reading(self._opening(), False, [], None)
        if second.problem.startswith("invented"):  # say what a customer without it says
            self.notes.append(f"turn {self.turns}: {second.problem} again; said it does not know")
            return Reading("Sorry, I don't know that.", False, [], None)
        if second.problem == "repeated a message" and not echoes_agent(second.text, ctx.heard):
            self.notes.append(f"turn {self.turns}: repeated its own request again; re-asked")
            return Reading(second.text, second.stop, second.notes, None)  # as a customer does
        if second.problem in _GIVE_UP_PROBLEMS:
            written = self._by_rule(ctx)
            if written is not None:
                self.notes.append(f"turn {self.turns}: {second.problem} again; said by rule")
                return Reading(written, False, [], None)
            self.notes.append(f"turn {self.turns}: {second.problem} again; the customer gave up")
            return Reading("Okay, thank you anyway.", True, [], None)
        return Reading(second.text, not second.text, [], None)

    def _by_rule(self, ctx: TurnContext) -> str | None:
        """The customer's part when its model failed twice, if code can write it without adding
        anything: the details the agent asked for, else the next request or question not yet
        said, in the task's own words; ``None``: nothing is owed (the customer leaves)."""
        if ctx.wanted_labels:
            given = [
                f"My {fact_label(k)} is {v}."
                for k, v in self.facts.items()
                if fact_label(k) in ctx.wanted_labels
            ]
            return " ".join(given)
        asks = [g for g in self._open() if g.kind != "fact"]
        return asks[0].text if asks else None

    def _context(self, agent_text: str) -> TurnContext:
        earlier = tuple(text for who, text in self.chat if who == "Customer")
        heard = tuple(text for who, text in reversed(self.chat) if who == "Agent")
        return TurnContext(
            first=not earlier,
            asked=asks_for_information(agent_text),
            heard=(agent_text, *heard),
            earlier=earlier,
            terms=self.terms,
            known="\n".join([self.scenario, *map(str, self.facts.values())]),
            brief=self.brief,
            **(self._wanted(agent_text) if earlier else {}),
        )

    def _wanted(self, agent_text: str) -> dict[str, tuple[str, ...]]:
        """The customer's details that the agent's message asks for, as the
        :class:`TurnContext` fields ``wanted`` (values) and ``wanted_labels``; not those it
        states itself ("Shall I add the review with rating 5?" asks to confirm)."""
        asked = details_asked(agent_text, self.facts, strict=True)
        named = {k: fact_leaves(str(v)) for k, v in self.facts.items() if fact_label(k) in asked}
        owed = {k: vs for k, vs in named.items() if not holds_value(agent_text, vs)}
        return {
            "wanted": tuple(v for vs in owed.values() for v in vs),
            "wanted_labels": tuple(dict.fromkeys(fact_label(k) for k in owed)),
        }

    async def reply(self, agent_text: str) -> UserReply:
        """Roles flip in the user's own context: the agent speaks as ``user``."""
        version, guards = self.config.prompt_version, self.config.guards_on()
        ctx = self._context(agent_text)
        self.messages.append({"role": "user", "content": render_user_turn(agent_text, version)})
        self.chat.append(("Agent", agent_text))
        if uses_choices(version) and not ctx.first:
            reading, visible = await self._choose(ctx), ""
        elif uses_choices(version) and task_request(self.scenario):
            reading, visible = Reading(opening_request(self.scenario), False, [], None), ""
        else:
            visible = await self._generate(self._request())
            reading = read_reply(visible, ctx, guards=guards)
            reading = self._states_a_goal(reading, ctx) if guards else reading
        if guards and reading.problem is not None:
            reading = await self._repair(visible, reading, ctx)
        reading, incomplete = await self._hold_to_goals(reading, ctx)
        self.notes.extend(f"turn {self.turns}: {note}" for note in reading.notes)
        said = f"{reading.text} {STOP_TOKEN}".strip() if reading.stop else reading.text
        self.messages.append({"role": "assistant", "content": said if guards else visible})
        self.chat.append(("Customer", said))
        if not reading.stop:
            self.delivered.append(reading.text)
        return UserReply(text=reading.text, stop=reading.stop, incomplete=incomplete)


class ScriptedUser:
    """A deterministic user that says the given turns in order, then stops.

    A turn containing ``###STOP###`` stops there; running out of turns stops as well.
    """

    def __init__(self, turns: Sequence[str]) -> None:
        self.turns = list(turns)
        self.usage = TokenUsage()
        self.faults: list[FaultRecord] = []
        self.prompt_version: str | None = None
        self.heard: list[str] = []

    async def reply(self, agent_text: str) -> UserReply:
        self.heard.append(agent_text)
        if not self.turns:
            return UserReply(text="", stop=True)
        text, stop = split_stop(self.turns.pop(0))
        return UserReply(text=text, stop=stop)


_INVENTED = (
    ("membership number", "M-{n}"),
    ("order number", "{n}"),
    ("phone number", "555-01{n}"),
    ("date of birth", "19{n}"),
)


def perturb(value: str) -> str:
    """A different but plausible value: the last digit shifted, else the first letter."""
    digits = [i for i, ch in enumerate(value) if ch.isdigit()]
    if digits:
        i = digits[-1]
        return value[:i] + str((int(value[i]) + 1) % 10) + value[i + 1 :]
    if value:
        first = "Z" if value[0].upper() != "Z" else "Q"
        return first + value[1:]
    return "unknown"


_SENTENCE_END = re.compile(r"(?<=[.?!])\s+")


def without_goal(text: str, goal: Goal) -> str:
    """``text`` without the sentences that would say ``goal`` (those that say it, or that
    name its words or values when the rest still says it)."""
    parts = [s for s in _SENTENCE_END.split(text.strip()) if s]
    kept = [s for s in parts if not goal_said(goal, s)]
    if goal_said(goal, " ".join(kept)):
        named = set(goal.words) | {v.lower() for v in goal.values}
        kept = [s for s in kept if not (stems(s) & named)]
    return " ".join(kept)


class FaultyUser:
    """Wraps a user; with probability ``p`` per turn injects one fault and records it.

    ``drop_goal`` needs the checklist (``goals``): at the first turn, with probability ``p``, it
    picks a request or question goal and leaves it out of every later message.
    """

    def __init__(
        self,
        inner: SimulatedUser,
        facts: Mapping[str, str],
        *,
        p: float,
        seed: int = 0,
        kinds: Sequence[FaultKind] = FAULT_KINDS,
        max_faults: int = 1,
        goals: Sequence[Goal] = (),
    ) -> None:
        self.inner = inner
        self.facts = dict(facts)
        self.p = p
        self.rng = random.Random(seed)
        self.kinds = [k for k in kinds if k != "drop_goal"]
        self.droppable = [g for g in goals if g.kind != "fact"] if "drop_goal" in kinds else []
        self.dropped: Goal | None = None
        self.max_faults = max_faults
        self.turn = 0
        self.faults: list[FaultRecord] = []

    @property
    def usage(self) -> TokenUsage:
        return self.inner.usage

    @property
    def prompt_version(self) -> str | None:
        return self.inner.prompt_version

    @property
    def notes(self) -> list[str]:
        """The inner user's guard notes (empty for users without guards)."""
        notes = getattr(self.inner, "notes", [])
        return list(notes) if isinstance(notes, list) else []

    def _fault(self, kind: FaultKind, text: str) -> tuple[UserReply, str] | None:
        if kind == "stop_early":
            return UserReply(text="", stop=True), "stopped before the goal was reached"
        if kind == "change_fact":
            for key, value in self.facts.items():
                if value and value in text:
                    wrong = perturb(value)
                    return UserReply(text.replace(value, wrong)), f"{key}: {value!r} -> {wrong!r}"
            return None
        name, pattern = self.rng.choice(_INVENTED)
        invented = pattern.format(n=self.rng.randint(10000, 99999))
        extra = f" By the way, my {name} is {invented}."
        return UserReply((text + extra).strip()), f"invented {name} {invented!r}"

    def _drop(self, reply: UserReply) -> UserReply:
        """Decide the drop at the first turn; leave the dropped goal out of every message."""
        if self.turn == 1 and self.droppable and self.rng.random() < self.p:
            self.dropped = self.rng.choice(self.droppable)
            detail = f"left out {self.dropped.key}: {self.dropped.text}"
            self.faults.append(FaultRecord(kind="drop_goal", turn=1, detail=detail))
        if self.dropped is None or reply.stop:
            return reply
        text = without_goal(reply.text, self.dropped)
        return UserReply(text or "Hi, I need some help, please.", incomplete=reply.incomplete)

    async def reply(self, agent_text: str) -> UserReply:
        self.turn += 1
        reply = self._drop(await self.inner.reply(agent_text))
        if reply.stop or len(self.faults) >= self.max_faults or self.rng.random() >= self.p:
            return reply
        for kind in self.rng.sample(self.kinds, len(self.kinds)):
            done = self._fault(kind, reply.text)
            if done is not None:
                self.faults.append(FaultRecord(kind=kind, turn=self.turn, detail=done[1]))
                return done[0]
        return reply
