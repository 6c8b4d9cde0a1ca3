"""Peak dense tensor throughput from an architecture's per-unit rate, unit count and clock.

Vendors' architecture papers state a rate per clock per SM (NVIDIA), per compute unit
(AMD) or per Xe-core (Intel); the peak a datasheet quotes is that rate x the units enabled
on the part x the clock it is quoted at. Pure arithmetic, no data.
"""

from __future__ import annotations

# How a computed figure's source note begins; the details pane and Compare mark such
# figures with "≈" so an estimate never reads as a datasheet figure.
COMPUTED_NOTE_PREFIX = "computed from"
ESTIMATE_MARK = "≈ "


def is_computed(note: str | None) -> bool:
    """True for the source note of a figure computed from an architecture's rates."""
    return bool(note) and note.startswith(COMPUTED_NOTE_PREFIX)


def peak_tera_ops(ops_per_clock_per_unit: float, units: int, clock_mhz: float,
                  clock_share: float = 1.0) -> float:
    """Tera-operations per second: rate x units x clock (MHz) x the share of that clock
    the vendor's peaks assume, rounded to 0.1."""
    if ops_per_clock_per_unit <= 0 or units <= 0 or clock_mhz <= 0:
        raise ValueError("rate, unit count and clock must be positive")
    if not 0 < clock_share <= 1:
        raise ValueError("the clock share is a fraction of the boost clock (0, 1]")
    return round(ops_per_clock_per_unit * units * clock_mhz * clock_share / 1e6, 1)


def units_from_shaders(shading_units: int | None, shaders_per_unit: int) -> int | None:
    """SMs, compute units or Xe-cores from a shader count (an AMD CU holds 64 stream
    processors, an Ada SM 128 CUDA cores); None when it does not divide."""
    if not shading_units or shaders_per_unit <= 0 or shading_units % shaders_per_unit:
        return None
    return shading_units // shaders_per_unit


def implied_clock_mhz(stated_tera_ops: float, ops_per_clock_per_unit: float,
                      units: int) -> float:
    """The clock a datasheet figure was quoted at, given the rate and the unit count."""
    if stated_tera_ops <= 0 or ops_per_clock_per_unit <= 0 or units <= 0:
        raise ValueError("figure, rate and unit count must be positive")
    return stated_tera_ops * 1e6 / (ops_per_clock_per_unit * units)


def relative_gap(computed: float, stated: float) -> float:
    """|computed - stated| / stated: how far an estimate lies from a datasheet figure."""
    if stated <= 0:
        raise ValueError("a datasheet figure is positive")
    return abs(computed - stated) / stated
