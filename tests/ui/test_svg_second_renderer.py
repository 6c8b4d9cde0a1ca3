"""An exported chart SVG looks the same in a second renderer (librsvg's rsvg-convert) as
the chart does on screen: no outline drawn as a slab, no marker squeezed from an atlas."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import numpy as np
import pytest
from PySide6.QtGui import QImage
from pytestqt.qtbot import QtBot

from dlhw_desktop.catalog.store import Catalog
from dlhw_desktop.ui.common.settings import AppSettings
from dlhw_desktop.ui.compare.charts.svg_flatten import flatten_scaled_strokes
from dlhw_desktop.ui.compare.compare_tab import CompareTab

SEED = ["accelerator/nvidia-a100-pcie-40-gb", "accelerator/google-tpu-v4",
        "accelerator/amd-instinct-mi250x", "accelerator/amd-alveo-u250"]
CELL = 12
"""Pixels are compared as the mean colour of 12 x 12 cells: text and anti-aliasing differ
a little between renderers, a 1 px outline scaled 81 times fills whole cells."""


def _pixels(path: Path) -> np.ndarray:
    image = QImage(str(path)).convertToFormat(QImage.Format.Format_RGB888)
    height, width, line = image.height(), image.width(), image.bytesPerLine()
    raw = np.frombuffer(image.constBits(), dtype=np.uint8, count=line * height)
    return raw.reshape(height, line)[:, :width * 3].reshape(height, width, 3).astype(float)


def _cells(pixels: np.ndarray) -> np.ndarray:
    h, w = pixels.shape[0] // CELL * CELL, pixels.shape[1] // CELL * CELL
    return pixels[:h, :w].reshape(h // CELL, CELL, w // CELL, CELL, 3).mean(axis=(1, 3))


@pytest.mark.skipif(shutil.which("rsvg-convert") is None,
                    reason="rsvg-convert (Debian: librsvg2-bin; make test installs it)")
def test_every_chart_renders_alike_in_qt_and_in_librsvg(
        qtbot: QtBot, catalog: Catalog, app_settings: AppSettings, tmp_path: Path) -> None:
    tab = CompareTab(catalog, app_settings)
    qtbot.addWidget(tab)
    tab.resize(1360, 780)
    tab.show()
    qtbot.waitExposed(tab)
    tab.add_parts(SEED)
    for kind in ("bars", "normalised", "derived", "scatter"):
        tab.set_chart_kind(kind)
        chart = tab.chart()
        screen = tmp_path / f"{kind}.png"
        chart.export_png(screen, 1.0)
        svg = tab.export_chart_svg(tmp_path / f"{kind}.svg")
        text = svg.read_text(encoding="utf-8")
        assert "<image" not in text  # markers are shapes, not a pixmap atlas
        reference = _pixels(screen)
        other = tmp_path / f"{kind}-rsvg.png"
        subprocess.run(["rsvg-convert", "-w", str(reference.shape[1]), "-h",
                        str(reference.shape[0]), "-o", str(other), str(svg)], check=True,
                       timeout=60)
        difference = np.abs(_cells(reference) - _cells(_pixels(other))).max(axis=2)
        # Measured: at most 0.1 % of cells differ by more than 48 of 255 levels (a
        # label's text); before the fix 14-32 % did (outlines drawn as black slabs).
        assert (difference > 48).mean() < 0.01, kind


def test_a_stroke_under_a_scaled_group_is_moved_into_its_shape() -> None:
    svg = (b'<svg xmlns="http://www.w3.org/2000/svg" width="100" height="100">'
           b'<g stroke="#000" stroke-width="2" transform="matrix(2,0,0,80,10,5)">'
           b'<rect vector-effect="non-scaling-stroke" x="0" y="0" width="10" height="1"/>'
           b'<path vector-effect="non-scaling-stroke" d="M0,0 L1,1 Z"/></g>'
           b'<g transform="matrix(0,-1,1,0,50,50)"><text>kept</text></g></svg>')
    flat = flatten_scaled_strokes(svg).decode()
    assert "non-scaling-stroke" not in flat and "matrix(2,0,0,80" not in flat
    assert 'points="10.000,5.000 30.000,5.000 30.000,85.000 10.000,85.000"' in flat
    assert 'd="M 10.000,5.000 L 12.000,85.000 Z"' in flat
    assert "matrix(0,-1,1,0,50,50)" in flat and "kept" in flat  # a rotation keeps widths
