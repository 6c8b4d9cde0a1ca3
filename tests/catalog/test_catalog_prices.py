"""The catalog's prices: sources validated row by row, kinds and dates in the database,
cloud offers complete enough to compare, the seed article's A100 figure dated."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from dlhw_desktop.catalog.builder import build_catalog
from dlhw_desktop.catalog.price_sources import COLUMNS, read_prices
from dlhw_desktop.core.errors import CatalogSourceError
from dlhw_desktop.core.fields import Category
from dlhw_desktop.core.prices.kinds import PriceKind, price_kind
from dlhw_desktop.resources import catalog_sources_dir

HEADER = ",".join(COLUMNS)
GOOD = "accelerator/nvidia-geforce-rtx-4090,1599,USD,list,2022-09-20,https://example.org,2026-11-26,"


def write(tmp_path: Path, *lines: str) -> Path:
    (tmp_path / "prices.csv").write_text("\n".join((HEADER, *lines)) + "\n", encoding="utf-8")
    return tmp_path


@pytest.mark.parametrize(("line", "message"), [
    (GOOD.replace(",1599,", ",1.599,99,"), "more cells than columns"),
    (GOOD.replace(",1599,", ",about 1600,"), "is not a number"),
    (GOOD.replace(",1599,", ",0,"), "above zero"),
    (GOOD.replace(",1599,", ",-5,"), "above zero"),
    (GOOD.replace(",USD,", ",XYZ,"), "unknown currency"),
    (GOOD.replace(",list,", ",msrp,"), "price_kind 'msrp'"),
    (GOOD.replace(",list,", ",cloud_on_demand,"), "cloud rates belong in cloud.csv"),
    (GOOD.replace(",2022-09-20,", ",20/09/2022,"), "not an ISO date"),
    (GOOD.replace(",https://example.org,", ",,"), "source is empty"),
])
def test_a_bad_price_row_is_refused_with_its_line(tmp_path: Path, line: str,
                                                   message: str) -> None:
    with pytest.raises(CatalogSourceError, match=message) as info:
        read_prices(write(tmp_path, line))
    assert "prices.csv:2" in str(info.value)


def test_a_duplicate_price_is_refused(tmp_path: Path) -> None:
    with pytest.raises(CatalogSourceError, match=r"duplicate of prices\.csv:2"):
        read_prices(write(tmp_path, GOOD, GOOD))


def test_a_price_for_an_unknown_part_stops_the_build(tmp_path: Path) -> None:
    sources = tmp_path / "sources"
    shutil.copytree(catalog_sources_dir(), sources)
    with (sources / "prices.csv").open("a", encoding="utf-8") as handle:
        handle.write("accelerator/no-such-gpu,1,USD,list,2024-01-01,https://example.org,"
                     "2026-11-26,\n")
    with pytest.raises(CatalogSourceError, match="unknown part 'accelerator/no-such-gpu'"):
        build_catalog(sources, tmp_path / "out.db")


def test_every_priced_part_says_what_kind_of_price_and_when(catalog) -> None:
    for category in Category:
        for part in catalog.parts(category):
            priced = part.price_usd is not None or part.number("price_per_hour_usd") is not None
            if not priced:
                continue
            kind = price_kind(part.price_kind)
            assert kind is not None, part.id
            assert part.price_date, part.id
            assert kind.rental == (category is Category.CLOUD), part.id
            if part.price_usd is not None:
                assert part.source_of("price_usd").source != part.source or kind, part.id


def test_the_seed_articles_a100_figure_is_dated_and_not_a_list_price(catalog) -> None:
    a100 = catalog.get("accelerator/nvidia-a100-pcie-40-gb")
    assert a100.price_usd == 11000
    assert a100.price_kind == PriceKind.REPORTED
    assert a100.price_date == "2023-04"
    assert "not a list price" in a100.source_of("price_usd").note


def test_datacenter_parts_have_no_list_price(catalog) -> None:
    for part_id in ("accelerator/nvidia-h100-sxm5-80-gb", "accelerator/nvidia-h200-sxm-141-gb",
                    "accelerator/nvidia-b200", "accelerator/amd-instinct-mi300x",
                    "accelerator/nvidia-l40s"):
        part = catalog.get(part_id)
        assert part.price_kind != PriceKind.LIST, part_id


def test_cloud_offers_are_many_and_mostly_priced(catalog) -> None:
    offers = [p for p in catalog.parts(Category.CLOUD) if p.text("offering_kind") == "cloud"]
    priced = [p for p in offers if p.number("price_per_hour_usd") is not None]
    assert len(offers) >= 80
    assert len(priced) / len(offers) >= 0.9
    providers = {p.text("provider") for p in priced}
    assert {"AWS", "Google Cloud", "Microsoft Azure", "Lambda", "RunPod", "Nebius"} <= providers
    kinds = {p.price_kind for p in priced}
    assert {"cloud_on_demand", "cloud_spot"} <= kinds


def test_llama_70b_qlora_rents_one_big_gpu_per_job_never_a_tpu_or_eight_v100s(catalog) -> None:
    from dlhw_desktop.core.workload.fit_ranking import cheapest_cloud, rank_fits
    from dlhw_desktop.core.workload.model_presets import preset
    from dlhw_desktop.core.workload.workload import Workload

    job = Workload(preset("llama-3.1-70b"), mode="qlora", precision="NF4", seq=1024,
                   tokens=100e6)
    options = rank_fits(job, catalog.parts(Category.ACCELERATOR),
                        catalog.parts(Category.CLOUD))
    clouds = [o for o in options if o.kind == "cloud"]
    stacks = {catalog.get(str(o.part.get("accelerator_id"))).text("software") for o in clouds}
    assert all("CUDA" in s or not s for s in stacks), stacks  # bitsandbytes runs on CUDA only
    best = cheapest_cloud(options, catalog.get("accelerator/nvidia-geforce-rtx-4090"),
                          catalog.get)
    assert best is not None and best.count == 1
    assert best.part.text("instance_type") != "p3.16xlarge"
    assert best.cost_usd is not None
    p3 = next((o for o in clouds if o.part.text("instance_type") == "p3.16xlarge"), None)
    if p3 is not None and p3.cost_usd is not None:  # when 8x V100 fits, it costs more per job
        assert best.cost_usd < p3.cost_usd
    costs = [o.cost_usd for o in clouds if o.cost_usd is not None]
    assert costs == sorted(costs)


# DL-relevant cards since 2016 whose vendor published a launch list price (issue #17). The
# RTX PRO Blackwell cards and datacenter parts are left out: NVIDIA publishes no list price.
LIST_PRICE_TARGETS = (
    "nvidia-geforce-rtx-2060", "nvidia-geforce-rtx-2060-super", "nvidia-geforce-rtx-2070",
    "nvidia-geforce-rtx-2070-super", "nvidia-geforce-rtx-2080", "nvidia-geforce-rtx-2080-super",
    "nvidia-geforce-rtx-2080-ti", "nvidia-geforce-rtx-3050-8-gb",
    "nvidia-geforce-rtx-3060-12-gb", "nvidia-geforce-rtx-3060-ti", "nvidia-geforce-rtx-3070",
    "nvidia-geforce-rtx-3070-ti", "nvidia-geforce-rtx-3080", "nvidia-geforce-rtx-3080-ti",
    "nvidia-geforce-rtx-3090", "nvidia-geforce-rtx-3090-ti", "nvidia-geforce-rtx-4060",
    "nvidia-geforce-rtx-4060-ti-8-gb", "nvidia-geforce-rtx-4060-ti-16-gb",
    "nvidia-geforce-rtx-4070", "nvidia-geforce-rtx-4070-super", "nvidia-geforce-rtx-4070-ti",
    "nvidia-geforce-rtx-4070-ti-super", "nvidia-geforce-rtx-4080",
    "nvidia-geforce-rtx-4080-super", "nvidia-geforce-rtx-4090", "nvidia-geforce-rtx-5050",
    "nvidia-geforce-rtx-5060", "nvidia-geforce-rtx-5060-ti-8-gb",
    "nvidia-geforce-rtx-5060-ti-16-gb", "nvidia-geforce-rtx-5070", "nvidia-geforce-rtx-5070-ti",
    "nvidia-geforce-rtx-5080", "nvidia-geforce-rtx-5090", "nvidia-titan-rtx", "nvidia-titan-v",
    "nvidia-titan-xp", "nvidia-titan-x-pascal", "nvidia-quadro-rtx-4000",
    "nvidia-quadro-rtx-5000", "nvidia-quadro-rtx-6000", "nvidia-quadro-rtx-8000",
    "nvidia-quadro-gv100", "nvidia-rtx-a2000", "nvidia-rtx-a4000", "nvidia-rtx-a4500",
    "nvidia-rtx-a5000", "nvidia-rtx-a5500", "nvidia-rtx-a6000",
    "nvidia-rtx-2000-ada-generation", "nvidia-rtx-4000-ada-generation",
    "nvidia-rtx-4000-sff-ada-generation", "nvidia-rtx-4500-ada-generation",
    "nvidia-rtx-5000-ada-generation", "nvidia-rtx-6000-ada-generation", "amd-radeon-vii",
    "amd-radeon-rx-6400", "amd-radeon-rx-6500-xt", "amd-radeon-rx-6600",
    "amd-radeon-rx-6600-xt", "amd-radeon-rx-6650-xt", "amd-radeon-rx-6700-xt",
    "amd-radeon-rx-6750-xt", "amd-radeon-rx-6800", "amd-radeon-rx-6800-xt",
    "amd-radeon-rx-6900-xt", "amd-radeon-rx-6950-xt", "amd-radeon-rx-7600",
    "amd-radeon-rx-7600-xt", "amd-radeon-rx-7700-xt", "amd-radeon-rx-7800-xt",
    "amd-radeon-rx-7900-gre", "amd-radeon-rx-7900-xt", "amd-radeon-rx-7900-xtx",
    "amd-radeon-rx-9060-xt-8-gb", "amd-radeon-rx-9060-xt-16-gb", "amd-radeon-rx-9070",
    "amd-radeon-rx-9070-xt", "amd-radeon-pro-w6800", "amd-radeon-pro-w7500",
    "amd-radeon-pro-w7600", "amd-radeon-pro-w7700", "amd-radeon-pro-w7800",
    "amd-radeon-pro-w7900", "intel-arc-a380", "intel-arc-a580", "intel-arc-a750",
    "intel-arc-a770", "intel-arc-b570", "intel-arc-b580", "intel-arc-pro-b50",
    "intel-arc-pro-b60",
)


def test_most_cards_with_a_public_list_price_carry_it(catalog) -> None:
    """The goal is 90 %; this guards what is sourced today (73 of 92) against regressions."""
    priced = [t for t in LIST_PRICE_TARGETS
              if catalog.get("accelerator/" + t).price_kind == PriceKind.LIST]
    assert len(priced) / len(LIST_PRICE_TARGETS) >= 0.79, sorted(
        set(LIST_PRICE_TARGETS) - set(priced))


# List prices inherited from an earlier session that name their announcement but carry no
# address yet; every new accelerator price must give one.
NAMED_NOT_LINKED = {
    "accelerator/amd-radeon-pro-w7900", "accelerator/nvidia-geforce-rtx-4070-ti-super",
    "accelerator/nvidia-geforce-rtx-4080-super",
    "accelerator/nvidia-rtx-6000-ada-generation", "accelerator/nvidia-rtx-a6000",
}


def test_every_accelerator_list_price_has_an_address_and_a_launch_date(catalog) -> None:
    for part in catalog.parts(Category.ACCELERATOR):
        if part.price_kind not in (PriceKind.LIST, PriceKind.LIST_1KU):
            continue
        source = part.source_of("price_usd")
        assert source.source.startswith("http") or part.id in NAMED_NOT_LINKED, part.id
        assert part.price_date and part.price_date <= "2026-11-26", part.id


def test_commitments_are_not_priced_per_job_and_spot_is_not_the_yardstick(catalog) -> None:
    from dlhw_desktop.core.workload.fit_ranking import cheapest_cloud, rank_fits
    from dlhw_desktop.core.workload.model_presets import preset
    from dlhw_desktop.core.workload.workload import Workload

    job = Workload(preset("llama-3.1-8b"), mode="lora", precision="BF16", tokens=1e8)
    options = rank_fits(job, catalog.parts(Category.ACCELERATOR),
                        catalog.parts(Category.CLOUD))
    kinds = {o.part.price_kind for o in options if o.kind == "cloud"}
    assert "cloud_reserved" not in kinds and "cloud_spot" in kinds
    best = cheapest_cloud(options, catalog.get("accelerator/nvidia-geforce-rtx-4090"),
                          catalog.get)
    assert best is not None and best.part.price_kind == "cloud_on_demand"


def test_each_ranked_cost_says_what_kind_of_price_it_rests_on(catalog) -> None:
    from dlhw_desktop.core.workload.fit_ranking import rank_fits
    from dlhw_desktop.core.workload.model_presets import preset
    from dlhw_desktop.core.workload.workload import Workload

    job = Workload(preset("llama-3.1-8b"), mode="lora", precision="BF16", tokens=1e8)
    options = rank_fits(job, catalog.parts(Category.ACCELERATOR),
                        catalog.parts(Category.CLOUD))
    spot = [o for o in options if o.kind == "cloud" and o.part.price_kind == "cloud_spot"
            and o.cost_usd is not None]
    assert spot and all("spot rate" in o.cost_basis for o in spot)
    on_demand = [o for o in options if o.kind == "cloud"
                 and o.part.price_kind == "cloud_on_demand"]
    assert on_demand and not any("spot" in o.cost_basis for o in on_demand)
    owned = [o for o in options if o.kind == "own" and o.cost_usd is not None]
    assert owned
    for o in owned:  # a 2019 list price reads as one, and as old
        assert o.accelerator.price_date in o.cost_basis, o.cost_basis
        assert ("list price" in o.cost_basis or "reported" in o.cost_basis
                or "street price" in o.cost_basis or "your quote" in o.cost_basis), o.cost_basis
    a100 = next((o for o in owned if o.accelerator.id == "accelerator/nvidia-a100-sxm4-40-gb"),
                None)
    if a100 is not None:
        assert "reported figure" in a100.cost_basis and "older than 12 months" in a100.cost_basis


def test_a_pending_price_waits_for_its_part_and_is_counted_not_refused(tmp_path: Path) -> None:
    """``prices_pending.csv`` holds launch prices for parts an import may add later: a row
    whose part is absent is skipped and counted; a row whose part exists prices it."""
    sources = tmp_path / "sources"
    shutil.copytree(catalog_sources_dir(), sources)
    (sources / "prices_pending.csv").write_text(
        HEADER + "\n"
        "cpu/amd-ryzen-9-1234x,499,USD,list,2030-01-01,https://example.org,2026-11-26,\n"
        "cpu/intel-xeon-w-3345,2000,USD,list_1ku,2021-07-29,https://example.org,2026-11-26,"
        "test row\n", encoding="utf-8")
    report = build_catalog(sources, tmp_path / "out.db")
    assert report.pending_prices_skipped == 1
    from dlhw_desktop.catalog.store import Catalog

    xeon = Catalog(tmp_path / "out.db").get("cpu/intel-xeon-w-3345")
    assert xeon.price_usd == 2000 and xeon.price_kind == PriceKind.LIST_1KU


def test_the_same_price_in_both_files_is_refused(tmp_path: Path) -> None:
    sources = tmp_path / "sources"
    shutil.copytree(catalog_sources_dir(), sources)
    first = next(line for line in (sources / "prices.csv").read_text(encoding="utf-8")
                 .splitlines()[1:] if line.startswith("accelerator/"))
    (sources / "prices_pending.csv").write_text(HEADER + "\n" + first + "\n",
                                                encoding="utf-8")
    with pytest.raises(CatalogSourceError, match=r"prices_pending\.csv"):
        build_catalog(sources, tmp_path / "out.db")


def test_oracle_rates_come_from_oracles_price_list_per_gpu(catalog) -> None:
    oracle = {p.text("instance_type"): p for p in catalog.parts(Category.CLOUD)
              if p.text("provider") == "Oracle Cloud"}
    if not oracle:
        pytest.skip("the committed catalog predates the Oracle rows (rebuild at merge)")
    h100 = oracle["BM.GPU.H100.8"]
    assert h100.number("price_per_hour_usd") == 80  # $10 per GPU-hour x 8
    assert h100.number("price_per_accelerator_hour_usd") == 10
    assert h100.price_kind == PriceKind.CLOUD_ON_DEMAND and h100.price_date == "2026-01-05"
    assert "apexapps.oracle.com" in h100.source
