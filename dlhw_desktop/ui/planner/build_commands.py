"""One undo command per user action; each calls only the Build's public methods.

Tested with a bare ``QUndoStack``: push, assert, undo, assert, redo, assert. Commands keep
what they need to undo (the replaced item, the former index or quantity), so an undo
emits the same fine-grained events as the action and the views keep their place.
"""

from __future__ import annotations

import time

from PySide6.QtGui import QUndoCommand

from dlhw_desktop.core.build.build import Build, BuildItem, BuildSnapshot
from dlhw_desktop.core.parts import Part
from dlhw_desktop.core.workload.build_workload import BuildWorkload

MERGE_WINDOW_S = 2.5
"""Typing pauses shorter than this merge into one undo step (name and notes editors)."""

_NAME_ID, _NOTES_ID, _QUANTITY_ID = 1001, 1002, 1003


class MacroCommand(QUndoCommand):
    """One undo step made of several commands (a drop of many parts).

    The steps are plain Python objects run in order (undone in reverse), not Qt child
    commands: a Qt parent would own them in C++ while Python still thinks it does.
    """

    def __init__(self, text: str) -> None:
        super().__init__(text)
        self._steps: list[QUndoCommand] = []

    def add(self, step: QUndoCommand) -> QUndoCommand:
        self._steps.append(step)
        return step

    def redo(self) -> None:
        for step in self._steps:
            step.redo()

    def undo(self) -> None:
        for step in reversed(self._steps):
            step.undo()


class AddPartCommand(QUndoCommand):
    """Put a part in its slot: adds it, raises its quantity, or replaces a single slot."""

    def __init__(self, build: Build, part: Part, quantity: int = 1,
                 parent: QUndoCommand | None = None) -> None:
        super().__init__(f"Add {part.display_name}", parent)
        self._build, self._part, self._quantity = build, part, quantity
        self._replaced: BuildItem | None = None
        self._old_quantity: int | None = None
        replaced = build.would_replace(part)
        if replaced is not None:
            self.setText(f"Replace {replaced.part.display_name} with {part.display_name}")

    def redo(self) -> None:
        # Read the state here, not in __init__: in a multi-part drop the earlier
        # children have already run when this one does.
        self._replaced = self._build.would_replace(self._part)
        present = self._build.find(self._part.id)
        self._old_quantity = present.quantity if present is not None else None
        self._build.add(self._part, self._quantity)

    def undo(self) -> None:
        if self._replaced is not None:
            self._build.add(self._replaced.part)
        elif self._old_quantity is None:
            self._build.remove(self._part.id)
        else:
            self._build.set_quantity(self._part.id, self._old_quantity)


class RemovePartCommand(QUndoCommand):
    """Take a part out; undo puts it back at its place with its quantity."""

    def __init__(self, build: Build, part_id: str, parent: QUndoCommand | None = None) -> None:
        item = build.find(part_id)
        if item is None:
            raise KeyError(f"{part_id!r} is not in the build")
        super().__init__(f"Remove {item.part.display_name}", parent)
        self._build, self._item = build, item
        self._index = build.index_of(part_id)

    def redo(self) -> None:
        self._build.remove(self._item.part_id)

    def undo(self) -> None:
        self._build.add(self._item.part, self._item.quantity, index=self._index)


class SetQuantityCommand(QUndoCommand):
    """Change how many of a part; repeated spin-box steps on one part merge."""

    def __init__(self, build: Build, part_id: str, quantity: int,
                 parent: QUndoCommand | None = None) -> None:
        item = build.find(part_id)
        if item is None:
            raise KeyError(f"{part_id!r} is not in the build")
        super().__init__(f"Set {item.part.display_name} to {quantity}", parent)
        self._build, self._part_id = build, part_id
        self._old, self._new = item.quantity, quantity
        self._at = time.monotonic()

    def id(self) -> int:
        return _QUANTITY_ID

    def mergeWith(self, other: QUndoCommand) -> bool:
        if not isinstance(other, SetQuantityCommand) or other._part_id != self._part_id \
                or other._at - self._at > MERGE_WINDOW_S:
            return False
        self._new, self._at = other._new, other._at
        self.setText(other.text())
        return True

    def redo(self) -> None:
        self._build.set_quantity(self._part_id, self._new)

    def undo(self) -> None:
        self._build.set_quantity(self._part_id, self._old)


