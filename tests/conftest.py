"""Shared fixtures: offscreen Qt, a private user-data folder, the bundled catalog."""

from __future__ import annotations

import os
import tempfile
import time
from pathlib import Path

import pytest

# Before any QApplication exists.
os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

# Hermetic: the suite must pass the same on any machine, whatever its locale, time zone,
# home folder or desktop settings (CI runs it again under another time zone and with an
# extra fallback font installed). Set before Qt or anything else reads them.
_HOME = Path(tempfile.mkdtemp(prefix="dlhw-test-home-"))
os.environ.update({
    "LANG": "C.UTF-8", "LC_ALL": "C.UTF-8", "LANGUAGE": "",
    "TZ": "UTC",
    "HOME": str(_HOME),
    "XDG_CONFIG_HOME": str(_HOME / ".config"),
    "XDG_DATA_HOME": str(_HOME / ".local" / "share"),
    "XDG_CACHE_HOME": str(_HOME / ".cache"),
    "XDG_STATE_HOME": str(_HOME / ".local" / "state"),
})
if hasattr(time, "tzset"):
    time.tzset()

REPO = Path(__file__).resolve().parent.parent
BUNDLED_CATALOG = REPO / "catalog.db"


@pytest.fixture(autouse=True)
def _private_user_data(tmp_path_factory: pytest.TempPathFactory,
                       monkeypatch: pytest.MonkeyPatch) -> Path:
    """Each test gets its own app-data folder: nothing leaks into the user's."""
    folder = tmp_path_factory.mktemp("userdata")
    monkeypatch.setenv("DLHW_DATA_DIR", str(folder))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(folder / "config"))
    (folder / "home").mkdir()
    monkeypatch.setenv("HOME", str(folder / "home"))
    return folder


@pytest.fixture(scope="session")
def catalog_path() -> Path:
    return BUNDLED_CATALOG


@pytest.fixture(scope="session")
def fresh_catalog_path(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The catalog built from its sources, once per run (per worker): the tests about what
    the build makes share it instead of building their own (4 s each on 2 cores)."""
    from dlhw_desktop.catalog.builder import build_catalog
    from dlhw_desktop.resources import catalog_sources_dir

    path = tmp_path_factory.mktemp("fresh-catalog") / "catalog.db"
    build_catalog(catalog_sources_dir(), path)
    return path


_REAL_DATA_FIXTURES = frozenset({"catalog", "catalog_path", "fresh_catalog_path",
                                 "big_catalog_path"})


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Mark what a test needs, so a subset can be chosen (CONTRIBUTING.md): ``catalog``
    for a test that reads the real catalog (bundled or freshly built), ``gui`` for a
    widget test. ``make test`` still runs everything."""
    for item in items:
        names = set(getattr(item, "fixturenames", ()))
        if names & _REAL_DATA_FIXTURES:
            item.add_marker(pytest.mark.catalog)
        if "fresh_catalog_path" in names:
            # One worker builds the catalog from its sources (about 8 s on a loaded
            # 2-core machine) and runs every test that reads it (``--dist loadgroup``).
            item.add_marker(pytest.mark.xdist_group("fresh_catalog"))
        if "qtbot" in names or "/tests/ui/" in str(item.path).replace("\\", "/"):
            item.add_marker(pytest.mark.gui)


@pytest.fixture(scope="session")
def catalog(catalog_path: Path):
    from dlhw_desktop.catalog.store import Catalog

    return Catalog.open(catalog_path)
