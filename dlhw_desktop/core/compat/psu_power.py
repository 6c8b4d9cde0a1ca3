"""Whether a power supply carries a build's load: the figures the power checks use, shared
with the part picker so a supply it offers does not then fail or warn in the checks.

- Sustained: at most 80 % of the rating (the headroom line above which the check warns).
- Transients: cards spike to 3x board power for 100 us (PCIe CEM 5.0), which an ATX 3.x
  unit rides through up to 200 % of its rating; an older (or unknown-version) unit is
  sized for cards at 2x, within its rating.
"""

from __future__ import annotations

import re

from dlhw_desktop.core.build.build import Build, Slot
from dlhw_desktop.core.compat.rules import (
    OK,
    MarkRule,
    Rule,
    ValueRule,
    Values,
    Verdict,
    no,
    unknown,
)
from dlhw_desktop.core.fields import field_label

PSU_WARN_LOAD = 0.80
PSU_FAIL_LOAD = 1.00
ATX3_EXCURSION = 2.0
"""ATX 3.x: the PSU rides through 200 % of its rating for 100 microseconds."""
ATX3_CARD_SPIKE = 3.0
"""PCIe CEM 5.0: a card may draw 3x its sustained power for up to 100 microseconds."""
LEGACY_CARD_SPIKE = 2.0
"""ATX 2.x sizing: cards momentarily at 2x board power (matches Intel's ~1,100 W example)."""


def is_atx3(version: str) -> bool:
    """``"3.1"``, ``"ATX 3.0"`` -> True: a unit built for ATX 3.x power excursions."""
    return bool(re.match(r"(atx\s*)?3", version.strip(), re.I))


def carries(wattage_w: float | None, version: str, units: int, sustained_w: float,
            gpu_w: float) -> Verdict:
    """A supply (``units`` of it, sharing the load) against the sustained and transient
    load: the picker's verdict, in the checks' words."""
    if wattage_w is None:
        return unknown(field_label("wattage_w"))
    rated = wattage_w * max(1, units)
    if sustained_w > PSU_WARN_LOAD * rated:
        return no(f"the build's {sustained_w:,.0f} W sustained load is "
                  f"{sustained_w / rated:.0%} of its {rated:,.0f} W (over 80 %)")
    if gpu_w and is_atx3(version):
        peak = sustained_w + (ATX3_CARD_SPIKE - 1) * gpu_w
        if peak > ATX3_EXCURSION * rated:
            return no(f"GPU spikes of ~{peak:,.0f} W exceed the 200 % an ATX 3 unit rides "
                      "through")
    elif gpu_w:
        peak = sustained_w + (LEGACY_CARD_SPIKE - 1) * gpu_w
        if peak > rated:
            judged = "" if version.strip() else " (ATX version unknown: judged as 2.x)"
            return no(f"GPU spikes of ~{peak:,.0f} W exceed its {rated:,.0f} W rating"
                      f"{judged}")
    return OK


def psu_load_rule(build: Build, load: tuple[float | None, float] | None) -> Rule | None:
    """A supply against the build's sustained and transient load (``compat.psu_power``)."""
    if load is None:
        return None
    sustained, gpu_w = load
    if sustained is None:
        return MarkRule("psu_load", "not checked: the build's power draw is unknown (a part "
                                    "lacks its power figure)")
    if sustained <= 0:
        return None
    units = max(1, build.count(Slot.PSU))

    def judge(values: Values) -> Verdict:
        wattage = values.get("wattage_w")
        version = values.get("atx_version")
        return carries(float(wattage) if isinstance(wattage, int | float)
                       and not isinstance(wattage, bool) else None,
                       version if isinstance(version, str) else "", units, sustained, gpu_w)

    return ValueRule("psu_load", ("wattage_w", "atx_version"), judge)
