"""A tower's CPU cooler clearance where its maker's figure is not in the catalog.

Two thirds of the catalog's tower cases have no cooler clearance (the open data fills it
on 1,214 of 3,728). Rather than stop at "unknown", the check compares the cooler with the
clearances of towers like this one: the same largest board (E-ATX, ATX, micro-ATX,
Mini-ITX) and a similar graphics-card clearance (which tracks the case's size). From
those towers' published clearances, the 5th and 95th percentiles make a band:

- a cooler no taller than the band's low end fits 95 % of such towers: pass, estimated;
- one taller than its high end fits at most 5 %: fail, estimated;
- between: warn, and ask for the case's figure.

``CLEARANCE_BANDS`` is fitted by ``scripts/fit_estimates.py`` from the catalog (a
test refits it from the bundled catalog and fails if it drifts). Held out one case at a
time over coolers of 120-200 mm (1,209 towers), the band's verdicts were wrong on 0.8 %
of its 8,872 passes (a cooler passed that the held-out case does not take) and 2.7 % of
its 2,853 fails (``LEAVE_OUT_ERROR``); the rest were warnings.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from dlhw_desktop.core.checks.percentile_band import quantile
from dlhw_desktop.core.compat.vocabulary import form_list
from dlhw_desktop.core.parts import Part

GPU_BINS_MM: tuple[float, ...] = (330.0, 380.0, 420.0)
"""Graphics-card clearance bin edges: up to 330 mm, 330-380, 380-420, over 420."""

MIN_CASES = 20
"""Fewer published clearances than this in a class and bin: the class as a whole."""


@dataclass(frozen=True)
class ClearanceBand:
    """Cooler clearance of towers of one class: 5th and 95th percentiles, how many."""

    low_mm: float
    high_mm: float
    cases: int
    board: str
    gpu_bin: str


CLEARANCE_BANDS: dict[tuple[str, str], tuple[float, float, int]] = {
    ("ATX", "330-380"): (155.0, 190.0, 178),
    ("ATX", "380-420"): (159.0, 195.0, 225),
    ("ATX", "all"): (155.0, 190.0, 610),
    ("ATX", "over 420"): (160.0, 193.0, 147),
    ("ATX", "up to 330"): (150.0, 172.0, 59),
    ("E-ATX", "330-380"): (160.0, 180.0, 39),
    ("E-ATX", "380-420"): (165.0, 195.0, 81),
    ("E-ATX", "all"): (165.0, 190.0, 301),
    ("E-ATX", "over 420"): (165.0, 190.0, 176),
    ("Micro-ATX", "330-380"): (148.0, 175.0, 91),
    ("Micro-ATX", "380-420"): (162.0, 210.0, 43),
    ("Micro-ATX", "all"): (82.0, 210.0, 185),
    ("Micro-ATX", "up to 330"): (65.0, 167.0, 42),
    ("Mini-ITX", "330-380"): (58.0, 210.0, 50),
    ("Mini-ITX", "all"): (55.0, 200.0, 113),
    ("Mini-ITX", "up to 330"): (55.0, 172.0, 44),
}
"""(largest board, graphics-card clearance bin) -> (5th, 95th percentile mm, cases)."""

LEAVE_OUT_ERROR = {"false_pass_share": 0.008, "false_fail_share": 0.027}
"""Held out one case at a time: the share of the band's passes and fails that were wrong."""


def board_class(case: Part) -> str | None:
    """The largest board a case takes, as the bands are keyed; None when not stated."""
    forms = form_list(case.text("supported_board_form_factors"))
    if forms & {"eatx", "eeb", "ssieeb", "xlatx", "ceb", "ssiceb", "hptx"}:
        return "E-ATX"
    if "atx" in forms:
        return "ATX"
    if "microatx" in forms:
        return "Micro-ATX"
    if forms & {"miniitx", "thinminiitx"}:
        return "Mini-ITX"
    return None


def gpu_bin(gpu_clearance_mm: float | None) -> str:
    if gpu_clearance_mm is None:
        return "all"
    low = ("up to 330", "330-380", "380-420", "over 420")
    for edge, name in zip(GPU_BINS_MM, low, strict=False):
        if gpu_clearance_mm < edge:
            return name
    return low[-1]


def clearance_band(case: Part) -> ClearanceBand | None:
    """The band for a tower without its own clearance, or None (not a tower, no class)."""
    if case.text("case_kind").lower() != "tower":
        return None
    board = board_class(case)
    if board is None:
        return None
    bin_name = gpu_bin(case.number("max_gpu_length_mm"))
    row = CLEARANCE_BANDS.get((board, bin_name))
    if row is None or row[2] < MIN_CASES:
        bin_name = "all"
        row = CLEARANCE_BANDS.get((board, bin_name))
    if row is None:
        return None
    low, high, cases = row
    return ClearanceBand(low, high, cases, board, bin_name)


Row = tuple[str, str, float]
"""One tower with a published clearance: (board class, graphics-card bin, clearance mm)."""


def rows(cases: Iterable[Part]) -> list[Row]:
    """Every tower with a published clearance, as the bands are keyed."""
    found: list[Row] = []
    for case in cases:
        clearance = case.number("max_cooler_height_mm")
        board = board_class(case)
        if case.text("case_kind").lower() != "tower" or clearance is None or board is None:
            continue
        found.append((board, gpu_bin(case.number("max_gpu_length_mm")), clearance))
    return found


def bands(data: Iterable[Row]) -> dict[tuple[str, str], tuple[float, float, int]]:
    """The fit: per class and per class and bin, the 5th and 95th percentiles."""
    groups: dict[tuple[str, str], list[float]] = {}
    for board, bin_name, clearance in data:
        groups.setdefault((board, "all"), []).append(clearance)
        if bin_name != "all":  # a tower without a graphics-card clearance: its class only
            groups.setdefault((board, bin_name), []).append(clearance)
    return {key: (quantile(v, 0.05), quantile(v, 0.95), len(v))
            for key, v in sorted(groups.items()) if len(v) >= MIN_CASES}


def leave_out(data: list[Row]) -> dict[str, float]:
    """Each tower left out in turn, coolers of 120-200 mm judged against the band of the
    others: the share of passes it does not take and of fails it does."""
    passes = fails = wrong_pass = wrong_fail = 0
    for i, (board, bin_name, clearance) in enumerate(data):
        table = bands(data[:i] + data[i + 1:])
        row = table.get((board, bin_name)) or table.get((board, "all"))
        if row is None:
            continue
        for height in range(120, 201, 5):
            if height <= row[0]:
                passes += 1
                wrong_pass += height > clearance
            elif height > row[1]:
                fails += 1
                wrong_fail += height <= clearance
    return {"false_pass_share": round(wrong_pass / max(passes, 1), 3),
            "false_fail_share": round(wrong_fail / max(fails, 1), 3),
            "passes": passes, "fails": fails}
