"""Export cluster sheet (PDF): the build sheet of one node plus the cluster section.

The sheet is assembled on the GUI thread (quick; it freezes the build and the plan as they
are now) and written in the background by the same job as a build sheet.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from PySide6.QtWidgets import QWidget

from dlhw_desktop.catalog.store import Catalog
from dlhw_desktop.core.build.build import Build
from dlhw_desktop.core.cluster.plan import ClusterPlan
from dlhw_desktop.core.errors import DlhwError
from dlhw_desktop.reports.cluster_section import cluster_section
from dlhw_desktop.reports.sheet_model import BuildSheet
from dlhw_desktop.ui.common.dialogs import show_error
from dlhw_desktop.ui.pdf import export_job

CLUSTER_TITLE = "Cluster sheet"


def make_cluster_sheet(build: Build, plan: ClusterPlan, catalog: Catalog) -> BuildSheet:
    """The node's build sheet with the plan's cluster section."""
    sheet = export_job.make_sheet(build, None, catalog)
    return replace(sheet, title=CLUSTER_TITLE, cluster=cluster_section(plan, build.name))


def export_cluster_sheet(parent: QWidget, build: Build, plan: ClusterPlan, catalog: Catalog,
                         folder: Path | None = None) -> Path | None:
    """Ask for a file name, then write the cluster sheet in the background; the chosen
    path, or None when the user cancelled."""
    try:
        sheet = make_cluster_sheet(build, plan, catalog)
    except DlhwError as exc:
        show_error(parent, export_job.ERROR_TITLE, str(exc))
        return None
    stem = f"{build.name} cluster of {plan.spec.nodes}"
    path = export_job.ask_pdf_path(parent, export_job.suggested_path(stem, folder))
    if path is None:
        return None
    export_job.start_export(parent, sheet, path, export_job.default_paper())
    return path
