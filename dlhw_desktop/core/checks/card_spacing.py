"""How open-air cards get air when several share a board.

An open-air card (``cooling`` "active") takes its air from the slot position below it and
blows its heat out of its sides, into the next card. Cards touch when the x16 slots they
sit in are closer than a card's width plus one free position.

- Board spacing known: place the cards top-down (``checks.platform.place_cards``). If
  they touch but the board and case leave room to skip a position below each open-air
  card, that is the advice (pass). Otherwise two touching cards warn (the upper one
  breathes the lower one's exhaust and throttles under sustained load) and a card with
  touching cards on both sides fails: it draws its air from the back of the card below
  while the one above blocks its exhaust. Both documented failures in the real-build
  fixtures (three stacked open-air RTX 2080 Ti, later swapped for blowers) and the
  practice of workstation builders (blower or liquid cards beyond two) say this.
- Board spacing unknown, or no board yet: a bound instead of a guess. Whatever the
  spacing, the last card must start on the board, within its slot positions (7 on ATX,
  E-ATX and SSI-EEB, 4 on micro-ATX, 8 on XL-ATX and HPTX; an ATX board is assumed, and
  said, when none is chosen). If the cards with a free position below each cannot start
  within those positions, they touch on any board: warn, or fail when no position is
  free at all and three or more open-air cards stack. Otherwise the spacing decides and
  the slot check names the missing figure.
"""

from __future__ import annotations

from dlhw_desktop.core.checks._util import counted, missing
from dlhw_desktop.core.checks.context import CheckContext
from dlhw_desktop.core.checks.platform import (
    BOARD_SLOT_POSITIONS,
    ordered_cards,
    place_cards,
    slot_positions,
)
from dlhw_desktop.core.parts import Part
from dlhw_desktop.core.verdict import CheckResult, FigureUse

ASSUMED_BOARD = "ATX"

ADVICE = "Use blower-style or liquid-cooled cards, a board with wider x16 spacing, or risers."


def check_card_spacing(ctx: CheckContext) -> list[CheckResult]:
    """Open-air cards stacked without a gap starve the upper card of air."""
    cards = ordered_cards(ctx)
    if len(cards) < 2:
        return []
    open_air = [p for p in cards if p.text("cooling").lower() == "active"]
    if not open_air:
        unknown = [p for p in {p.id: p for p in cards}.values() if not p.text("cooling")]
        if unknown and ctx.board is not None:
            return [CheckResult("cooling.card_spacing", "cooling", "unknown",
                                f"Card airflow unknown: {missing((p, 'cooling') for p in unknown)}",
                                {}, tuple(p.id for p in unknown))]
        return []
    widths = [slot_positions(p) for p in cards]
    if None in widths:
        return []  # check_x16_slots names the missing card widths
    known = [w or 0 for w in widths]
    board = ctx.board
    spacing = board.number("x16_slot_spacing") if board is not None else None
    slots = board.number("pcie_x16_slots") if board is not None else None
    if board is not None and spacing is not None and slots is not None:
        return _on_known_spacing(ctx, cards, open_air, known, int(spacing), int(slots))
    return _bound(ctx, cards, open_air, known)


def _ids(ctx: CheckContext, open_air: list[Part]) -> tuple[str, ...]:
    board = (ctx.board.id,) if ctx.board is not None else ()
    return (*dict.fromkeys(p.id for p in open_air), *board)


def _sandwiched(cards: list[Part], open_air: list[Part], touching: list[bool]) -> Part | None:
    """The first open-air card with a touching card directly above and below it."""
    for i in range(1, len(cards) - 1):
        if cards[i] in open_air and touching[i - 1] and touching[i]:
            return cards[i]
    return None


