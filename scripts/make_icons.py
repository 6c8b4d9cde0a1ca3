"""Render resources/icons/dlhw.svg to the PNG sizes the app and the .desktop file use."""

from __future__ import annotations

import os
import sys
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from PySide6.QtCore import Qt
from PySide6.QtGui import QGuiApplication, QImage, QPainter
from PySide6.QtSvg import QSvgRenderer

ICONS = Path(__file__).resolve().parent.parent / "resources" / "icons"


def main() -> int:
    app = QGuiApplication(sys.argv)
    renderer = QSvgRenderer(str(ICONS / "dlhw.svg"))
    for size in (16, 32, 48, 64, 128, 256):
        image = QImage(size, size, QImage.Format.Format_ARGB32)
        image.fill(Qt.GlobalColor.transparent)
        painter = QPainter(image)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        renderer.render(painter)
        painter.end()
        image.save(str(ICONS / f"dlhw-{size}.png"))
    del app
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
