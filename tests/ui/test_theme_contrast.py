"""A live theme switch repaints every text: read as pixels after switching light to dark
and back, each named text reads at WCAG's 4.5:1 on what is behind it (the Workload panel's
"Cost" and the verdict's subtitle stayed in the old theme's ink until a restart)."""

from __future__ import annotations

from collections import Counter

from PySide6.QtCore import QPoint
from PySide6.QtGui import QColor
from PySide6.QtWidgets import QApplication, QComboBox, QLabel, QScrollArea, QWidget
from pytestqt.qtbot import QtBot

from dlhw_desktop.catalog.store import Catalog
from dlhw_desktop.ui.common.settings import AppSettings
from dlhw_desktop.ui.common.theme import apply_theme, contrast_ratio
from dlhw_desktop.ui.shell.main_window import BUILD, MainWindow

NAMED = ("verdict_label", "verdict_detail", "workload_verdict", "workload_time",
         "workload_cost", "serving_summary", "total_price_caption", "total_wall_caption")
HEADINGS = ("Memory per GPU", "Time", "Cost", "PRICE", "WALL DRAW")


def _painted_in(widget: QWidget, window: QWidget) -> QWidget:
    """What paints ``widget`` on screen: the content of its scroll area, else the window
    (a grab of the window leaves a scrolled-away text black)."""
    parent = widget.parentWidget()
    while parent is not None:
        area = parent.parentWidget().parentWidget() if parent.parentWidget() else None
        if isinstance(area, QScrollArea) and area.widget() is parent:
            return parent
        parent = parent.parentWidget()
    return window


def _contrast(label: QLabel, window: QWidget, grabs: dict[int, object]) -> float:
    """The contrast of a text's strongest ink against its commonest colour (its paper)."""
    root = _painted_in(label, window)
    if id(root) not in grabs:
        grabs[id(root)] = root.grab().toImage()
    corner = label.mapTo(root, QPoint(0, 0))
    image = grabs[id(root)].copy(corner.x(), corner.y(), label.width(), label.height())
    colours = Counter(image.pixel(x, y) for x in range(image.width())
                      for y in range(image.height()))
    paper = QColor.fromRgb(colours.most_common(1)[0][0])
    return max(contrast_ratio(QColor.fromRgb(c), paper) for c in colours)


def _texts(window: MainWindow) -> list[QLabel]:
    labels = [window.findChild(QLabel, name) for name in NAMED]
    labels += [label for label in window.findChildren(QLabel) if label.text() in HEADINGS]
    assert all(label is not None and label.text() for label in labels)
    assert len(labels) >= len(NAMED) + len(HEADINGS)
    return labels


def test_every_named_text_reads_after_a_live_theme_switch_both_ways(
        qtbot: QtBot, catalog: Catalog, app_settings: AppSettings,
        app_theme: QApplication) -> None:
    apply_theme(app_theme, "light")
    window = MainWindow(catalog, app_settings)
    qtbot.addWidget(window)
    window.resize(1600, 1000)
    window.show()
    window.tabs.setCurrentIndex(BUILD)
    window.build_tab.apply_template("single-rtx-4090")
    combo = window.findChild(QComboBox, "workload_model")
    combo.setCurrentIndex(combo.findData("llama-3.1-8b"))
    qtbot.waitUntil(lambda: bool(window.findChild(QLabel, "workload_cost").text()))
    for theme in ("dark", "light"):
        window.set_theme(theme)
        qtbot.wait(50)
        grabs: dict[int, object] = {}
        low = {(label.objectName() or label.text()): round(_contrast(label, window, grabs), 1)
               for label in _texts(window)}
        assert all(ratio >= 4.5 for ratio in low.values()), (theme, low)
