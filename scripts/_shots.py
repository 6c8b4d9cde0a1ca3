"""What the screenshot scripts share: a sandbox for settings and user data, the app, and
a main window per theme and size on the Build tab.

    for window, theme, width, height in build_windows(catalog, sandbox): ...
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

SIZES = ((1600, 1000), (1280, 720))
THEMES = ("light", "dark")


def sandbox() -> Path:
    """A temporary folder for the app's data; call before Qt or the app is imported."""
    folder = Path(tempfile.mkdtemp())
    os.environ["DLHW_DATA_DIR"] = str(folder / "data")
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    return folder


def build_windows(catalog: Any, folder: Path, variants: tuple[str, ...] = ("",)
                  ) -> Iterator[tuple[Any, str, int, int, str]]:
    """A fresh main window on the Build tab for each theme, size and variant, with its
    own settings file: (window, theme, width, height, variant). The caller closes it."""
    from PySide6.QtCore import QSettings

    from dlhw_desktop.ui.common.settings import AppSettings
    from dlhw_desktop.ui.common.theme import apply_theme
    from dlhw_desktop.ui.shell.app import create_application
    from dlhw_desktop.ui.shell.main_window import BUILD, MainWindow

    app = create_application()
    for theme in THEMES:
        apply_theme(app, theme)
        for width, height in SIZES:
            for variant in variants:
                settings = AppSettings(QSettings(
                    str(folder / f"{theme}{width}{variant}.ini"), QSettings.Format.IniFormat))
                window = MainWindow(catalog, settings)
                window.resize(width, height)
                window.show()
                window.tabs.setCurrentIndex(BUILD)
                yield window, theme, width, height, variant
