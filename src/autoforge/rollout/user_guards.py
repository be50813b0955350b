"""Deterministic guards around the simulated user's model output (pure functions).

Small models (the embedded 0.5B/1.5B) follow the user prompt only roughly: they mangle the stop
token (``### STOP ###``, ``[STOP]``), prefix their message with ``Customer:``, run on and write
the agent's next line too, refuse to "share personal data", or stop before saying what they
want. These functions repair what can be repaired without guessing: they never add a fact the
task does not hold, and every repair is visible (``LLMUser.notes``).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

STOP_TOKEN = "###STOP###"

# ``###STOP###`` and its common manglings; a bare "stop" word is never a stop token.
_STOP_RE = re.compile(
    r"#{2,}\s*stop\s*#*|\bstop\s*#{2,}|\[\s*stop\s*\]|<\s*/?\s*stop\s*>",
    re.IGNORECASE,
)
_SPEAKER_RE = re.compile(r"^\s*(?:\*\*)?(?:customer|user|me)(?:\*\*)?\s*:\s*", re.IGNORECASE)
# A line where the model starts writing the other side of the chat.
_RUN_ON_RE = re.compile(
    r"^\s*(?:\*\*)?(?:agent|assistant|support|support agent)(?:\*\*)?\s*:",
    re.IGNORECASE | re.MULTILINE,
)
_REFUSAL_RE = re.compile(
    r"\b(?:i\s*(?:can(?:'|’)?t|cannot|can not|am unable to|'m unable to|won(?:'|’)?t)\s+"
    r"(?:assist|help|provide|share|comply|do that|fulfil)"
    r"|as an ai\b|i(?:'|’)?m (?:just )?an ai\b|i am (?:just )?an ai\b"
    r"|language model\b)",
    re.IGNORECASE,
)
_ASK_RE = re.compile(r"^\s*(?:what you ask for|my request|first request)\s*:\s*(.+)$", re.I | re.M)


def split_stop(text: str) -> tuple[str, bool]:
    """``(text without any stop token, whether one was there)``; tolerant of manglings."""
    if not _STOP_RE.search(text):
        return text.strip(), False
    cleaned = _STOP_RE.sub(" ", text)
    return re.sub(r"[ \t]{2,}", " ", cleaned).strip(), True


AGENT_LABEL_NOTE = "wrote the agent's line"
#: The problem of a message that reads as the agent's (role confusion).
SPOKE_AS_AGENT = "spoke as the agent"


def clean_reply(text: str) -> tuple[str, list[str]]:
    """The customer's message alone: no ``Customer:`` prefix, nothing after a run-on
    ``Agent:`` line, no wrapping quotes. Returns ``(text, notes on what was cut)``; a message
    that opens with the agent's label is noted (:data:`AGENT_LABEL_NOTE`): the model wrote the
    agent's next line, not the customer's ("Agent: Sure, I'll place the order for you.")."""
    notes: list[str] = []
    lead = _RUN_ON_RE.match(text)
    if lead:
        text = text[lead.end() :]
        notes.append(AGENT_LABEL_NOTE)
    match = _RUN_ON_RE.search(text)
    if match and match.start() > 0:
        text = text[: match.start()]
        notes.append("cut a run-on agent line")
    stripped = _SPEAKER_RE.sub("", text, count=1)
    if stripped != text:
        notes.append("removed a speaker prefix")
    text = stripped.strip()
    if len(text) >= 2 and text[0] == text[-1] and text[0] in "\"'":
        text = text[1:-1].strip()
    return text, notes


def is_refusal(text: str) -> bool:
    """Whether the model stepped out of the role ("I can't assist with that", "As an AI")."""
    return bool(_REFUSAL_RE.search(text))


_ANYTHING_ELSE_RE = re.compile(
    r"\b(?:anything else|something else|any other|further (?:questions|help))\b", re.I
)


def asks_for_information(agent_text: str) -> bool:
    """Whether the agent's message ends with a question that is not "anything else?"."""
    text = agent_text.rstrip()
    if not text.endswith("?"):
        return False
    last = re.split(r"(?<=[.!?])\s+", text)[-1]
    return not _ANYTHING_ELSE_RE.search(last)


