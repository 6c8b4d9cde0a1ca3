"""A CPU's power as it is drawn: the sustained package power under all-core load (Intel's
Maximum Turbo Power / PL2, AMD's PPT) where the catalog has it, else its base power (TDP),
said so.

A Core i9-13900K is sold as a 125 W part and draws 253 W under all-core load at Intel's
own default limits; a Ryzen 9 7950X is a 170 W part with a 230 W PPT. Judging cooling and
the PSU at base power would pass coolers and supplies that throttle or trip.
"""

from __future__ import annotations

from dataclasses import dataclass

from dlhw_desktop.core.checks._util import watts
from dlhw_desktop.core.parts import Part


@dataclass(frozen=True, slots=True)
class CpuPower:
    """The figure the checks use for one CPU, and what it is."""

    watts: float
    base_w: float | None
    sustained: bool
    """True: ``watts`` is the sustained (PL2/PPT) figure; False: base power, the only one
    known."""

    @property
    def basis(self) -> str:
        """A figure's kind as the checks report it."""
        return "sustained package power" if self.sustained else "base power"

    def describe(self) -> str:
        """``"253 W sustained (base 125 W)"`` or ``"125 W base power (no sustained figure:
        it may draw more under all-core load)"``."""
        if self.sustained:
            base = f", base {watts(self.base_w)}" if self.base_w else ""
            return f"{watts(self.watts)} sustained (PL2/PPT{base})"
        return (f"{watts(self.watts)} base power (no sustained figure known: it may draw "
                "more under all-core load)")

    @property
    def board_note(self) -> str:
        """When a board may hold the CPU lower than the sustained figure."""
        if self.sustained and self.base_w and self.base_w < self.watts:
            return (f"; a board that enforces base power after its boost window holds it "
                    f"at {watts(self.base_w)}")
        return ""


def cpu_power(part: Part) -> CpuPower | None:
    """The power one CPU is judged at; ``None`` when neither figure is known."""
    base = part.number("tdp_w")
    sustained = part.number("sustained_power_w")
    if sustained is not None and (base is None or sustained >= base):
        return CpuPower(sustained, base, True)
    if base is not None:
        return CpuPower(base, base, False)
    return None
