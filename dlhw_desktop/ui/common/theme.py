"""Light and dark palettes (Fusion), so charts and tables read well in either."""

from __future__ import annotations

from PySide6.QtGui import QColor, QPalette
from PySide6.QtWidgets import QApplication, QLabel, QWidget

STATUS_COLOURS = {"pass": "#2e7d32", "warn": "#b26a00", "fail": "#c62828", "unknown": "#6b7280"}


def apply_theme(app: QApplication, theme: str) -> None:
    """``system`` keeps the platform palette; ``light``/``dark`` use Fusion."""
    if theme == "system":
        app.setPalette(app.style().standardPalette())
        _repolish(app)
        return
    app.setStyle("Fusion")
    if theme == "light":
        palette = app.style().standardPalette()
        # Fusion's muted text (#777 on #efefef) reads at 3.9:1; 4.5 is the floor
        palette.setColor(QPalette.ColorRole.PlaceholderText, QColor(105, 105, 105))
        app.setPalette(palette)
        _repolish(app)
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
    # Muted text (captions, notes) at WCAG's 4.5:1 on both the window and the lists
    palette.setColor(QPalette.ColorRole.PlaceholderText, QColor(156, 160, 166))
    for role in (QPalette.ColorRole.Text, QPalette.ColorRole.ButtonText,
                 QPalette.ColorRole.WindowText):
        palette.setColor(QPalette.ColorGroup.Disabled, role, QColor(120, 122, 126))
    app.setPalette(palette)
    _repolish(app)


def _repolish(app: QApplication) -> None:
    """Widgets under a style sheet keep the palette they were polished with, a label's
    links the link colour of when they were set: set them again, so a theme change
    reaches them now, not at the next start."""
    for widget in app.allWidgets():
        sheet = widget.styleSheet()
        if sheet:
            widget.setStyleSheet("")
            widget.setStyleSheet(sheet)
        if isinstance(widget, QLabel) and "<a " in widget.text():
            text = widget.text()  # a link's colour is resolved when its text is set
            widget.setText("")
            widget.setText(text)


def relative_luminance(colour: QColor) -> float:
    """WCAG 2 relative luminance of a colour (0 black .. 1 white)."""

    def channel(c: float) -> float:
        return c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4

    return (0.2126 * channel(colour.redF()) + 0.7152 * channel(colour.greenF())
            + 0.0722 * channel(colour.blueF()))


def contrast_ratio(a: QColor, b: QColor) -> float:
    """WCAG 2 contrast ratio, 1 to 21; body text wants at least 4.5."""
    light, dark = sorted((relative_luminance(a), relative_luminance(b)), reverse=True)
    return (light + 0.05) / (dark + 0.05)


def status_ink(status: str, background: QColor) -> str:
    """A status colour for text on ``background``: the status's hue, lightened (on a dark
    background) or darkened until it reads at 4.5:1."""
    colour = QColor(STATUS_COLOURS.get(status, STATUS_COLOURS["unknown"]))
    dark = background.lightness() < 128
    for _ in range(12):
        if contrast_ratio(colour, background) >= 4.5:
            break
        colour = colour.lighter(115) if dark else colour.darker(115)
    return colour.name()


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