def fact_label(name: str) -> str:
    """``customer_id`` -> ``customer id``; names already written in words are kept."""
    return re.sub(r"\s+", " ", name.replace("_", " ")).strip()


_SENTENCE_RE = re.compile(r"[^.!?\n]+[.!?]?")
_ASKING_RE = re.compile(
    r"\?\s*$|\b(?:please|kindly)\s+(?:provide|give|tell|share|send|confirm|enter)\b", re.I
)
_LABEL_STOPWORDS = frozenset({"your", "the", "you", "number", "name"})
_NOT_KNOWN_RE = re.compile(
    r"\b(?:(?:don'?t|do not|doesn'?t|does not) (?:know|have|remember)|not sure|no idea)\b", re.I
)


DETAIL_NOT_GIVEN = "did not give the detail asked for"


def asking_sentences(agent_text: str) -> list[str]:
    """The sentences of the message that ask the customer for something."""
    sentences = [m.group(0).strip() for m in _SENTENCE_RE.finditer(agent_text)]
    return [s for s in sentences if _ASKING_RE.search(s)]


def _label_words(label: str) -> set[str]:
    words = set(re.findall(r"[a-z]+", label.lower()))
    kept = {w for w in words if len(w) >= 3 and w not in _LABEL_STOPWORDS}
    return kept or words


def details_asked(agent_text: str, names: Iterable[str], *, strict: bool = False) -> list[str]:
    """The labels of the customer's details (fact names) that one asking sentence of the
    agent's message names, every significant word of the label ("the email?", "your book
    title?"); ``strict``: every word of it ("order id", not "the order")."""
    asking = [s.lower() for s in asking_sentences(agent_text)]
    named = []
    for label in dict.fromkeys(fact_label(name) for name in names):
        words = set(re.findall(r"[a-z]+", label.lower())) if strict else _label_words(label)
        if any(all(re.search(rf"\b{w}", s) for w in words) for s in asking):
            named.append(label)
    return named


def holds_value(text: str, values: Iterable[str]) -> bool:
    """Whether ``text`` holds one of ``values`` as whole tokens (normalised)."""
    said = _normal(text)
    wanted = [_normal(v).strip() for v in values if v.strip()]
    return any(re.search(rf"(?<![\w@.-]){re.escape(v)}(?![\w@-])", said) for v in wanted)


def gives_detail(text: str, values: Iterable[str]) -> bool:
    """Whether the reply gives one of ``values`` or says it does not know; no values to give:
    nothing is owed."""
    wanted = [v for v in values if v.strip()]
    return not wanted or holds_value(text, wanted) or bool(_NOT_KNOWN_RE.search(text))


def first_person_facts(facts: Mapping[str, str]) -> str:
    """The facts as first-person lines, ``- My customer id: C-1``, one per line."""
    lines = [f"- My {fact_label(k)}: {v}" for k, v in facts.items()]
    return "\n".join(lines) or "- (none: you have no ids or numbers to give)"


def opening_request(scenario: str) -> str:
    """A first message that states the request, used when the model does not give one.

    Taken from the scenario's ``What you ask for:`` line (the task's own opening question, as
    written by ``autoforge.tasks``); without one, a neutral opening that adds no fact.
    """
    return task_request(scenario) or "Hi, I need some help with a request, please."


def task_request(scenario: str) -> str | None:
    """The scenario's own opening request (its ``What you ask for:`` line), if it has one."""
    match = _ASK_RE.search(scenario)
    return match.group(1).strip() if match else None


STOPWORDS = frozenset(
    [
        "about",
        "agent",
        "also",
        "assistance",
        "customer",
        "details",
        "does",
        "from",
        "goal",
        "have",
        "hello",
        "help",
        "know",
        "like",
        "need",
        "please",
        "tell",
        "thank",
        "thanks",
        "that",
        "their",
        "them",
        "then",
        "there",
        "this",
        "want",
        "what",
        "when",
        "which",
        "with",
        "would",
        "your",
        "yours",
    ]
)
WORD_RE = re.compile(r"[a-z0-9](?:[a-z0-9-]*[a-z0-9])?")
_IGNORED_LINES_RE = re.compile(r"^\s*(?:your persona|what you do not know)\s*:.*$", re.I | re.M)


