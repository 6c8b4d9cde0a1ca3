"""Check-status icons drawn with QPainter: a shape per status, so colour is never the only cue.

pass: a green disc with a tick; warn: an amber triangle with "!"; fail: a red disc with
a cross; unknown: a grey ring with "?". Drawn at 2x for high-DPI screens, cached.
"""

from __future__ import annotations

from functools import cache

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QColor, QFont, QIcon, QPainter, QPainterPath, QPen, QPixmap, QPolygonF

from dlhw_desktop.ui.common.theme import STATUS_COLOURS

STATUS_WORDS = {"pass": "Pass", "warn": "Warning", "fail": "Fail", "unknown": "Unknown"}


def status_colour(status: str) -> QColor:
    return QColor(STATUS_COLOURS.get(status, STATUS_COLOURS["unknown"]))


def status_pixmap(status: str, size: int = 16, ratio: float = 2.0) -> QPixmap:
    pixmap = QPixmap(round(size * ratio), round(size * ratio))
    pixmap.setDevicePixelRatio(ratio)
    pixmap.fill(Qt.GlobalColor.transparent)
    painter = QPainter(pixmap)
    painter.setRenderHint(QPainter.RenderHint.Antialiasing)
    colour = status_colour(status)
    s = float(size)
    white = QPen(QColor("white"), s * 0.14, Qt.PenStyle.SolidLine, Qt.PenCapStyle.RoundCap,
                 Qt.PenJoinStyle.RoundJoin)
    if status == "warn":
        triangle = QPolygonF([QPointF(s / 2, s * 0.06), QPointF(s * 0.97, s * 0.92),
                              QPointF(s * 0.03, s * 0.92)])
        painter.setPen(QPen(colour, s * 0.06, Qt.PenStyle.SolidLine, Qt.PenCapStyle.RoundCap,
                            Qt.PenJoinStyle.RoundJoin))
        painter.setBrush(colour)
        painter.drawPolygon(triangle)
        painter.setPen(QPen(QColor("white"), s * 0.13, Qt.PenStyle.SolidLine,
                            Qt.PenCapStyle.RoundCap))
        painter.drawLine(QPointF(s / 2, s * 0.38), QPointF(s / 2, s * 0.62))
        painter.drawPoint(QPointF(s / 2, s * 0.78))
    elif status == "unknown":
        painter.setPen(QPen(colour, s * 0.12))
        painter.setBrush(Qt.BrushStyle.NoBrush)
        painter.drawEllipse(QRectF(s * 0.08, s * 0.08, s * 0.84, s * 0.84))
        font = QFont()
        font.setPixelSize(round(s * 0.66))
        font.setBold(True)
        painter.setFont(font)
        painter.setPen(colour)
        painter.drawText(QRectF(0, 0, s, s * 1.02), Qt.AlignmentFlag.AlignCenter, "?")
    else:
        painter.setPen(Qt.PenStyle.NoPen)
        painter.setBrush(colour)
        painter.drawEllipse(QRectF(s * 0.03, s * 0.03, s * 0.94, s * 0.94))
        painter.setPen(white)
        path = QPainterPath()
        if status == "pass":
            path.moveTo(s * 0.28, s * 0.52)
            path.lineTo(s * 0.44, s * 0.68)
            path.lineTo(s * 0.73, s * 0.34)
        else:
            path.moveTo(s * 0.32, s * 0.32)
            path.lineTo(s * 0.68, s * 0.68)
            path.moveTo(s * 0.68, s * 0.32)
            path.lineTo(s * 0.32, s * 0.68)
        painter.drawPath(path)
    painter.end()
    return pixmap


@cache
def status_icon(status: str) -> QIcon:
    icon = QIcon()
    for size in (16, 20, 24, 32):
        icon.addPixmap(status_pixmap(status, size))
    return icon
