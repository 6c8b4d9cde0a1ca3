"""The application icon and status icons, loaded from resources/icons/."""

from __future__ import annotations

from PySide6.QtGui import QIcon

from dlhw_desktop.resources import resource_path


def app_icon() -> QIcon:
    icon = QIcon()
    for size in (16, 32, 48, 64, 128, 256):
        path = resource_path("icons", f"dlhw-{size}.png")
        if path.exists():
            icon.addFile(str(path))
    svg = resource_path("icons", "dlhw.svg")
    if svg.exists():
        icon.addFile(str(svg))
    return icon
