"""Power cables as parts state them: a card's inputs and a supply's outputs, counted.

``"1x 16-pin"``, ``"2x 8-pin"``, ``"1x 8-pin CPU (EPS)"`` -> :class:`Connectors`. The
power check counts a build's cables with it and the picker's rules mark supplies with it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Connectors:
    """Power cables a card takes: 16-pin (12VHPWR / 12V-2x6), PCIe 8-pin (6-pin and
    6+2-pin count as one 8-pin cable), and 8-pin CPU (EPS)."""

    hpwr: int = 0
    pcie8: int = 0
    eps: int = 0

    def __add__(self, other: Connectors) -> Connectors:
        return Connectors(self.hpwr + other.hpwr, self.pcie8 + other.pcie8,
                          self.eps + other.eps)

    def times(self, n: int) -> Connectors:
        return Connectors(self.hpwr * n, self.pcie8 * n, self.eps * n)

    def describe(self) -> str:
        parts = []
        if self.hpwr:
            parts.append(f"{self.hpwr}x 16-pin")
        if self.pcie8:
            parts.append(f"{self.pcie8}x PCIe 8-pin")
        if self.eps:
            parts.append(f"{self.eps}x 8-pin EPS")
        return " + ".join(parts) or "no cables"


_NO_CABLES = {"none", "no", "0", "-", "slot", "slot power", "pcie slot", "bus", "none (slot)"}
_COUNTED = re.compile(r"^\s*(\d+)\s*[x×]\s*(.+)$", re.I)


MAX_CABLES_PER_KIND = 8
"""No card or board takes more than 8 cables of one kind (the largest take 4 x 8-pin)."""


def parse_power_connectors(text: str | None) -> Connectors | None:
    """``"1x 16-pin"``, ``"2x 8-pin"``, ``"1x 8-pin CPU (EPS)"``, ``"None"`` -> counts;
    ``None`` when the text is empty or not understood."""
    if text is None or not text.strip():
        return None
    lowered = text.strip().lower()
    if lowered in _NO_CABLES or lowered.startswith("none"):
        return Connectors()
    total = Connectors()
    for chunk in re.split(r"[,;+]|\band\b", lowered):
        chunk = chunk.strip()
        if not chunk:
            continue
        match = _COUNTED.match(chunk)
        if match and len(match.group(1)) > 2:
            return None  # "99999999999999999999x 16-pin" is not a card's cabling
        count, kind = (int(match.group(1)), match.group(2)) if match else (1, chunk)
        if count > MAX_CABLES_PER_KIND:
            return None
        if any(k in kind for k in ("16-pin", "16 pin", "12vhpwr", "12v-2x6", "12v-2×6")):
            total += Connectors(hpwr=count)
        elif "eps" in kind or "cpu" in kind:
            total += Connectors(eps=count)
        elif "12-pin" in kind or "12 pin" in kind:
            # NVIDIA's 30-series 12-pin is fed from two 8-pins through its adapter.
            total += Connectors(pcie8=2 * count)
        elif "8-pin" in kind or "8 pin" in kind or "6-pin" in kind or "6 pin" in kind:
            total += Connectors(pcie8=count)
        else:
            return None
    return total
