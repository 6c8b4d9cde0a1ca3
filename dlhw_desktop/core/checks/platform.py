"""Physical fit and platform compatibility: sockets, slots, clearances, lanes, cloud parts.

Card placement model (used here and by the cooling check): the board's x16 slots sit at
slot positions 0, s, 2s, ... (``s`` = ``x16_slot_spacing``), the first at the case's
top expansion slot. Cards go in top-down, narrowest first (so the widest hangs at the
bottom, where a case often has a spare slot position); a card covers ceil(``slot_width``)
positions and the next card takes the next x16 slot at or below the first free position.
The bottom card's last position must be within the case's ``expansion_slots``.

Two CPUs (a dual-socket board): the board must have two sockets and the CPU model must be
dual-socket capable (``max_sockets``; AMD sells single-socket-only EPYC parts with a "P"
suffix). PCIe lanes then add up differently by vendor: Intel Xeon sockets are linked by
UPI, so each CPU brings its own lanes (2 x 48 for two Xeon Gold 6230R); AMD EPYC sockets
are linked by Infinity Fabric over PCIe lanes, 64 of each CPU's 128 in the default
four-link layout, so a two-socket EPYC system has 128 lanes for devices (160 on boards
wired with three links — taken here at the conservative 128). Sources: AnandTech, "AMD
Rome Second Generation EPYC Review" (2019), and ServeTheHome, "Why AMD EPYC Rome 2P Will
Have 128-160 PCIe Gen4 Lanes" (2019).
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from dlhw_desktop.core.checks._util import (
    SERVER_MODULE_FORMS,
    count_of,
    counted,
    join,
    missing,
    unique,
)
from dlhw_desktop.core.checks.context import CheckContext
from dlhw_desktop.core.checks.cooler_mounting import (
    check_cooler_height,
    check_cooler_socket,
    check_radiator,
)
from dlhw_desktop.core.checks.slot_spacing_model import (
    fit_whatever_the_spacing,
    unpublished_spacing,
)
from dlhw_desktop.core.compat.vocabulary import form_list, norm_form, norm_socket
from dlhw_desktop.core.fields import Category
from dlhw_desktop.core.limits import INTEGRATED_FORM
from dlhw_desktop.core.parts import Part
from dlhw_desktop.core.verdict import CheckResult, Status

ESSENTIAL = (
    ("cpu", "CPU"), ("motherboard", "motherboard"), ("memory", "memory"),
    ("accelerator", "accelerator"), ("storage", "storage"), ("psu", "power supply"),
    ("cooler", "CPU cooler"), ("case", "case"),
)

EPYC_SOCKETS = frozenset({"SP3", "SP5", "SP6"})  # as norm_socket writes them
EPYC_2P_LANES = 128
"""Device lanes of a two-socket EPYC system in the default four-link layout (see above)."""
WORKSTATION_LANES = 128  # Threadripper PRO, one EPYC, a two-socket EPYC system
GPU_LANES = 16
NVME_LANES = 4
RESERVED_LANES = 4
"""Lanes of a CPU's ``pcie_lanes`` that never reach the graphics slots: the chipset link
(AMD counts it: AM5's 28 = 16 graphics + 8 M.2/USB4 + 4 chipset) or the first M.2 slot
(Intel LGA1700's 20 = 16 + 4 for M.2). Workstation CPUs (128 lanes) hardly notice."""


BOARD_SLOT_POSITIONS: dict[str, int] = {
    "atx": 7, "e-atx": 7, "eatx": 7, "ssi-eeb": 7, "eeb": 7, "ssi-ceb": 7, "ceb": 7,
    "micro-atx": 4, "mini-itx": 1, "thin mini-itx": 1, "xl-atx": 8, "hptx": 8,
}
"""Expansion slot positions per board form factor (ATX family specifications; XL-ATX: 8)."""


def slot_positions(part: Part) -> int | None:
    width = part.number("slot_width")
    return None if width is None else max(1, math.ceil(width - 1e-9))


def place_cards(widths: Sequence[int], spacing: int, x16_slots: int,
                gaps: Sequence[int] | None = None) -> list[int]:
    """Start positions of cards placed top-down; stops at the first card that finds no
    x16 slot, so ``len(result) < len(widths)`` means not all fit."""
    gaps = gaps or [0] * len(widths)
    starts: list[int] = []
    free = 0
    for width, gap in zip(widths, gaps, strict=True):
        index = math.ceil(free / spacing) if spacing > 0 else len(starts)
        if index >= x16_slots:
            break
        start = index * spacing
        starts.append(start)
        free = start + width + gap
    return starts


def ordered_cards(ctx: CheckContext) -> list[Part]:
    """The PCIe cards in placement order: narrowest first (unknown widths last)."""
    return sorted(ctx.cards, key=lambda p: (slot_positions(p) is None, slot_positions(p) or 0))


def _positions(spacing: float | None) -> str:
    count = int(spacing or 0)
    return f"{count} slot position{'' if count == 1 else 's'}"


def check_complete(ctx: CheckContext) -> list[CheckResult]:
    """An incomplete build has not been shown to work: say what is still to choose."""
    if not ctx.local_items:
        return []
    if ctx.server is not None:
        return []  # checks.server says what a server platform still needs
    present = {
        "cpu": ctx.cpu, "motherboard": ctx.board, "memory": ctx.memory,
        "accelerator": ctx.accelerators, "storage": ctx.storage, "psu": ctx.psu,
        "cooler": ctx.cooler, "case": ctx.case,
    }
    absent = [label for key, label in ESSENTIAL if not present[key]]
    if not absent:
        return []
    return [CheckResult("compat.complete", "compatibility", "unknown",
                        f"Not yet chosen: {join(absent)}", {"missing": ", ".join(absent)})]


def check_socket(ctx: CheckContext) -> list[CheckResult]:
    if ctx.cpu is None or ctx.board is None:
        return []
    ids = (ctx.cpu.id, ctx.board.id)
    cpu, board = ctx.cpu.text("socket"), ctx.board.text("socket")
    figures = {"cpu_socket": cpu or None, "board_socket": board or None}
    if not cpu or not board:
        absent = [(p, "socket") for p, s in ((ctx.cpu, cpu), (ctx.board, board)) if not s]
        return [CheckResult("compat.socket", "compatibility", "unknown",
                            f"Socket unknown: {missing(absent)}", figures, ids)]
    if norm_socket(cpu) == norm_socket(board):
        return [CheckResult("compat.socket", "compatibility", "pass",
                            f"{ctx.cpu.display_name} and {ctx.board.display_name} are both "
                            f"{cpu}", figures, ids)]
    return [CheckResult("compat.socket", "compatibility", "fail",
                        f"{ctx.cpu.display_name} is {cpu} but {ctx.board.display_name} is "
                        f"{board}: the CPU does not fit the board", figures, ids,
                        f"Choose a {cpu} motherboard or a {board} CPU.")]


def check_cpu_sockets(ctx: CheckContext) -> list[CheckResult]:
    """Two CPUs need a two-socket board and a dual-socket model; one CPU on a two-socket
    board leaves the second socket's memory and PCIe slots dead."""
    if ctx.cpu is None or ctx.board is None:
        return []
    cpu, board, n = ctx.cpu, ctx.board, ctx.cpu_count
    ids = (cpu.id, board.id)
    sockets, model_max = board.number("cpu_sockets"), cpu.number("max_sockets")
    figures = {"cpus": n, "board_sockets": sockets, "cpu_max_sockets": model_max}
    if n == 1:
        if sockets is not None and sockets >= 2:
            return [CheckResult(
                "compat.cpu_sockets", "compatibility", "warn",
                f"One {cpu.display_name} on the {sockets:.0f}-socket {board.display_name}: "
                "the memory and PCIe slots wired to the empty socket will not work", figures,
                ids, "Fit a second CPU of the same model, or choose a single-socket board.")]
        return []  # one CPU on a one-socket (or unknown) board: nothing to say
    if sockets is None:
        return [CheckResult("compat.cpu_sockets", "compatibility", "unknown",
                            f"{ctx.cpu_label}: {missing([(board, 'cpu_sockets')])}",
                            figures, ids)]
    if n > sockets:
        return [CheckResult(
            "compat.cpu_sockets", "compatibility", "fail",
            f"{ctx.cpu_label} but {board.display_name} has {sockets:.0f} socket"
            f"{'s' if sockets != 1 else ''}", figures, ids,
            "Choose a dual-socket board, or one CPU with more cores.")]
    if model_max is None:
        return [CheckResult("compat.cpu_sockets", "compatibility", "unknown",
                            f"{ctx.cpu_label} on {board.display_name}: whether the model "
                            f"runs two to a board is unknown "
                            f"({missing([(cpu, 'max_sockets')])})", figures, ids)]
    if n > model_max:
        return [CheckResult(
            "compat.cpu_sockets", "compatibility", "fail",
            f"{cpu.display_name} is a single-socket-only part: two of it will not run on "
            f"one board", figures, ids,
            "Choose the dual-socket version (for EPYC: the model without the P suffix).")]
    return [CheckResult("compat.cpu_sockets", "compatibility", "pass",
                        f"{ctx.cpu_label} fill {board.display_name}'s {sockets:.0f} sockets",
                        figures, ids)]


def system_pcie_lanes(ctx: CheckContext) -> float | None:
    """Lanes the CPU(s) give to devices: one CPU's ``pcie_lanes``, or for two sockets
    2x that on Intel and 128 on AMD EPYC (see the module's notes)."""
    if ctx.cpu is None:
        return None
    lanes = ctx.cpu.number("pcie_lanes")
    if lanes is None or ctx.cpu_count < 2:
        return lanes
    if ctx.socket in EPYC_SOCKETS:
        return float(EPYC_2P_LANES)
    return lanes * ctx.cpu_count


def check_x16_slots(ctx: CheckContext) -> list[CheckResult]:
    """Enough x16 slots, and wide coolers not covering the next slot."""
    cards = ordered_cards(ctx)
    if not cards or ctx.board is None:
        return []
    board = ctx.board
    ids = (*tuple(dict.fromkeys(p.id for p in cards)), board.id)
    slots = board.number("pcie_x16_slots")
    n = len(cards)
    figures: dict[str, float | int | str | None] = {
        "cards": n, "x16_slots": slots, "x16_slot_spacing": board.number("x16_slot_spacing")}
    if slots is None:
        return [CheckResult("compat.x16_slots", "compatibility", "unknown",
                            f"{count_of(n, 'card')}; {missing([(board, 'pcie_x16_slots')])}",
                            figures, ids)]
    wired_narrow = board.number("pcie_x4_x8_slots") or 0
    positions = BOARD_SLOT_POSITIONS.get(board.text("board_form_factor").lower())
    widths = [slot_positions(p) for p in cards]
    if slots < n and positions is not None and None not in widths:
        known = sorted(w or 0 for w in widths)  # the widest last: it may overhang
        if 1 + sum(known[:-1]) > positions:
            return [CheckResult(
                "compat.x16_slots", "compatibility", "fail",
                f"{n} cards ({'+'.join(map(str, known))} slot positions) cannot all sit on "
                f"{board.display_name}: the last would start at position "
                f"{1 + sum(known[:-1])} of its {positions}, whatever its slots",
                figures, ids, "Choose a board with more x16 slots, thinner cards, or risers.")]
    if slots < n <= slots + wired_narrow:
        return [CheckResult(
            "compat.x16_slots", "compatibility", "warn",
            f"{n} cards but {board.display_name} lists {count_of(slots, 'x16 slot')} and "
            f"{count_of(int(wired_narrow), 'x4/x8 slot')}: the open data lists a slot by "
            "its wiring, and many boards have full-length slots wired x4 or x8, which take "
            "a card at that narrower link", figures, ids,
            "Check the board's manual for full-length slots, or enter its x16 slot count.",
            needs=((board.id, "pcie_x16_slots"),))]
    if n > slots:
        return [CheckResult("compat.x16_slots", "compatibility", "fail",
                            f"{n} cards but {board.display_name} has {count_of(slots, 'x16 slot')}",
                            figures, ids, "Choose a board with more x16 slots, or fewer cards.")]
    if n == 1:
        return [CheckResult("compat.x16_slots", "compatibility", "pass",
                            f"1 card in {board.display_name}'s {count_of(slots, 'x16 slot')}",
                            figures, ids)]
    spacing = board.number("x16_slot_spacing")
    absent = [(p, "slot_width") for p, w in zip(cards, widths, strict=True) if w is None]
    if spacing is None and not absent:
        known_widths = [w or 0 for w in widths]
        bound = (fit_whatever_the_spacing(cards, known_widths, int(slots), ids, figures, board)
                 or unpublished_spacing(board, known_widths, int(slots), positions, figures,
                                        ids))
        if bound is not None:
            return [bound]
    if spacing is None:
        absent.append((board, "x16_slot_spacing"))
    if absent:
        return [CheckResult("compat.x16_slots", "compatibility", "unknown",
                            f"{n} cards in {slots:.0f} x16 slots; {missing(absent)}",
                            figures, ids)]
    known = [w or 0 for w in widths]
    starts = place_cards(known, int(spacing or 1), int(slots))
    if len(starts) < n:
        blocker = cards[len(starts) - 1] if starts else cards[0]
        return [CheckResult(
            "compat.x16_slots", "compatibility", "fail",
            f"Only {len(starts)} of {n} cards fit: a {slot_positions(blocker)}-slot "
            f"{blocker.display_name} covers the next x16 slot ({_positions(spacing)} apart "
            f"on {board.display_name})", figures, ids,
            "Choose thinner (2-slot / blower) cards or a board with wider x16 spacing.")]
    return [CheckResult(
        "compat.x16_slots", "compatibility", "pass",
        f"{n} cards fit {board.display_name}'s {slots:.0f} x16 slots "
        f"({_positions(spacing)} apart)", figures, ids)]


def check_case_slots(ctx: CheckContext) -> list[CheckResult]:
    """The cards' coolers against the case's expansion-slot openings."""
    cards = ordered_cards(ctx)
    if not cards or ctx.case is None:
        return []
    case = ctx.case
    ids = (*tuple(dict.fromkeys(p.id for p in cards)), case.id)
    openings = case.number("expansion_slots")
    widths = [slot_positions(p) for p in cards]
    absent = [(p, "slot_width") for p, w in zip(cards, widths, strict=True) if w is None]
    if openings is None:
        absent.append((case, "expansion_slots"))
    if len(cards) > 1:
        if ctx.board is None:
            return []
        spacing, slots = ctx.board.number("x16_slot_spacing"), ctx.board.number("pcie_x16_slots")
        if spacing is None or slots is None:
            return []  # check_x16_slots reports the missing board figures
    if absent:
        return [CheckResult("compat.case_slots", "compatibility", "unknown",
                            f"Case slot fit unknown: {missing(absent)}", {}, ids)]
    known = [w or 0 for w in widths]
    if len(cards) == 1:
        needed = known[0]
    else:
        assert ctx.board is not None
        starts = place_cards(known, int(ctx.board.number("x16_slot_spacing") or 1),
                             int(ctx.board.number("pcie_x16_slots") or 0))
        if len(starts) < len(cards):
            return []  # check_x16_slots fails this already
        needed = starts[-1] + known[-1]
    figures = {"positions_needed": needed, "expansion_slots": openings}
    status: Status = "pass" if needed <= (openings or 0) else "fail"
    verb = "fit within" if status == "pass" else "need more than"
    message = (f"The cards need {needed} slot positions and {verb} "
               f"{case.display_name}'s {openings:.0f} expansion slots")
    if status == "fail":
        message = (f"The cards need {needed} slot positions; {case.display_name} has "
                   f"{openings:.0f} expansion slots")
    return [CheckResult("compat.case_slots", "compatibility", status, message, figures, ids,
                        "" if status == "pass" else
                        "Choose a case with more expansion slots (8+ for four 2-slot cards).")]


def check_gpu_length(ctx: CheckContext) -> list[CheckResult]:
    if not ctx.cards or ctx.case is None:
        return []
    case = ctx.case
    clearance = case.number("max_gpu_length_mm")
    cards = unique(ctx.cards)
    ids = (*tuple(p.id for p in cards), case.id)
    absent = [(p, "board_length_mm") for p in cards if p.number("board_length_mm") is None]
    if clearance is None:
        absent.append((case, "max_gpu_length_mm"))
    if absent:
        return [CheckResult("compat.gpu_length", "compatibility", "unknown",
                            f"Card length fit unknown: {missing(absent)}", {}, ids)]
    longest = max(cards, key=lambda p: p.number("board_length_mm") or 0)
    length = longest.number("board_length_mm") or 0
    figures = {"longest_card_mm": length, "max_gpu_length_mm": clearance}
    if length <= (clearance or 0):
        return [CheckResult("compat.gpu_length", "compatibility", "pass",
                            f"Longest card {length:.0f} mm ({longest.display_name}) fits "
                            f"{case.display_name}'s {clearance:.0f} mm clearance",
                            figures, ids)]
    too_long = [p for p in cards if (p.number("board_length_mm") or 0) > (clearance or 0)]
    return [CheckResult("compat.gpu_length", "compatibility", "fail",
                        f"{longest.display_name} is {length:.0f} mm; {case.display_name} "
                        f"takes cards up to {clearance:.0f} mm", figures,
                        (*tuple(p.id for p in too_long), case.id),
                        "Choose a larger case or a shorter card.")]


def check_board_form_factor(ctx: CheckContext) -> list[CheckResult]:
    """The board's form factor against the sizes the case takes (only when both known)."""
    if ctx.board is None or ctx.case is None:
        return []
    size = ctx.board.text("board_form_factor")
    takes = ctx.case.text("supported_board_form_factors")
    ids = (ctx.board.id, ctx.case.id)
    figures = {"board_form_factor": size or None, "supported_board_form_factors": takes or None}
    if not size or not takes:
        absent = [(p, f) for p, f, v in ((ctx.board, "board_form_factor", size),
                                         (ctx.case, "supported_board_form_factors", takes))
                  if not v]
        return [CheckResult("compat.board_size", "compatibility", "unknown",
                            f"Board size fit unknown: {missing(absent)}", figures, ids)]
    if norm_form(size) in form_list(takes):
        return [CheckResult("compat.board_size", "compatibility", "pass",
                            f"{ctx.case.display_name} takes {size} boards", figures, ids)]
    return [CheckResult("compat.board_size", "compatibility", "fail",
                        f"{ctx.board.display_name} is {size}; {ctx.case.display_name} takes "
                        f"{takes}", figures, ids, f"Choose a case that takes {size} boards.")]


def check_pcie_lanes(ctx: CheckContext) -> list[CheckResult]:
    """x16 per card and x4 per NVMe drive against the CPU's lanes."""
    cards = ctx.cards
    if not cards or ctx.cpu is None:
        return []
    cpu = ctx.cpu
    nvme = sum(i.quantity for i in ctx.storage
               if i.part.text("storage_kind").lower() == "nvme")
    ids = (*tuple(dict.fromkeys(p.id for p in cards)), cpu.id)
    lanes = system_pcie_lanes(ctx)
    n = len(cards)
    wanted = GPU_LANES * n + NVME_LANES * nvme
    figures: dict[str, float | int | str | None] = {
        "cpu_lanes": lanes, "lanes_wanted": wanted, "cards": n, "nvme_drives": nvme}
    if lanes is None:
        return [CheckResult("compat.pcie_lanes", "compatibility", "unknown",
                            f"{count_of(n, 'card')} {'wants' if n == 1 else 'want'} x16 each; "
                            f"{missing([(cpu, 'pcie_lanes')])}",
                            figures, ids)]
    for_cards = max(0, int(lanes) - RESERVED_LANES)
    width = next((w for w in (16, 8, 4) if w * n <= for_cards), 0)
    figures["lanes_per_card"] = width
    names = join(counted(p, sum(c.id == p.id for c in cards)) for p in unique(cards))
    drives = f"; plus {nvme} NVMe drive{'s' if nvme > 1 else ''} at x4" if nvme else ""
    one = n == 1
    if width == 16:
        return [CheckResult(
            "compat.pcie_lanes", "compatibility", "pass",
            f"{names} {'runs' if one else 'run'} at x16 from {ctx.cpu_label}'s "
            f"{lanes:.0f} lanes{drives}",
            figures, ids)]
    if width == 0:
        return [CheckResult(
            "compat.pcie_lanes", "compatibility", "fail",
            f"{n} cards need at least x4 each ({4 * n} lanes); {ctx.cpu_label} "
            f"{'has' if ctx.cpu_count < 2 else 'have'} {lanes:.0f} lanes ({for_cards} for "
            "slots)", figures, ids,
            "Choose a workstation CPU (Threadripper / Xeon W) for this many cards.")]
    impact = ("halves host-to-GPU bandwidth, which matters for multi-GPU training that "
              "syncs gradients over PCIe" if width == 8 else
              "quarters host-to-GPU bandwidth: data loading and multi-GPU sync slow down")
    return [CheckResult(
        "compat.pcie_lanes", "compatibility", "warn",
        f"{names} {'drops' if one else 'drop'} to x{width} ({GPU_LANES * n} lanes wanted, "
        f"{for_cards} of {ctx.cpu_label}'s {lanes:.0f} reach the slots): {impact}{drives}",
        figures, ids,
        "A workstation CPU (Threadripper PRO: 128 lanes) keeps every card at x16."
        if lanes < WORKSTATION_LANES else
        "Beyond a platform's lanes, GPU servers give every card x16 through PCIe switches; "
        "or fit fewer cards.")]


def check_cloud(ctx: CheckContext) -> list[CheckResult]:
    """Cloud offerings and cloud-only accelerators cannot go in a machine you build."""
    results = []
    for item in ctx.cloud:
        part = item.part
        if part.category is Category.CLOUD:
            who = part.text("provider") or part.vendor
            why = (f"{part.display_name} is rented from {who} by the hour or month; it "
                   "cannot be part of a local build")
        else:
            why = (f"{part.display_name} is sold only as a cloud service "
                   f"({part.vendor}); it cannot be installed in a local build")
        results.append(CheckResult(
            "compat.cloud", "compatibility", "fail", why,
            {"category": part.category.value, "form_factor": part.text("form_factor") or None},
            (part.id,), "Remove it from the parts: the Workload panel's cost section compares "
            "renting with owning this build (the Advisor's rent proposals go there)."))
    return results


def check_server_modules(ctx: CheckContext) -> list[CheckResult]:
    """SXM / OAM modules need a server baseboard (HGX / UBB), never a desktop slot."""
    if ctx.server is not None:
        return []  # checks.server matches the modules against the platform's baseboard
    results = []
    unknown = [i.part for i in ctx.accelerators if not i.part.text("form_factor")]
    if unknown:  # judged as PCIe cards by the other checks: say that is not known
        results.append(CheckResult(
            "compat.baseboard", "compatibility", "unknown",
            f"PCIe card or server module unknown: "
            f"{missing((p, 'form_factor') for p in unknown)}", {"form_factor": None},
            tuple(p.id for p in unknown)))
    for item in ctx.accelerators:
        form = item.part.text("form_factor").lower()
        if form == INTEGRATED_FORM:
            results.append(CheckResult(
                "compat.baseboard", "compatibility", "fail",
                f"{counted(item.part, item.quantity)} is the GPU built into a complete "
                "system's chip: it cannot be fitted in a PCIe slot", {"form_factor": form},
                (item.part.id,),
                "Choose the system itself (the server category, e.g. a Mac Studio or DGX "
                "Spark) instead of a desktop board, or a PCIe card."))
        elif form in SERVER_MODULE_FORMS:
            results.append(CheckResult(
                "compat.baseboard", "compatibility", "fail",
                f"{counted(item.part, item.quantity)} is an {form.upper()} module: it mounts "
                "on a server baseboard (HGX / OAM UBB) with its own power and cooling, not "
                "in a PCIe slot", {"form_factor": form}, (item.part.id,),
                "Choose the PCIe version of the card, or a GPU server platform (the "
                "server category) whose baseboard takes it."))
    return results


CHECKS = (check_complete, check_cloud, check_server_modules, check_socket, check_cpu_sockets,
          check_x16_slots,
          check_case_slots, check_gpu_length, check_cooler_height, check_radiator,
          check_cooler_socket,
          check_board_form_factor, check_pcie_lanes)
