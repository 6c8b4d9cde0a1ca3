"""Where a part goes in a build (``Slot``), how many of each kind one build holds
(``quantity_limit``; ``core.limits`` says why each number), and the slots' names."""

from __future__ import annotations

from enum import StrEnum

from dlhw_desktop.core import limits
from dlhw_desktop.core.fields import Category
from dlhw_desktop.core.limits import QuantityLimit
from dlhw_desktop.core.parts import Part


class Slot(StrEnum):
    """Where a part sits in a build; the order is the order the app lists them."""

    SERVER = "server"
    CPU = "cpu"
    MOTHERBOARD = "motherboard"
    MEMORY = "memory"
    ACCELERATOR = "accelerator"
    STORAGE = "storage"
    PSU = "psu"
    COOLER = "cooler"
    CASE = "case"
    CLOUD = "cloud"

    @property
    def single(self) -> bool:
        """A single slot holds one part; adding another replaces it."""
        return self in SINGLE_SLOTS

    @property
    def counted(self) -> bool:
        """A single slot whose one model may be fitted several times: power supplies (two
        load-sharing ATX units, or a server's redundant modules), and the CPU with its
        cooler on a dual-socket board."""
        return self in COUNTED_SLOTS

    @property
    def max_count(self) -> int | None:
        """Most of its one model a single slot takes (1 unless counted); ``None`` for
        the slots that hold any number of parts."""
        if not self.single:
            return None
        return MAX_COUNT.get(self, 1)

    @property
    def allows_quantity(self) -> bool:
        return not self.single or self.counted

    @property
    def label(self) -> str:
        return _SLOT_LABELS[self]


SINGLE_SLOTS: frozenset[Slot] = frozenset(
    {Slot.SERVER, Slot.CPU, Slot.MOTHERBOARD, Slot.PSU, Slot.COOLER, Slot.CASE}
)
MULTI_SLOTS: frozenset[Slot] = frozenset(set(Slot) - SINGLE_SLOTS)
COUNTED_SLOTS: frozenset[Slot] = frozenset({Slot.PSU, Slot.CPU, Slot.COOLER})
MAX_COUNT: dict[Slot, int] = {
    Slot.PSU: limits.MAX_PSUS,  # a 4U GPU server's 2+2 redundant modules
    Slot.CPU: limits.MAX_CPUS,  # a dual-socket board (the board's ``cpu_sockets`` is checked)
    Slot.COOLER: limits.MAX_COOLERS,  # one per CPU
}

SLOT_LIMITS: dict[Slot, QuantityLimit] = {
    Slot.CPU: QuantityLimit(limits.MAX_CPUS, "CPU", "CPUs"),
    Slot.MOTHERBOARD: QuantityLimit(1, "motherboard", "motherboards"),
    Slot.SERVER: QuantityLimit(1, "GPU server platform", "GPU server platforms"),
    Slot.MEMORY: QuantityLimit(limits.MAX_MEMORY_KITS, "memory kit", "memory kits"),
    Slot.STORAGE: QuantityLimit(limits.MAX_DRIVES, "drive", "drives"),
    Slot.PSU: QuantityLimit(limits.MAX_PSUS, "power supply", "power supplies"),
    Slot.COOLER: QuantityLimit(limits.MAX_COOLERS, "CPU cooler", "CPU coolers"),
    Slot.CASE: QuantityLimit(1, "case", "cases"),
    Slot.CLOUD: QuantityLimit(limits.MAX_CLOUD_UNITS, "cloud instance or chip",
                              "cloud instances or chips"),
}
PCIE_CARDS = QuantityLimit(limits.MAX_PCIE_CARDS, "PCIe accelerator card",
                           "PCIe accelerator cards")
SERVER_MODULES = QuantityLimit(limits.MAX_SERVER_MODULES, "SXM/OAM accelerator module",
                               "SXM/OAM accelerator modules")

_SLOT_LABELS: dict[Slot, str] = {
    Slot.SERVER: "GPU server platform",
    Slot.CPU: "CPU",
    Slot.MOTHERBOARD: "Motherboard",
    Slot.MEMORY: "Memory",
    Slot.ACCELERATOR: "Accelerators",
    Slot.STORAGE: "Storage",
    Slot.PSU: "Power supply",
    Slot.COOLER: "CPU cooler",
    Slot.CASE: "Case",
    Slot.CLOUD: "Cloud / hosted (not local)",
}

_CATEGORY_SLOTS: dict[Category, Slot] = {
    Category.CPU: Slot.CPU,
    Category.MOTHERBOARD: Slot.MOTHERBOARD,
    Category.MEMORY: Slot.MEMORY,
    Category.ACCELERATOR: Slot.ACCELERATOR,
    Category.STORAGE: Slot.STORAGE,
    Category.PSU: Slot.PSU,
    Category.COOLER: Slot.COOLER,
    Category.CASE: Slot.CASE,
    Category.CLOUD: Slot.CLOUD,
    Category.SERVER: Slot.SERVER,
}


def slot_for(part: Part) -> Slot:
    """The slot a part goes in. Cloud offerings, and accelerators sold only as a cloud
    service (``form_factor`` "cloud", e.g. TPUs), get their own slot so the checks can
    say why they cannot be local without them counting as local hardware."""
    if part.category is Category.ACCELERATOR and part.text("form_factor").lower() == "cloud":
        return Slot.CLOUD
    return _CATEGORY_SLOTS[part.category]


def quantity_limit(part: Part) -> QuantityLimit:
    """How many of a part's kind one build takes in all (``core.limits`` says why)."""
    slot = slot_for(part)
    if slot is Slot.ACCELERATOR:
        form = part.text("form_factor").lower()
        return SERVER_MODULES if form in limits.SERVER_MODULE_FORMS else PCIE_CARDS
    return SLOT_LIMITS[slot]
