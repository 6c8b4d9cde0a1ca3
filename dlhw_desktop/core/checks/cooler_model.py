"""How much CPU heat a cooler holds: measured where a review measured it, else estimated
from the physical figures the open data has, with the estimate's measured error.

Reviews measure the CPU package power a cooler holds at the CPU's temperature limit
(``resources/catalog/research/cooler_measurements.csv``: each row with its review, test CPU,
condition and date). Vendors mostly publish no watt rating (Noctua, for one, publishes
none), and the ratings that exist are not measured the same way, so a vendor's rating is
shown beside a measurement, never instead of it.

The model (fitted by :func:`fit_air` on the measured rows; ``tests/core/test_cooler_model.py``
re-fits it from that file and fails if these constants drift):

- Air coolers: capacity = ``AIR_INTERCEPT_W`` + ``AIR_W_PER_MM`` x height. A taller tower
  carries more fin area and a longer heat-pipe run. Fitted on the 9 coolers measured at
  the temperature limit (37-165 mm); the band is +- the leave-one-out RMS error
  (``AIR_BAND_W``). Leave-one-out absolute errors: 39, 29, 21, 24, 5, 71, 55, 25 and 17 W: the
  reviews' benches differ (a Core i9-12900K held at Intel's 241 W limit, a 13900K without
  limits, a heat-load tester), and the spread between them is the error a buyer is shown.
- Liquid (AIO): ``LIQUID_REF_W`` x the square root of (radiator length / 360 mm), fitted on
  the AIOs measured at the temperature limit (a 360 mm and a 280 mm): the radiator's heat
  rejection at a given coolant-to-air difference grows with its face area, but the cold
  plate and the CPU's own die-to-lid resistance, in series and the same for every size,
  take a fixed share, so capacity grows more slowly than area. The band is +- the
  leave-one-out RMS error relative to the prediction (``LIQUID_BAND_FRACTION``; each of
  the two predicted from the other: 10 % and 9 % off).
- Fanless coolers and coolers without a height or radiator figure: no estimate.

A check uses the band: the CPU's power at or below its low end passes, above its high end
fails, between warns (the CPU throttles under sustained all-core load).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from dlhw_desktop.core.parts import Part

AIR_INTERCEPT_W = 75.4
AIR_W_PER_MM = 1.095
AIR_BAND_W = 37.0
AIR_MEASURED = 9
"""Coolers the air fit rests on (measured at the temperature limit, height known)."""
AIR_LOO_MEAN_ABS_W = 31.9

LIQUID_REF_W = 331.1
LIQUID_REF_RADIATOR_MM = 360.0
LIQUID_BAND_FRACTION = 0.10
LIQUID_MEASURED = 2
"""AIOs the liquid fit rests on (measured at the temperature limit, radiator known)."""

MEASURED_BAND_FRACTION = 0.05
"""A measurement is one review's rig (CPU sample, paste, room): read as +-5 %."""

LOW_PROFILE_MM = 75


@dataclass(frozen=True, slots=True)
class CoolerCapacity:
    """A cooler's heat capacity as a band, what kind of figure it is, and its basis."""

    low_w: float
    high_w: float
    kind: str
    """"measured", "estimated", "vendor" or "your figure"."""
    basis: str
    """In words, for the check's message: "measured by ...", "estimated from a 360 mm
    radiator (1 AIO measured; band derived)"."""


