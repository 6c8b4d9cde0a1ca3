"""A category's parts are read once per catalog file, and afresh when the file changes."""

from __future__ import annotations

import shutil
import sqlite3
from pathlib import Path

from dlhw_desktop.catalog.store import Catalog
from dlhw_desktop.core.fields import Category


def test_the_same_file_answers_from_memory_and_a_changed_file_is_read_again(
        catalog_path: Path, tmp_path: Path) -> None:
    copy = tmp_path / "catalog.db"
    shutil.copyfile(catalog_path, copy)
    first = Catalog.open(copy).parts(Category.CLOUD)
    again = Catalog.open(copy).parts(Category.CLOUD)  # another instance, same file
    assert again == first and again is not first and again[0] is first[0]
    again.clear()  # a caller's list is its own
    assert Catalog.open(copy).parts(Category.CLOUD) == first

    with sqlite3.connect(copy) as conn:  # the file is rebuilt: its rows are read anew
        conn.execute("UPDATE parts SET name = 'Renamed offer' WHERE id = ?", (first[0].id,))
    renamed = Catalog.open(copy).parts(Category.CLOUD)
    assert any(p.name == "Renamed offer" for p in renamed)
