"""The sheet's look: font sizes, colours and the bundled font it is set in."""

from __future__ import annotations

from PySide6.QtGui import QColor, QFont

from dlhw_desktop.ui.common.fonts import BUNDLED_FAMILY, load_bundled_fonts
from dlhw_desktop.ui.common.theme import STATUS_COLOURS

BODY_PT = 8.0
SMALL_PT = 6.8
TABLE_PT = 7.6
HEADING_PT = 10.5
TITLE_PT = 17.0

INK = "#1f2328"
MUTED = "#5f6b7a"
RULE = "#d0d5dc"
RULE_STRONG = "#8a94a3"
HEADER_FILL = "#eceff3"
ZEBRA_FILL = "#f7f8fa"
ACCENT = "#2f5f8f"
HIGHLIGHT = "#e07b00"
BAR = "#4e79a7"
SERIES = ("#4e79a7", "#f28e2b", "#59a14f", "#b07aa1", "#9c755f", "#76b7b2", "#edc948")
NO_LIGATURES = ("liga", "clig")
STATUS_WORDS = {"pass": "PASS", "warn": "WARN", "fail": "FAIL", "unknown": "UNKNOWN"}


def status_colour(status: str) -> QColor:
    return QColor(STATUS_COLOURS.get(status, STATUS_COLOURS["unknown"]))


def family() -> str:
    """The bundled family (registered once); ``DejaVu Sans`` even if registration failed,
    so the glyph check then reports the failure instead of silently drawing boxes."""
    return load_bundled_fonts() or BUNDLED_FAMILY


def font(size_pt: float = BODY_PT, bold: bool = False) -> QFont:
    f = QFont(family())
    f.setPointSizeF(size_pt)
    f.setBold(bold)
    f.setStyleStrategy(QFont.StyleStrategy.PreferOutline)
    f.setHintingPreference(QFont.HintingPreference.PreferNoHinting)
    for tag in NO_LIGATURES:  # "fi" stays two letters when the text is copied or searched
        f.setFeature(QFont.Tag(tag), 0)
    return f
