"""Which figures a board-partner card has of its own and which it takes from its chip.

Kept apart from ``partner_cards`` (the build-time import): the store reads these on every
start, and importing the whole importer for them cost ~7 ms of start-up.
"""

from __future__ import annotations

from dlhw_desktop.core.fields import COMMON_NAMES, Category, fields_for

OWN_FIELDS = frozenset({"board_length_mm", "slot_width", "power_connectors", "tdp_w",
                        "cooling", "suggested_psu_w"})
"""The card's own figures: the fit checks read these, not the chip's."""

# The chip-level figures a card takes from its chip (all the accelerator's own fields but
# the card's): the store resolves their sources to the chip's.
INHERITED_FIELDS = frozenset(
    f.name for f in fields_for(Category.ACCELERATOR)
    if f.name not in COMMON_NAMES and f.name not in OWN_FIELDS and f.name != "chip_id")


def inherited_note(chip_id: str, note: str = "") -> str:
    return f"inherited from chip {chip_id}" + (f"; {note}" if note else "")
