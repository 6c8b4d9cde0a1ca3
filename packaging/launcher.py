"""Entry point of the packaged app: the same `dlhw` command line as from source."""

import os
import sys

if getattr(sys, "frozen", False):
    # What PyInstaller's PySide6 run-time hook did, without importing Qt before our code.
    os.environ["QT_PLUGIN_PATH"] = os.path.join(sys._MEIPASS, "PySide6", "Qt", "plugins")

from dlhw_desktop.cli import main

raise SystemExit(main())
