"""The status a transition leaves its record in, read from its description."""

from __future__ import annotations

from autoforge.tooldocs import ToolSpec


def test_a_status_in_a_relative_clause_is_the_one_required_not_the_one_left() -> None:
    """ "A crate that is `sealed` or `open` can be scrapped; ... the crate gets status `scrapped`":
    the clause after "that is" describes the record before the call."""
    from autoforge.synth.behaviour.targets import target_status

    values = ["open", "sealed", "shipped", "scrapped"]
    said = ToolSpec(name="scrap_crate", description=(
        "A crate that is `sealed` or `open` can be scrapped; shipped ones cannot. "
        "The crate gets status `scrapped` and `scrapped_on` today."))  # fmt: skip
    assert target_status(said, "crates", values, "", create=False) == (
        "scrapped", "The crate gets status `scrapped` and `scrapped_on` today.")  # fmt: skip
    bare = ToolSpec(name="scrap_crate", description="Staff may scrap a crate that is `sealed`.")
    assert target_status(bare, "crates", values, "", create=False) == ("scrapped", "")


def test_a_status_the_call_is_only_for_is_not_the_one_it_leaves() -> None:
    from autoforge.synth.behaviour.targets import target_status

    said = ToolSpec(
        name="return_crate",
        description="For crates in status `ready` only. The crate becomes `returned` today.",
    )
    got = target_status(said, "crates", ["ready", "returned"], "", create=False)
    assert got is not None and got[0] == "returned"


def test_the_status_after_as_is_what_the_verb_makes_of_the_record() -> None:
    from autoforge.synth.behaviour.targets import target_status

    values = ["ready", "packed", "shipped"]
    said = ToolSpec(
        name="close_crate",
        description="Closes a `ready` crate as `packed` with `packed_on` today.",
    )
    assert target_status(said, "crates", values, "", create=False) == ("packed", said.description)
    aside = ToolSpec(name="close_crate", description="Counts the same as `packed` crates.")
    assert target_status(aside, "crates", values, "", create=False) is None