def measured_capacity(cooler: Part) -> CoolerCapacity | None:
    """From a review's measurement: at the temperature limit (a point, +-5 %), or held
    without reaching it (a lower bound; the model's high end above it when there is one,
    and the model's whole band when the load held is below its low end)."""
    at_limit = cooler.number("measured_capacity_w")
    if at_limit is not None:
        kind, by = _measured_by(cooler, "measured_capacity_w")
        return CoolerCapacity(at_limit * (1 - MEASURED_BAND_FRACTION),
                              at_limit * (1 + MEASURED_BAND_FRACTION), kind,
                              f"{by} at the CPU's temperature limit: {at_limit:,.0f} W")
    at_least = cooler.number("measured_capacity_at_least_w")
    if at_least is not None:
        kind, by = _measured_by(cooler, "measured_capacity_at_least_w")
        held = f"{by} holding {at_least:,.0f} W without reaching the temperature limit"
        model = estimated_capacity(cooler)
        if model is not None and model.low_w > at_least:
            # A light test load proves less than the model already says: the model's band
            # stands (the measurement only confirms its low end is not too high).
            return CoolerCapacity(model.low_w, model.high_w, model.kind,
                                  f"{model.basis}; {held}")
        high = max(at_least, model.high_w) if model is not None else at_least
        return CoolerCapacity(at_least, high, kind, held)
    return None


def _measured_by(cooler: Part, field: str) -> tuple[str, str]:
    """("measured", "measured") for a review's figure; ("your figure", "measured by you,
    entered 2026-11-20") for one the user entered."""
    if cooler.figure_kind(field) == "your figure":
        return "your figure", f"your figure (entered {cooler.source_of(field).source_date})"
    return "measured", "measured"


def estimated_capacity(cooler: Part) -> CoolerCapacity | None:
    """From the cooler's physical figures, or ``None`` when the model cannot say."""
    kind = cooler.text("cooler_kind").lower()
    radiator = cooler.number("radiator_mm")
    height = cooler.number("height_mm")
    if kind in ("aio", "custom-loop") or (radiator and not height):
        if not radiator:
            return None
        centre = LIQUID_REF_W * math.sqrt(radiator / LIQUID_REF_RADIATOR_MM)
        band = centre * LIQUID_BAND_FRACTION
        return CoolerCapacity(centre - band, centre + band, "estimated",
                              f"estimated from its {radiator:.0f} mm radiator: "
                              f"fitted on {LIQUID_MEASURED} measured AIOs, leave-one-out "
                              f"error ±{LIQUID_BAND_FRACTION:.0%}")
    if kind == "passive" or not height:
        return None
    centre = AIR_INTERCEPT_W + AIR_W_PER_MM * height
    what = "low-profile air cooler" if height < LOW_PROFILE_MM else "air cooler"
    return CoolerCapacity(max(0.0, centre - AIR_BAND_W), centre + AIR_BAND_W, "estimated",
                          f"estimated from its {height:.0f} mm height as an {what}: "
                          f"fitted on {AIR_MEASURED} measured coolers, leave-one-out "
                          f"error ±{AIR_BAND_W:.0f} W")


def vendor_capacity(cooler: Part) -> CoolerCapacity | None:
    """The vendor's rating, read as the checks always have: at or under it passes, more
    than 25 % over it fails."""
    rating = cooler.number("cooling_capacity_w")
    if rating is None:
        return None
    if cooler.figure_kind("cooling_capacity_w") == "your figure":
        when = cooler.source_of("cooling_capacity_w").source_date
        return CoolerCapacity(rating, rating / 0.8, "your figure",
                              f"rated {rating:,.0f} W by its maker (your figure, entered "
                              f"{when})")
    return CoolerCapacity(rating, rating / 0.8, "vendor", f"rated {rating:,.0f} W by its maker")


BIG_LID_SOCKETS = frozenset({"STR5", "SWRX8", "STRX4", "TR4", "SP3", "SP5", "SP6", "LGA4677",
                             "LGA4189", "LGA3647", "LGA2066", "LGA2011-3", "LGA4710", "LGA7529"})
"""Workstation and server sockets: their lids are two to four times a desktop CPU's and
their heat comes from several dies spread under it, so a cooler holds more there than the
desktop CPUs every measurement here was made on."""


