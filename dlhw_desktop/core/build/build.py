"""The Build: the parts a user assembles, with quantities, a workload tier, a name and notes.

The model owns its change events (DESIGN habit 2): every mutator compares before it
writes and emits one small event only on a real change, so views can redraw from the
events alone. Undo commands call only the public mutators (``add``, ``remove``,
``set_quantity``, ``replace``, ``set_*``) or ``snapshot``/``restore``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass

from dlhw_desktop.core.build.slots import MAX_COUNT, SLOT_LIMITS
from dlhw_desktop.core.build.slots import Slot as Slot  # re-exported: the build's vocabulary
from dlhw_desktop.core.build.slots import quantity_limit as quantity_limit
from dlhw_desktop.core.build.slots import slot_for as slot_for
from dlhw_desktop.core.limits import QuantityLimit
from dlhw_desktop.core.parts import Part
from dlhw_desktop.core.workload.build_workload import NO_WORKLOAD, BuildWorkload

TIER_NAMES: tuple[str, ...] = ("demanding", "less-demanding")
"""The workload tiers of the seed article, as the catalog's ``workload_tiers.tier`` names them."""


class QuantityLimitError(ValueError):
    """A quantity beyond what one build can physically hold."""


@dataclass(frozen=True, slots=True)
class BuildItem:
    """One part in a build and how many of it (always 1 in a single slot)."""

    part: Part
    quantity: int = 1

    @property
    def part_id(self) -> str:
        return self.part.id

    @property
    def slot(self) -> Slot:
        return slot_for(self.part)


# --- change events -------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class PartAdded:
    """A part entered the build at ``index`` within its slot."""

    slot: Slot
    item: BuildItem
    index: int


@dataclass(frozen=True, slots=True)
class PartRemoved:
    """A part left the build; ``index`` is where it was within its slot."""

    slot: Slot
    item: BuildItem
    index: int


@dataclass(frozen=True, slots=True)
class PartReplaced:
    """``old`` gave way to ``new`` at the same place (a single slot taken, or a swap)."""

    slot: Slot
    old: BuildItem
    new: BuildItem
    index: int


@dataclass(frozen=True, slots=True)
class QuantityChanged:
    slot: Slot
    part_id: str
    old: int
    new: int


@dataclass(frozen=True, slots=True)
class NameChanged:
    old: str
    new: str


@dataclass(frozen=True, slots=True)
class NotesChanged:
    old: str
    new: str


@dataclass(frozen=True, slots=True)
class TierChanged:
    old: str | None
    new: str | None


@dataclass(frozen=True, slots=True)
class WorkloadChanged:
    """The workload (model, job, precision, ... and how the GPUs share it) changed."""

    old: BuildWorkload
    new: BuildWorkload


@dataclass(frozen=True, slots=True)
class BuildReset:
    """Anything may have changed (``restore``, ``clear``): redraw everything."""


BuildEvent = (
    PartAdded | PartRemoved | PartReplaced | QuantityChanged | NameChanged | NotesChanged
    | TierChanged | WorkloadChanged | BuildReset
)
Listener = Callable[[BuildEvent], None]


@dataclass(frozen=True, slots=True)
class BuildSnapshot:
    """The whole state of a build, immutable: what an undo stack keeps to restore."""

    name: str
    notes: str
    tier: str | None
    workload: BuildWorkload
    items: tuple[BuildItem, ...]


DEFAULT_NAME = "Untitled build"


