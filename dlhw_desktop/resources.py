"""One place that resolves paths, from a source checkout and from a frozen app.

Bundled, read-only data (``catalog.db``, ``resources/``) sits beside the package in a
checkout and under ``sys._MEIPASS`` in a PyInstaller bundle. User data (custom parts,
settings, autosave) goes to the platform's app-data folder, never beside the app.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

APP_DIR_NAME = "dlhw-desktop"


def bundle_root() -> Path:
    """The folder holding ``catalog.db`` and ``resources/``."""
    frozen_root = getattr(sys, "_MEIPASS", None)
    if frozen_root:
        return Path(frozen_root)
    return Path(__file__).resolve().parent.parent


def resource_path(*parts: str) -> Path:
    """A file under ``resources/`` (icons, fonts, curated catalog sources)."""
    return bundle_root().joinpath("resources", *parts)


def bundled_catalog_path() -> Path:
    """The catalog shipped with the app (read-only at run time)."""
    override = os.environ.get("DLHW_CATALOG")
    return Path(override) if override else bundle_root() / "catalog.db"


def source_checkout_catalog(root: Path | None = None) -> Path | None:
    """``catalog.db`` of the source checkout this package runs from, or None when it is
    installed or frozen (a checkout has ``resources/catalog/`` and ``pyproject.toml``
    beside the package): the only catalog ``dlhw catalog build`` writes by default."""
    if getattr(sys, "frozen", False) or getattr(sys, "_MEIPASS", None):
        return None
    root = root or Path(__file__).resolve().parent.parent
    if (root / "pyproject.toml").is_file() and (root / "resources" / "catalog").is_dir():
        return root / "catalog.db"
    return None


def catalog_sources_dir() -> Path:
    """The curated source files the catalog is built from."""
    return resource_path("catalog")


def user_data_dir() -> Path:
    """The platform's per-user data folder for this app (created on demand by callers).

    ``DLHW_DATA_DIR`` overrides it (tests, portable installs).
    """
    override = os.environ.get("DLHW_DATA_DIR")
    if override:
        return Path(override)
    if sys.platform == "win32":
        base = Path(os.environ.get("APPDATA") or Path.home() / "AppData" / "Roaming")
    elif sys.platform == "darwin":
        base = Path.home() / "Library" / "Application Support"
    else:
        base = Path(os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share")
    return base / APP_DIR_NAME