def cooler_capacity(cooler: Part, socket: str = "") -> CoolerCapacity | None:
    """Measured first, then the vendor's rating, then the model. On a big-lid socket
    (``socket`` as ``norm_socket`` writes it) a desktop measurement or estimate is a lower
    bound: the band's high end is open."""
    found = measured_capacity(cooler)
    if found is None:
        rated = vendor_capacity(cooler)
        if rated is not None:
            return rated  # the maker rates it for the sockets it lists, big lids included
        found = estimated_capacity(cooler)
    if found is not None and socket in BIG_LID_SOCKETS:
        return CoolerCapacity(found.low_w, math.inf, found.kind,
                              f"{found.basis}, on desktop CPUs: on this socket's bigger lid "
                              "it holds more, by an amount no review here measured")
    return found


# --- the fit ------------------------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class Measurement:
    """One measured cooler, as the fit reads it."""

    kind: str
    height_mm: float | None
    radiator_mm: float | None
    watts: float
    at_limit: bool


def fit_air(rows: Sequence[Measurement]) -> tuple[float, float]:
    """Least-squares (intercept, W per mm) over the air coolers measured at the limit."""
    points = [(r.height_mm, r.watts) for r in rows
              if r.kind in ("air", "low-profile") and r.at_limit and r.height_mm]
    n = len(points)
    if n < 2:
        raise ValueError("the air fit needs two measured coolers with a height")
    mean_h = sum(h for h, _ in points) / n
    mean_w = sum(w for _, w in points) / n
    sxx = sum((h - mean_h) ** 2 for h, _ in points)
    slope = sum((h - mean_h) * (w - mean_w) for h, w in points) / sxx
    return mean_w - slope * mean_h, slope


def air_leave_one_out(rows: Sequence[Measurement]) -> list[float]:
    """Each at-limit air cooler predicted from a fit on the others: absolute errors, W."""
    usable = [r for r in rows if r.kind in ("air", "low-profile") and r.at_limit and r.height_mm]
    errors: list[float] = []
    for i, row in enumerate(usable):
        intercept, slope = fit_air(usable[:i] + usable[i + 1:])
        assert row.height_mm is not None
        errors.append(abs(intercept + slope * row.height_mm - row.watts))
    return errors


def _liquid_points(rows: Sequence[Measurement]) -> list[tuple[float, float]]:
    """(square root of radiator / 360 mm, watts) of the AIOs measured at the limit."""
    return [(math.sqrt(r.radiator_mm / LIQUID_REF_RADIATOR_MM), r.watts) for r in rows
            if r.kind in ("liquid", "aio") and r.at_limit and r.radiator_mm]


def fit_liquid(rows: Sequence[Measurement]) -> float:
    """Least-squares watts on a 360 mm radiator, capacity scaling with the square root of
    the radiator length."""
    points = _liquid_points(rows)
    if not points:
        raise ValueError("the liquid fit needs one measured AIO with a radiator size")
    return sum(s * w for s, w in points) / sum(s * s for s, _ in points)


def liquid_leave_one_out(rows: Sequence[Measurement]) -> list[float]:
    """Each at-limit AIO predicted from a fit on the others: errors relative to the
    prediction."""
    usable = [r for r in rows if _liquid_points([r])]
    errors: list[float] = []
    for i, row in enumerate(usable):
        rest = usable[:i] + usable[i + 1:]
        if not rest:
            continue
        (scale, watts), = _liquid_points([row])
        predicted = fit_liquid(rest) * scale
        errors.append(abs(predicted - watts) / predicted)
    return errors


def measurements(records: Iterable[dict[str, str]]) -> list[Measurement]:
    """Rows of ``cooler_measurements.csv`` as the fit reads them."""
    out = []
    for r in records:
        height = float(r["height_mm"]) if r.get("height_mm") else None
        radiator = float(r["radiator_mm"]) if r.get("radiator_mm") else None
        out.append(Measurement(r["cooler_kind"], height, radiator, float(r["measured_w"]),
                               r["bound"] == "at-limit"))
    return out
