"""Light and dark palettes (Fusion), so charts and tables read well in either."""

from __future__ import annotations

from PySide6.QtGui import QColor, QPalette
from PySide6.QtWidgets import QApplication, QWidget

STATUS_COLOURS = {"pass": "#2e7d32", "warn": "#b26a00", "fail": "#c62828", "unknown": "#6b7280"}


def apply_theme(app: QApplication, theme: str) -> None:
    """``system`` keeps the platform palette; ``light``/``dark`` use Fusion."""
    if theme == "system":
        app.setPalette(app.style().standardPalette())
        return
    app.setStyle("Fusion")
    if theme == "light":
        app.setPalette(app.style().standardPalette())
        return
    palette = QPalette()
    base, window, text = QColor(30, 31, 34), QColor(43, 45, 48), QColor(223, 225, 229)
    palette.setColor(QPalette.ColorRole.Window, window)
    palette.setColor(QPalette.ColorRole.WindowText, text)
    palette.setColor(QPalette.ColorRole.Base, base)
    palette.setColor(QPalette.ColorRole.AlternateBase, QColor(38, 40, 43))
    palette.setColor(QPalette.ColorRole.ToolTipBase, window)
    palette.setColor(QPalette.ColorRole.ToolTipText, text)
    palette.setColor(QPalette.ColorRole.Text, text)
    palette.setColor(QPalette.ColorRole.Button, window)
    palette.setColor(QPalette.ColorRole.ButtonText, text)
    palette.setColor(QPalette.ColorRole.BrightText, QColor(255, 90, 90))
    palette.setColor(QPalette.ColorRole.Link, QColor(110, 168, 254))
    palette.setColor(QPalette.ColorRole.Highlight, QColor(53, 116, 240))
    palette.setColor(QPalette.ColorRole.HighlightedText, QColor(255, 255, 255))
    palette.setColor(QPalette.ColorRole.PlaceholderText, QColor(140, 144, 150))
    for role in (QPalette.ColorRole.Text, QPalette.ColorRole.ButtonText,
                 QPalette.ColorRole.WindowText):
        palette.setColor(QPalette.ColorGroup.Disabled, role, QColor(120, 122, 126))
    app.setPalette(palette)


def is_dark(app: QApplication) -> bool:
    return app.palette().color(QPalette.ColorRole.Window).lightness() < 128


def ink_on(fill: str) -> str:
    """Black or white text, whichever reads better on ``fill`` (WCAG relative luminance)."""
    colour = QColor(fill)

    def channel(c: float) -> float:
        return c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4

    lum = (0.2126 * channel(colour.redF()) + 0.7152 * channel(colour.greenF())
           + 0.0722 * channel(colour.blueF()))
    return "#111111" if lum > 0.33 else "#ffffff"


def set_text_style(widget: QWidget, point_size: float | None = None, bold: bool = False,
                   muted: bool = False) -> None:
    """Size, weight and a muted colour by palette role, never by a style sheet: a style
    sheet's ``palette(...)`` is resolved once, so its colour would outlive a theme change;
    a role follows the palette at once."""
    font = widget.font()
    if point_size is not None:
        font.setPointSizeF(point_size)
    font.setBold(bold)
    widget.setFont(font)
    if muted:
        widget.setForegroundRole(QPalette.ColorRole.PlaceholderText)