def _stems(text: str) -> set[str]:
    """Content words of at least four letters, cut to five (``cancelled`` -> ``cance``)."""
    words = WORD_RE.findall(text.lower())
    return {w[:5] for w in words if len(w) >= 4 and w not in STOPWORDS} | {
        w for w in words if any(ch.isdigit() for ch in w)
    }


def request_terms(scenario: str, facts: Mapping[str, str]) -> frozenset[str]:
    """The stems a first message that states the request shares with the task."""
    text = _IGNORED_LINES_RE.sub("", scenario) + " " + " ".join(str(v) for v in facts.values())
    return frozenset(_stems(text))


def mentions_request(text: str, terms: frozenset[str]) -> bool:
    """Whether ``text`` shares a content word with the task (no terms: anything goes)."""
    return not terms or bool(_stems(text) & terms)


def _norm(text: str) -> str:
    return " ".join(WORD_RE.findall(text.lower()))


def is_echo(text: str, heard: tuple[str, ...], earlier: tuple[str, ...]) -> bool:
    """Whether the reply repeats (or is part of) an agent message, or repeats one of its own
    earlier messages; short replies ("ok", "yes") never count."""
    said = _norm(text)
    return len(said) >= 12 and (echoes_agent(text, heard) or said in map(_norm, earlier))


def echoes_agent(text: str, heard: tuple[str, ...]) -> bool:
    """Whether the reply repeats (or is part of) an agent message, not only the customer's own
    earlier words (which a customer re-asking after a useless answer repeats)."""
    said = _norm(text)
    return len(said) >= 12 and any(
        said == h or (len(said) >= 16 and said in h) for h in map(_norm, heard)
    )


_VALUE_RE = re.compile(r"[\w.+-]*(?:\d|@)[\w.@+-]*")
_AGENT_SPEAK_RE = re.compile(
    r"\b(?:anything else i can (?:help|assist|do)|how (?:can|may) i (?:help|assist)"
    r"|feel free to (?:ask|reach out|contact)|i(?:'ll| will) (?:process|cancel|send you|look into)"
    r"|let me (?:check|look|see)|please provide (?:the|your)|shall i (?:go ahead|proceed)"
    r"|provide me with your|i can help you with|\byou(?:'re| are) (?:interested in|looking for)"
    r"|^(?:sure|certainly|of course)\b[,!.]?\s*i(?:'ll| will) "
    r"(?:do that|take care of|help you|[^.?!]*\bfor you\b)"
    r"|^to confirm:)",
    re.I,
)


def _normal(text: str) -> str:
    """Lowercase, ``$`` dropped, thousands separators dropped (``$1,250`` -> ``1250``)."""
    return re.sub(r"(?<=\d),(?=\d{3})", "", text.lower()).replace("$", "")


def invented_values(text: str, known: str) -> list[str]:
    """Ids, numbers and emails in ``text`` that occur nowhere in ``known`` (the scenario, the
    facts and the chat so far): a customer who says one has made it up."""
    haystack = _normal(known)
    return [v for v in _values(text) if v not in haystack]


def _values(text: str) -> list[str]:
    """The ids, numbers and emails in ``text``, normalised (see :func:`_normal`)."""
    values = (m.group(0).strip(".-+") for m in _VALUE_RE.finditer(_normal(text)))
    return [v for v in values if v]


#: How many words in a row a message must copy from the user's brief to be reading it aloud.
COPIED_RUN = 6
_RUN_WORD_RE = re.compile(r"[a-z0-9]+")
_SECOND_PERSON = frozenset({"you", "your", "yours", "yourself"})
_MODALS = frozenset({"can", "could", "would", "will", "do", "did", "should", "may"})
READ_BRIEF = "read its brief aloud"


def _runs(text: str) -> set[tuple[str, ...]]:
    words = _RUN_WORD_RE.findall(text.lower())
    return {tuple(words[i : i + COPIED_RUN]) for i in range(len(words) - COPIED_RUN + 1)}


