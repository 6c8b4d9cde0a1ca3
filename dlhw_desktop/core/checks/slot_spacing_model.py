"""A board's x16 slot spacing where its maker's layout is not in the catalog.

The open data gives a board's slot count but not where its slots sit, and makers print the
layout only as a drawing in the manual; the catalog holds the spacing of the boards whose
layout a review or manual states (``motherboards.csv``, ``figures_board_slots.csv``). Two
answers follow without it:

- **Derived:** a board with as many x16 slots as its form factor has slot positions (seven
  on an ATX, E-ATX or EEB workstation board) has an x16 slot at every position: spacing 1.
- **Estimated, for two cards on an ATX board with two to four x16 slots:** the first two
  x16 slots of the ATX models whose layout is published sit ``SPACING_ATX[0]`` to
  ``SPACING_ATX[1]`` positions apart (``SPACING_ATX[2]`` models). A first card no wider
  than the smallest of those leaves the second slot free on every one of them: pass,
  estimated. A wider card may cover it: a warning that names the range and asks for the
  board's figure. Never a failure, since a few models cannot show where a board's slots
  are not. Three or more cards need every gap, and boards often close up at the bottom
  (two x16 slots at positions 6 and 7): unknown.

``SPACING_ATX`` is fitted by ``scripts/fit_estimates.py`` from the catalog (a test refits it
from the bundled catalog and fails if it drifts); ``LEAVE_OUT_ERROR`` is each model left out
in turn and 1- to 4-slot cards judged against the others.
"""

from __future__ import annotations

from collections.abc import Iterable

from dlhw_desktop.core.parts import Part
from dlhw_desktop.core.verdict import CheckResult, FigureUse

SPACING_ATX: tuple[float, float, int] = (2.0, 5.0, 15)
"""(smallest, largest x16 spacing, models) of ATX boards with 2-4 x16 slots."""

LEAVE_OUT_ERROR = {"false_pass_share": 0.0, "passes": 30}
"""Held out one model at a time: the share of the estimate's passes that were wrong."""

CARD_WIDTHS = (1, 2, 3, 4)
"""Card widths (slot positions) the leave-out test judges."""

Model = float
"""One ATX board model with a published spacing: its spacing in slot positions."""


def models(boards: Iterable[Part]) -> list[Model]:
    """The spacing of every ATX board model with 2-4 x16 slots and a published spacing,
    once per model (variants sold under one review or page count once)."""
    found: dict[tuple[str, float], Model] = {}
    for board in boards:
        spacing, slots = board.number("x16_slot_spacing"), board.number("pcie_x16_slots")
        if (board.text("board_form_factor").lower() != "atx" or spacing is None
                or slots is None or not 2 <= slots <= 4):
            continue
        found.setdefault((board.source_of("x16_slot_spacing").source, spacing), spacing)
    return [found[k] for k in sorted(found)]


def fit(data: list[Model]) -> tuple[float, float, int]:
    return (min(data), max(data), len(data))


def leave_out(data: list[Model]) -> dict[str, float]:
    """Each model left out in turn: a first card no wider than the others' smallest spacing
    passes; wrong when it is wider than the model's own spacing."""
    passes = wrong = 0
    for i, actual in enumerate(data):
        low = min(s for j, s in enumerate(data) if j != i)
        for width in CARD_WIDTHS:
            if width <= low:
                passes += 1
                wrong += width > actual
    return {"false_pass_share": round(wrong / max(passes, 1), 3), "passes": passes}


def unpublished_spacing(board: Part, widths: list[int], slots: int, positions: int | None,
                        figures: dict[str, float | int | str | None],
                        ids: tuple[str, ...]) -> CheckResult | None:
    """The x16 check for a board without a spacing figure, cards' widths known (placement
    order, narrowest first), when ``fit_whatever_the_spacing`` found no pass; or None when
    neither rule answers."""
    needs = ((board.id, "x16_slot_spacing"),)
    label = ("x16_slot_spacing", "x16 slot spacing")
    if positions is not None and slots >= positions:
        # Every position holds an x16 slot, so the cards sit one after another; whatever
        # fits that way already passed the bound above, so this is where they run out.
        starts = [sum(widths[:i]) for i in range(len(widths))]
        fitting = sum(start < slots for start in starts)
        basis = (FigureUse(board.id, board.display_name, *label, "1 slot position",
                           "derived", f"{slots} x16 slots on a {positions}-position board"),)
        return CheckResult(
            "compat.x16_slots", "compatibility", "fail",
            f"Only {fitting} of {len(widths)} cards fit: side by side they take "
            f"{sum(widths)} slot positions, and {board.display_name}'s {slots} x16 slots "
            "end at its last position", figures, ids,
            "Choose thinner (2-slot / blower) cards, or risers.", basis=basis, needs=needs)
    if (len(widths) != 2 or board.text("board_form_factor").lower() != "atx"
            or not 2 <= slots <= 4):
        return None
    low, high, count = SPACING_ATX
    first = widths[0]
    band = (f"{low:.0f}-{high:.0f} positions apart on the {count} ATX boards with 2-4 x16 "
            f"slots whose layout is published (held out: "
            f"{LEAVE_OUT_ERROR['false_pass_share']:.0%} of passes wrong)")
    basis = (FigureUse(board.id, board.display_name, *label,
                       f"{low:.0f}-{high:.0f} slot positions", "estimated", band),)
    if first <= low:
        return CheckResult(
            "compat.x16_slots", "compatibility", "pass",
            f"2 cards fit {board.display_name}'s {slots} x16 slots: a {first}-slot card "
            f"leaves the second x16 slot free (estimated: the first two x16 slots sit {band})",
            figures, ids, basis=basis, needs=needs)
    return CheckResult(
        "compat.x16_slots", "compatibility", "warn",
        f"A {first}-slot card may cover {board.display_name}'s second x16 slot: its x16 slot "
        f"spacing is not published, and the first two x16 slots sit {band}", figures, ids,
        "Check the board's manual for the slot positions, or enter its x16 spacing.",
        basis=basis, needs=needs)


def fit_whatever_the_spacing(cards: list[Part], widths: list[int], slots: int,
                              ids: tuple[str, ...], figures: dict[str, float | int | str | None],
                              board: Part) -> CheckResult | None:
    """A pass that holds for any spacing, or None. The board's x16 slots sit at distinct
    slot positions, so its i-th and j-th x16 slots are at least j - i positions apart:
    skipping w - 1 x16 slots after a w-slot card leaves it room whatever the spacing.
    The widest card goes last (``ordered_cards``), which skips the fewest slots."""
    chosen: list[int] = []
    index = 0
    for width in widths:
        chosen.append(index)
        index += width
    if chosen[-1] >= slots:
        return None
    used = ", ".join(str(i + 1) for i in chosen)
    basis = (FigureUse(board.id, board.display_name, "x16_slot_spacing", "x16 slot spacing",
                       "at least 1 position between neighbouring x16 slots", "derived",
                       "slots sit at distinct positions"),)
    return CheckResult(
        "compat.x16_slots", "compatibility", "pass",
        f"{len(cards)} cards fit {board.display_name}'s {slots} x16 slots whatever their "
        f"spacing: in x16 slots {used}, each card has at least its width before the next "
        "(the spacing is not in the catalog; enter it for the exact layout)",
        figures, ids, basis=basis, needs=((board.id, "x16_slot_spacing"),))
