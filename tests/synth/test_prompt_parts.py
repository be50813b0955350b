"""Pure prompt helpers: policy excerpts per tool, effect sentences, stated statuses."""

from __future__ import annotations

from autoforge.env.artifact.spec import Attribute, CollectionSchema
from autoforge.synth.modelcode.prompts import relevant_policy
from autoforge.synth.rulecode.conventions import TAU
from autoforge.synth.rulecode.open_effects import effect_sentences
from autoforge.synth.rulecode.transition_fields import stored_name, target_status
from autoforge.tooldocs.spec import ToolSpec

POLICY = """# Shop policy

You help customers.

## Cancel pending order

An order can only be cancelled if its status is 'pending'.

After user confirmation, the order status will be changed to 'cancelled', and the total will be
refunded to the original payment method.

## Return delivered order

After user confirmation, the order status will be changed to 'return requested'. The agent
must explain the return.
"""


def test_relevant_policy_picks_the_tools_section() -> None:
    cancel = ToolSpec(name="cancel_pending_order")
    text = relevant_policy(POLICY, cancel, limit=400)
    assert text.startswith("## Cancel pending order") and "return requested" not in text
    assert relevant_policy(None, cancel) == ""


def test_effect_sentences_keep_rules_and_effects_only() -> None:
    found = effect_sentences(POLICY)
    assert any("refunded to the original payment method" in s for s in found)
    assert any("can only be cancelled" in s for s in found)
    assert not any("explain" in s for s in found)  # agent behaviour, not a state effect
    assert not any(s.startswith("#") for s in found)


def test_transition_status_and_storage_names() -> None:
    orders = CollectionSchema(
        name="orders",
        primary_key="order_id",
        attributes=[Attribute(name="status", type="enum", enum=["pending", "cancelled"])],
    )
    assert target_status("cancel", orders) == ("status", "cancelled")  # from the enum
    assert target_status("return", orders, "", POLICY) == ("status", "return requested")
    plain = CollectionSchema(
        name="tasks", primary_key="task_id", attributes=[Attribute(name="status")]
    )
    assert target_status("complete", plain, "Mark an open task as done.") == ("status", "done")
    assert target_status("archive", plain) == ("status", "archived")
    assert stored_name("return", "item_ids", TAU) == "return_items"
    assert stored_name("exchange", "new_item_ids", TAU) == "exchange_new_items"
    assert stored_name("cancel", "reason", TAU) == "cancel_reason"
    # generic: the documented parameter name; no status invented on a status-less collection
    assert stored_name("return", "item_ids") == "item_ids"
    bare = CollectionSchema(name="reservations", primary_key="reservation_id", attributes=[])
    assert target_status("cancel", bare) is None
    assert target_status("cancel", bare, conv=TAU) == ("status", "cancelled")


def test_convention_profiles_are_named_and_off_by_default() -> None:
    import pytest

    from autoforge.errors import UserError
    from autoforge.synth.pipeline import SynthOptions
    from autoforge.synth.rulecode.conventions import GENERIC, conventions_profile

    assert conventions_profile(SynthOptions().conventions) is GENERIC
    assert not any(GENERIC.flags().values())
    assert all(conventions_profile("tau").flags().values())
    with pytest.raises(UserError, match="unknown profile"):
        conventions_profile("tau2")
