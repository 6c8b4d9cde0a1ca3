"""Start the GUI: the application object, the catalog, the main window."""

from __future__ import annotations

import os
import sys
from pathlib import Path

from dlhw_desktop import APP_ID, APP_NAME, ORG_NAME, __version__


def create_application(argv: list[str] | None = None):
    from PySide6.QtWidgets import QApplication

    app = QApplication.instance() or QApplication(argv or [sys.argv[0]])
    app.setApplicationName(APP_ID)
    app.setApplicationDisplayName(APP_NAME)
    app.setOrganizationName(ORG_NAME)
    app.setApplicationVersion(__version__)
    from dlhw_desktop.ui.common.icons import app_icon

    app.setWindowIcon(app_icon())
    from dlhw_desktop.ui.common.fonts import ensure_ui_font

    ensure_ui_font()
    return app


def run_app(catalog_path: Path | None = None, exit_after_show: bool = False,
            open_files: list[Path] | None = None, exit_when_ready: bool = False) -> int:
    """Run the app until its window closes; a catalog problem is a dialog, exit status 2.

    ``exit_after_show`` leaves right after the window's first frame, ``exit_when_ready``
    right after the Catalog tab's first rows are painted (both for timing start-up)."""
    timing = exit_after_show or exit_when_ready
    if not _display_available():
        if not timing:
            print("dlhw: error: no display found (DISPLAY and WAYLAND_DISPLAY are unset); run it "
                  "from a desktop session, under a virtual screen (xvfb-run -a dlhw), or use "
                  "the command-line tools (dlhw --help)", file=sys.stderr)
            return 2
        os.environ["QT_QPA_PLATFORM"] = "offscreen"
    from dlhw_desktop.ui.shell.display_check import window_problem

    problem = window_problem(say=lambda text: print(text, file=sys.stderr))
    if problem is not None:  # before Qt loads: Qt itself would abort with a riddle
        print(f"dlhw: error: {problem}", file=sys.stderr)
        return 2
    # The catalog (pure Python and SQLite) is imported and opened before Qt: PySide6 scans
    # the source of every module imported after it, and a bad catalog is known at once.
    from dlhw_desktop.catalog.store import Catalog
    from dlhw_desktop.core.errors import CatalogError

    try:
        catalog = Catalog.open(catalog_path)
    except CatalogError as exc:
        print(f"dlhw: error: {exc}", file=sys.stderr)
        if not timing:
            create_application()
            from dlhw_desktop.ui.common.dialogs import show_error

            show_error(None, f"{APP_NAME}: cannot open the catalog", str(exc))
        return 2
    app = create_application()
    from PySide6.QtCore import QTimer

    from dlhw_desktop.ui.common.settings import AppSettings
    from dlhw_desktop.ui.common.theme import apply_theme
    from dlhw_desktop.ui.shell.main_window import MainWindow

    settings = AppSettings()
    if settings.problem:
        print(f"dlhw: warning: {settings.problem}", file=sys.stderr)
    theme = settings.get("view/theme")
    if theme != "system":  # the platform's palette is already in place
        apply_theme(app, theme)
    window = MainWindow(catalog, settings, progressive=True)
    if timing:
        # Exit the moment the frame is painted: what is timed is start-up, not the
        # interpreter's teardown of every Qt object (the floor benchmark does the same).
        milestone = window.first_paint if exit_after_show else window.catalog_ready
        milestone.connect(lambda: QTimer.singleShot(0, _exit_now))

    def after_first_frame() -> None:
        window.finish_startup()
        if settings.problem:
            window.statusBar().showMessage(settings.problem[:1].upper() + settings.problem[1:])
        if not timing:
            if not open_files:
                QTimer.singleShot(0, window.restore_last_tab)
            # a build left unsaved by a crash: offered once the window is whole
            QTimer.singleShot(0, window.offer_recovery)
            QTimer.singleShot(0, window.report_price_book)  # rows left out, named

    if not timing:  # the Compare tab's libraries load while the user reads the catalog
        window.catalog_ready.connect(window.warm_up_compare)

    # The window's frame is painted first; menus and the Catalog tab follow on the next turn.
    window.first_paint.connect(lambda: QTimer.singleShot(0, after_first_frame))
    window.show()
    for path in open_files or []:
        window.open_build_file(path)
    return app.exec()


def _exit_now() -> None:
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(0)


def _display_available() -> bool:
    """False on a Linux machine with no screen, where Qt would abort with a cryptic message."""
    if not sys.platform.startswith("linux") or os.environ.get("QT_QPA_PLATFORM"):
        return True
    return bool(os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"))
