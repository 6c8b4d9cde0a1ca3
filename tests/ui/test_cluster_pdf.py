"""The cluster sheet as PDF, read back with poppler as a buyer's PDF reader would."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest
from pytestqt.qtbot import QtBot

from dlhw_desktop.catalog.store import Catalog
from dlhw_desktop.core.build.build import Build
from dlhw_desktop.core.build.templates import template
from dlhw_desktop.core.cluster.plan import ClusterSpec
from dlhw_desktop.core.fields import Category
from dlhw_desktop.reports.cluster_sheet import plan_for_build
from dlhw_desktop.ui.cluster.cluster_tab import ClusterTab
from dlhw_desktop.ui.pdf import export_job, write_build_sheet_pdf
from dlhw_desktop.ui.pdf.cluster_export import make_cluster_sheet

pytestmark = [
    pytest.mark.gui,
    pytest.mark.skipif(shutil.which("pdftotext") is None, reason="needs poppler-utils"),
]


def _dgx(catalog: Catalog) -> Build:
    return template("dgx-h100").build(catalog.get)


def _text(path: Path) -> str:
    return subprocess.run(["pdftotext", "-raw", str(path), "-"], capture_output=True,
                          text=True, check=True).stdout


def test_a_2048_node_sheet_reads_back_every_part_of_the_plan(qapp: Any, catalog: Catalog,
                                                             tmp_path: Path) -> None:
    build = _dgx(catalog)
    spec = ClusterSpec(nodes=2048, params=405e9, tokens=15.6e12, mfu=0.38,
                       batch_tokens=16e6, storage_write_gb_s=2000)
    plan = plan_for_build(build, spec, catalog.parts(Category.CLOUD))
    info = write_build_sheet_pdf(make_cluster_sheet(build, plan, catalog),
                                 tmp_path / "cluster.pdf")
    text = _text(info.path)
    flat = re.sub(r"\s+", " ", text)
    assert text.startswith("CLUSTER SHEET")
    assert "Cluster: 2,048 nodes of NVIDIA DGX H100" in flat
    for title in ("Bill of materials", "Racks", "Fabric: InfiniBand NDR 400 Gb/s, 3 tier(s)",
                  "Power and cooling", "Cost", "Storage", "Time to train the build's workload",
                  "Assumptions", "Cluster sources"):
        assert title in flat, title
    # Identical items once, with a count: one node line, one switch line.
    assert flat.count("NVIDIA DGX H100 node (8x NVIDIA H100 SXM5 80 GB) 2,048") == 1
    assert "NVIDIA Quantum-2 QM9700 switch (64 x 400 Gb/s) 1,280" in flat
    assert "16,384" in flat and "20,889.6 kW" in flat  # 2,048 x 10.2 kW
    assert "Total capex n/a" in flat  # switch prices not sourced: n/a, never zero
    assert info.pages <= 5  # a page count that does not grow with the node count


def test_the_cluster_tab_exports_its_sheet(qtbot: QtBot, catalog: Catalog, tmp_path: Path,
                                           monkeypatch: pytest.MonkeyPatch) -> None:
    build = _dgx(catalog)
    tab = ClusterTab(catalog, lambda: build)
    qtbot.addWidget(tab)
    tab.nodes.setValue(64)
    tab.refresh()
    assert tab.pdf_button.isEnabled()
    asked: list[Path] = []

    def ask(parent: Any, suggested: Path) -> Path:
        asked.append(suggested)
        return tmp_path / suggested.name

    monkeypatch.setattr(export_job, "ask_pdf_path", ask)
    tab.pdf_button.click()
    target = tmp_path / "NVIDIA DGX H100 cluster of 64.pdf"
    assert asked and asked[0].name == target.name
    qtbot.waitUntil(lambda: target.exists() and not export_job.busy(), timeout=20000)
    flat = re.sub(r"\s+", " ", _text(target))
    assert "Cluster: 64 nodes of NVIDIA DGX H100" in flat and "512 NVIDIA H100" in flat


def test_no_plan_no_export(qtbot: QtBot, catalog: Catalog) -> None:
    tab = ClusterTab(catalog, lambda: Build("empty"))
    qtbot.addWidget(tab)
    tab.refresh()
    assert not tab.pdf_button.isEnabled() and tab.export_pdf() is None
