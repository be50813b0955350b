"""The behaviour model on two small APIs written for these tests (a tool rental library and an
evening school): derived from docs + data + policy with rules only, compiled into tools, held
against each tool's stated rules by ``autoforge check``."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest

from autoforge.cli.llm import llm_config_from_options
from autoforge.env import Environment
from autoforge.env.artifact.behaviour import BehaviourModel, Value, doc_sentences, states_rule
from autoforge.llm import LLMClient
from autoforge.synth import check_directory
from autoforge.synth.pipeline import SynthOptions, synthesize
from autoforge.tooldocs import load_docs

HERE = Path(__file__).parent / "behaviour_apis"


async def _synth(name: str, out: Path) -> tuple[Environment, dict[str, Any]]:
    docs = load_docs([HERE / f"{name}_openapi.yaml"])
    data = json.loads((HERE / f"{name}_db.json").read_text())
    policy = (HERE / f"{name}_policy.md").read_text()
    client = LLMClient.scripted([], config=llm_config_from_options(llm_model="none"))
    await synthesize(docs, out, client, data=data, options=SynthOptions(policy=policy))
    return Environment.load(out), data


def _call(env: Environment, data: dict[str, Any], tool: str, **args: Any) -> tuple[bool, Any, Any]:
    ep = env.episode(state=copy.deepcopy(data))
    obs = ep.call(tool, args)
    return obs.ok, obs, ep.snapshot()


@pytest.fixture(scope="module")
def rental(tmp_path_factory: pytest.TempPathFactory) -> tuple[Environment, dict[str, Any], Path]:
    import asyncio

    out = tmp_path_factory.mktemp("rental") / "env"
    env, data = asyncio.run(_synth("rental", out))
    return env, data, out


@pytest.fixture(scope="module")
def courses(tmp_path_factory: pytest.TempPathFactory) -> tuple[Environment, dict[str, Any], Path]:
    import asyncio

    out = tmp_path_factory.mktemp("courses") / "env"
    env, data = asyncio.run(_synth("courses", out))
    return env, data, out


def test_no_documented_tool_goes_missing(rental: Any, courses: Any) -> None:
    for env, _data, out in (rental, courses):
        model = BehaviourModel.load(out)
        assert model is not None
        documented = {t.name for t in env.spec.tools}
        assert {t.tool for t in model.tools} == documented
        assert set(env.tool_names) == documented


def test_create_continues_the_id_pattern_with_its_start_status(rental: Any) -> None:
    env, data, _ = rental
    ok, _obs, state = _call(
        env, data, "rent_tool", member_id="MB02", tool_id="TL003", due_on="2026-02-09"
    )
    assert ok
    new = set(state["rentals"]) - set(data["rentals"])
    assert new == {"RN00013"}  # prefix and five-digit width kept
    rec = state["rentals"]["RN00013"]
    assert (
        rec["status"] == "open" and rec["rented_on"] == "2026-02-05" and rec["returned_on"] is None
    )
    assert set(rec) <= set(data["rentals"]["RN00001"]) | {"loss_details"}
    assert "loss_details" not in rec  # an attribute only lost rentals carry
    assert state["tools"]["TL003"]["times_rented"] == 3  # "increased by 1" on the related tool


@pytest.mark.parametrize(
    "args",
    [
        {"member_id": "MB99", "tool_id": "TL001", "due_on": "2026-02-09"},  # unknown member
        {"member_id": "MB01", "tool_id": "TL001", "due_on": "2026-02-30"},  # impossible date
        {"member_id": "MB01", "tool_id": "TL001", "due_on": "2026-01-30"},  # before today
        {"member_id": "MB01", "tool_id": "TL001", "due_on": "2026-02-09", "note": "  "},  # blank
    ],
)
def test_create_refuses_what_the_docs_refuse(rental: Any, args: dict[str, Any]) -> None:
    env, data, _ = rental
    ok, _obs, state = _call(env, data, "rent_tool", **args)
    assert not ok and state["rentals"] == data["rentals"]


def test_transition_sets_status_stamp_and_the_attribute_its_status_carries(rental: Any) -> None:
    env, data, _ = rental
    open_id = next(k for k, r in data["rentals"].items() if r["status"] == "open")
    done_id = next(k for k, r in data["rentals"].items() if r["status"] == "returned")
    ok, _o, state = _call(env, data, "return_rental", rental_id=open_id)
    assert ok and state["rentals"][open_id]["status"] == "returned"
    assert state["rentals"][open_id]["returned_on"] == "2026-02-05"
    assert not _call(env, data, "return_rental", rental_id=done_id)[0]
    ok, _o, state = _call(env, data, "report_lost", rental_id=open_id, details="fell in river")
    assert ok and state["rentals"][open_id]["status"] == "lost"
    assert state["rentals"][open_id]["loss_details"] == "fell in river"
    assert state["rentals"][open_id]["note"] == data["rentals"][open_id]["note"]
    assert not _call(env, data, "report_lost", rental_id=open_id, details=" ")[0]


def test_update_needs_one_field_where_the_docs_say_so(rental: Any) -> None:
    env, data, _ = rental
    assert not _call(env, data, "update_tool", tool_id="TL001")[0]
    ok, _o, state = _call(env, data, "update_tool", tool_id="TL001", category="garden")
    assert ok and state["tools"]["TL001"] == {**data["tools"]["TL001"], "category": "garden"}


def test_list_filters_and_search(rental: Any, courses: Any) -> None:
    env, data, _ = rental
    ok, obs, _ = _call(env, data, "list_rentals", member_id="MB02", status="open")
    want = [
        k for k, r in data["rentals"].items() if r["member_id"] == "MB02" and r["status"] == "open"
    ]
    assert ok and [r["rental_id"] for r in obs.result] == want
    ok, obs, _ = _call(env, data, "list_rentals", q="JOB 1")
    assert ok and {r["rental_id"] for r in obs.result} == {
        "RN00001",
        "RN00010",
        "RN00011",
        "RN00012",
    }
    assert not _call(env, data, "list_rentals", member_id="MB77")[0]
    env, data, _ = courses
    ok, obs, _ = _call(env, data, "list_courses", min_seats=14, search="spanish")
    want = [
        k
        for k, c in data["courses"].items()
        if c["seats"] >= 14 and "spanish" in c["title"].lower()
    ]
    assert ok and [c["code"] for c in obs.result] == want


def test_policy_transition_table_and_update_of_given_fields(courses: Any) -> None:
    env, data, _ = courses
    pending = next(k for k, r in data["enrolments"].items() if r["status"] == "pending")
    assert _call(env, data, "change_enrolment_status", enrolment_id=pending, status="confirmed")[0]
    assert not _call(
        env, data, "change_enrolment_status", enrolment_id=pending, status="completed"
    )[0]
    ok, _o, state = _call(env, data, "update_student", student_id="ST0002", phone="777")
    assert ok and state["students"]["ST0002"] == {**data["students"]["ST0002"], "phone": "777"}
    assert not _call(env, data, "update_student", student_id="ST0002", email="not-an-email")[0]
    ok, _o, state = _call(env, data, "enrol_student", student_id="ST0001", course_id="C-02")
    assert ok and state["enrolments"]["EN019"]["status"] == "pending"
    assert state["courses"]["C-02"]["enrolled"] == 4


def test_check_fails_a_stated_rule_no_guard_carries(rental: Any, courses: Any) -> None:
    _env, _data, out = rental
    report = check_directory(out)
    unenforced = [i for i in report.items if i.check == "stated_rules" and not i.ok]
    assert not report.ok
    assert [i.tool for i in unenforced] == ["update_tool"]
    assert "never be rented by more than two" in unenforced[0].detail
    enforced = [
        i for i in report.items if i.check == "stated_rules" and i.ok and i.tool == "return_rental"
    ]
    assert "Only `open` rentals can be returned" in enforced[0].detail
    _env, _data, out = courses
    assert not [i for i in check_directory(out).items if i.check == "stated_rules" and not i.ok]


def test_report_marks_partial_tools_with_their_unenforced_sentences(rental: Any) -> None:
    _env, _data, out = rental
    report = json.loads((out / "synthesis_report.json").read_text())
    tools = {t["name"]: t for t in report["tools"]}
    assert tools["update_tool"]["status"] == "partial"
    assert any("more than two" in s for s in tools["update_tool"]["unenforced"])


def test_rule_sentences() -> None:
    text = "Sets `x` today.\n- Only open ones can be closed. Re-opening a closed one is accepted."
    assert doc_sentences(text) == [
        "Sets `x` today.",
        "Only open ones can be closed.",
        "Re-opening a closed one is accepted.",
    ]
    assert [states_rule(s) for s in doc_sentences(text)] == [False, True, False]


def test_advice_and_irreversibility_are_no_rules() -> None:
    """A real document's notes ("you are strongly advised to send the required header",
    "This cannot be reversed.") read as rules made the check fail on tools that enforce every
    refusal their docs state; a refusal beside such a warning is still one."""
    assert not states_rule("This cannot be reversed.")
    assert not states_rule("This call can be slow, so you are strongly advised to page.")
    assert states_rule("Deletion cannot be undone; only drafts can be deleted.")
    assert states_rule("A cancelled booking cannot be reinstated.")
    assert states_rule("Note: the order must be paid first.")
    # "has to", and "will not" with an action, refuse; "will not be ..." says what is not done
    assert states_rule("We will not renew a card while the balance is open.")
    assert states_rule("The balance has to be 0.00 first.")
    assert not states_rule("The deposit will not be refunded.")
    assert not states_rule("Used by staff when a sailing will not run.")


_LEDGER = """
openapi: 3.0.3
info: {title: Ledger, version: "1"}
paths:
  /accounts/{account_id}/entries:
    get:
      operationId: list_entries
      description: Entries of the account ordered by entry_id, optionally only one type.
      parameters:
        - {name: account_id, in: path, required: true, schema: {type: string}}
        - {name: type, in: query, required: false, schema: {type: string, enum: [credit, debit]}}
      responses:
        "200":
          description: The entries
          content:
            application/json:
              schema: {type: array, items: {$ref: "#/components/schemas/Entry"}}
