"""A ``QGuiApplication`` for headless export (the CLI), offscreen when there is no display."""

from __future__ import annotations

import os
import sys

from PySide6.QtGui import QGuiApplication

_APP: list[QGuiApplication] = []


def ensure_gui_application() -> QGuiApplication:
    """The running Qt application, or a new one; on Linux without ``DISPLAY`` or
    ``WAYLAND_DISPLAY`` it uses the offscreen platform (unless ``QT_QPA_PLATFORM`` says
    otherwise), so ``dlhw export`` works over SSH and in CI."""
    app = QGuiApplication.instance()
    if app is not None:
        return app  # type: ignore[return-value]
    headless = not os.environ.get("DISPLAY") and not os.environ.get("WAYLAND_DISPLAY")
    if headless and sys.platform.startswith(("linux", "freebsd", "openbsd", "netbsd")):
        os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    app = QGuiApplication([sys.argv[0] if sys.argv else "dlhw"])
    _APP.append(app)
    return app
