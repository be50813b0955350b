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


def test_a_two_word_verb_or_a_verb_that_is_the_status_names_it() -> None:
    """ "check_in_booking" leaves ``checked_in``, "pick_up_parcel" ``picked_up``, and
    "void_voucher" ``void``; a particle with no such status, or none at all, names nothing."""
    from autoforge.synth.behaviour.targets import target_status

    def left(name: str, values: list[str]) -> str | None:
        found = target_status(ToolSpec(name=name, description="Only for an open one."),
                              "vouchers", values, "", create=False)  # fmt: skip
        return found[0] if found else None

    assert left("check_in_guest", ["booked", "checked_in", "gone"]) == "checked_in"
    assert left("pick_up_parcel", ["waiting", "picked_up"]) == "picked_up"
    assert left("void_voucher", ["open", "void"]) == "void"
    assert left("check_in_guest", ["booked", "gone"]) is None
    assert left("look_up_voucher", ["open", "void"]) is None


def test_the_object_noun_of_a_name_names_the_status_it_makes() -> None:
    """ "record_arrival" leaves ``arrived`` and "log_completion" ``completed``; a name whose
    noun is the record's own kind ("update_parcel") or makes no status names nothing."""
    from autoforge.synth.behaviour.targets import target_status

    def left(name: str, values: list[str]) -> str | None:
        found = target_status(ToolSpec(name=name, description="Staff only."), "parcels",
                              values, "", create=False)  # fmt: skip
        return found[0] if found else None

    assert left("record_arrival", ["expected", "arrived"]) == "arrived"
    assert left("log_completion", ["open", "completed"]) == "completed"
    assert left("update_parcel", ["open", "parceled"]) is None
    assert left("record_payment", ["open", "paid"]) is None
