"""Widget tests run offscreen with pytest-qt; each gets its own settings file."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from PySide6.QtCore import QSettings, QThreadPool

from dlhw_desktop.ui.common.settings import AppSettings


@pytest.fixture(autouse=True)
def _no_worker_outlives_its_test() -> Iterator[None]:
    """Background work (PDF export, detection) finishes inside the test that started it:
    a worker still rendering while the next test builds its widgets can deadlock Qt."""
    yield
    QThreadPool.globalInstance().waitForDone(20_000)


@pytest.fixture(autouse=True)
def _no_question_waits_at_teardown(monkeypatch: pytest.MonkeyPatch) -> None:
    """A test that fails with a modified build leaves its window to pytest-qt, which closes
    it; the "save changes?" box would then wait for a click that never comes and hang the
    run. Unless a test sets its own answer, closing discards."""
    from dlhw_desktop.ui.planner.build_files import BuildFileActions

    monkeypatch.setattr(BuildFileActions, "ask_save_changes", lambda self: "discard")


@pytest.fixture
def app_settings(tmp_path: Path) -> AppSettings:
    return AppSettings(QSettings(str(tmp_path / "settings.ini"), QSettings.Format.IniFormat))


@pytest.fixture(scope="session")
def big_catalog_path(tmp_path_factory: pytest.TempPathFactory, catalog_path: Path) -> Path:
    from dlhw_desktop.catalog.synthetic import make_synthetic_catalog

    return make_synthetic_catalog(catalog_path, tmp_path_factory.mktemp("big") / "big.db",
                                  100_000)


@pytest.fixture
def app_theme(qtbot: object) -> Iterator[object]:
    """The application, its palette and style put back after a test switches themes."""
    from PySide6.QtWidgets import QApplication

    app = QApplication.instance()
    assert isinstance(app, QApplication)
    palette, style = app.palette(), app.style().name()
    yield app
    app.setStyle(style)
    app.setPalette(palette)
