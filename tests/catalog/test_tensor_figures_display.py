"""A computed tensor figure reads as an estimate ("≈") in the details pane and in Compare;
a datasheet figure does not."""

from __future__ import annotations

from pytestqt.qtbot import QtBot

from dlhw_desktop.core.compare.table import spec_table
from dlhw_desktop.core.fields import Category
from dlhw_desktop.core.parts import FigureSource, Part
from dlhw_desktop.ui.catalog.part_details import part_html
from dlhw_desktop.ui.compare.compare_widgets import SpecTableView

NOTE = ("computed from the Ampere (GA102-GA107) rate of 512 FLOP/clock/SM x 28 SMs x "
        "boost clock 1777 MHz (TechPowerUp) (estimate)")
PAPER = "https://www.nvidia.com/content/PDF/nvidia-ampere-ga-102-gpu-architecture-whitepaper-v2.pdf"


def _part(part_id: str, computed: bool) -> Part:
    sources = ({"bf16_tensor_tflops": FigureSource(PAPER, "2026-11-26", NOTE)}
               if computed else {})
    return Part(part_id, Category.ACCELERATOR, "NVIDIA", part_id.split("/")[1],
                "https://www.techpowerup.com/gpu-specs/", "2025-12",
                specs={"bf16_tensor_tflops": 25.5}, figure_sources=sources)


def test_the_details_pane_marks_a_computed_figure_and_says_how() -> None:
    html = part_html(_part("accelerator/computed", computed=True))
    assert "≈ 25.5" in html and "(estimate)" in html and "512 FLOP/clock/SM" in html
    assert "≈" not in part_html(_part("accelerator/datasheet", computed=False))


def test_compare_marks_a_computed_figure(qtbot: QtBot) -> None:
    parts = [_part("accelerator/computed", True), _part("accelerator/datasheet", False)]
    table = spec_table(parts, "BF16")
    view = SpecTableView()
    qtbot.addWidget(view)
    view.show_table(parts, table, dark=False)
    row = next(i for i, r in enumerate(table.rows) if r.key == "bf16_tensor_tflops")
    computed, datasheet = view.item(row, 0), view.item(row, 1)
    assert computed.text().startswith("≈") and "(estimate)" in computed.toolTip()
    assert not datasheet.text().startswith("≈")
