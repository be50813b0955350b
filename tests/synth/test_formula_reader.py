"""The model as a reader of amounts: an amount the docs say a write stores, spread over prose
no formula rule reads, read by the model into one expression and kept only where grounded
(names read, numbers written in the passage, the data's values reproduced); scripted answers
here, the embedded 0.5B in ``test_a_real_small_model_reads_only_grounded_amounts``."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

from autoforge.llm import LLMClient
from autoforge.synth.behaviour.compile import compile_tool
from autoforge.synth.behaviour.formula_reader import _value, expression_text, read_formulas
from autoforge.synth.behaviour.run import derive_model
from autoforge.tooldocs import load_doc

DOC = """
openapi: 3.0.3
info: {title: Jobs, version: "1"}
paths:
  /jobs:
    post:
      operationId: open_job
      summary: Open a job
      description: >
        Opens a `quoted` job. The price is the word count times 0.10, and that price
        becomes the job's `quote_amount`.
      requestBody:
        required: true
        content:
          application/json:
            schema:
              type: object
              required: [word_count]
              properties:
                word_count: {type: integer}
      responses:
        "201":
          description: The job
          content:
            application/json:
              schema: {$ref: '#/components/schemas/Job'}
  /jobs/{job_id}/cancel:
    post:
      operationId: cancel_job
      summary: Cancel a job
      description: >
        Sets the job `cancelled`; a `quoted` or `assigned` job can be cancelled. A job
        nobody works on yet costs nothing to cancel; one somebody works on costs a kill fee
        of 25% of its `quote_amount`, stored as `cancellation_fee`.
      parameters:
        - {name: job_id, in: path, required: true, schema: {type: string}}
      responses:
        "200":
          description: The job
          content:
            application/json:
              schema: {$ref: '#/components/schemas/Job'}
components:
  schemas:
    Job:
      type: object
      properties:
        job_id: {type: string}
        word_count: {type: integer}
        quote_amount: {type: number}
        cancellation_fee: {type: number, nullable: true}
        status: {type: string, enum: [quoted, assigned, cancelled]}
