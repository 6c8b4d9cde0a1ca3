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


@pytest.fixture
def app_settings(tmp_path: Path) -> AppSettings:
    return AppSettings(QSettings(str(tmp_path / "settings.ini"), QSettings.Format.IniFormat))


@pytest.fixture(scope="session")
def big_catalog_path(tmp_path_factory: pytest.TempPathFactory, catalog_path: Path) -> Path:
    from dlhw_desktop.catalog.synthetic import make_synthetic_catalog

    return make_synthetic_catalog(catalog_path, tmp_path_factory.mktemp("big") / "big.db",
                                  100_000)
