"""Memory: resident set size after start-up (main window painted, offscreen) and after
10,000 planner operations through the Build tab's undo commands (growth)."""

from __future__ import annotations

import os
import random
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _common import emit

OPERATIONS = 10_000


def rss_mb() -> float:
    import psutil

    return round(psutil.Process().memory_info().rss / 2**20, 1)


def run() -> dict[str, object]:
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    os.environ.setdefault("DLHW_DATA_DIR", tempfile.mkdtemp(prefix="bench-mem-"))
    from PySide6.QtCore import QSettings
    from PySide6.QtWidgets import QApplication

    from dlhw_desktop.catalog.store import Catalog
    from dlhw_desktop.core.build.build import slot_for
    from dlhw_desktop.core.fields import Category
    from dlhw_desktop.ui.common.settings import AppSettings
    from dlhw_desktop.ui.planner.build_commands import (
        AddPartCommand,
        RemovePartCommand,
        SetQuantityCommand,
    )
    from dlhw_desktop.ui.shell.main_window import MainWindow

    base = rss_mb()
    app = QApplication.instance() or QApplication([sys.argv[0]])
    settings = AppSettings(QSettings(str(Path(os.environ["DLHW_DATA_DIR"]) / "s.ini"),
                                     QSettings.Format.IniFormat))
    window = MainWindow(Catalog.open(), settings)
    window.show()
    app.processEvents()
    after_start = rss_mb()
    tab = window.build_tab
    app.processEvents()
    after_build_tab = rss_mb()
    build, stack = tab.build, tab.undo_stack
    stack.setUndoLimit(500)
    catalog = window.catalog
    pool = [p for c in (Category.ACCELERATOR, Category.CPU, Category.MEMORY, Category.PSU,
                        Category.STORAGE) for p in catalog.parts(c)[:20]]
    rng = random.Random(1)
    checkpoints = {}
    for n in range(1, OPERATIONS + 1):
        items = build.items()
        op = rng.random()
        if op < 0.45 or not items:
            part = rng.choice(pool)
            quantity = min(1 if slot_for(part).single else 2, build.room_for(part))
            if quantity > 0:  # as the planner does: never past a kind's limit
                stack.push(AddPartCommand(build, part, quantity))
        elif op < 0.65:
            stack.push(RemovePartCommand(build, rng.choice(items).part.id))
        elif op < 0.8:
            item = rng.choice(items)
            if not item.slot.single:
                most = item.quantity + build.room_for(item.part)
                stack.push(SetQuantityCommand(build, item.part.id, min(rng.randint(1, 6), most)))
        elif op < 0.9 and stack.canUndo():
            stack.undo()
        elif stack.canRedo():
            stack.redo()
        if n % 200 == 0:
            app.processEvents()  # let the views redraw as they would for a user
        if n in (1_000, OPERATIONS):
            checkpoints[n] = rss_mb()
    tab.ask_save_changes = lambda: "discard"  # type: ignore[method-assign]
    return {
        "process_before_window_mb": base,
        "after_start_up_mb": after_start,
        "after_opening_build_tab_mb": after_build_tab,
        "after_1000_operations_mb": checkpoints[1_000],
        f"after_{OPERATIONS}_operations_mb": checkpoints[OPERATIONS],
        "growth_1000_to_10000_mb": round(checkpoints[OPERATIONS] - checkpoints[1_000], 1),
        "undo_limit": 500,
    }


if __name__ == "__main__":
    emit("memory (RSS)", run())
