"""The user's assumptions the checks depend on: electricity price, utilisation, mains."""

from __future__ import annotations

import math
from dataclasses import dataclass

from dlhw_desktop.core.workload.cost import DEFAULT_ELECTRICITY_USD_PER_KWH, DEFAULT_UTILISATION

HOURS_PER_YEAR = 8760


@dataclass(frozen=True, slots=True)
class Mains:
    """A household circuit and the load it carries continuously.

    - ``120V-15A`` (North America): 1,800 W breaker rating; a continuous load (3 h or more,
      as a training run is) may use 80 % of it, 1,440 W (US National Electrical Code,
      NFPA 70, 210.19(A)/210.20(A)).
    - ``120V-20A``: the same rule on a 20 A circuit, 1,920 W.
    - ``230V-16A`` (most of Europe, Schuko/CEE 7 outlets rated 16 A): 3,680 W.
    - ``230V-10A`` (e.g. Swiss/Italian/Australian 10 A outlets): 2,300 W.
    - ``230V-13A`` (UK BS 1363 plug fuse): 2,990 W.

    Data-centre circuits (a rack PDU's feed), for GPU servers:

    - ``208V-30A`` single-phase: 208 x 30 x 0.8 = 4,992 W (North America, NEC 80 % rule).
    - ``208V-30A-3ph`` / ``208V-60A-3ph`` three-phase: sqrt(3) x 208 V x I x 0.8 =
      8,646 W / 17,292 W (P = sqrt(3) x line-to-line voltage x current).
    - ``230V-32A`` single-phase (IEC 60309): 7,360 W.
    - ``400V-32A-3ph`` / ``400V-63A-3ph`` three-phase (230 V per phase, Europe):
      sqrt(3) x 400 x I = 22,170 W / 43,648 W.
    """

    key: str
    volts: float
    amps: float
    continuous_fraction: float
    phases: int = 1

    @property
    def limit_w(self) -> float:
        three = math.sqrt(3) if self.phases == 3 else 1.0
        return self.volts * self.amps * self.continuous_fraction * three

    @property
    def label(self) -> str:
        kind = " three-phase" if self.phases == 3 else ""
        return f"{self.volts:g} V / {self.amps:g} A{kind} circuit"


MAINS: dict[str, Mains] = {
    m.key: m for m in (
        Mains("120V-15A", 120, 15, 0.8),
        Mains("120V-20A", 120, 20, 0.8),
        Mains("230V-16A", 230, 16, 1.0),
        Mains("230V-10A", 230, 10, 1.0),
        Mains("230V-13A", 230, 13, 1.0),
        Mains("208V-30A", 208, 30, 0.8),
        Mains("208V-30A-3ph", 208, 30, 0.8, 3),
        Mains("208V-60A-3ph", 208, 60, 0.8, 3),
        Mains("230V-32A", 230, 32, 1.0),
        Mains("400V-32A-3ph", 400, 32, 1.0, 3),
        Mains("400V-63A-3ph", 400, 63, 1.0, 3),
    )
}
SERVER_MAINS: tuple[str, ...] = ("208V-30A", "230V-32A", "208V-30A-3ph", "208V-60A-3ph",
                                 "400V-32A-3ph", "400V-63A-3ph")
"""The data-centre circuits, smallest first: what a GPU server's check suggests."""


@dataclass(frozen=True, slots=True)
class CheckSettings:
    """Defaults: 0.17 USD/kWh (roughly the US residential average, EIA 2024), the machine
    at full load half of the time, a North American 120 V / 15 A circuit."""

    price_per_kwh_usd: float = DEFAULT_ELECTRICITY_USD_PER_KWH
    utilisation: float = DEFAULT_UTILISATION
    mains: str = "120V-15A"

    def __post_init__(self) -> None:
        if not 0.0 <= self.utilisation <= 1.0:
            raise ValueError(f"utilisation must be between 0 and 1, not {self.utilisation}")
        if not math.isfinite(self.price_per_kwh_usd) or self.price_per_kwh_usd < 0:
            raise ValueError(f"the electricity price must be a finite number of 0 or more, "
                             f"not {self.price_per_kwh_usd!r}")
        if self.mains not in MAINS:
            raise ValueError(f"unknown mains {self.mains!r}; expected one of {', '.join(MAINS)}")

    @property
    def circuit(self) -> Mains:
        return MAINS[self.mains]