def _addresses_user(run: tuple[str, ...]) -> bool:
    """Whether a run holds a second-person word that is not the agent asked "can you ...?"."""
    return any(
        w in _SECOND_PERSON and not (w == "you" and i and run[i - 1] in _MODALS)
        for i, w in enumerate(run)
    )


def brief_runs(scenario: str, request: str) -> frozenset[tuple[str, ...]]:
    """The word runs of the user's brief (``scenario``) that address it as "you" ("You want
    the agent to ..."), less those of the ``request`` it is given to say: words a customer
    never says of itself."""
    return frozenset(run for run in _runs(scenario) - _runs(request) if _addresses_user(run))


def copied_brief(text: str, brief: frozenset[tuple[str, ...]]) -> str | None:
    """A run of the brief the message copies (the first in order), if any."""
    copied = _runs(text) & brief
    return " ".join(min(copied)) if copied else None


def speaks_as_agent(text: str) -> bool:
    """Whether the customer's message is phrased as the agent's ("anything else I can help
    with?", "please provide your ...", "can you provide me with your ...", "Sure, I'll place
    the order for you", "Sure, I'll do that",
    "let me check", "To confirm: ... Shall I go ahead?", the last copied from the prompt's
    example by small models)."""
    return bool(_AGENT_SPEAK_RE.search(text))


#: A customer's label after the start of the message ("... on your account? Customer: It's
#: ..."): the model wrote another speaker's line before it, so the message mixes both roles.
_INNER_CUSTOMER_RE = re.compile(
    r"(?:(?<=[.!?\"'])|\n)[ \t]*(?:\*\*)?(?:customer|user|client)(?:\*\*)?[ \t]*:", re.I
)
#: A question for the customer's own records, the agent's side of the chat.
_ASKS_FOR_RECORDS_RE = re.compile(
    r"\b(?:on|for|in|to|with) your (?:account|profile)\b|\bcan i (?:have|get) your\b", re.I
)


def mixes_roles(text: str) -> bool:
    """Whether one message holds two speakers: a customer label after its start, or an agent
    label at the start of a line ("Agent: ..."), the other side's line written out."""
    return bool(_INNER_CUSTOMER_RE.search(text) or _RUN_ON_RE.search(text))


def asks_for_records(text: str) -> bool:
    """Whether a question in the message asks for the customer's own records ("What is the
    email address on your account?"): the agent's question, not the customer's."""
    return any(_ASKS_FOR_RECORDS_RE.search(s) for s in asking_sentences(text))


_PROPER_RE = re.compile(r"(?<![\w'’@.-])([A-Z][a-z]+(?:[ -][A-Z][a-z]+)*)(?![\w'’@-])")
_SENTENCE_START_RE = re.compile(r"(?:^|[.!?\"“(]\s*|\n\s*)$")
#: Capitalised words that name no fact: forms of address, roles of the chat, the calendar.
_NOT_NAMES = frozenset(
    re.findall(
        r"\w+",
        "i hi hello hey dear thanks thank please yes no ok okay sure sir madam mr mrs ms dr "
        "agent assistant customer support service team monday tuesday wednesday thursday "
        "friday saturday sunday january february march april may june july august september "
        "october november december",
    )
)


def invented_names(text: str, known: str) -> list[str]:
    """Proper names in ``text`` (capitalised words not opening a sentence, "Paris", "Green
    Street"; mixed-case words such as brand names are left alone) whose words occur nowhere in
    ``known`` (the scenario, the facts and the chat so
    far): a place, person or thing the customer made up, or one that contradicts the
    scenario ("I live in Paris" when it says Rome)."""
    seen = set(WORD_RE.findall(known.lower()))
    found = []
    for match in _PROPER_RE.finditer(text):
        if _SENTENCE_START_RE.search(text[: match.start()]):
            continue
        words = [w for w in WORD_RE.findall(match.group(1).lower()) if w not in _NOT_NAMES]
        if words and not any(w in seen for w in words):
            found.append(match.group(1))
    return list(dict.fromkeys(found))


_FIRST_PERSON_RE = re.compile(r"\b(?:i|i'm|i'd|i've|i'll|my|me|mine)\b", re.I)


