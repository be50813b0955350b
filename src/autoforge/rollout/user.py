"""Simulated users: an LLM playing the customer, a scripted one, and a fault-injecting wrapper.

The LLM user plays the task's scenario with its known facts under a versioned prompt
(``prompts/user_v1.md``); it reveals facts only when asked, never invents, and ends with
``###STOP###`` when the goal is met or impossible. Its reasoning (``reasoning_content`` or
``<think>`` blocks) is stripped before the agent sees its message.

:class:`FaultyUser` wraps any user and, with probability ``p`` per turn, changes a known fact,
invents one, or stops early, recording each fault; it is the ground truth for validating the
MEU judge.
"""

from __future__ import annotations

import functools
import random
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from importlib import resources
from typing import Any, Literal, Protocol

from pydantic import BaseModel

from autoforge.rollout.agent import ChatClient
from autoforge.rollout.task import RolloutTask
from autoforge.rollout.thinking import split_thinking
from autoforge.rollout.trajectory import FaultRecord, TokenUsage

STOP_TOKEN = "###STOP###"
USER_PROMPT_VERSION = "user_v1"

FaultKind = Literal["change_fact", "invent_fact", "stop_early"]
FAULT_KINDS: tuple[FaultKind, ...] = ("change_fact", "invent_fact", "stop_early")


@dataclass
class UserReply:
    """What the user says next; ``stop`` ends the episode (the text is then not delivered)."""

    text: str
    stop: bool = False


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


def render_user_prompt(
    scenario: str, facts: Mapping[str, str], version: str = USER_PROMPT_VERSION
) -> str:
    """The user's system prompt for a scenario and its facts."""
    lines = "\n".join(f"- {k}: {v}" for k, v in facts.items()) or "- (none)"
    template = load_user_prompt(version)
    return (
        template.replace("{scenario}", scenario.strip())
        .replace("{known_facts}", lines)
        .replace("{stop_token}", STOP_TOKEN)
    )


def split_stop(text: str) -> tuple[str, bool]:
    """``(text without the stop token, whether it was there)``."""
    if STOP_TOKEN in text:
        return text.replace(STOP_TOKEN, "").strip(), True
    return text.strip(), False


class UserConfig(BaseModel):
    """How the LLM user calls the model."""

    temperature: float = 0.0
    max_tokens: int = 512
    prompt_version: str = USER_PROMPT_VERSION


class LLMUser:
    """The customer, played by the ``user`` role of the LLM layer."""

    def __init__(
        self,
        client: ChatClient,
        task: RolloutTask,
        config: UserConfig | None = None,
        seed: int | None = None,
    ) -> None:
        self.client = client
        self.config = config or UserConfig()
        self.seed = seed
        self.usage = TokenUsage()
        self.faults: list[FaultRecord] = []
        self.prompt_version: str | None = self.config.prompt_version
        system = render_user_prompt(
            task.scenario, task.user_known_facts, self.config.prompt_version
        )
        self.messages: list[dict[str, Any]] = [{"role": "system", "content": system}]

    async def reply(self, agent_text: str) -> UserReply:
        """Roles flip in the user's own context: the agent speaks as ``user``."""
        turn = render_user_turn(agent_text, self.config.prompt_version)
        self.messages.append({"role": "user", "content": turn})
        resp = await self.client.chat(
            list(self.messages),
            role="user",
            purpose="rollout.user",
            temperature=self.config.temperature,
            max_tokens=self.config.max_tokens,
            seed=self.seed,
        )
        visible, _ = split_thinking(resp.message.get("content"))
        text, stop = split_stop(visible)
        self.messages.append({"role": "assistant", "content": visible})
        usage = resp.usage
        self.usage.add(
            usage.prompt_tokens,
            usage.completion_tokens,
            cached=bool(resp.cached),
            latency_s=float(resp.latency_s),
        )
        return UserReply(text=text, stop=stop or not text)


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
    ("order number", "#W{n}"),
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


class FaultyUser:
    """Wraps a user; with probability ``p`` per turn injects one fault and records it."""

    def __init__(
        self,
        inner: SimulatedUser,
        facts: Mapping[str, str],
        *,
        p: float,
        seed: int = 0,
        kinds: Sequence[FaultKind] = FAULT_KINDS,
        max_faults: int = 1,
    ) -> None:
        self.inner = inner
        self.facts = dict(facts)
        self.p = p
        self.rng = random.Random(seed)
        self.kinds = list(kinds)
        self.max_faults = max_faults
        self.turn = 0
        self.faults: list[FaultRecord] = []

    @property
    def usage(self) -> TokenUsage:
        return self.inner.usage

    @property
    def prompt_version(self) -> str | None:
        return self.inner.prompt_version

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

    async def reply(self, agent_text: str) -> UserReply:
        reply = await self.inner.reply(agent_text)
        self.turn += 1
        if reply.stop or len(self.faults) >= self.max_faults or self.rng.random() >= self.p:
            return reply
        for kind in self.rng.sample(self.kinds, len(self.kinds)):
            done = self._fault(kind, reply.text)
            if done is not None:
                self.faults.append(FaultRecord(kind=kind, turn=self.turn, detail=done[1]))
                return done[0]
        return reply
