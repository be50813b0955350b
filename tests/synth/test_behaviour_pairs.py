"""One record per pair of referred records, read from a sentence naming both, on data written
for this test: a runner may hold one `entered` or `finished` entry per race."""

from __future__ import annotations

import copy
from typing import Any

import pytest
from doc_tools import guard_refuses  # type: ignore[import-not-found]

from autoforge.env import ParamInfo, ToolBehaviour
from autoforge.synth.behaviour.compile import _check_lines
from autoforge.synth.behaviour.data import Context, DataEvidence
from autoforge.synth.behaviour.pairs import pair_checks

DATA: dict[str, Any] = {
    "runners": {"R1": {"runner_id": "R1"}, "R2": {"runner_id": "R2"}},
    "races": {"RC1": {"race_id": "RC1"}, "RC2": {"race_id": "RC2"}},
    "entries": {
        "E1": {"entry_id": "E1", "runner_id": "R1", "race_id": "RC1", "state": "entered"},
        "E2": {"entry_id": "E2", "runner_id": "R1", "race_id": "RC2", "state": "withdrawn"},
        "E3": {"entry_id": "E3", "runner_id": "R2", "race_id": "RC2", "state": "withdrawn"},
        "E4": {"entry_id": "E4", "runner_id": "R2", "race_id": "RC2", "state": "finished"},
    },
}


def _enter() -> ToolBehaviour:
    params = [ParamInfo(name="runner_id", required=True), ParamInfo(name="race_id", required=True)]
    return ToolBehaviour(tool="enter_race", kind="create", collection="entries", params=params)


def _ctx(data: dict[str, Any]) -> Context:
    ctx = Context(ev=DataEvidence.of(data), policy="")
    ctx.schemas["entries"] = {"state": {"type": "string",
                                        "enum": ["entered", "finished", "withdrawn"]}}  # fmt: skip
    return ctx


@pytest.mark.parametrize(
    "sentence",
    [
        "A runner may hold only one `entered` or `finished` entry per race.",
        "Refused if the runner already has an entered or finished entry for this race.",
    ],
)
def test_a_second_counted_record_for_the_pair_is_refused(sentence: str) -> None:
    (check,) = pair_checks(_enter(), [sentence], _ctx(DATA))
    assert check.table == {"counted": ["entered", "finished"]}
    code = "\n".join(_check_lines(check, _enter()))
    for runner, race, ok in (("R1", "RC1", False), ("R1", "RC2", True), ("R2", "RC1", True)):
        # RC2 for R1: only a withdrawn entry, which does not count
        assert guard_refuses(code, state=DATA, runner_id=runner, race_id=race) is not ok


def test_data_that_repeats_a_pair_or_a_sentence_without_the_cue_gives_nothing() -> None:
    said = "A runner may hold only one entry per race."  # every state counts: E3, E4 repeat
    assert pair_checks(_enter(), [said], _ctx(DATA)) == []
    assert pair_checks(_enter(), ["A runner enters a race."], _ctx(copy.deepcopy(DATA))) == []


def test_one_alternative_of_a_refusal_list_is_all_the_check_carries() -> None:
    said = ("Rejected if the runner is injured, already has an entered or finished entry for "
            "this race, or the race is full.")  # fmt: skip
    (check,) = pair_checks(_enter(), [said], _ctx(DATA))
    assert check.sentence == "already has an entered or finished entry for this race"


def test_one_record_per_referred_record_and_day() -> None:
    """ "one `entered` entry per runner per day": a second counted entry of that runner on the
    call's date (a moment counts by its day) is refused; another day, another runner, or a
    withdrawn entry is not. Data where a runner holds two counted entries on one day gives no
    rule."""
    data: dict[str, Any] = {
        "runners": copy.deepcopy(DATA["runners"]),
        "entries": {
            "E1": {"entry_id": "E1", "runner_id": "R1", "state": "entered",
                   "run_on": "2031-05-01T09:00"},
            "E2": {"entry_id": "E2", "runner_id": "R2", "state": "withdrawn",
                   "run_on": "2031-05-01T09:00"},
        },
    }  # fmt: skip
    params = [ParamInfo(name="runner_id", required=True),
              ParamInfo(name="run_on", required=True, format="date-time")]  # fmt: skip
    tb = ToolBehaviour(tool="enter_run", kind="create", collection="entries", params=params)
    said = "A runner may hold only one `entered` entry per day."
    (check,) = pair_checks(tb, [said], _ctx(data))
    assert check.values == ["runner_id", "run_on"] and check.table["day"] == ["run_on"]
    code = "\n".join(_check_lines(check, tb))
    for runner, when, ok in (("R1", "2031-05-01T15:00", False), ("R1", "2031-05-02T09:00", True),
                             ("R2", "2031-05-01T10:00", True)):  # fmt: skip
        assert guard_refuses(code, state=data, runner_id=runner, run_on=when) is not ok
    data["entries"]["E2"]["state"] = "entered"
    data["entries"]["E2"]["runner_id"] = "R1"
    assert pair_checks(tb, [said], _ctx(data)) == []


def test_statuses_named_as_not_counting_leave_every_other_counted() -> None:
    from autoforge.synth.behaviour.pairs import _statuses

    values = ["entered", "finished", "withdrawn"]
    assert _statuses("only one entry per race (withdrawn ones don't count)", values) == [
        "entered",
        "finished",
    ]
    assert _statuses("one entry per race, not counting withdrawn entries", values) == [
        "entered",
        "finished",
    ]
    assert _statuses("only one `entered` entry per race", values) == ["entered"]


def test_a_list_of_statuses_that_do_not_count() -> None:
    from autoforge.synth.behaviour.pairs import _statuses

    values = ["entered", "finished", "withdrawn", "void"]
    said = "One `entered` entry per race (finished, withdrawn or void entries do not count)."
    assert _statuses(said, values) == ["entered"]


def test_a_record_that_has_not_been_in_a_status_counts_in_every_other() -> None:
    from autoforge.synth.behaviour.pairs import _statuses

    said = "refused when the runner already has an entry that day that has not been withdrawn"
    assert _statuses(said, ["entered", "finished", "withdrawn"]) == ["entered", "finished"]


def test_another_record_that_is_not_in_a_status_leaves_the_count_alone() -> None:
    from autoforge.synth.behaviour.pairs import _statuses

    said = ("Refused when the runner is not entered, or the runner already has an `entered` "
            "entry for this race.")  # fmt: skip
    assert _statuses(said, ["entered", "finished", "withdrawn"]) == ["entered"]
