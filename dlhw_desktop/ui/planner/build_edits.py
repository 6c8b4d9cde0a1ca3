"""The Build tab's edits: every change the user makes to the build, one undo command each.

A mixin of ``BuildTab`` (it reads the tab's build, part resolver and shared undo stack,
and says what happened on its status bar): adding parts (a drop, Enter, "Add to build",
"What fits", an advisor's proposal), removing them, quantities, replacing a part, the
name, notes and tier, and starting from a template. Each pushes a ``build_commands``
command, so Undo takes back exactly one user action; a part the build has no room for
is refused with the reason (``core.build.room``), never silently dropped.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from PySide6.QtGui import QKeySequence

from dlhw_desktop.core.build import buildfile
from dlhw_desktop.core.build.build import DEFAULT_NAME, Slot, slot_for
from dlhw_desktop.core.build.room import admit, quantity_refusal
from dlhw_desktop.core.build.templates import Template
from dlhw_desktop.core.build.templates import template as find_template
from dlhw_desktop.core.checks.settings import MAINS
from dlhw_desktop.ui.planner.build_commands import (
    AddPartCommand,
    MacroCommand,
    RemovePartCommand,
    RenameCommand,
    ReplacePartCommand,
    SetNotesCommand,
    SetQuantityCommand,
    SetTierCommand,
    SetWorkloadCommand,
)

if TYPE_CHECKING:
    from PySide6.QtCore import SignalInstance
    from PySide6.QtGui import QUndoStack

    from dlhw_desktop.catalog.userparts import PartResolver
    from dlhw_desktop.core.build.build import Build
    from dlhw_desktop.core.checks import CheckSettings
    from dlhw_desktop.core.parts import Part
    from dlhw_desktop.core.workload.build_workload import BuildWorkload
    from dlhw_desktop.ui.planner.build_document import BuildDocument


class BuildEditActions:
    """The build's edits for ``BuildTab`` (a mixin, first among its bases: the other
    mixins declare ``add_parts``, and this is the one that runs)."""

    # what the mixin reads of the tab
    build: Build
    resolver: PartResolver
    undo_stack: QUndoStack
    document: BuildDocument
    status_message: SignalInstance

    if TYPE_CHECKING:  # declared for type checkers only: at run time the tab's own win
        def maybe_save(self) -> bool: ...

        def check_settings(self) -> CheckSettings: ...

        def _show_notice(self, warnings: Sequence[str]) -> None: ...

    def add_parts(self, part_ids: Sequence[str]) -> int:
        """Put parts in their slots (a drop, Enter, "Add to build"); returns how many.

        A part that takes a single slot (the CPU, the power supply, ...) replaces what is
        there without a question, as one undoable step, and the status bar says what it
        replaced; an id nobody knows is reported in the status bar and skipped.
        """
        parts: list[Part] = []
        unknown: list[str] = []
        for part_id in dict.fromkeys(part_ids):
            part = self.resolver.find(part_id)
            if part is None:
                unknown.append(part_id)
            else:
                parts.append(part)
        admitted, refused = admit(self.build, ((p, 1) for p in parts))
        chosen: list[Part] = []
        replaced: list[Part] = []
        for part, _ in admitted:
            current = self.build.would_replace(part)
            if current is not None and current.part.id != part.id \
                    and current.part not in replaced:
                replaced.append(current.part)
            chosen.append(part)
        if chosen:
            if len(chosen) == 1:
                self.undo_stack.push(AddPartCommand(self.build, chosen[0]))
            else:
                macro = MacroCommand(f"Add {len(chosen)} parts")
                for part in chosen:
                    macro.add(AddPartCommand(self.build, part))
                self.undo_stack.push(macro)
            names = ", ".join(p.display_name for p in chosen[:3])
            more = f" and {len(chosen) - 3} more" if len(chosen) > 3 else ""
            instead = (f" in place of {', '.join(p.display_name for p in replaced)} "
                       f"({self._undo_keys()} brings it back)" if replaced else "")
            self.status_message.emit(f"Added {names}{more} to the build{instead}",
                                     8000 if replaced else 4000)
        if unknown:
            self.status_message.emit(f"Not in the catalog or your parts: "
                                     f"{', '.join(unknown)}", 6000)
        if refused:
            self.status_message.emit(refused[0], 8000)
        return len(chosen)

    def _undo_keys(self) -> str:
        keys = QKeySequence(QKeySequence.StandardKey.Undo).toString(
            QKeySequence.SequenceFormat.NativeText)
        return keys or "Undo"

    def remove_parts(self, part_ids: Sequence[str]) -> int:
        ids = [i for i in dict.fromkeys(part_ids) if i in self.build]
        if not ids:
            return 0
        if len(ids) == 1:
            self.undo_stack.push(RemovePartCommand(self.build, ids[0]))
        else:
            macro = MacroCommand(f"Remove {len(ids)} parts")
            for part_id in ids:
                macro.add(RemovePartCommand(self.build, part_id))
            self.undo_stack.push(macro)
        return len(ids)

    def set_quantity(self, part_id: str, quantity: int) -> None:
        item = self.build.find(part_id)
        if item is None or not item.slot.allows_quantity or item.quantity == quantity:
            return
        if quantity < 1:
            return
        refusal = quantity_refusal(self.build, part_id, quantity)
        if refusal is not None:  # said, not silently clamped
            self.status_message.emit(refusal, 8000)
            return
        self.undo_stack.push(SetQuantityCommand(self.build, part_id, quantity))

    def step_quantity(self, part_id: str, delta: int) -> None:
        item = self.build.find(part_id)
        if item is not None:
            self.set_quantity(part_id, item.quantity + delta)

    def replace_part(self, part_id: str, new_part_id: str) -> bool:
        new_part = self.resolver.find(new_part_id)
        if new_part is None or part_id not in self.build:
            return False
        try:
            command = ReplacePartCommand(self.build, part_id, new_part)
            self.undo_stack.push(command)
        except ValueError as exc:
            self.status_message.emit(str(exc), 6000)
            return False
        return True

    def set_name(self, name: str) -> None:
        name = name.strip() or DEFAULT_NAME
        if name != self.build.name:
            self.undo_stack.push(RenameCommand(self.build, self.build.name, name))

    def set_notes(self, notes: str) -> None:
        if notes != self.build.notes:
            self.undo_stack.push(SetNotesCommand(self.build, self.build.notes, notes))

    def set_tier(self, tier: str | None) -> None:
        if tier != self.build.tier:
            self.undo_stack.push(SetTierCommand(self.build, tier))

    def apply_template(self, key: str) -> Template | None:
        """Start a new, untitled build from a template (one undoable step); unsaved changes
        are asked about first (None: the user kept them)."""
        tpl = find_template(key)
        if not self.maybe_save():
            return None
        document = {"format": buildfile.FORMAT, "version": buildfile.VERSION,
                    "name": tpl.name, "notes": tpl.description,
                    "workload": {"tier": tpl.tier},
                    "parts": [{"id": i, "quantity": q} for i, q in tpl.parts]}
        loaded = buildfile.from_dict(document, self.resolver)
        self.document.replace_untitled(loaded.build.snapshot(), f"Load template {tpl.name}")
        self._show_notice(loaded.warnings)
        mains = self.check_settings().mains
        if tpl.mains != mains:
            self.status_message.emit(
                f"{tpl.name} is meant for a {MAINS[tpl.mains].label}; your check settings "
                f"say {MAINS[mains].label}", 8000)
        else:
            self.status_message.emit(f"Loaded template {tpl.name}", 4000)
        return tpl

    def _edit_workload(self, workload: BuildWorkload) -> None:
        self.undo_stack.push(SetWorkloadCommand(self.build, workload))

    def add_part_with_quantity(self, part_id: str, quantity: int) -> bool:
        """Add ``quantity`` of one part (from "What fits"), as one undo step."""
        part = self.resolver.find(part_id)
        if part is None:
            self.status_message.emit(f"Unknown part {part_id}", 6000)
            return False
        if slot_for(part).single:
            quantity = 1
        _, refused = admit(self.build, [(part, quantity)])
        if refused:
            self.status_message.emit(refused[0], 8000)
            return False
        self.undo_stack.push(AddPartCommand(self.build, part, quantity))
        return True

    def apply_proposal(self, parts: list, workload: BuildWorkload | None = None) -> None:
        """An advisor's machine to buy as one undo step: its workload, and its GPUs in
        place of the build's (a proposal of 3 x RTX 5090 leaves 3, not 3 more)."""
        found = [(p, 1 if slot_for(p).single else int(n))
                 for p, n in ((self.resolver.find(i), n) for i, n in parts) if p is not None]
        macro = MacroCommand("Apply the advisor's proposal")
        if workload is not None and workload != self.build.workload:
            macro.add(SetWorkloadCommand(self.build, workload))
        gpus = [(p, n) for p, n in found if slot_for(p) is Slot.ACCELERATOR]
        if gpus:
            for item in list(self.build.accelerators):
                macro.add(RemovePartCommand(self.build, item.part_id))
        admitted, refused = admit(self.build, [x for x in found if x not in gpus])
        for part, count in [*gpus, *admitted]:
            macro.add(AddPartCommand(self.build, part, count))
        if refused:
            self.status_message.emit(refused[0], 8000)
        self.undo_stack.push(macro)