components:
  schemas:
    Entry:
      type: object
      properties:
        entry_id: {type: string}
        account_id: {type: string}
        type: {type: string}
        amount: {type: number}
"""


def test_a_parameter_the_sandbox_forbids_as_a_name_still_gets_its_tool(tmp_path: Path) -> None:
    import asyncio

    (tmp_path / "openapi.yaml").write_text(_LEDGER)
    data = {
        "accounts": {"AC1": {"account_id": "AC1"}, "AC2": {"account_id": "AC2"}},
        "entries": {
            "EN01": {"entry_id": "EN01", "account_id": "AC1", "type": "credit", "amount": 5},
            "EN02": {"entry_id": "EN02", "account_id": "AC1", "type": "debit", "amount": -2},
            "EN03": {"entry_id": "EN03", "account_id": "AC2", "type": "credit", "amount": 9},
        },
    }
    client = LLMClient.scripted([], config=llm_config_from_options(llm_model="none"))
    docs = load_docs([tmp_path / "openapi.yaml"])
    asyncio.run(synthesize(docs, tmp_path / "env", client, data=data, options=SynthOptions()))
    env = Environment.load(tmp_path / "env")
    assert "list_entries" in env.tool_names
    ok, obs, _ = _call(env, data, "list_entries", account_id="AC1", type="debit")
    assert ok and [e["entry_id"] for e in obs.result] == ["EN02"]
    ok, obs, _ = _call(env, data, "list_entries", account_id="AC1")
    assert ok and [e["entry_id"] for e in obs.result] == ["EN01", "EN02"]
    assert not _call(env, data, "list_entries", account_id="AC9")[0]


_LIBRARY = """
openapi: 3.0.3
info: {title: Library, version: "1"}
paths:
  /loans:
    post:
      operationId: borrow_book
      description: Lend a book to a member.
      requestBody:
        required: true
        content:
          application/json:
            schema:
              type: object
              required: [member_id, book_id]
              properties:
                member_id: {type: string}
                book_id: {type: string}
      responses:
        "201":
          description: The new loan
          content:
            application/json:
              schema: {$ref: "#/components/schemas/Loan"}
  /loans/{loan_id}/renew:
    post:
      operationId: renew_loan
      description: Renew a loan.
      parameters:
        - {name: loan_id, in: path, required: true, schema: {type: string}}
      responses:
        "200":
          description: The loan
          content:
            application/json:
              schema: {$ref: "#/components/schemas/Loan"}
  /loans/{loan_id}/return:
    post:
      operationId: return_loan
      description: >-
        Only `out` loans can be returned. Sets status `back`, return_note, returned_at = now.
      parameters:
        - {name: loan_id, in: path, required: true, schema: {type: string}}
      requestBody:
        required: true
        content:
          application/json:
            schema:
              type: object
              required: [note]
              properties:
                note: {type: string}
      responses:
        "200":
          description: The loan
          content:
            application/json:
              schema: {$ref: "#/components/schemas/Loan"}
  /loans/{loan_id}/extend:
    post:
      operationId: extend_loan
      description: >-
        Allowed only in status `out`. `due_on` and `remark` are optional; one left out is
        left unchanged.
      parameters:
        - {name: loan_id, in: path, required: true, schema: {type: string}}
      requestBody:
        required: true
        content:
          application/json:
            schema:
              type: object
              properties:
                due_on: {type: string, format: date}
                remark: {type: string}
      responses:
        "200":
          description: The loan
          content:
            application/json:
              schema: {$ref: "#/components/schemas/Loan"}
  /loans/{loan_id}/status:
    post:
      operationId: set_loan_status
      description: Changes the loan's status; moving to `back` also sets `returned_at` to now.
      parameters:
        - {name: loan_id, in: path, required: true, schema: {type: string}}
      requestBody:
        required: true
        content:
          application/json:
            schema:
              type: object
              required: [status]
              properties:
                status: {type: string, enum: [out, back]}
      responses:
        "200":
          description: The loan
          content:
            application/json:
              schema: {$ref: "#/components/schemas/Loan"}
  /books/{book_id}:
    patch:
      operationId: update_book
      description: Change a book's shelf.
      parameters:
        - {name: book_id, in: path, required: true, schema: {type: string}}
      requestBody:
        required: true
        content:
          application/json:
            schema:
              type: object
              properties:
                shelf: {type: string}
      responses:
        "200":
          description: The book
          content:
            application/json:
              schema: {$ref: "#/components/schemas/Book"}
