"""A reported price range stays a range: in its text, in a build's total ("from $X to $Y"),
and a multi-GPU board counts every GPU's memory and throughput."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import TYPE_CHECKING

import pytest

from dlhw_desktop.core.build.build import Build
from dlhw_desktop.core.checks import summarize
from dlhw_desktop.core.formatting import price_range_text

if TYPE_CHECKING:
    from tests.core.conftest import PartFactory

MakeBuild = Callable[..., Build]


def test_a_range_reads_as_a_range() -> None:
    assert price_range_text(25000, 30000) == "$25,000–30,000"
    assert price_range_text(1999) == "$1,999"
    assert price_range_text(None) == "n/a"


def test_a_total_built_on_a_range_runs_from_low_to_high(parts: PartFactory,
                                                        make_build: MakeBuild) -> None:
    h100 = dataclasses.replace(parts.a100_pcie_80gb(), price_usd=25000.0,
                               price_high_usd=30000.0, price_kind="reported",
                               price_date="2023-08-01")
    s = summarize(make_build((h100, 2), parts.rtx_4090()))
    assert s.price_usd == 2 * 25000 + 1599
    assert s.price_high_usd == 2 * 30000 + 1599
    plain = summarize(make_build(parts.rtx_4090()))
    assert plain.price_high_usd is None  # one figure, no range


def test_a_multi_gpu_board_counts_every_gpu(parts: PartFactory, make_build: MakeBuild) -> None:
    board = parts.a100_pcie_80gb(name="A16-like board", memory_gb=16, bf16_tensor_tflops=18,
                                 board_gpus=4)
    s = summarize(make_build((board, 2)))
    assert s.vram_gb == 2 * 4 * 16
    assert s.bf16_tflops == pytest.approx(2 * 4 * 18)


def test_a_cost_built_on_a_range_knows_it(parts: PartFactory, make_build: MakeBuild) -> None:
    from dlhw_desktop.core.checks.own_cost import machine_of

    ranged = dataclasses.replace(parts.rtx_4090(), price_high_usd=1899.0)
    assert "price range: its low end" in machine_of(make_build(ranged)).price_basis
    assert "range" not in machine_of(make_build(parts.rtx_4090())).price_basis


def test_compare_shows_a_range_as_a_range(parts: PartFactory) -> None:
    from dlhw_desktop.core.compare.table import spec_table

    ranged = dataclasses.replace(parts.a100_pcie_80gb(), price_usd=25000.0,
                                 price_high_usd=30000.0)
    row = spec_table([ranged, parts.rtx_4090()], "BF16").row("price_usd")
    assert row.texts == ("$25,000–30,000", "$1,599")
