"""The catalog writes several storage kinds as "sata-ssd; hdd": each one must count."""

from __future__ import annotations

from dlhw_desktop.catalog.store import Catalog
from dlhw_desktop.core.build.tiers import TierRequirement, tiers_from_rows


def test_storage_kinds_split_on_every_separator() -> None:
    for text in ("sata-ssd; hdd", "sata-ssd/hdd", "sata-ssd, hdd", "sata-ssd | hdd"):
        req = TierRequirement("demanding", "storage_secondary", "minimum", storage_kind=text)
        assert req.storage_kinds == ("sata-ssd", "hdd"), text


def test_catalog_tier_rows_give_clean_kinds(catalog: Catalog) -> None:
    for tier in tiers_from_rows(catalog.tier_rows()).values():
        for req in tier.requirements:
            assert all(k and not set(k) & set(";/|, ") for k in req.storage_kinds), req
