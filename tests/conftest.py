"""Shared fixtures: offscreen Qt, a private user-data folder, the bundled catalog."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

# Before any QApplication exists.
os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

REPO = Path(__file__).resolve().parent.parent
BUNDLED_CATALOG = REPO / "catalog.db"


@pytest.fixture(autouse=True)
def _private_user_data(tmp_path_factory: pytest.TempPathFactory,
                       monkeypatch: pytest.MonkeyPatch) -> Path:
    """Each test gets its own app-data folder: nothing leaks into the user's."""
    folder = tmp_path_factory.mktemp("userdata")
    monkeypatch.setenv("DLHW_DATA_DIR", str(folder))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(folder / "config"))
    return folder


@pytest.fixture(scope="session")
def catalog_path() -> Path:
    return BUNDLED_CATALOG


@pytest.fixture(scope="session")
def catalog(catalog_path: Path):
    from dlhw_desktop.catalog.store import Catalog

    return Catalog.open(catalog_path)
