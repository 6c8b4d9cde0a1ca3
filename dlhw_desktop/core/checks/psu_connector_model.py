"""A power supply's PCIe 8-pin and 16-pin cable counts where its listing gives none.

A quarter of the catalog's supplies (829 of 3,204) list no PCIe 8-pin count, among them
units DL builds use (an HX1000i, an RM850x, 1,650 W Taichi and Toughpower units). Rather
than stop at "unknown", the connector check reads the counts of supplies like this one:
the same wattage class, with or without a native 16-pin (12V-2x6) cable, since a unit
that has one carries fewer 8-pins. From their published counts, the 5th and 95th
percentiles make a band, and the check judges the cards' needs at both ends:

- enough at the band's low end (95 % of such units have at least that many): pass,
  estimated;
- too few even at its high end (at most 5 % have more): fail, estimated;
- between: warn, and ask for the unit's figure.

``CONNECTOR_BANDS`` is fitted by ``scripts/fit_estimates.py`` from the catalog (a
test refits it from the bundled catalog and fails if it drifts). Held out one unit at a
time (2,452 published counts), needs of 1-8 cables judged against the band of the others
were wrong on 0.6 % of 4,131 passes (a pass the unit cannot feed) and 0.8 % of 7,812 fails
(a fail it can feed): ``LEAVE_OUT_ERROR``. A class with fewer than 20 published counts is
pooled with the classes below it (1,500 W ATX 3.x units are judged on those of 950 W and
up): a bigger unit carries at least as many cables, so the low end stays safe.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from dlhw_desktop.core.checks.percentile_band import quantile
from dlhw_desktop.core.compat.psu_power import is_atx3
from dlhw_desktop.core.parts import Part

WATT_EDGES: tuple[float, ...] = (550.0, 750.0, 950.0, 1200.0, 1500.0)
"""Wattage class edges: under 550 W, 550-749, 750-949, 950-1,199, 1,200-1,499, 1,500 up."""
WATT_CLASSES = ("under 550 W", "550-749 W", "750-949 W", "950-1,199 W", "1,200-1,499 W",
                "1,500 W and up")

MIN_UNITS = 20
"""Fewer published counts than this in a class: pooled with the classes below it; fewer
than this in all of them together: no estimate (the figure stays unknown)."""

PCIE_8PIN = "connectors_pcie_8pin"
HPWR = "connectors_12vhpwr"

CONNECTOR_BANDS: dict[tuple[str, str, str], tuple[float, float, int, str]] = {
    ('connectors_12vhpwr', 'ATX 3.x', '1,200-1,499 W'): (1.0, 1.0, 32, '950-1,499 W'),
    ('connectors_12vhpwr', 'ATX 3.x', '1,500 W and up'): (1.0, 2.0, 37, '950 W and up'),
    ('connectors_12vhpwr', 'ATX 3.x', '750-949 W'): (1.0, 1.0, 36, '750-949 W'),
    ('connectors_12vhpwr', 'ATX 3.x', '950-1,199 W'): (1.0, 1.0, 21, '950-1,199 W'),
    ('connectors_pcie_8pin', 'no 16-pin', '1,200-1,499 W'): (4.0, 12.0, 109, '1,200-1,499 W'),
    ('connectors_pcie_8pin', 'no 16-pin', '1,500 W and up'): (4.0, 18.0, 32, '1,500 W and up'),
    ('connectors_pcie_8pin', 'no 16-pin', '550-749 W'): (1.0, 4.0, 804, '550-749 W'),
    ('connectors_pcie_8pin', 'no 16-pin', '750-949 W'): (2.0, 6.0, 554, '750-949 W'),
    ('connectors_pcie_8pin', 'no 16-pin', '950-1,199 W'): (2.0, 8.0, 177, '950-1,199 W'),
    ('connectors_pcie_8pin', 'no 16-pin', 'under 550 W'): (1.0, 2.0, 334, 'under 550 W'),
    ('connectors_pcie_8pin', 'with 16-pin', '1,200-1,499 W'): (3.0, 8.0, 65, '1,200-1,499 W'),
    ('connectors_pcie_8pin', 'with 16-pin', '1,500 W and up'): (3.0, 9.0, 77, '1,200 W and up'),
    ('connectors_pcie_8pin', 'with 16-pin', '550-749 W'): (2.0, 4.0, 29, '550-749 W'),
    ('connectors_pcie_8pin', 'with 16-pin', '750-949 W'): (2.0, 4.0, 172, '750-949 W'),
    ('connectors_pcie_8pin', 'with 16-pin', '950-1,199 W'): (3.0, 6.0, 87, '950-1,199 W'),
}
"""(field, unit class, wattage class) -> (5th, 95th percentile count, units, the wattage
range they span: the class's own, or pooled with the classes below it)."""

PUBLISHED_COUNTS = 2452
"""Units' published PCIe 8-pin and 16-pin counts the bands are fitted on."""

LEAVE_OUT_ERROR = {"false_pass_share": 0.006, "false_fail_share": 0.008}
"""Held out one unit at a time: the share of the band's passes and fails that were wrong."""


@dataclass(frozen=True)
class ConnectorBand:
    """The cable count of units like this one: 5th and 95th percentiles, how many."""

    field: str
    low: int
    high: int
    units: int
    unit_class: str
    watt_class: str

    def describe(self) -> str:
        """``"177 units of 950-1,199 W with no 16-pin"``."""
        if self.unit_class == "ATX 3.x":
            return f"{self.units:,} ATX 3.x units of {self.watt_class}"
        cable = "with a 16-pin" if self.unit_class == "with 16-pin" else "with no 16-pin"
        return f"{self.units:,} units of {self.watt_class} {cable}"


def watt_class(wattage_w: float) -> str:
    for edge, name in zip(WATT_EDGES, WATT_CLASSES, strict=False):
        if wattage_w < edge:
            return name
    return WATT_CLASSES[-1]


def has_native_16pin(psu: Part) -> bool:
    """An ATX 3.x unit or one listing a 16-pin cable: it carries fewer 8-pins."""
    return (psu.number(HPWR) or 0) >= 1 or is_atx3(psu.text("atx_version"))


DESKTOP_FORMS = frozenset({"", "atx", "sfx", "sfx-l", "tfx", "flex atx", "mini-itx"})
"""Unit forms the bands are fitted on: desktop supplies with their own cables. A server's
redundant module feeds a backplane; its cables are the chassis's, never estimated."""


def unit_class(psu: Part, field: str) -> str | None:
    """How the bands key a unit for this figure; None when no band applies (a server
    module; a 16-pin count is estimated for ATX 3.x units only: an older one has none)."""
    if psu.get("redundant") is True or \
            psu.text("psu_form_factor").strip().lower() not in DESKTOP_FORMS:
        return None
    if field == HPWR:
        return "ATX 3.x" if is_atx3(psu.text("atx_version")) else None
    return "with 16-pin" if has_native_16pin(psu) else "no 16-pin"


def connector_band(psu: Part, field: str) -> ConnectorBand | None:
    """The band for a unit whose ``field`` is not listed, or None (no wattage, no class,
    too few units like it)."""
    wattage = psu.number("wattage_w")
    cls = unit_class(psu, field)
    if wattage is None or cls is None:
        return None
    row = CONNECTOR_BANDS.get((field, cls, watt_class(wattage)))
    if row is None:
        return None
    low, high, units, span = row
    return ConnectorBand(field, int(low), int(high), units, cls, span)


Row = tuple[tuple[str, str, str], float]
"""One unit with a published count: ((field, unit class, wattage class), count)."""



def rows(psus: Iterable[Part]) -> list[Row]:
    """Every published count, keyed as the bands are."""
    found: list[Row] = []
    for psu in psus:
        wattage = psu.number("wattage_w")
        if wattage is None:
            continue
        for field in (PCIE_8PIN, HPWR):
            count, cls = psu.number(field), unit_class(psu, field)
            if count is not None and cls is not None:
                found.append(((field, cls, watt_class(wattage)), count))
    return found


def _pooled(groups: dict[tuple[str, str, str], list[float]], key: tuple[str, str, str]
            ) -> tuple[list[float], str] | None:
    """The counts a class is judged by: its own when there are enough, else pooled with
    the classes below it (a bigger unit carries at least as many cables as a smaller one,
    so the pool's low end stays safe) until there are; with the wattage range they span."""
    field, cls, watts = key
    index = WATT_CLASSES.index(watts)
    values: list[float] = []
    for lower in range(index, -1, -1):
        values = values + groups.get((field, cls, WATT_CLASSES[lower]), [])
        if len(values) >= MIN_UNITS:
            if lower == index:
                return values, watts
            bottom = WATT_CLASSES[lower].split("-")[0].replace("under ", "")
            top = watts.split("-")[-1] if "-" in watts else "up"
            span = f"{bottom.removesuffix(' W')}-{top}" if top != "up" else \
                f"{bottom.removesuffix(' W')} W and up"
            return values, span
    return None


def bands(data: list[Row]) -> dict[tuple[str, str, str], tuple[float, float, int, str]]:
    """The fit: per field, unit class and wattage class, the 5th and 95th percentiles of
    the class's counts (pooled with the classes below it when it has too few), how many,
    and the wattage range they span."""
    groups: dict[tuple[str, str, str], list[float]] = {}
    for key, value in data:
        groups.setdefault(key, []).append(value)
    fitted: dict[tuple[str, str, str], tuple[float, float, int, str]] = {}
    for key in sorted(groups):
        pool = _pooled(groups, key)
        if pool is not None:
            values, span = pool
            fitted[key] = (quantile(values, 0.05), quantile(values, 0.95), len(values), span)
    return fitted


def leave_out(data: list[Row]) -> dict[str, float]:
    """Each unit left out in turn, needs of 1-8 cables judged against the band the others
    give its class: the share of passes it cannot feed and of fails it can."""
    groups: dict[tuple[str, str, str], list[float]] = {}
    for key, value in data:
        groups.setdefault(key, []).append(value)
    passes = fails = wrong_pass = wrong_fail = 0
    for key, values in groups.items():
        for i, actual in enumerate(values):
            others = dict(groups)
            others[key] = values[:i] + values[i + 1:]
            pool = _pooled(others, key)
            if pool is None:
                continue
            low, high = quantile(pool[0], 0.05), quantile(pool[0], 0.95)
            for need in range(1, 9):
                if need <= low:
                    passes += 1
                    wrong_pass += need > actual
                elif need > high:
                    fails += 1
                    wrong_fail += need <= actual
    return {"false_pass_share": round(wrong_pass / max(passes, 1), 3),
            "false_fail_share": round(wrong_fail / max(fails, 1), 3),
            "passes": passes, "fails": fails}
