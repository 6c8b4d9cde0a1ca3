"""Sources stored in a compact form and read back as addresses.

Every part imported from the BuildCores OpenDB cites its own JSON file in that repository
at the pinned commit. Stored whole, those 26,000 addresses were 3.9 MB of the catalog (an
eighth of the file); the catalog keeps ``buildcores:<folder>/<opendb_id>`` instead and
every reader gets the full address back from :func:`expand`.
"""

from __future__ import annotations

OPENDB_REPOSITORY = "https://github.com/buildcores/buildcores-open-db"
OPENDB_COMMIT = "136a77aec16a30ba81a7cc6b448a8bace9a25359"
OPENDB_DATE = "2026-08-17"
OPENDB_ATTRIBUTION = "BuildCores OpenDB (ODC-By 1.0)"
OPENDB_PREFIX = "buildcores:"


def opendb_ref(directory: str, opendb_id: str) -> str:
    """The stored source of one open-data row: its dataset folder and id."""
    return f"{OPENDB_PREFIX}{directory}/{opendb_id}"


def opendb_url(directory: str, opendb_id: str) -> str:
    return f"{OPENDB_REPOSITORY}/blob/{OPENDB_COMMIT}/open-db/{directory}/{opendb_id}.json"


def expand(source: str) -> str:
    """The address a stored source stands for (other sources are returned as they are)."""
    if source.startswith(OPENDB_PREFIX):
        directory, _, opendb_id = source[len(OPENDB_PREFIX):].partition("/")
        if directory and opendb_id:
            return opendb_url(directory, opendb_id)
    return source