def _customer_content(text: str, ctx: TurnContext) -> bool:
    """Whether a message under the agent's label still carries the customer's words: not
    phrased as the agent's, and in the first person or stating a value the customer holds
    (small models prefix their own answer with "Agent:"; "Agent: It's a.b@example.se." is the
    customer giving the e-mail, "Agent: Sure, what is your order id?" the agent's next line)."""
    if speaks_as_agent(text):
        return False
    held = len(invented_values(text, ctx.known)) < len(_values(text))
    return held or bool(_FIRST_PERSON_RE.search(text))


@dataclass(frozen=True)
class TurnContext:
    """What the guards know about the turn being answered: whether it is the first, whether
    the agent asked for information, what the agent said so far (last first), what the
    customer said so far, the task's request terms, the scenario and facts as text, and the
    values of the customer's details the agent's last message asks for (any one answers) and
    their labels, and the runs of the brief no customer says (:func:`brief_runs`)."""

    first: bool
    asked: bool = False
    heard: tuple[str, ...] = ()
    earlier: tuple[str, ...] = ()
    terms: frozenset[str] = field(default_factory=frozenset)
    known: str = ""
    wanted: tuple[str, ...] = ()
    wanted_labels: tuple[str, ...] = ()
    brief: frozenset[tuple[str, ...]] = frozenset()

    def known_text(self) -> str:
        """Everything the customer may repeat: scenario and facts, and the chat so far."""
        return "\n".join((self.known, *self.heard, *self.earlier))


@dataclass
class Reading:
    """One model answer read as a customer message, with what is wrong with it."""

    text: str
    stop: bool
    notes: list[str]
    problem: str | None


def _problem(text: str, stop: bool, ctx: TurnContext, notes: list[str]) -> str | None:
    if is_refusal(text):
        return "refusal"
    if AGENT_LABEL_NOTE in notes and text and not _customer_content(text, ctx):
        return SPOKE_AS_AGENT
    if not text:
        if ctx.first:
            return "stopped before stating the request"
        if not stop:
            return "empty reply"
        return "stopped without answering the agent's question" if ctx.asked else None
    if is_echo(text, ctx.heard, ctx.earlier) and (ctx.first or not stop):
        return "repeated a message"  # a stopping message is not delivered: its words are moot
    if ctx.first and not mentions_request(text, ctx.terms):
        return "first message does not state the request"
    if speaks_as_agent(text) or mixes_roles(text) or asks_for_records(text):
        return SPOKE_AS_AGENT
    if copied_brief(text, ctx.brief):
        return READ_BRIEF
    if ctx.wanted and not stop and not gives_detail(text, ctx.wanted):
        return DETAIL_NOT_GIVEN
    invented = invented_values(text, ctx.known_text()) if ctx.known else []
    invented += invented_names(text, ctx.known_text()) if ctx.known else []
    if invented:
        return f"invented {', '.join(invented[:3])}"
    return None


def read_reply(visible: str, ctx: TurnContext, *, guards: bool) -> Reading:
    """The model's visible answer as ``(text, stop)`` plus the guard's findings.

    Without guards only the exact stop token counts and an empty answer stops (user_v1).
    With guards: prefixes and run-on agent lines are cut, mangled stop tokens count, and a
    refusal, an empty answer, an echo of the agent or of itself, a first message that stops
    or does not mention the request, a bare stop token in answer to a question, a message
    phrased or labelled as the agent's (or holding the agent's line before a "Customer:"
    label, or asking for the customer's own records), a message reading its brief aloud
    ("You want the agent to ..."), an answer to a question for one of the
    customer's details that neither gives it nor says it is not known, or an id/number/email
    or a proper name found neither in the task nor in the chat is a problem (the caller re-asks
    once); a first message that states the request and stops is kept without the stop, so the
    agent gets its turn.
    """
    if not guards:
        stop = STOP_TOKEN in visible
        text = visible.replace(STOP_TOKEN, "").strip()
        return Reading(text, stop or not text, [], None)
    cleaned, notes = clean_reply(visible)
    text, stop = split_stop(cleaned)
    problem = _problem(text, stop, ctx, notes)
    if problem is None and ctx.first and stop:
        stop = False
        notes.append("ignored a stop on the first message")
    return Reading(text, stop, notes, problem)
