"""One job through the Workload panel, the Advisor and the Cluster tab (issue #28): QLoRA on
Llama 3.1 70B on the 4-GPU workstation template, its own-vs-rent answer in each place, at
1600x1000 and 1280x720, light and dark.

Usage: QT_QPA_PLATFORM=offscreen .venv/bin/python scripts/shoot_one_job.py [OUT_DIR]
Writes OUT_DIR/one-job-{panel,advisor,cluster}-<size>-<theme>.png (default
docs/screenshots). Settings and user data go to a temporary folder.
"""

from __future__ import annotations

import sys
from pathlib import Path

from _shots import build_windows, sandbox

REPO = Path(__file__).resolve().parent.parent
JOB = {"model": "llama-3.1-70b", "mode": "qlora", "batch": 8, "seq": 4096,
       "checkpointing": True, "tokens": 2e8}


def main() -> int:
    out = Path(sys.argv[1]) if len(sys.argv) > 1 else REPO / "docs" / "screenshots"
    out.mkdir(parents=True, exist_ok=True)
    folder = sandbox()
    from PySide6.QtTest import QTest
    from PySide6.QtWidgets import QTreeWidget

    from dlhw_desktop.catalog.store import Catalog
    from dlhw_desktop.core.workload.build_workload import BuildWorkload
    from dlhw_desktop.ui.shell.main_window import CLUSTER

    catalog = Catalog.open()
    for window, theme, width, height, _ in build_windows(catalog, folder):
        tab = window.build_tab
        tab.apply_template("four-gpu-workstation")
        tab.build.set_workload(BuildWorkload.from_mapping(JOB))
        tab.undo_stack.setClean()
        QTest.qWait(400)
        panel = tab.workload_panel
        cost = panel.results.cost_label  # type: ignore[union-attr]
        area = cost.parentWidget()
        while area is not None and not hasattr(area, "ensureWidgetVisible"):
            area = area.parentWidget()
        if area is not None:
            area.ensureWidgetVisible(cost)  # type: ignore[attr-defined]
        QTest.qWait(200)
        tag = f"{width}x{height}-{theme}"
        window.grab().save(str(out / f"one-job-panel-{tag}.png"))
        dialog = panel.open_advisor()  # type: ignore[union-attr]
        dialog.resize(min(1100, width - 100), min(900, height - 80))
        QTest.qWait(600)
        dialog.grab().save(str(out / f"one-job-advisor-{tag}.png"))
        dialog.close()
        window.tabs.setCurrentIndex(CLUSTER)
        QTest.qWait(300)
        cluster = window.cluster_page.widget()  # type: ignore[attr-defined]
        cluster.nodes.setValue(4)
        QTest.qWait(400)
        for tree in cluster.findChildren(QTreeWidget):
            tree.scrollToBottom()
        QTest.qWait(200)
        window.grab().save(str(out / f"one-job-cluster-{tag}.png"))
        print("wrote", out / f"one-job-*-{tag}.png")
        window.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
