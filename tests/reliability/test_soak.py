"""A soak: 10,000 random planner operations with the build's invariants checked throughout.

Operations are the user's: add, remove, change quantity, undo, redo, save, load (through
the same undo commands and file format as the app). Memory growth is measured with
tracemalloc between the first and the last thousand operations.
"""

from __future__ import annotations

import random
import tracemalloc
from pathlib import Path

from PySide6.QtGui import QUndoStack

from dlhw_desktop.catalog.store import Catalog
from dlhw_desktop.core.build import buildfile
from dlhw_desktop.core.build.build import Build, slot_for
from dlhw_desktop.core.checks import check_build
from dlhw_desktop.core.fields import Category
from dlhw_desktop.ui.planner.build_commands import (
    AddPartCommand,
    RemovePartCommand,
    SetQuantityCommand,
)

OPERATIONS = 10_000
UNDO_LIMIT = 200


def state(build: Build) -> tuple[tuple[str, int], ...]:
    return tuple((i.part.id, i.quantity) for i in build.items())


def assert_invariants(build: Build) -> None:
    ids = [i.part.id for i in build.items()]
    assert len(ids) == len(set(ids)), "a part appears twice"
    assert all(i.quantity >= 1 for i in build.items())
    for item in build.items():
        if item.slot.single:
            assert len(build.items(item.slot)) == 1, item.slot


def test_ten_thousand_random_operations(qapp, catalog: Catalog, tmp_path: Path) -> None:
    rng = random.Random(20261125)
    pool = [p for c in (Category.ACCELERATOR, Category.CPU, Category.MEMORY, Category.STORAGE,
                        Category.PSU, Category.CASE, Category.MOTHERBOARD, Category.COOLER)
            for p in catalog.parts(c)[:25]]
    build = Build(name="soak")
    stack = QUndoStack()
    stack.setUndoLimit(UNDO_LIMIT)
    counts: dict[str, int] = {}
    path = tmp_path / "soak.dlhw.json"
    tracemalloc.start()
    early = late = 0
    for n in range(OPERATIONS):
        op = rng.choices(["add", "remove", "quantity", "undo", "redo", "save", "load", "check"],
                         weights=[30, 12, 15, 15, 10, 3, 3, 12])[0]
        counts[op] = counts.get(op, 0) + 1
        items = build.items()
        if op == "add":
            part = rng.choice(pool)
            quantity = 1 if slot_for(part).single else rng.randint(1, 3)
            if slot_for(part).single or quantity <= build.room_for(part):  # as the tab does
                stack.push(AddPartCommand(build, part, quantity))
        elif op == "remove" and items:
            stack.push(RemovePartCommand(build, rng.choice(items).part.id))
        elif op == "quantity" and items:
            item = rng.choice(items)
            quantity = rng.randint(1, 8)
            if not item.slot.single and quantity - item.quantity <= build.room_for(item.part):
                stack.push(SetQuantityCommand(build, item.part.id, quantity))
        elif op == "undo" and stack.canUndo():
            before = state(build)
            stack.undo()
            stack.redo()
            assert state(build) == before, "undo then redo changed the build"
            stack.undo()
        elif op == "redo" and stack.canRedo():
            stack.redo()
        elif op == "save":
            buildfile.save(build, path)
        elif op == "load" and path.exists():
            loaded = buildfile.load(path, catalog.find).build
            saved = buildfile.loads(path.read_text(encoding="utf-8"), catalog.find).build
            assert state(loaded) == state(saved)
        elif op == "check":
            report = check_build(build)
            assert report.verdict in ("pass", "warn", "fail", "unknown")
        assert_invariants(build)
        if n == 1_000:
            early = tracemalloc.get_traced_memory()[0]
    late = tracemalloc.get_traced_memory()[0]
    tracemalloc.stop()
    assert sum(counts.values()) == OPERATIONS
    # Bounded: the undo stack is capped, nothing else may accumulate.
    assert late - early < 8 * 1024 * 1024, f"memory grew {(late - early) / 1e6:.1f} MB"
