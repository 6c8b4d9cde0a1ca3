"""The bundled font (DejaVu Sans), so text renders — on screen and in PDFs — on machines
with no fonts installed, where Qt would otherwise draw boxes without any error."""

from __future__ import annotations

from functools import cache

from PySide6.QtGui import QFont, QFontDatabase, QFontMetrics

from dlhw_desktop.resources import resource_path

BUNDLED_FAMILY = "DejaVu Sans"
FONT_FILES = ("DejaVuSans.ttf", "DejaVuSans-Bold.ttf")


@cache
def load_bundled_fonts() -> str:
    """Register the bundled font files once; returns the family name to use."""
    family = BUNDLED_FAMILY
    for name in FONT_FILES:
        font_id = QFontDatabase.addApplicationFont(str(resource_path("fonts", name)))
        if font_id >= 0:
            families = QFontDatabase.applicationFontFamilies(font_id)
            if families:
                family = families[0]
    return family


def bundled_font(point_size: float = 10, bold: bool = False) -> QFont:
    font = QFont(load_bundled_fonts())
    font.setPointSizeF(point_size)
    font.setBold(bold)
    return font


def font_has_glyphs(font: QFont, text: str = "A") -> bool:
    """True when the font can draw ``text`` (False means boxes would be drawn)."""
    metrics = QFontMetrics(font)
    return all(metrics.inFont(ch) for ch in text if not ch.isspace())


def ensure_ui_font() -> None:
    """Use the bundled font for the UI when the system offers none that draws Latin text."""
    from PySide6.QtWidgets import QApplication

    app = QApplication.instance()
    if not isinstance(app, QApplication):
        return
    if not font_has_glyphs(app.font(), "Ag"):
        app.setFont(bundled_font(app.font().pointSizeF() if app.font().pointSizeF() > 0 else 10))
