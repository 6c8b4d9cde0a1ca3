"""A sheet chart's long part name wraps onto as many lines as it needs, inside its row:
"NVIDIA RTX PRO 6000 Blackwell Workstation Edition" was cut at both edges on page 3."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QRectF, Qt
from PySide6.QtGui import QFontMetricsF, QPdfWriter
from pytestqt.qtbot import QtBot

from dlhw_desktop.reports.sheet_model import Bar, BarChart, Segment
from dlhw_desktop.ui.pdf.charts import PITCH, ChartLayout
from dlhw_desktop.ui.pdf.page import DPI, mm


def test_each_label_fits_its_own_row_and_short_rows_stay_short(qtbot: QtBot,
                                                               tmp_path: Path) -> None:
    names = ["NVIDIA GeForce RTX 5090", "NVIDIA RTX PRO 6000 Blackwell Workstation Edition",
             "NVIDIA RTX 6000 Ada Generation (this build)", "AMD Radeon PRO W7900"]
    chart = BarChart("per-dollar", "BF16 TFLOPS per $1,000 of launch price", "TFLOPS",
                     tuple(Bar(n, (Segment("v", 50.0 + i),), highlight=i == 2, text="50")
                           for i, n in enumerate(names)))
    device = QPdfWriter(str(tmp_path / "chart.pdf"))  # as the sheet measures: at its DPI
    device.setResolution(DPI)
    layout = ChartLayout(chart, mm(88), device)  # a half-page column, as on page 3
    flags = int(Qt.AlignmentFlag.AlignRight | Qt.TextFlag.TextWordWrap)
    for bar, pitch in zip(chart.bars, layout.pitches, strict=True):
        font = layout.bold_label_font if bar.highlight else layout.label_font
        needed = QFontMetricsF(font, device).boundingRect(
            QRectF(0, 0, layout.label_w, 1e6), flags, bar.label).height()
        assert needed <= pitch, bar.label
    assert layout.pitches[0] == PITCH  # a name on one line keeps the usual row
    assert layout.pitches[1] > PITCH  # the long one gets the lines it needs
    assert layout.bars_h == sum(layout.pitches)