components:
  schemas:
    Member:
      type: object
      properties:
        member_id: {type: string}
        status: {type: string, enum: [active, blocked]}
    Branch:
      type: object
      properties:
        branch_id: {type: string}
        status: {type: string, enum: [open, closed]}
    Book:
      type: object
      properties:
        book_id: {type: string}
        branch_id: {type: string}
        shelf: {type: string}
    Loan:
      type: object
      properties:
        loan_id: {type: string}
        member_id: {type: string}
        book_id: {type: string}
        status: {type: string, enum: [out, back]}
        return_note: {type: string, nullable: true}
        returned_at: {type: string, nullable: true}
        branch_id: {type: string}
        due_on: {type: string}
        remark: {type: string}
"""

_LIBRARY_POLICY = """# Desk rules
- Blocked members cannot borrow books. They may still renew what they hold.
- A `closed` branch is read-only: no edits to its books.
- A member with `active: false` has left: they cannot renew loans.
"""


def test_policy_refusals_and_transition_writes_on_a_library_api(tmp_path: Path) -> None:
    import asyncio

    (tmp_path / "openapi.yaml").write_text(_LIBRARY)
    data = {
        "members": {
            "MB1": {"member_id": "MB1", "status": "active"},
            "MB2": {"member_id": "MB2", "status": "blocked"},
            "MB3": {"member_id": "MB3", "status": "active", "active": False},
        },
        "branches": {
            "BR1": {"branch_id": "BR1", "status": "open"},
            "BR2": {"branch_id": "BR2", "status": "closed"},
        },
        "books": {
            "BK1": {"book_id": "BK1", "branch_id": "BR1", "shelf": "a"},
            "BK2": {"book_id": "BK2", "branch_id": "BR2", "shelf": "b"},
        },
        "loans": {
            "LN1": {"loan_id": "LN1", "member_id": "MB2", "book_id": "BK1", "status": "out"},
            "LN2": {"loan_id": "LN2", "member_id": "MB1", "book_id": "BK2", "status": "back"},
            "LN3": {"loan_id": "LN3", "member_id": "MB3", "book_id": "BK1", "status": "back"},
        },
        "meta": {"today": "2026-02-05", "now": "2026-02-05T10:30"},
    }
    for loan, (note, at) in zip(
        ("LN1", "LN2"), ((None, None), ("torn", "2026-01-02T09:00")), strict=True
    ):
        data["loans"][loan].update(return_note=note, returned_at=at, due_on="2026-02-20", remark="")
    for m in data["members"].values():
        m.setdefault("active", True)
    for loan in data["loans"].values():  # a loan carries its book's branch
        loan["branch_id"] = data["books"][loan["book_id"]]["branch_id"]
        loan.setdefault("return_note", "ok")
        loan.setdefault("returned_at", "2026-01-03T09:00")
    client = LLMClient.scripted([], config=llm_config_from_options(llm_model="none"))
    docs = load_docs([tmp_path / "openapi.yaml"])
    options = SynthOptions(policy=_LIBRARY_POLICY)
    asyncio.run(synthesize(docs, tmp_path / "env", client, data=data, options=options))
    env = Environment.load(tmp_path / "env")
    ok, _obs, state = _call(env, data, "borrow_book", member_id="MB1", book_id="BK2")
    assert ok and state["loans"]["LN4"]["branch_id"] == "BR2"  # copied as the data shows
    assert not _call(env, data, "borrow_book", member_id="MB2", book_id="BK1")[0]
    assert _call(env, data, "renew_loan", loan_id="LN1")[0]  # renewing is not borrowing
    assert not _call(env, data, "renew_loan", loan_id="LN3")[0]  # its member has left
    assert _call(env, data, "update_book", book_id="BK1", shelf="z")[0]
    ok, _obs, state = _call(env, data, "update_book", book_id="BK2", shelf="z")
    assert not ok and state["books"]["BK2"]["shelf"] == "b"
    ok, _obs, state = _call(env, data, "return_loan", loan_id="LN1", note="wet")
    assert ok and state["loans"]["LN1"]["status"] == "back"
    # the text goes to the text attribute; only the date attribute takes now
    assert state["loans"]["LN1"]["return_note"] == "wet"
    assert state["loans"]["LN1"]["returned_at"] == "2026-02-05T10:30"
    ok, _obs, state = _call(env, data, "set_loan_status", loan_id="LN1", status="out")
    assert ok and state["loans"]["LN1"]["returned_at"] is None  # only moving to back stamps
    ok, _obs, state = _call(env, data, "set_loan_status", loan_id="LN1", status="back")
    assert ok and state["loans"]["LN1"]["returned_at"] == "2026-02-05T10:30"
    ok, _obs, state = _call(env, data, "extend_loan", loan_id="LN1", remark="asked")
    # "only in status `out`" is a precondition, not the status the call leaves
    assert ok and state["loans"]["LN1"] == {**data["loans"]["LN1"], "remark": "asked"}
    assert not _call(env, data, "extend_loan", loan_id="LN2", remark="asked")[0]


def test_a_relative_clause_names_the_status_of_its_noun() -> None:
    from autoforge.synth.behaviour.text import _noun_before

    s = "Parcels that have departed cannot be rerouted."
    assert _noun_before(s, s.index("departed"), ["parcels"]) == "parcels"
    assert _noun_before(s, s.index("rerouted"), ["parcels"]) is None


def test_a_status_required_by_only_is_not_refused_by_a_bracketed_negation() -> None:
    from autoforge.synth.behaviour.text import _refused

    s = "Only a booked job (a job in progress cannot be cancelled)."
    assert not _refused(s, s.index("booked"))
    assert _refused(s, s.index("in progress"))
    t = "Cancelled loans cannot be renewed."
    assert _refused(t, t.index("Cancelled"))


def test_a_policy_negation_belongs_to_the_status_noun_right_before_it() -> None:
    from autoforge.synth.behaviour.policy import _NEGATION, _governs

    values = ["active", "frozen", "picked", "shipped"]
    assert _governs(" member ", values)  # "A frozen member cannot book."
    assert _governs(" location accepts ", values)  # "A blocked location accepts no receipts"
    assert _governs(", shipped and picked orders ", values)  # a run of statuses, then the noun
    far = " member and an end date (`until`) after today and "
    assert not _governs(far, values)  # "... needs an active member and ... and no ..."
    assert _NEGATION.search("no more than 60 days") is None  # a bound, not a refusal
    assert _NEGATION.search("accepts no receipts") is not None


def test_a_policy_refusal_binds_the_verb_before_a_dash_not_the_remedy_after_it() -> None:
    from autoforge.env.artifact.behaviour import ParamInfo, ToolBehaviour
    from autoforge.synth.behaviour.data import Context, DataEvidence
    from autoforge.synth.behaviour.policy import policy_status_checks

    data = {"jobs": {f"J{i}": {"job_id": f"J{i}", "status": s}
                     for i, s in enumerate(["draft", "approved", "running"])}}  # fmt: skip
    ctx = Context(ev=DataEvidence.of(data),
                  policy="A draft job cannot be started \u2014 approve it first.")  # fmt: skip
    ctx.schemas["jobs"] = {"status": {"type": "string", "enum": ["draft", "approved", "running"]}}

    def refused(tool: str) -> list[list[str]]:
        tb = ToolBehaviour(tool=tool, kind="action", collection="jobs", id_param="job_id",
                           params=[ParamInfo(name="job_id", references="jobs")])  # fmt: skip
        return [c.values for c in policy_status_checks(tb, ctx)]

    assert refused("start_job") == [["draft"]]
    assert refused("approve_job") == []


def test_a_clause_that_neither_requires_nor_refuses_gives_no_status_check() -> None:
    from autoforge.synth.behaviour.text import _refused

    s = "Must be on loan (an available copy is borrowed instead; a lost copy cannot be held)."
    assert _refused(s, s.index("available")) is None
    assert _refused(s, s.index("lost")) is True


def test_the_subject_of_must_be_names_the_record_whose_status_is_required() -> None:
    from autoforge.synth.behaviour.text import _subject_must_be

    s = "The patron must be active; the copy must be on_loan or on_hold."
    values = ["available", "on_loan", "on_hold", "lost"]
    assert _subject_must_be(s, s.index("on_loan"), ["copies"], values) == "copies"
    assert _subject_must_be(s, s.index("on_hold"), ["copies"], values) == "copies"
    assert _subject_must_be(s, s.index("active"), ["copies"], values) is None


def test_a_required_status_with_another_way_out_is_not_a_status_list() -> None:
    from autoforge.synth.behaviour.text import _open_alternative

    values = ["available", "on_hold", "on_loan"]
    s = "The copy must be available, or on the hold shelf with a ready hold."
    assert _open_alternative(s, s.index("available") + len("available"), values)
    t = "The copy must be on_loan or on_hold."
    assert not _open_alternative(t, t.index("on_loan") + len("on_loan"), values)


def test_a_list_the_docs_say_starts_empty_is_written_empty() -> None:
    from autoforge.synth.behaviour.stated import literal_fields

    attrs = ["parts", "tags", "hours", "notes"]
    text = "Creates a booked job with `hours` 0, no parts and an empty `tags` list; no notes."
    got = literal_fields(text, attrs, [], {"parts", "tags"})
    assert got == {"parts": [], "tags": [], "hours": 0}  # notes holds no list in the data
    got = literal_fields(text, attrs, [], set(), {"hours"})
    assert got["hours"] == 0.0 and isinstance(got["hours"], float)  # as the data writes hours


def test_a_parameter_the_sentence_is_about_moves_a_counter() -> None:
    from autoforge.synth.behaviour.counters import _amount

    params = ["job_id", "hours", "amount", "pack"]
    s = "`hours` is a multiple of 0.25 from 0.25 to 8, added to `labour_hours`."
    assert _amount(s, "labour_hours", params) == (1, Value(source="param", name="hours"))
    t = "`amount` must not exceed the patron's `fines_due`, which is reduced by it."
    assert _amount(t, "fines_due", params) == (-1, Value(source="param", name="amount"))
    w = "The amount (above 0.00) may not exceed the patron's current `fines_due`, which it reduces."
    assert _amount(w, "fines_due", params) == (-1, Value(source="param", name="amount"))
    assert _amount("The pack may exceed `fines_due`.", "fines_due", params) is None
    back = "The quantity goes back into the item's `stock` (even if it was retired)."
    got = _amount(back, "stock", params, ([], ["quantity"]))
    assert got == (1, Value(source="formula", const=["target", "quantity", 1]))
    u = "Adds the pack to `credits` and the price to `total_spent`."
    assert _amount(u, "credits", params) == (1, Value(source="param", name="pack"))
    assert _amount(u, "total_spent", params) is None  # the price is no parameter
    assert _amount("`hours` is added.", "labour_hours", params) is None


def test_the_policy_sentence_about_a_new_record_gives_its_start_values() -> None:
    from autoforge.synth.behaviour.text import new_record_sentences

    policy = (
        "- A new loan is `active`, due in 21 days, with `renewals` 0 and `returned_on` null.\n"
        "- If the patron owes fines, a new loan is refused.\n"
        "- Loans are listed by id.\n"
    )
    assert new_record_sentences(policy, "loans") == [
        "A new loan is `active`, due in 21 days, with `renewals` 0 and `returned_on` null."
    ]


def test_a_status_set_on_a_record_a_parameter_names_is_written_there() -> None:
    from autoforge.env.artifact.behaviour import Effect, ToolBehaviour
    from autoforge.synth.behaviour.compile import _effect_lines

    effect = Effect(
        kind="set", record="param:copy_id", collection="copies",
        fields={"status": Value(source="const", const="on_loan")},
    )  # fmt: skip
    tb = ToolBehaviour(tool="lend", kind="create", collection="loans")
    state = {"copies": {"C1": {"status": "available"}, "C2": {"status": "available"}}}
    exec("\n".join(_effect_lines(effect, tb)), {"state": state, "copy_id": "C2"})
    assert state["copies"] == {"C1": {"status": "available"}, "C2": {"status": "on_loan"}}


def test_a_parameter_bounded_by_a_records_attribute_is_refused_beyond_it() -> None:
    import re as _re

    from autoforge.env.artifact.behaviour import Check
    from autoforge.synth.behaviour.compile import _check_lines
    from autoforge.synth.behaviour.text import _ABOVE, _BELOW

    above = "`amount` must be above 0 and not exceed the patron's `fines_due`."
    below = "`reading` may not be below the meter's recorded `reading`."
    assert _re.search(rf"({_ABOVE})\s+the\s+patron's", above)
    assert _re.search(rf"({_BELOW})\s+the\s+meter's", below)
    assert not _re.search(rf"({_ABOVE})\s+the\s+meter's", below)
    check = Check(kind="not_above", param="amount", collection="patrons", attribute="due")
    from autoforge.env.artifact.behaviour import ToolBehaviour

    tb = ToolBehaviour(tool="pay", kind="update", collection="patrons")
    code = "\n".join(_check_lines(check, tb))

    class ToolError(Exception):
        pass

    exec(code, {"_rec": {"due": 5.0}, "amount": 5.0, "ToolError": ToolError})  # at the bound
    with pytest.raises(ToolError, match="exceeds"):
        exec(code, {"_rec": {"due": 5.0}, "amount": 5.01, "ToolError": ToolError})


def test_a_records_date_window_against_today_is_enforced() -> None:
    from autoforge.env.artifact.behaviour import Check, ToolBehaviour
    from autoforge.synth.behaviour.compile import _check_lines

    check = Check(kind="date_window", collection="classes", attribute="date", values=["<="])
    tb = ToolBehaviour(tool="complete_class", kind="action", collection="classes")
    code = "\n".join(_check_lines(check, tb))

    class ToolError(Exception):
        pass

    for day, ok in (("2026-03-01", True), ("2026-03-02", True), ("2026-03-03", False)):
        scope = {"_rec": {"date": day}, "_today": "2026-03-02", "ToolError": ToolError}
        if ok:
            exec(code, scope)
        else:
            with pytest.raises(ToolError, match="not <= today"):
                exec(code, scope)


def test_a_clock_rule_is_not_carried_by_a_status_or_date_check() -> None:
    from autoforge.env.artifact.behaviour import Check, ToolBehaviour, unenforced_sentences

    s = "Allowed for a `booked` reservation once now is at least 15 minutes after its start."
    status = Check(kind="status_in", attribute="status", values=["booked"], sentence=s)
    tb = ToolBehaviour(tool="no_show", kind="action", collection="reservations", checks=[status])
    assert unenforced_sentences(tb, s, set()) == [s]  # the status is checked, the clock is not
    dated = Check(kind="date_window", attribute="start", values=[">="], sentence=s)
    tb.checks.append(dated)
    assert unenforced_sentences(tb, s, set()) == [s]  # a date check does not read the clock
    assert unenforced_sentences(tb, s, {s}) == []  # a guard of rules.json that carries it
    plain = "Only a `booked` reservation can be seated."
    assert unenforced_sentences(tb.model_copy(update={"checks": [status.model_copy(
        update={"sentence": plain})]}), plain, set()) == []  # fmt: skip


def test_an_append_to_a_set_like_list_refuses_a_repeat_and_a_full_list() -> None:
    from autoforge.env.artifact.behaviour import Effect, ToolBehaviour
    from autoforge.synth.behaviour.compile import _check_lines
    from autoforge.synth.behaviour.data import Context, DataEvidence
    from autoforge.synth.behaviour.text import list_caps, repeat_refusals

    data = {"teams": {"T1": {"id": "T1", "player_ids": ["P1", "P2"]},
                      "T2": {"id": "T2", "player_ids": ["P3"]}}}  # fmt: skip
    append = Effect(kind="append", collection="teams", attribute="player_ids",
                    value=Value(source="param", name="player_id"))  # fmt: skip
    tb = ToolBehaviour(tool="add_player", kind="update", collection="teams", effects=[append])
    texts = ["A team has at most 3 players.", "Adding is refused if the player is already on "
             "the team."]  # fmt: skip
    ctx = Context(ev=DataEvidence.of(data), policy="")
    checks = repeat_refusals(tb, texts, ctx) + list_caps(tb, texts)
    assert [(c.kind, c.high) for c in checks] == [("not_member", None), ("max_items", 3.0)]

    class ToolError(Exception):
        pass

    code = "\n".join(line for c in checks for line in _check_lines(c, tb))
    exec(code, {"_rec": {"player_ids": ["P1"]}, "player_id": "P2", "ToolError": ToolError})
    with pytest.raises(ToolError, match="already in"):
        exec(code, {"_rec": {"player_ids": ["P1"]}, "player_id": "P1", "ToolError": ToolError})
    with pytest.raises(ToolError, match="holds 3"):
        exec(code, {"_rec": {"player_ids": ["P1", "P2", "P3"]}, "player_id": "P4",
                    "ToolError": ToolError})  # fmt: skip


def test_a_concession_is_no_condition_but_a_condition_is() -> None:
    from autoforge.synth.behaviour.counters import _FOR_SOME

    assert not _FOR_SOME.search("The quantity goes back into `stock` (even if it was retired).")
    assert _FOR_SOME.search("The quantity goes back into `stock` if it was not retired.")


def test_a_status_said_in_words_names_its_value() -> None:
    from autoforge.env.artifact.behaviour import ParamInfo, ToolBehaviour
    from autoforge.synth.behaviour.data import Context, DataEvidence
    from autoforge.synth.behaviour.policy import policy_status_checks

    states = ["draft", "issued", "partially_paid", "paid", "void"]
    data = {"bills": {f"B{i}": {"bill_id": f"B{i}", "status": s} for i, s in enumerate(states)}}
    said = "Partially paid, paid and already-void bills can't be voided."
    ctx = Context(ev=DataEvidence.of(data), policy=said)
    ctx.schemas["bills"] = {"status": {"type": "string", "enum": states}}
    tb = ToolBehaviour(tool="void_bill", kind="action", collection="bills", id_param="bill_id",
                       params=[ParamInfo(name="bill_id", references="bills")])  # fmt: skip
    assert [c.values for c in policy_status_checks(tb, ctx)] == [["paid", "partially_paid", "void"]]
