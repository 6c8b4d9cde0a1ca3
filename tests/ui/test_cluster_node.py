"""Issue #31, the Cluster tab: a node chosen from the catalog's GPU servers (without
replacing the build), GPU-hours in a unit that shows the figure, long rows that wrap."""

from __future__ import annotations

from pytestqt.qtbot import QtBot

from dlhw_desktop.catalog.store import Catalog
from dlhw_desktop.core.build.build import Build
from dlhw_desktop.reports.cluster_sheet import gpu_hours_text
from dlhw_desktop.ui.cluster.cluster_tab import ClusterTab
from dlhw_desktop.ui.cluster.node_choice import CURRENT


def values(tab: ClusterTab) -> dict[str, str]:
    out: dict[str, str] = {}
    for i in range(tab.tree.topLevelItemCount()):
        top = tab.tree.topLevelItem(i)
        for j in range(top.childCount()):
            out[f"{top.text(0)}/{top.child(j).text(0)}"] = top.child(j).text(1)
    return out


def make_tab(qtbot: QtBot, catalog: Catalog, build: Build) -> ClusterTab:
    tab = ClusterTab(catalog, lambda: build)
    qtbot.addWidget(tab)
    tab.resize(1000, 700)
    tab.show()
    return tab


def test_a_catalog_server_is_the_node_and_the_build_stays(qtbot: QtBot,
                                                          catalog: Catalog) -> None:
    build = Build()
    tab = make_tab(qtbot, catalog, build)
    assert tab.plan is None and "choose a GPU server" in tab.message.text()
    labels = [tab.node_choice.itemText(i) for i in range(tab.node_choice.count())]
    assert labels[0].startswith("The current build")
    assert sum(label.startswith("NVIDIA DGX A100 —") for label in labels) == 2  # 40, 80 GB
    assert tab.node_choice.choose_matching("DGX H100 — 8x H100")
    assert tab.plan is not None
    assert values(tab)["Nodes/GPUs"].startswith("256x NVIDIA H100")
    assert len(build) == 0  # the Build tab's build is not touched
    tab.node_choice.choose(CURRENT)
    assert tab.plan is None


def test_a_small_job_counts_gpu_hours_not_millions(qtbot: QtBot, catalog: Catalog) -> None:
    tab = make_tab(qtbot, catalog, Build())
    tab.node_choice.choose_matching("DGX H100 — 8x H100")
    tab.nodes.setValue(2)
    tab.params.setText("124e6")
    tab.tokens.setText("2e9")
    tab.mfu.setText("0.4")
    tab.refresh()
    line = values(tab)["Time and rent/Time to train"]
    assert "GPU-hours" in line and "0.00" not in line and " M " not in line


def test_gpu_hours_read_in_a_fitting_unit() -> None:
    assert gpu_hours_text(0.42) == "0.42 GPU-hours"
    assert gpu_hours_text(37.5) == "37.5 GPU-hours"
    assert gpu_hours_text(5_120) == "5,120 GPU-hours"
    assert gpu_hours_text(2_460_000) == "2.46 million GPU-hours"


def test_long_rows_wrap_instead_of_ending_in_an_ellipsis(qtbot: QtBot,
                                                         catalog: Catalog) -> None:
    tab = make_tab(qtbot, catalog, Build())
    tab.resize(900, 700)
    tab.node_choice.choose_matching("DGX H100 — 8x H100")
    qtbot.wait(10)
    tree = tab.tree
    line = tree.fontMetrics().height()
    longest = None
    for i in range(tree.topLevelItemCount()):
        top = tree.topLevelItem(i)
        for j in range(top.childCount()):
            child = top.child(j)
            if longest is None or len(child.text(1)) > len(longest.text(1)):
                longest = child
    assert longest is not None
    width = tree.fontMetrics().horizontalAdvance(longest.text(1))
    assert width > tree.columnWidth(1)  # too long for one line here
    assert tree.visualItemRect(longest).height() >= 2 * line
    assert not longest.toolTip(1)  # nothing hidden to hover for
