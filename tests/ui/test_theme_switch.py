"""A theme change reaches every colour at once: no text left unreadable until a restart."""

from __future__ import annotations

from PySide6.QtWidgets import QApplication
from pytestqt.qtbot import QtBot

from dlhw_desktop.core.checks import CheckSettings
from dlhw_desktop.ui.common.theme import apply_theme
from dlhw_desktop.ui.planner.totals_bar import TotalsBar


def test_the_totals_bar_follows_a_theme_change_both_ways(qtbot: QtBot,
                                                         app_theme: QApplication) -> None:
    apply_theme(app_theme, "light")
    bar = TotalsBar()
    qtbot.addWidget(bar)
    bar.resize(900, 160)
    bar.show_summary(None, CheckSettings())
    bar.show()
    qtbot.waitExposed(bar)
    caption = bar.captions["price"]

    def ink() -> tuple[int, int]:
        return (caption.palette().color(caption.foregroundRole()).lightness(),
                caption.palette().color(caption.backgroundRole()).lightness())

    light_ink, light_paper = ink()
    light = bar.grab().toImage()
    apply_theme(app_theme, "dark")
    qtbot.wait(10)
    dark_ink, dark_paper = ink()
    assert dark_paper < 128 < light_paper  # the background went dark ...
    assert abs(dark_ink - dark_paper) > 60  # ... and the muted text still reads on it
    apply_theme(app_theme, "light")
    qtbot.wait(10)
    assert ink() == (light_ink, light_paper)
    assert bar.grab().toImage() == light  # back to the very same pixels