class ReplacePartCommand(QUndoCommand):
    """Swap a part for another of the same slot, keeping place and quantity."""

    def __init__(self, build: Build, part_id: str, new_part: Part,
                 parent: QUndoCommand | None = None) -> None:
        item = build.find(part_id)
        if item is None:
            raise KeyError(f"{part_id!r} is not in the build")
        super().__init__(f"Replace {item.part.display_name} with {new_part.display_name}",
                         parent)
        self._build, self._old, self._new = build, item.part, new_part

    def redo(self) -> None:
        self._build.replace(self._old.id, self._new)

    def undo(self) -> None:
        self._build.replace(self._new.id, self._old)


class _TextCommand(QUndoCommand):
    """Name or notes: consecutive edits within ``MERGE_WINDOW_S`` merge into one step."""

    command_id = 0
    label = ""

    def __init__(self, build: Build, old: str, new: str,
                 parent: QUndoCommand | None = None) -> None:
        super().__init__(self.label, parent)
        self._build, self._old, self._new = build, old, new
        self._at = time.monotonic()

    def id(self) -> int:
        return self.command_id

    def mergeWith(self, other: QUndoCommand) -> bool:
        if type(other) is not type(self) or other._at - self._at > MERGE_WINDOW_S:
            return False
        self._new, self._at = other._new, other._at
        if self._new == self._old:
            self.setObsolete(True)
        return True

    def _apply(self, text: str) -> None:
        raise NotImplementedError

    def redo(self) -> None:
        self._apply(self._new)

    def undo(self) -> None:
        self._apply(self._old)


class RenameCommand(_TextCommand):
    command_id = _NAME_ID
    label = "Rename build"

    def _apply(self, text: str) -> None:
        self._build.set_name(text)


class SetNotesCommand(_TextCommand):
    command_id = _NOTES_ID
    label = "Edit notes"

    def _apply(self, text: str) -> None:
        self._build.set_notes(text)


class SetTierCommand(QUndoCommand):
    def __init__(self, build: Build, tier: str | None,
                 parent: QUndoCommand | None = None) -> None:
        super().__init__("Set workload tier", parent)
        self._build, self._old, self._new = build, build.tier, tier

    def redo(self) -> None:
        self._build.set_tier(self._new)

    def undo(self) -> None:
        self._build.set_tier(self._old)


class RestoreCommand(QUndoCommand):
    """Replace the whole build (a template, a detected computer); undo brings it back."""

    def __init__(self, build: Build, snapshot: BuildSnapshot, text: str,
                 parent: QUndoCommand | None = None) -> None:
        super().__init__(text, parent)
        self._build, self._old, self._new = build, build.snapshot(), snapshot

    def redo(self) -> None:
        self._build.restore(self._new)

    def undo(self) -> None:
        self._build.restore(self._old)


def apply_template_command(build: Build, snapshot: BuildSnapshot,
                           name: str) -> RestoreCommand:
    return RestoreCommand(build, snapshot, f"Load template {name}")


class SetWorkloadCommand(QUndoCommand):
    """Replace the build's workload (one panel edit); quick edits merge.

    It only calls ``Build.set_workload`` (DESIGN habit 3).
    """

    MERGE_WINDOW_S = 2.5
    _ID = 1105

    def __init__(self, build: Build, workload: BuildWorkload,
                 parent: QUndoCommand | None = None) -> None:
        super().__init__("Edit workload", parent)
        self._build = build
        self._old = build.workload
        self._new = workload
        self._at = time.monotonic()

    def id(self) -> int:
        return self._ID

    def mergeWith(self, other: QUndoCommand) -> bool:
        if not isinstance(other, SetWorkloadCommand) or other._build is not self._build \
                or other._at - self._at > self.MERGE_WINDOW_S:
            return False
        self._new, self._at = other._new, other._at
        if self._new == self._old:
            self.setObsolete(True)
        return True

    def redo(self) -> None:
        self._build.set_workload(self._new)

    def undo(self) -> None:
        self._build.set_workload(self._old)