"""


def _job(n: int, status: str, words: int, fee: float | None = None) -> dict[str, Any]:
    return {"job_id": f"J{n}", "word_count": words, "quote_amount": round(words * 0.1, 2),
            "cancellation_fee": fee, "status": status}  # fmt: skip


DATA: dict[str, Any] = {
    "meta": {"today": "2031-05-01"},
    "jobs": {
        j["job_id"]: j
        for j in [
            _job(1, "quoted", 1000),
            _job(2, "assigned", 2000),
            _job(3, "assigned", 500),
            _job(4, "cancelled", 800, 0.0),
            _job(5, "cancelled", 1200, 30.0),
            _job(6, "cancelled", 400, 10.0),
            _job(7, "quoted", 3000),
        ]
    },
}
CONDITIONAL = "0.0 if job.status == 'quoted' else round(0.25 * job.quote_amount, 2)"


def _read(tmp_path: Path, client: LLMClient) -> tuple[int, Any]:
    (tmp_path / "api.yaml").write_text(DOC)
    docs = load_doc(str(tmp_path / "api.yaml"))
    model = derive_model(docs, DATA, "")
    return asyncio.run(read_formulas(model, docs, DATA, "", client)), model


def _asked(client: LLMClient) -> list[str]:
    return [str(r.body["messages"][-1]["content"]) for r in client.requests]


def _answers(by_attr: dict[str, str]) -> Any:
    def answer(req: Any) -> str:
        text = str(req.body["messages"][-1]["content"])
        return next((a for k, a in by_attr.items() if f"stores in `{k}`" in text), "none")

    return answer


def test_a_grounded_conditional_amount_is_written_before_the_status(tmp_path: Path) -> None:
    client = LLMClient.scripted([_answers({"cancellation_fee": CONDITIONAL})] * 4)
    added, model = _read(tmp_path, client)
    tool = model.tool("cancel_job")
    assert tool is not None and added == 1
    first = tool.effects[0]  # before the status is set: its test reads the job as it was
    assert first.source == "model" and list(first.fields) == ["cancellation_fee"]
    kind, tree, digits = first.fields["cancellation_fee"].const
    assert kind == "expr" and tree[0] == "if" and digits == 2
    assert "25%" in first.sentence
    cancel = _compiled(tool)
    state = {"jobs": {k: dict(v) for k, v in DATA["jobs"].items()}}
    assert cancel(state, "J1")["cancellation_fee"] == 0.0  # was quoted
    assert cancel(state, "J2")["cancellation_fee"] == 50.0  # was assigned: 25% of 200.00
    assert state["jobs"]["J2"]["status"] == "cancelled"


class ToolError(Exception):
    pass


def _compiled(tool: Any) -> Any:
    scope: dict[str, Any] = {"ToolError": ToolError}
    exec(compile_tool(tool, ""), scope)
    return scope[tool.tool]


@pytest.mark.parametrize(
    "answer",
    [
        "round(0.3 * job.quote_amount, 2)",  # 0.3 is written nowhere
        "0.0",  # names no value
        "job.cancellation_fee",  # the attribute itself
        "0.25 * job.price",  # a name the job does not have
        "round(0.25 * job.quote_amount, 2)",  # no condition: the quoted job's 0.0 disagrees
    ],
)
def test_an_ungrounded_or_contradicted_amount_is_dropped(tmp_path: Path, answer: str) -> None:
    client = LLMClient.scripted([_answers({"cancellation_fee": answer})] * 4)
    added, model = _read(tmp_path, client)
    tool = model.tool("cancel_job")
    assert added == 0 and tool is not None
    assert not [e for e in tool.effects if e.source == "model"]


def test_a_create_s_amount_must_reproduce_the_data(tmp_path: Path) -> None:
    right = LLMClient.scripted([_answers({"quote_amount": "round(word_count * 0.10, 2)"})] * 4)
    added, model = _read(tmp_path, right)
    made = next(e for e in model.tool("open_job").effects if e.kind == "create")
    assert added == 1 and made.fields["quote_amount"].source == "formula"
    wrong = LLMClient.scripted([_answers({"quote_amount": "word_count * 0.10 + 100"})] * 4)
    added, model = _read(tmp_path, wrong)
    made = next(e for e in model.tool("open_job").effects if e.kind == "create")
    assert added == 0 and made.fields["quote_amount"].source != "formula"


def test_only_amounts_the_docs_say_are_written_are_asked(tmp_path: Path) -> None:
    client = LLMClient.scripted(["none"] * 8)
    _read(tmp_path, client)
    asked = _asked(client)
    assert any("`open_job`" in a and "stores in `quote_amount`" in a for a in asked)
    assert any("`cancel_job`" in a and "stores in `cancellation_fee`" in a for a in asked)
    # the cancel reads `quote_amount` but never says it writes it
    assert not any("`cancel_job`" in a and "stores in `quote_amount`" in a for a in asked)


def test_helper_values_are_written_into_the_last_line() -> None:
    answer = "```python\nbase = words * rate\nextra = 0.5 * base\nfee = base + extra\n```"
    assert expression_text(answer, "fee") == "words * rate + 0.5 * (words * rate)"
    assert expression_text("x = 2\nx * 3", "fee") == "2 * 3"
    assert expression_text("I cannot tell.", "fee") == ""


@pytest.mark.llm
def test_a_real_small_model_reads_only_grounded_amounts(
    embedded_small_config: Any, tmp_path: Path
) -> None:
    client = LLMClient(embedded_small_config, cache=False)
    added, model = _read(tmp_path, client)
    kept = [
        (t.tool, a, v.const)
        for t in model.tools
        for e in t.effects
        for a, v in e.fields.items()
        if e.source == "model" or (t.tool == "open_job" and v.source == "formula")
    ]
    assert added == len(kept) >= 1  # the 0.5B reads the price; the data grades it
    for tool, attr, (_, tree, _) in kept:  # whatever is kept names a value the passage states
        assert (tool, attr) in {("cancel_job", "cancellation_fee"), ("open_job", "quote_amount")}
        assert "quote_amount" in repr(tree) or "word_count" in repr(tree)
        if tool == "open_job":  # and gives the stored price of every stored job
            assert all(abs(_value(tree, j, DATA) - j["quote_amount"]) < 0.01
                       for j in DATA["jobs"].values())  # fmt: skip


def test_the_data_s_contradiction_is_shown_and_asked_once_more(tmp_path: Path) -> None:
    def answer(req: Any) -> str:
        messages = req.body["messages"]
        if "stores in `quote_amount`" not in str(messages[0]["content"]):
            return "none"
        return "round(word_count * 0.10, 2)" if len(messages) > 1 else "word_count * 0.10 + 1"

    client = LLMClient.scripted([answer] * 6)
    added, model = _read(tmp_path, client)
    made = next(e for e in model.tool("open_job").effects if e.kind == "create")
    assert added == 1 and made.fields["quote_amount"].const[1][0] == "op"
    (told,) = [r for r in client.requests if len(r.body["messages"]) == 3]
    shown = str(told.body["messages"][-1]["content"])
    # a stored record, what the answer read of it, the stored value and what it gave
    assert "job.word_count = 1000" in shown or "word_count = 1000" in shown
    assert "quote_amount = 100.0" in shown and "gives 101.0" in shown


def test_what_the_data_cannot_show_is_not_graded() -> None:
    from autoforge.synth.behaviour.formula_reader import _grades

    rate = ["rec", "new", "jobs", [], "word_count"]
    assert _grades(["op", "*", rate, ["arg", "word_count"]], "status", {"word_count"})
    # an argument the records do not store under its name (a count of days asked, not kept)
    assert not _grades(["op", "*", rate, ["arg", "days"]], "status", {"word_count"})
    said = ["is", ["rec", "target", "jobs", [], "status"], "quoted"]
    assert not _grades(["if", [[said, ["num", 0]]], rate], "status", {"word_count"})
    dated = ["days", ["arg", "start"], ["arg", "end"]]
    assert not _grades(["if", [[["cmp", [">"], [dated, ["num", 2]]], rate]], ["num", 0]], None,
                       {"start", "end"})  # fmt: skip


def test_a_record_an_argument_names_is_read_from_the_stored_reference() -> None:
    from autoforge.synth.behaviour.formula_reader import _value

    state = {"plans": {"P1": {"rate": 20.0}}}
    rec = {"plan_id": "P1", "days": 3}
    tree = ["op", "*", ["rec", "param:plan_id", "plans", [], "rate"], ["arg", "days"]]
    assert _value(tree, rec, state) == 60.0
