"""Dragging parts onto the build: constructed drop events offscreen, and one real QDrag
under the ``minimal`` platform (a subprocess: the platform is chosen once per process)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from PySide6.QtCore import QMimeData, QPoint, QPointF, Qt
from PySide6.QtGui import QDragEnterEvent, QDragLeaveEvent, QDragMoveEvent, QDropEvent, QUndoStack
from PySide6.QtWidgets import QApplication
from pytestqt.qtbot import QtBot

from dlhw_desktop.catalog.store import Catalog
from dlhw_desktop.core.build.build import Slot
from dlhw_desktop.ui.catalog.catalog_tab import CatalogTab
from dlhw_desktop.ui.common.dnd import part_ids_to_mime
from dlhw_desktop.ui.common.part_table_model import PART_ROLE
from dlhw_desktop.ui.common.settings import AppSettings
from dlhw_desktop.ui.planner.build_model import NAME
from dlhw_desktop.ui.planner.build_tab import BuildTab
from dlhw_desktop.ui.shell.composition import make_build_tab

RTX_4090 = "accelerator/nvidia-geforce-rtx-4090"
PSU_750 = "psu/seasonic-focus-gx-750-atx-3"
PSU_1600 = "psu/seasonic-prime-tx-1600-atx-3"
NVME = "storage/samsung-990-pro-2tb-mz-v9p2t0b-am"
BUTTONS, MODS = Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier
COPY = Qt.DropAction.CopyAction

# Qt 6 builds drag-enter/move events from a QPoint only; PySide 6.12 flags that
# constructor as deprecated but offers no other.
pytestmark = pytest.mark.filterwarnings(
    r"ignore:Function.*QDrag(Enter|Move)Event:DeprecationWarning")


@pytest.fixture
def tab(qtbot: QtBot, catalog: Catalog, app_settings: AppSettings) -> BuildTab:
    widget = make_build_tab(catalog, app_settings, QUndoStack())
    qtbot.addWidget(widget)
    widget.resize(1300, 800)
    widget.show()
    return widget


def drag_enter(tab: BuildTab, mime: QMimeData, pos: QPoint | None = None) -> bool:
    pos = pos or QPoint(120, 60)
    viewport = tab.view.viewport()
    enter = QDragEnterEvent(pos, COPY, mime, BUTTONS, MODS)
    QApplication.sendEvent(viewport, enter)
    move = QDragMoveEvent(pos, COPY, mime, BUTTONS, MODS)
    QApplication.sendEvent(viewport, move)
    return enter.isAccepted() and move.isAccepted()


def drop(tab: BuildTab, mime: QMimeData, pos: QPoint | None = None) -> bool:
    """Enter, move and drop on the build view, as a drag from anywhere delivers them."""
    pos = pos or QPoint(120, 60)
    accepted = drag_enter(tab, mime, pos)
    event = QDropEvent(QPointF(pos), COPY, mime, BUTTONS, MODS)
    QApplication.sendEvent(tab.view.viewport(), event)
    return accepted and event.isAccepted()


def names_in(tab: BuildTab, slot: Slot) -> list[str]:
    parent = tab.model.slot_index(slot)
    return [tab.model.index(r, NAME, parent).data() for r in range(tab.model.rowCount(parent))]


def test_a_dropped_part_lands_in_its_slot(tab: BuildTab) -> None:
    mime = part_ids_to_mime([RTX_4090])  # kept alive for the whole drag
    assert drop(tab, mime)
    assert names_in(tab, Slot.ACCELERATOR) == ["NVIDIA GeForce RTX 4090"]
    assert tab.totals.value("vram") == "24 GB"
    mime = part_ids_to_mime([NVME, PSU_750])
    assert drop(tab, mime, QPoint(300, 200))  # anywhere on the view: each to its slot
    assert names_in(tab, Slot.STORAGE) == ["Samsung 990 PRO 2TB MZ-V9P2T0B/AM"]
    assert names_in(tab, Slot.PSU) == ["Seasonic FOCUS GX-750 (ATX 3)"]
    tab.undo_stack.undo()  # one drop, one undo step
    assert names_in(tab, Slot.STORAGE) == [] and names_in(tab, Slot.PSU) == []


def test_a_drag_from_the_catalog_tab_drops_on_the_build(qtbot: QtBot, tab: BuildTab,
                                                        catalog: Catalog) -> None:
    catalog_tab = CatalogTab(catalog)
    qtbot.addWidget(catalog_tab)
    assert catalog_tab.select_part(RTX_4090)
    rows = catalog_tab.table.selectionModel().selectedRows()
    mime = catalog_tab.model.mimeData(rows)
    assert drop(tab, mime)
    assert RTX_4090 in tab.build


def test_the_part_list_drags_the_same_payload(tab: BuildTab) -> None:
    picker = tab.picker
    picker.search.setText("990 pro 2tb")
    picker.set_category(None)
    model = picker.table.model()
    index = next(model.index(r, 0) for r in range(model.rowCount())
                 if model.index(r, 0).data(PART_ROLE).id == NVME)
    assert model.flags(index) & Qt.ItemFlag.ItemIsDragEnabled
    mime = model.mimeData([index])
    assert drop(tab, mime)
    assert NVME in tab.build


def test_entering_highlights_the_target_slot_and_leaving_clears_it(tab: BuildTab) -> None:
    mime = part_ids_to_mime([PSU_750])
    assert drag_enter(tab, mime)
    psu_row = tab.model.slot_index(Slot.PSU)
    cpu_row = tab.model.slot_index(Slot.CPU)
    highlight = psu_row.data(Qt.ItemDataRole.BackgroundRole)
    assert highlight != cpu_row.data(Qt.ItemDataRole.BackgroundRole)
    QApplication.sendEvent(tab.view.viewport(), QDragLeaveEvent())
    assert psu_row.data(Qt.ItemDataRole.BackgroundRole) == \
        cpu_row.data(Qt.ItemDataRole.BackgroundRole)


def test_foreign_drags_are_refused(tab: BuildTab) -> None:
    mime = QMimeData()
    mime.setText(RTX_4090)  # text, not the part-id MIME type
    assert not drop(tab, mime)
    assert len(tab.build) == 0
    junk = QMimeData()
    junk.setData("application/x-dlhw-part-id", b"\xff\xfe")
    drop(tab, junk)
    assert len(tab.build) == 0


def test_dropping_on_a_taken_single_slot_replaces_it_undoably(tab: BuildTab) -> None:
    tab.add_parts([PSU_750])
    drop(tab, part_ids_to_mime([PSU_1600]))
    assert tab.build.psu.id == PSU_1600
    tab.undo_stack.undo()
    assert tab.build.psu.id == PSU_750


REAL_DRAG = textwrap.dedent("""
    import json, os, sys, tempfile
    from PySide6.QtCore import QPoint, QSettings, Qt, QTimer
    from PySide6.QtGui import QUndoStack
    from PySide6.QtTest import QTest
    from PySide6.QtWidgets import QApplication

    app = QApplication([])
    from dlhw_desktop.catalog.store import Catalog
    from dlhw_desktop.ui.shell.composition import make_build_tab
    from dlhw_desktop.ui.common.part_table_model import PART_ROLE
    from dlhw_desktop.ui.common.settings import AppSettings

    ini = os.path.join(tempfile.mkdtemp(), "settings.ini")
    settings = AppSettings(QSettings(ini, QSettings.Format.IniFormat))
    tab = make_build_tab(Catalog.open(sys.argv[1]), settings, QUndoStack())
    drops = []
    tab.view.parts_dropped.connect(drops.append)
    tab.resize(1300, 800)
    tab.show()
    QTest.qWaitForWindowExposed(tab)
    picker = tab.picker
    picker.search.setText("rtx 4090")
    picker.apply_query()
    model = picker.table.model()
    row = next(r for r in range(model.rowCount())
               if model.index(r, 0).data(PART_ROLE).id == sys.argv[2])
    picker.table.scrollTo(model.index(row, 0))  # the chip's ~60 board-partner cards list too
    QTest.qWait(50)
    source, target = picker.table.viewport(), tab.view.viewport()
    start = picker.table.visualRect(model.index(row, 0)).center()
    end = QPoint(target.width() // 2, target.height() // 2)
    step = QApplication.startDragDistance() + 2
    left, none = Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier

    def release():  # runs inside QDrag.exec()'s own event loop
        QTest.mouseMove(target, end)
        QTest.mouseMove(target, end + QPoint(2, 2))
        QTest.mouseRelease(target, left, none, end)

    QTimer.singleShot(300, release)
    QTest.mousePress(source, left, none, start)
    QTest.mouseMove(source, start + QPoint(step, 0))
    QTest.mouseMove(source, start + QPoint(2 * step, 4))  # starts QDrag.exec()
    QTest.qWait(300)
    print(json.dumps({"drops": drops, "ids": [i.part_id for i in tab.build.items()]}))
""")


def test_a_real_qdrag_from_the_part_list_lands_in_the_build(tmp_path: Path,
                                                           catalog_path: Path) -> None:
    script = tmp_path / "real_drag.py"
    script.write_text(REAL_DRAG)
    env = {**os.environ, "QT_QPA_PLATFORM": "minimal:enable_fonts",
           "DLHW_DATA_DIR": str(tmp_path / "data")}
    done = subprocess.run([sys.executable, str(script), str(catalog_path), RTX_4090],
                          capture_output=True, text=True, env=env, timeout=120,
                          cwd=Path(__file__).resolve().parents[2])
    assert done.returncode == 0, done.stderr[-2000:]
    result = json.loads(done.stdout.strip().splitlines()[-1])
    assert result["drops"] == [[RTX_4090]]  # it arrived as a drop, not as a click
    assert result["ids"] == [RTX_4090]
