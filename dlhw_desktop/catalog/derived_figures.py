"""Figures derived at build time from a rule its maker publishes, each labelled as derived.

A derived figure fills only what the sources left empty, and its source says the rule and
where the rule is stated, so the details pane and the checks can say "derived".
"""

from __future__ import annotations

from typing import Any

from dlhw_desktop.core.fields import Category

AMD_PPT_FACTOR = 1.35
AMD_PPT_SOCKETS = frozenset({"AM4", "AM5"})
AMD_PPT_SOURCE = "https://techpowerup.com/forums/posts/4763807"
AMD_PPT_NOTE = ("derived: PPT = 1.35 x TDP, AMD's socket power rule for Ryzen on AM4/AM5 "
                "(AMD, 2022, as quoted: 'TDP*1.35 is the standard calculation for TDP v. "
                "PPT for AMD sockets in the Zen era')")
AMD_PPT_DATE = "2026-11-26"


def derive_cpu_sustained_power(parts: dict[str, dict[str, Any]],
                               figure_sources: dict[tuple[str, str], tuple[str, ...]]) -> int:
    """AMD Ryzen on AM4/AM5 without a sustained power figure: PPT = 1.35 x TDP (rounded to
    the watt, as AMD's own figures are: 65 W -> 88 W, 105 W -> 142 W, 170 W -> 230 W).
    Returns how many were derived."""
    derived = 0
    for values in parts.values():
        if (values.get("category") != Category.CPU.value or values.get("vendor") != "AMD"
                or values.get("socket") not in AMD_PPT_SOCKETS
                or values.get("sustained_power_w") is not None
                or "ryzen" not in str(values.get("name", "")).lower()):  # the Zen-era rule
            continue
        tdp = values.get("tdp_w")
        if not tdp:
            continue
        values["sustained_power_w"] = round(tdp * AMD_PPT_FACTOR)
        figure_sources[(values["id"], "sustained_power_w")] = (
            values["id"], "sustained_power_w", AMD_PPT_SOURCE, AMD_PPT_DATE, AMD_PPT_NOTE)
        derived += 1
    return derived
