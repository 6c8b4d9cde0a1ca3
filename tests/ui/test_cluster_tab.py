"""The Cluster tab: the current build as N nodes; inputs change the plan; bad input says why."""

from __future__ import annotations

from pathlib import Path

from pytestqt.qtbot import QtBot

from dlhw_desktop.catalog.store import Catalog
from dlhw_desktop.core.build.build import Build
from dlhw_desktop.core.build.templates import template
from dlhw_desktop.core.cluster import planfile
from dlhw_desktop.ui.cluster.cluster_tab import ClusterTab
from dlhw_desktop.ui.common.settings import AppSettings
from dlhw_desktop.ui.shell.main_window import MainWindow


def _dgx(catalog: Catalog) -> Build:
    return template("dgx-h100").build(catalog.get)


def _values(tab: ClusterTab) -> dict[str, str]:
    out: dict[str, str] = {}
    for i in range(tab.tree.topLevelItemCount()):
        top = tab.tree.topLevelItem(i)
        for j in range(top.childCount()):
            child = top.child(j)
            out[f"{top.text(0)}/{child.text(0)}"] = child.text(1)
    return out


def test_the_plan_follows_the_inputs(qtbot: QtBot, catalog: Catalog, tmp_path: Path) -> None:
    build = _dgx(catalog)
    tab = ClusterTab(catalog, lambda: build)
    qtbot.addWidget(tab)
    tab.nodes.setValue(256)
    values = _values(tab)
    assert "2,048x NVIDIA H100" in values["Nodes/GPUs"]
    assert "64 leaf, 32 spine, 0 core" in values["Fabric/Switches"]
    tab.nodes.setValue(512)
    assert "128 leaf, 128 spine, 64 core" in _values(tab)["Fabric/Switches"]
    tab.rack_kw.setCurrentIndex(0)  # 15 kW: one 10.2 kW DGX per rack
    assert _values(tab)["Racks and facility/Compute racks"].startswith("512 (1 nodes")
    tab.fabric.setCurrentIndex(list(tab.fabric.itemData(i) for i in range(
        tab.fabric.count())).index("ib-xdr"))
    assert tab.plan is None and tab.message.text().startswith("Fabric: ")
    path = tab.save_plan(tmp_path / "pod.dlhwcluster.json")
    opened, spec, _ = planfile.load(path, catalog.get)
    assert spec.fabric == "ib-xdr" and spec.nodes == 512 and len(opened) == len(build)


def test_the_shell_adds_the_tab_and_hands_it_the_build(
        qtbot: QtBot, catalog: Catalog, app_settings: AppSettings) -> None:
    window = MainWindow(catalog, app_settings)
    qtbot.addWidget(window)
    assert window.tabs.tabText(3) == "Cluster"
    window.build_tab.add_parts(["server/nvidia-dgx-h100",
                                "accelerator/nvidia-h100-sxm5-80-gb"])
    window.build_tab.build.set_quantity("accelerator/nvidia-h100-sxm5-80-gb", 8)
    window.cluster_tab.refresh()
    assert window.cluster_tab.plan is not None
    assert window.cluster_tab.plan.node.gpus == 8
    window.build_tab.undo_stack.setClean()  # closing asks nothing


def test_network_quotes_complete_the_capex_and_stay_in_the_price_book(
        qtbot: QtBot, catalog: Catalog, tmp_path: Path) -> None:
    from dlhw_desktop.catalog.price_store import PriceBook

    build = _dgx(catalog)
    book = PriceBook(tmp_path / "book.db")
    tab = ClusterTab(catalog, lambda: build, price_book=book)
    qtbot.addWidget(tab)
    tab.nodes.setValue(32)
    tab.refresh()
    assert _values(tab)["Cost/Network"].startswith("n/a")
    switch, cable, optic = tab.quotes.edits
    switch.setText("abc")
    cable.setText("300")
    assert not tab.quotes.save()
    assert "Not saved: switch:" in tab.quotes.message.text() and book.prices() == []
    switch.setText("24,000")
    optic.setText("900")
    with qtbot.waitSignal(tab.quotes.changed):
        assert tab.quotes.save()
    net = tab.plan.network
    total = net.switches * 24_000 + net.cables * 300 + net.transceivers * 900
    assert _values(tab)["Cost/Network"].startswith(f"${total:,}")
    assert "your quotes" in _values(tab)["Cost/Network"]
    assert {p.part_id for p in book.prices()} == {"switch:qm9700", "cable:400",
                                                  "transceiver:400"}
    again = ClusterTab(catalog, lambda: build, price_book=book)  # reopened: quotes kept
    qtbot.addWidget(again)
    again.refresh()
    assert again.quotes.edits[0].text() == "24,000.00"
    optic_field = again.quotes.edits[2]
    optic_field.setText("")  # an empty field forgets the quote
    assert again.quotes.save() and book.get("transceiver:400") is None


def test_a_saved_plan_opens_in_the_app_with_its_node_build_and_figures(
        qtbot: QtBot, catalog: Catalog, app_settings: AppSettings, tmp_path: Path) -> None:
    from dataclasses import replace

    window = MainWindow(catalog, app_settings)
    qtbot.addWidget(window)
    window.build_tab.apply_template("dgx-h100")
    cluster = window.cluster_tab
    cluster.nodes.setValue(64)
    cluster.rack_kw.setCurrentIndex(cluster.rack_kw.findData(100.0))
    cluster.params.setText("70e9")
    # A figure the form does not show (the electricity price) survives open and save.
    cluster._base_spec = replace(cluster.spec(), price_per_kwh_usd=0.21)
    path = cluster.save_plan(tmp_path / "pod.dlhwcluster.json")
    window.build_tab.new_build()  # "discard" (conftest): an empty build now
    assert not window.build_tab.build.accelerators
    cluster._base_spec = None
    cluster.nodes.setValue(2)
    assert cluster.open_plan(path)
    assert len(window.build_tab.build.accelerators) > 0  # the DGX came back to the planner
    assert window.build_tab.document.path is None  # untitled: never saved over the plan
    spec = cluster.spec()
    assert (spec.nodes, spec.rack_kw, spec.params, spec.price_per_kwh_usd) == (
        64, 100.0, 70e9, 0.21)
    assert cluster.message.text().endswith("512 GPUs")
    broken = tmp_path / "broken.dlhwcluster.json"
    broken.write_text('{"format": "dlhw-cluster", "version": 99}', encoding="utf-8")
    assert not cluster.open_plan(broken)
    assert "version 99" in cluster.message.text()
    assert cluster.spec().nodes == 64  # nothing changed
