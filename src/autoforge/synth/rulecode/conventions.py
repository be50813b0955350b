"""Named, opt-in convention profiles for synthesis rules that docs and data cannot justify.

Generic synthesis uses only what the domain at hand states: its docs, its policy and its data.
Some benchmarks store things in ways no reader of their docs could know (tau-bench and
tau2-bench store a returned item list as ``return_items``, sorted, record
``exchange_price_difference``, answer a hand-off with ``"Transfer successful"``). Rules that
reproduce such conventions live here, behind a named profile that is off by default, so a figure
reported as generalisation is never helped by them (``autoforge synth env --conventions tau``).
"""

from __future__ import annotations

from dataclasses import dataclass, fields

from autoforge.errors import UserError


@dataclass(frozen=True)
class Conventions:
    """Which benchmark-specific storage and naming rules synthesis applies.

    Every flag is ``False`` in :data:`GENERIC`. What each one does when on:

    * ``verb_plural_names``: a transition parameter with no field is stored as
      ``<verb>_<plural noun>`` (``item_ids`` on ``return`` -> ``return_items``) instead of under
      the parameter's own documented name;
    * ``difference_field``: paired old/new id lists store the summed difference of the word the
      docs name as ``<verb>_<word>_difference``;
    * ``sorted_multisets``: a list parameter documented as possibly holding duplicates is stored
      sorted;
    * ``status_on_statusless``: a transition on a collection without any status attribute
      writes ``status`` = the verb's participle;
    * ``balance_words``: a new entry marked ``available: false`` is refused even where the docs
      do not ask for an available entry (the generic rules read "enough F to cover the
      difference" and "an F new item" off the docs and the data's fields);
    * ``negated_refunds``: a refund to the original payment method(s) appends negated copies of
      the payment entries;
    * ``transfer_reply``: a hand-off tool (``transfer_*``) returns ``"Transfer successful"``.
    """

    name: str = "generic"
    verb_plural_names: bool = False
    difference_field: bool = False
    sorted_multisets: bool = False
    status_on_statusless: bool = False
    balance_words: bool = False
    negated_refunds: bool = False
    transfer_reply: bool = False

    def flags(self) -> dict[str, bool]:
        """The flags that are on (for reports and fingerprints)."""
        return {f.name: getattr(self, f.name) for f in fields(self) if f.name != "name"}


GENERIC = Conventions()
TAU = Conventions(
    name="tau",
    verb_plural_names=True,
    difference_field=True,
    sorted_multisets=True,
    status_on_statusless=True,
    balance_words=True,
    negated_refunds=True,
    transfer_reply=True,
)
PROFILES: dict[str, Conventions] = {"generic": GENERIC, "none": GENERIC, "tau": TAU}


def conventions_profile(name: str | None) -> Conventions:
    """The profile called ``name`` (``None`` or ``"generic"``: no benchmark conventions)."""
    key = (name or "generic").strip().lower()
    if key not in PROFILES:
        raise UserError(
            f"--conventions {name!r}: unknown profile; use one of {', '.join(sorted(PROFILES))}"
        )
    return PROFILES[key]
