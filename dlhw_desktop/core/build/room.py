"""Which parts a build still has room for, by the limits of their kinds (``core.limits``).

The planner adds parts in batches (a drop of several, an advisor's proposal); each addition
counts against what the earlier ones of the batch took. What does not fit comes back with
the message a user reads: the kind, its limit, and how many were asked.
"""

from __future__ import annotations

from collections.abc import Iterable

from dlhw_desktop.core.build.build import Build, quantity_limit, slot_for
from dlhw_desktop.core.limits import QuantityLimit
from dlhw_desktop.core.parts import Part


def admit(build: Build, additions: Iterable[tuple[Part, int]]
          ) -> tuple[list[tuple[Part, int]], list[str]]:
    """(the additions that fit, one message per addition that does not)."""
    taken: dict[QuantityLimit, int] = {}
    fits: list[tuple[Part, int]] = []
    refused: list[str] = []
    for part, quantity in additions:
        if slot_for(part).single:  # a single slot is replaced, never exceeded
            fits.append((part, quantity))
            continue
        kind = quantity_limit(part)
        total = build.total(kind) + taken.get(kind, 0) + quantity
        if total > kind.most:
            refused.append(f"{part.display_name} not added: {kind.message(total)}")
            continue
        taken[kind] = taken.get(kind, 0) + quantity
        fits.append((part, quantity))
    return fits, refused


def quantity_refusal(build: Build, part_id: str, quantity: int) -> str | None:
    """Why setting ``part_id`` to ``quantity`` would break its kind's limit, else None."""
    item = build.find(part_id)
    if item is None or quantity <= item.quantity:
        return None
    if quantity - item.quantity <= build.room_for(item.part):
        return None
    kind = quantity_limit(item.part)
    if slot_for(item.part).single:
        return kind.message(quantity)
    return kind.message(build.total(kind) - item.quantity + quantity)
