"""A user's own parts: stored in the app-data folder, found by id, marked custom."""

from __future__ import annotations

from pathlib import Path

import pytest

from dlhw_desktop.catalog.store import Catalog
from dlhw_desktop.catalog.userparts import PartResolver, UserParts, UserPartsError
from dlhw_desktop.core.fields import Category


def test_add_and_resolve_a_custom_part(tmp_path: Path, catalog: Catalog) -> None:
    parts = UserParts(tmp_path / "user.db")
    part = parts.add(Category.ACCELERATOR, "Acme", "Tensor Card 1",
                     {"memory_gb": 32, "tdp_w": 250}, price_usd=1999)
    assert part.id == "custom/accelerator/acme-tensor-card-1" and part.custom
    resolver = PartResolver(catalog, parts)
    found = resolver.get(part.id)
    assert found.number("memory_gb") == 32 and found.price_usd == 1999
    assert resolver.get("accelerator/nvidia-geforce-rtx-4090").custom is False
    assert [p.id for p in parts.all(Category.ACCELERATOR)] == [part.id]
    parts.remove(part.id)
    assert resolver.find(part.id) is None


def test_bad_custom_figures_are_refused(tmp_path: Path) -> None:
    parts = UserParts(tmp_path / "user.db")
    with pytest.raises(UserPartsError, match="not a number"):
        parts.add(Category.CPU, "Acme", "CPU", {"cores": "many"})
    with pytest.raises(UserPartsError, match="not a figure"):
        parts.add(Category.CPU, "Acme", "CPU", {"memory_gb": 3})
    with pytest.raises(UserPartsError, match="vendor and a name"):
        parts.add(Category.CPU, " ", "CPU")


def test_no_database_until_first_write(tmp_path: Path) -> None:
    parts = UserParts(tmp_path / "sub" / "user.db")
    assert parts.all() == [] and parts.find("custom/cpu/x") is None
    assert not (tmp_path / "sub").exists()


def test_unwritable_folder_is_a_clear_error(tmp_path: Path) -> None:
    # A file where the folder should be fails even for root (CI runs as root).
    blocker = tmp_path / "not-a-folder"
    blocker.write_text("x")
    parts = UserParts(blocker / "user.db")
    with pytest.raises(UserPartsError, match="cannot be used"):
        parts.add(Category.CPU, "Acme", "CPU", {"cores": 8})
