"""Build events as Qt signals, so views redraw from the model's own events and nothing else.

The core ``Build`` knows nothing of Qt (DESIGN habit 2); this thin adapter subscribes to
it once and re-emits each event as a specific signal, then ``changed`` for everything that
only needs "something changed" (checks, totals, the window title).
"""

from __future__ import annotations

from PySide6.QtCore import QObject, Signal

from dlhw_desktop.core.build.build import (
    Build,
    BuildEvent,
    BuildReset,
    NameChanged,
    NotesChanged,
    PartAdded,
    PartRemoved,
    PartReplaced,
    QuantityChanged,
    TierChanged,
    WorkloadChanged,
)


class BuildAdapter(QObject):
    """Re-emits one ``Build``'s events; ``close()`` (or deletion) unsubscribes."""

    part_added = Signal(object, int)  # Slot, index within the slot
    part_removed = Signal(object, int)  # Slot, former index
    part_replaced = Signal(object, int)  # Slot, index
    quantity_changed = Signal(object, str)  # Slot, part id
    name_changed = Signal(str)
    notes_changed = Signal(str)
    tier_changed = Signal(object)  # str | None
    workload_changed = Signal()
    reset = Signal()
    changed = Signal()  # after every event above

    def __init__(self, build: Build, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.build = build
        self._unsubscribe = build.subscribe(self._on_event)
        self.destroyed.connect(lambda *_: self.close())

    def close(self) -> None:
        self._unsubscribe()

    def _on_event(self, event: BuildEvent) -> None:
        match event:
            case PartAdded(slot=slot, index=index):
                self.part_added.emit(slot, index)
            case PartRemoved(slot=slot, index=index):
                self.part_removed.emit(slot, index)
            case PartReplaced(slot=slot, index=index):
                self.part_replaced.emit(slot, index)
            case QuantityChanged(slot=slot, part_id=part_id):
                self.quantity_changed.emit(slot, part_id)
            case NameChanged(new=name):
                self.name_changed.emit(name)
            case NotesChanged(new=notes):
                self.notes_changed.emit(notes)
            case TierChanged(new=tier):
                self.tier_changed.emit(tier)
            case WorkloadChanged():
                self.workload_changed.emit()
            case BuildReset():
                self.reset.emit()
        self.changed.emit()
