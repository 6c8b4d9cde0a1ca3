"""New custom part as a user fills it in (issue 20): choices where the catalog has a
vocabulary, a message beside a bad figure with Save disabled, and the choice whether the
part goes into the build. Also the totals bar when a part has no power figure."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QUndoStack
from PySide6.QtWidgets import QComboBox, QLineEdit
from pytestqt.qtbot import QtBot

from dlhw_desktop.catalog.store import Catalog
from dlhw_desktop.catalog.userparts import UserParts
from dlhw_desktop.core.build.build import Build, Slot
from dlhw_desktop.core.checks import CheckSettings, summarize
from dlhw_desktop.core.fields import Category
from dlhw_desktop.ui.common.settings import AppSettings
from dlhw_desktop.ui.planner.build_tab import BuildTab
from dlhw_desktop.ui.planner.custom_part_dialog import CustomPartDialog
from dlhw_desktop.ui.planner.totals_bar import TotalsBar
from dlhw_desktop.ui.shell.composition import make_build_tab

RTX_4090 = "accelerator/nvidia-geforce-rtx-4090"
CPU_7950X = "cpu/amd-ryzen-9-7950x"
PSU_1600 = "psu/seasonic-prime-tx-1600-atx-3"


@pytest.fixture
def dialog(qtbot: QtBot, catalog: Catalog) -> CustomPartDialog:
    widget = CustomPartDialog(UserParts(), Category.ACCELERATOR, vocabulary=catalog.distinct)
    qtbot.addWidget(widget)
    widget.show()
    return widget


@pytest.fixture
def tab(qtbot: QtBot, catalog: Catalog, app_settings: AppSettings) -> BuildTab:
    widget = make_build_tab(catalog, app_settings, QUndoStack())
    widget.ask_replace = lambda _old, _new: True  # type: ignore[method-assign]
    qtbot.addWidget(widget)
    widget.resize(1400, 860)
    widget.show()
    return widget


def edit(dialog: CustomPartDialog, name: str) -> QLineEdit:
    widget = dialog.fields[name]
    assert isinstance(widget, QLineEdit)
    return widget


def retype(qtbot: QtBot, line: QLineEdit, text: str) -> None:
    line.selectAll()
    qtbot.keyClick(line, Qt.Key.Key_Delete)
    qtbot.keyClicks(line, text)


def test_a_bad_figure_says_why_beside_it_and_keeps_save_disabled(
        qtbot: QtBot, dialog: CustomPartDialog) -> None:
    assert not dialog.save_button.isEnabled()  # no vendor or name yet: says so
    assert "vendor and a name" in dialog.error.text()
    qtbot.keyClicks(dialog.vendor, "Acme")
    qtbot.keyClicks(dialog.name, "Tensor Brick 9")
    assert dialog.save_button.isEnabled() and dialog.error.isHidden()

    tdp = edit(dialog, "tdp_w")
    qtbot.keyClicks(tdp, "35o")
    assert tdp.text() == "35o"  # the typed digits stay; nothing vanishes
    message = dialog.messages["tdp_w"]
    assert message.isVisible() and "“35o” is not a number" in message.text()
    assert not dialog.save_button.isEnabled()
    assert "TDP (W)" in dialog.error.text() and "tdp_w" not in dialog.error.text()
    qtbot.mouseClick(dialog.save_button, Qt.MouseButton.LeftButton)
    assert dialog.part is None and dialog.isVisible()

    retype(qtbot, tdp, "350")
    assert message.isHidden() and dialog.save_button.isEnabled()
    qtbot.mouseClick(dialog.save_button, Qt.MouseButton.LeftButton)
    assert dialog.part is not None and dialog.part.number("tdp_w") == 350
    assert dialog.result() == CustomPartDialog.DialogCode.Accepted


@pytest.mark.parametrize(("field", "typed", "said"), [
    ("tdp_w", "-5", "must be 0 or more"),
    ("tdp_w", "2.5", "must be a whole number"),
    ("memory_gb", "1e12", "at most 1,000,000,000"),
    ("memory_gb", "nan", "is not a number"),
    ("slot_width", "0", "must be more than 0"),
])
def test_each_kind_of_bad_figure_is_named(qtbot: QtBot, dialog: CustomPartDialog,
                                          field: str, typed: str, said: str) -> None:
    qtbot.keyClicks(dialog.vendor, "Acme")
    qtbot.keyClicks(dialog.name, "X")
    qtbot.keyClicks(edit(dialog, field), typed)
    assert said in dialog.messages[field].text()
    assert not dialog.save_button.isEnabled()


def test_figures_read_as_people_type_them(qtbot: QtBot, dialog: CustomPartDialog) -> None:
    qtbot.keyClicks(edit(dialog, "tdp_w"), "1,150 W")
    qtbot.keyClicks(edit(dialog, "memory_gb"), "80")
    qtbot.keyClicks(dialog.price, "12,500")
    assert dialog.messages["price_usd"].isHidden()
    assert dialog.figures() == {"tdp_w": 1150, "memory_gb": 80.0}
    qtbot.keyClicks(dialog.price, "x")
    assert "is not a number" in dialog.messages["price_usd"].text()
    assert "Price (USD)" in dialog.error.text()


def test_type_and_segment_are_choices_from_the_vocabulary(
        qtbot: QtBot, dialog: CustomPartDialog) -> None:
    kind = dialog.fields["accelerator_type"]
    assert isinstance(kind, QComboBox) and not kind.isEditable()  # "gpuu" cannot be typed
    assert [kind.itemData(i) for i in range(kind.count())] == [None, "gpu", "tpu", "fpga",
                                                                "asic"]
    assert kind.itemText(1) == "GPU"  # a human label; the stored word is "gpu"
    for name in ("market_segment", "form_factor", "cooling"):
        combo = dialog.fields[name]
        assert isinstance(combo, QComboBox) and not combo.isEditable()
    kind.setCurrentIndex(kind.findData("tpu"))
    segment = dialog.fields["market_segment"]
    assert isinstance(segment, QComboBox)
    segment.setCurrentIndex(segment.findData("datacenter"))
    assert dialog.figures() == {"accelerator_type": "tpu", "market_segment": "datacenter"}

    dialog.category.setCurrentIndex(dialog.category.findData("cpu"))
    socket = dialog.fields["socket"]  # the catalog's sockets offered; a new one may be typed
    assert isinstance(socket, QComboBox) and socket.isEditable()
    assert socket.findText("AM5") >= 0 and socket.findText("sTR5") >= 0
    for category, name in (("psu", "efficiency_rating"), ("storage", "storage_kind"),
                           ("cooler", "cooler_kind"), ("case", "case_kind")):
        dialog.category.setCurrentIndex(dialog.category.findData(category))
        combo = dialog.fields[name]
        assert isinstance(combo, QComboBox) and not combo.isEditable(), name


def fill_and_save(qtbot: QtBot, add: bool) -> Callable[[CustomPartDialog], int]:
    """A stand-in for ``exec``: the user types a part and presses Save."""

    def exec_(self: CustomPartDialog) -> int:
        self.show()
        qtbot.keyClicks(self.vendor, "Acme")
        qtbot.keyClicks(self.name, "Brick 9")
        qtbot.keyClicks(self.fields["memory_gb"], "64")
        if not add:
            qtbot.keyClick(self.add_to_build, Qt.Key.Key_Space)  # as from the keyboard
            assert not self.add_to_build.isChecked()
        qtbot.mouseClick(self.save_button, Qt.MouseButton.LeftButton)
        return self.result()
    return exec_


def test_unticked_add_to_build_saves_the_part_but_leaves_the_build(
        qtbot: QtBot, tab: BuildTab, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(CustomPartDialog, "exec", fill_and_save(qtbot, add=False))
    part = tab.new_custom_part()
    assert part is not None and UserParts().find(part.id) is not None  # saved
    assert len(tab.build) == 0  # not added
    assert tab.picker.table.model().rowCount() == 1  # listed under Custom


def test_ticked_add_to_build_adds_it(qtbot: QtBot, tab: BuildTab,
                                     monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(CustomPartDialog, "exec", fill_and_save(qtbot, add=True))
    part = tab.new_custom_part()
    assert part is not None and [i.part_id for i in tab.build.items()] == [part.id]


def test_totals_bar_keeps_the_known_total_and_says_the_rest(
        qtbot: QtBot, tab: BuildTab) -> None:
    brick = UserParts().add(Category.ACCELERATOR, "Acme", "Brick 9", {"memory_gb": 64})
    tab.add_parts([RTX_4090, CPU_7950X, PSU_1600, brick.id])
    qtbot.waitUntil(lambda: tab.totals.value("sustained") != "—", timeout=3000)
    assert tab.totals.value("sustained") == "at least 730 W"  # 450 + 230 (PPT) + 50 W board
    assert tab.totals.captions["sustained"].text() == "1 part without a power figure"
    assert tab.totals.value("wall").startswith("at least ")
    assert tab.totals.value("heat") == tab.totals.value("wall")
    assert tab.totals.value("energy").startswith("at least $")
    assert "Acme Brick 9" in tab.totals.tiles[1].toolTip()
    assert tab.build.find(brick.id) is not None and tab.build.find(brick.id).slot \
        is Slot.ACCELERATOR


def test_totals_bar_text_from_a_summary(qtbot: QtBot, catalog: Catalog) -> None:
    build = Build()
    for part_id in (RTX_4090, RTX_4090, CPU_7950X):
        build.add(catalog.get(part_id))
    mystery = catalog.get("accelerator/nvidia-geforce-rtx-5090")
    specs = {k: v for k, v in mystery.specs.items() if k != "tdp_w"}
    build.add(replace(mystery, specs=specs))  # a catalog card missing its TDP
    bar = TotalsBar()
    qtbot.addWidget(bar)
    bar.show_summary(summarize(build), CheckSettings())
    assert bar.value("sustained") == "at least 1,180 W"  # 2 x 450 + 230 (PPT) + 50 W board
    assert bar.captions["sustained"].text() == "1 part without a power figure"


def test_field_messages_follow_a_theme_change(qtbot: QtBot, dialog: CustomPartDialog) -> None:
    from PySide6.QtGui import QPalette
    from PySide6.QtWidgets import QApplication

    from dlhw_desktop.ui.common.theme import apply_theme

    app = QApplication.instance()
    assert isinstance(app, QApplication)
    qtbot.keyClicks(edit(dialog, "tdp_w"), "x")
    message = dialog.messages["tdp_w"]

    def ink() -> int:
        return message.palette().color(QPalette.ColorRole.WindowText).lightness()

    try:
        apply_theme(app, "light")
        light = ink()
        apply_theme(app, "dark")
        qtbot.waitUntil(lambda: ink() > light, timeout=2000)  # a lighter red on dark
        back = message.palette().color(QPalette.ColorRole.Window)
        assert back == app.palette().color(QPalette.ColorRole.Window)
    finally:
        apply_theme(app, "light")
    qtbot.waitUntil(lambda: ink() == light, timeout=2000)
