"""Widget tests run offscreen with pytest-qt; each gets its own settings file."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import QSettings

from dlhw_desktop.ui.common.settings import AppSettings


@pytest.fixture
def app_settings(tmp_path: Path) -> AppSettings:
    return AppSettings(QSettings(str(tmp_path / "settings.ini"), QSettings.Format.IniFormat))


@pytest.fixture(scope="session")
def big_catalog_path(tmp_path_factory: pytest.TempPathFactory, catalog_path: Path) -> Path:
    from dlhw_desktop.catalog.synthetic import make_synthetic_catalog

    return make_synthetic_catalog(catalog_path, tmp_path_factory.mktemp("big") / "big.db",
                                  100_000)