class Build:
    """Parts in slots, a workload tier, a name and notes; observable.

    Parts are identified by ``Part.id``: adding a part whose id is already in a multi
    slot raises its quantity, and in a single slot it is no change at all.
    """

    def __init__(self, name: str = DEFAULT_NAME, notes: str = "", tier: str | None = None,
                 workload: BuildWorkload | None = None) -> None:
        self._name = name
        self._notes = notes
        self._tier = _checked_tier(tier)
        self._workload: BuildWorkload = _checked_workload(workload or NO_WORKLOAD)
        self._slots: dict[Slot, list[BuildItem]] = {slot: [] for slot in Slot}
        self._where: dict[str, Slot] = {}  # part id -> its slot: lookups without a scan
        self._totals: dict[QuantityLimit, int] = {}  # units per kind, for the limits
        self._listeners: list[Listener] = []

    # --- observing ------------------------------------------------------------------
    def subscribe(self, callback: Listener) -> Callable[[], None]:
        """Call ``callback(event)`` after every real change; returns the unsubscribe."""
        self._listeners.append(callback)

        def unsubscribe() -> None:
            if callback in self._listeners:
                self._listeners.remove(callback)

        return unsubscribe

    def _emit(self, event: BuildEvent) -> None:
        for callback in tuple(self._listeners):
            callback(event)

    # --- reading --------------------------------------------------------------------
    @property
    def name(self) -> str:
        return self._name

    @property
    def notes(self) -> str:
        return self._notes

    @property
    def tier(self) -> str | None:
        """``"demanding"``, ``"less-demanding"`` or ``None`` (no tier chosen)."""
        return self._tier

    @property
    def workload(self) -> BuildWorkload:
        """What the build should run (typed; the tier has its own property)."""
        return self._workload

    def items(self, slot: Slot | None = None) -> tuple[BuildItem, ...]:
        """Items of one slot, or of every slot in slot order."""
        if slot is not None:
            return tuple(self._slots[Slot(slot)])
        return tuple(item for s in Slot for item in self._slots[s])

    def __iter__(self) -> Iterator[BuildItem]:
        return iter(self.items())

    def __len__(self) -> int:
        """Number of distinct parts (not counting quantities)."""
        return sum(len(items) for items in self._slots.values())

    def __contains__(self, part_id: object) -> bool:
        return self.find(part_id) is not None if isinstance(part_id, str) else False

    def find(self, part_id: str) -> BuildItem | None:
        slot = self._where.get(part_id)
        if slot is None:
            return None
        for item in self._slots[slot]:
            if item.part.id == part_id:
                return item
        return None

    def total(self, kind: QuantityLimit) -> int:
        """Units of one kind in the build (``quantity_limit(part)`` names a part's kind)."""
        return self._totals.get(kind, 0)

    def room_for(self, part: Part) -> int:
        """How many more of ``part`` the build takes before its kind's limit."""
        kind = quantity_limit(part)
        current = self.find(part.id)
        if slot_for(part).single:
            return kind.most - (current.quantity if current is not None else 0)
        return kind.most - self.total(kind)

    def index_of(self, part_id: str) -> int:
        """Position of a part within its slot; ``KeyError`` when absent."""
        return self._locate(part_id)[1]

    def occupant(self, slot: Slot) -> BuildItem | None:
        """What sits in a single slot, so a UI can ask before ``add`` replaces it."""
        slot = Slot(slot)
        if not slot.single:
            raise ValueError(f"{slot.value} holds several parts; use items({slot.value!r})")
        items = self._slots[slot]
        return items[0] if items else None

    def count(self, slot: Slot) -> int:
        """How many of its one model a single slot holds: 0 when empty, 2 for two CPUs on
        a dual-socket board, 2 for a pair of power supplies."""
        item = self.occupant(slot)
        return item.quantity if item is not None else 0

    def would_replace(self, part: Part) -> BuildItem | None:
        """The item ``add(part)`` would replace (another part in its single slot), else None."""
        slot = slot_for(part)
        if not slot.single:
            return None
        current = self.occupant(slot)
        return current if current is not None and current.part.id != part.id else None

    def part(self, slot: Slot) -> Part | None:
        """The part in a single slot, or ``None``."""
        item = self.occupant(slot)
        return item.part if item else None

    @property
    def cpu(self) -> Part | None:
        return self.part(Slot.CPU)

    @property
    def motherboard(self) -> Part | None:
        return self.part(Slot.MOTHERBOARD)

    @property
    def psu(self) -> Part | None:
        return self.part(Slot.PSU)

    @property
    def cooler(self) -> Part | None:
        return self.part(Slot.COOLER)

    @property
    def case(self) -> Part | None:
        return self.part(Slot.CASE)

    @property
    def server(self) -> Part | None:
        """The GPU server platform (a chassis with its baseboard and power), if any."""
        return self.part(Slot.SERVER)

    @property
    def accelerators(self) -> tuple[BuildItem, ...]:
        return self.items(Slot.ACCELERATOR)

    @property
    def memory(self) -> tuple[BuildItem, ...]:
        return self.items(Slot.MEMORY)

    @property
    def storage(self) -> tuple[BuildItem, ...]:
        return self.items(Slot.STORAGE)

    @property
    def cloud(self) -> tuple[BuildItem, ...]:
        return self.items(Slot.CLOUD)

    # --- changing parts ---------------------------------------------------------------
    def add(self, part: Part, quantity: int = 1, index: int | None = None) -> BuildItem | None:
        """Put a part in its slot; returns the item it replaced (single slots), else None.

        In a multi slot, a part already present gains ``quantity``; a new one goes at
        ``index`` (end by default; undo of ``remove`` passes the old index back).
        """
        _check_quantity(quantity)
        slot = slot_for(part)
        items = self._slots[slot]
        if slot.single:
            _check_single_quantity(slot, quantity)
            if items and items[0].part.id == part.id and quantity == 1:
                quantity = items[0].quantity  # the same model again: keep how many
            new = BuildItem(part, quantity)
            if not items:
                items.append(new)
                self._track(None, new)
                self._emit(PartAdded(slot, new, 0))
                return None
            old = items[0]
            if old == new:
                return None
            items[0] = new
            self._track(old, new)
            self._emit(PartReplaced(slot, old, new, 0))
            return old if old.part.id != part.id else None
        kind = quantity_limit(part)
        if part.id in self._where:
            for i, item in enumerate(items):
                if item.part.id == part.id:
                    self._check_total(kind, quantity)
                    self._set_item(slot, i, BuildItem(part, item.quantity + quantity))
                    return None
        self._check_total(kind, quantity)
        position = len(items) if index is None else max(0, min(index, len(items)))
        new = BuildItem(part, quantity)
        items.insert(position, new)
        self._track(None, new)
        self._emit(PartAdded(slot, new, position))
        return None

    def remove(self, part_id: str) -> BuildItem:
        """Take a part out (whatever its quantity); returns it. ``KeyError`` when absent."""
        slot, index = self._locate(part_id)
        item = self._slots[slot].pop(index)
        self._track(item, None)
        self._emit(PartRemoved(slot, item, index))
        return item

    def set_quantity(self, part_id: str, quantity: int) -> int:
        """Set how many of a part; returns the old quantity. Use ``remove`` for none."""
        _check_quantity(quantity)
        slot, index = self._locate(part_id)
        item = self._slots[slot][index]
        if slot.single:
            _check_single_quantity(slot, quantity)
        else:
            self._check_total(quantity_limit(item.part), quantity - item.quantity)
        if item.quantity != quantity:
            self._set_item(slot, index, BuildItem(item.part, quantity))
        return item.quantity

    def replace(self, part_id: str, new_part: Part) -> BuildItem:
        """Swap one part for another of the same slot, keeping place and quantity.

        Returns the old item. Replacing a part with a newer version of itself (same id,
        e.g. after a catalog update or a custom-part edit) also goes through here.
        """
        slot, index = self._locate(part_id)
        if slot_for(new_part) is not slot:
            raise ValueError(
                f"{new_part.display_name} goes in {slot_for(new_part).label}, "
                f"not in {slot.label}")
        items = self._slots[slot]
        old = items[index]
        if new_part.id != part_id and any(i.part.id == new_part.id for i in items):
            raise ValueError(f"{new_part.display_name} is already in the build")
        new = BuildItem(new_part, old.quantity)
        if new != old:
            new_kind = quantity_limit(new_part)
            if new_kind != quantity_limit(old.part) and not slot.single:
                self._check_total(new_kind, old.quantity)
            items[index] = new
            self._track(old, new)
            self._emit(PartReplaced(slot, old, new, index))
        return old

    def clear(self) -> None:
        """Remove every part (name, notes and tier stay)."""
        if len(self):
            for items in self._slots.values():
                items.clear()
            self._where.clear()
            self._totals.clear()
            self._emit(BuildReset())

    # --- changing the rest ------------------------------------------------------------
    def set_name(self, name: str) -> None:
        if name != self._name:
            old, self._name = self._name, name
            self._emit(NameChanged(old, name))

    def set_notes(self, notes: str) -> None:
        if notes != self._notes:
            old, self._notes = self._notes, notes
            self._emit(NotesChanged(old, notes))

    def set_tier(self, tier: str | None) -> None:
        tier = _checked_tier(tier)
        if tier != self._tier:
            old, self._tier = self._tier, tier
            self._emit(TierChanged(old, tier))

    def set_workload(self, workload: BuildWorkload) -> None:
        """Replace the workload (the tier has its own setter)."""
        new = _checked_workload(workload)
        if new != self._workload:
            old, self._workload = self._workload, new
            self._emit(WorkloadChanged(old, new))

    # --- undo support ---------------------------------------------------------------
    def snapshot(self) -> BuildSnapshot:
        return BuildSnapshot(self._name, self._notes, self._tier, self._workload,
                             self.items())

    def restore(self, snapshot: BuildSnapshot) -> None:
        """Return to a snapshot; one ``BuildReset`` event when anything differs."""
        if snapshot == self.snapshot():
            return
        self._name, self._notes = snapshot.name, snapshot.notes
        self._tier = _checked_tier(snapshot.tier)
        self._workload = _checked_workload(snapshot.workload)
        for items in self._slots.values():
            items.clear()
        self._where.clear()
        self._totals.clear()
        for item in snapshot.items:
            self._slots[slot_for(item.part)].append(item)
            self._track(None, item)
        self._emit(BuildReset())

    # --- internals --------------------------------------------------------------------
    def _locate(self, part_id: str) -> tuple[Slot, int]:
        slot = self._where.get(part_id)
        if slot is not None:
            for index, item in enumerate(self._slots[slot]):
                if item.part.id == part_id:
                    return slot, index
        raise KeyError(f"{part_id!r} is not in the build")

    def _set_item(self, slot: Slot, index: int, new: BuildItem) -> None:
        old = self._slots[slot][index]
        self._slots[slot][index] = new
        self._track(old, new)
        self._emit(QuantityChanged(slot, new.part.id, old.quantity, new.quantity))

    def _check_total(self, kind: QuantityLimit, more: int) -> None:
        total = self.total(kind) + more
        if total > kind.most:
            raise QuantityLimitError(kind.message(total))

    def _track(self, old: BuildItem | None, new: BuildItem | None) -> None:
        """Keep the id index and the per-kind totals in step with the slots."""
        if old is not None:
            self._where.pop(old.part.id, None)
            kind = quantity_limit(old.part)
            self._totals[kind] = self._totals.get(kind, 0) - old.quantity
        if new is not None:
            self._where[new.part.id] = slot_for(new.part)
            kind = quantity_limit(new.part)
            self._totals[kind] = self._totals.get(kind, 0) + new.quantity

    def __repr__(self) -> str:
        return f"Build({self._name!r}, parts={len(self)}, tier={self._tier!r})"


def _check_single_quantity(slot: Slot, quantity: int) -> None:
    if slot.counted:
        limit = MAX_COUNT[slot]
        if quantity > limit:
            raise QuantityLimitError(SLOT_LIMITS[slot].message(quantity))
    elif quantity != 1:
        raise QuantityLimitError(f"a build holds one {slot.label}; quantity must be 1")


def _check_quantity(quantity: int) -> None:
    if isinstance(quantity, bool) or not isinstance(quantity, int) or quantity < 1:
        raise ValueError(f"quantity must be a whole number of at least 1, not {quantity!r}")


def _checked_tier(tier: str | None) -> str | None:
    if tier is not None and tier not in TIER_NAMES:
        raise ValueError(f"unknown workload tier {tier!r}; expected one of {TIER_NAMES}")
    return tier


def _checked_workload(workload: BuildWorkload) -> BuildWorkload:
    if not isinstance(workload, BuildWorkload):
        raise TypeError(f"a build's workload is a BuildWorkload, not {type(workload).__name__}"
                        " (parse a mapping with BuildWorkload.from_mapping)")
    return workload
