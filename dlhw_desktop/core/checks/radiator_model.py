"""A tower's largest radiator where its maker's figure is not in the catalog.

The open data has no radiator figure for any case; the catalog holds the largest radiator
of the towers whose maker page or review states it (``cases.csv``,
``figures_case_radiators.csv``: 15 models once colour variants and a joint review are
counted once). That is too few for percentiles, so the model
is the plainest one the data supports: towers with a similar graphics-card clearance (which
tracks a case's depth) are grouped, and a radiator no longer than the smallest "largest
radiator" of the group's models fits every one of them: pass, estimated. Anything longer is
a warning that names the group's range and asks for the case's figure; the model never
fails a build, since a handful of models cannot show what a case does not take.

Only groups with at least ``MIN_MODELS`` models answer (towers with 380 mm of graphics
clearance or more, today); smaller towers stay unknown. ``RADIATOR_GROUPS`` is fitted by
``scripts/fit_estimates.py`` from the catalog (a test refits it from the bundled catalog
and fails if it drifts); ``LEAVE_OUT_ERROR`` is each model left out in turn and radiators
of 120-480 mm judged against the rest of its group: 1 of 51 passes was wrong (a 420 mm
radiator passed for the Antec P120 Crystal, which mounts 360 mm, when the other five
towers over 420 mm all take 420).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from dlhw_desktop.core.checks.case_clearance_model import gpu_bin
from dlhw_desktop.core.parts import Part

MIN_MODELS = 5
"""Fewer tower models with a published figure in a group: no estimate."""

SIZES_MM: tuple[int, ...] = (120, 140, 240, 280, 360, 420, 480)
"""The radiator lengths AIOs are sold in, as the leave-out test judges them."""

RADIATOR_GROUPS: dict[str, tuple[float, float, int]] = {
    "380-420": (280.0, 360.0, 5),
    "over 420": (360.0, 480.0, 6),
}
"""Graphics-card clearance group -> (smallest and largest "largest radiator", models)."""

LEAVE_OUT_ERROR = {"false_pass_share": 0.02, "passes": 51}
"""Held out one model at a time: the share of the model's passes that were wrong."""


@dataclass(frozen=True)
class RadiatorGroup:
    """What the towers like one case mount: the smallest and largest largest-radiator."""

    low_mm: float
    high_mm: float
    models: int
    gpu_bin: str


def radiator_group(case: Part) -> RadiatorGroup | None:
    """The group for a tower without its own figure, or None (not a tower, no graphics
    clearance, too few models like it)."""
    clearance = case.number("max_gpu_length_mm")
    if case.text("case_kind").lower() != "tower" or clearance is None:
        return None
    name = gpu_bin(clearance)
    row = RADIATOR_GROUPS.get(name)
    if row is None:
        return None
    return RadiatorGroup(row[0], row[1], row[2], name)


Model = tuple[str, float]
"""One tower model with a published figure: (graphics-clearance group, largest radiator)."""


def models(cases: Iterable[Part]) -> list[Model]:
    """Every tower model with a published largest radiator, once per model (colour
    variants share the page their figure was read on)."""
    found: dict[tuple[str, str, float], Model] = {}
    for case in cases:
        radiator, clearance = case.number("max_radiator_mm"), case.number("max_gpu_length_mm")
        if case.text("case_kind").lower() != "tower" or radiator is None or clearance is None:
            continue
        group = gpu_bin(clearance)
        key = (case.source_of("max_radiator_mm").source, group, radiator)
        found.setdefault(key, (group, radiator))
    return [found[k] for k in sorted(found)]


def fit(data: list[Model]) -> dict[str, tuple[float, float, int]]:
    """Per group with at least ``MIN_MODELS`` models: smallest, largest, how many."""
    groups: dict[str, list[float]] = {}
    for group, radiator in data:
        groups.setdefault(group, []).append(radiator)
    return {g: (min(v), max(v), len(v)) for g, v in sorted(groups.items())
            if len(v) >= MIN_MODELS}


def leave_out(data: list[Model]) -> dict[str, float]:
    """Each model left out in turn, every AIO size judged against the rest of its group:
    the share of passes (no longer than the group's smallest) the model does not take."""
    passes = wrong = 0
    for i, (group, actual) in enumerate(data):
        rest = [r for j, (g, r) in enumerate(data) if g == group and j != i]
        if len(rest) + 1 < MIN_MODELS:  # a group the fit answers for, this model in it
            continue
        for size in SIZES_MM:
            if size <= min(rest):
                passes += 1
                wrong += size > actual
    return {"false_pass_share": round(wrong / max(passes, 1), 3), "passes": passes}