def _on_known_spacing(ctx: CheckContext, cards: list[Part], open_air: list[Part],
                      known: list[int], spacing: int, slots: int) -> list[CheckResult]:
    tight = place_cards(known, spacing, slots)
    if len(tight) < len(cards):
        return []  # they do not fit at all; check_x16_slots fails
    touching = [cards[i] in open_air and tight[i + 1] - tight[i] < known[i] + 1
                for i in range(len(cards) - 1)]
    figures = {"x16_slot_spacing": spacing, "widest_card_slots": max(known)}
    ids = _ids(ctx, open_air)
    if not any(touching):
        return [CheckResult("cooling.card_spacing", "cooling", "pass",
                            "Open-air cards have a free slot position below each "
                            f"(x16 slots {spacing} positions apart)", figures, ids)]
    gaps = [1 if p in open_air else 0 for p in cards]
    gapped = place_cards(known, spacing, slots, gaps)
    openings = ctx.case.number("expansion_slots") if ctx.case is not None else None
    if len(gapped) == len(cards) and (
            openings is None or gapped[-1] + known[-1] <= openings):
        used = ", ".join(str(start // spacing + 1) for start in gapped)
        return [CheckResult(
            "cooling.card_spacing", "cooling", "pass",
            f"Open-air cards would touch in adjacent x16 slots; use x16 slots {used} to "
            "leave a gap below each", figures, ids)]
    middle = _sandwiched(cards, open_air, touching)
    if middle is not None:
        return [CheckResult(
            "cooling.card_spacing", "cooling", "fail",
            f"{len(cards)} cards sit {spacing} slot positions apart with no gap: "
            f"{middle.display_name} (open-air) is sandwiched, drawing its air from the back "
            "of the card below while the one above takes its exhaust; it throttles or shuts "
            "down under sustained load", figures, ids, ADVICE)]
    name = next(cards[i] for i, t in enumerate(touching) if t)
    return [CheckResult(
        "cooling.card_spacing", "cooling", "warn",
        f"{counted(name, cards.count(name))} ({known[cards.index(name)]}-slot, open-air) sit "
        f"{spacing} slot positions apart: the cards touch and the upper one recirculates "
        "hot air", figures, ids, ADVICE)]


def _bound(ctx: CheckContext, cards: list[Part], open_air: list[Part],
           known: list[int]) -> list[CheckResult]:
    board = ctx.board
    form = board.text("board_form_factor") if board is not None else ""
    positions = BOARD_SLOT_POSITIONS.get(form.lower()) if form else None
    if board is not None and positions is None:
        return []  # an unknown form factor gives no bound
    assumed = board is None
    if positions is None:
        positions, form = BOARD_SLOT_POSITIONS[ASSUMED_BOARD.lower()], ASSUMED_BOARD
    # The widest card last: the others' widths (plus the gaps) must fit before the last
    # card's start, which must be one of the board's positions.
    order = sorted(range(len(cards)), key=lambda i: known[i])
    before_last = sum(known[i] for i in order[:-1])
    slack = positions - 1 - before_last
    wanted = len(cards) - 1
    if slack >= wanted:
        return []  # a gap below each is possible on some spacing: the spacing decides
    figures = {"board_slot_positions": positions, "cards_slot_positions": sum(known)}
    where = (f"an {form} board (assumed: no board chosen yet)" if assumed
             else f"{board.display_name if board else form} ({form})")
    basis = (FigureUse(board.id if board else "", board.display_name if board else form,
                       "board_form_factor", "slot positions", f"{positions}",
                       "estimated" if assumed else "derived",
                       "the ATX family's form-factor specifications"),)
    what = (counted(cards[0], len(cards)) if len({p.id for p in cards}) == 1
            else f"{len(cards)} cards")
    head = (f"{what} ({'+'.join(str(w) for w in known)} slot positions) on {where} with "
            f"{positions} slot positions: whatever the x16 spacing")
    if slack <= 0 and len(open_air) >= 3:
        return [CheckResult(
            "cooling.card_spacing", "cooling", "fail",
            f"{head}, no card has a free position below it and a middle open-air card is "
            "sandwiched, drawing its air from the back of the card below; it throttles or "
            "shuts down under sustained load", figures, _ids(ctx, open_air), ADVICE, basis)]
    return [CheckResult(
        "cooling.card_spacing", "cooling", "warn",
        f"{head}, some cards touch and the upper one recirculates the lower one's hot air",
        figures, _ids(ctx, open_air), ADVICE, basis)]
