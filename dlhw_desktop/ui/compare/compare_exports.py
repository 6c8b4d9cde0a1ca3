"""The Compare tab's exports: the chart as PNG or SVG (titled, with its source), the spec
table as CSV or Markdown, to a file or the clipboard.

A mixin of ``CompareTab`` (it reads the tab's state and current chart); the save dialog
starts in the folder the last chart or table went to.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import QFileDialog

from dlhw_desktop.core.compare.comparison import CompareExportError
from dlhw_desktop.core.errors import DlhwError
from dlhw_desktop.ui.common.dialogs import show_error

if TYPE_CHECKING:
    from dlhw_desktop.core.compare.comparison import Comparison
    from dlhw_desktop.core.compare.table import SpecTable
    from dlhw_desktop.ui.common.settings import AppSettings
    from dlhw_desktop.ui.compare.charts.base import ChartBase
    from dlhw_desktop.ui.compare.compare_state import CompareState


class CompareExports:
    """Exports for ``CompareTab`` (a mixin)."""

    state: CompareState
    settings: AppSettings
    comparison: Comparison

    def chart(self, kind: str | None = None) -> ChartBase: ...

    def current_table(self) -> SpecTable: ...

    def show_message(self, text: str) -> None: ...

    def _draw_if_dirty(self, kind: str) -> None: ...

    # --- export -------------------------------------------------------------------------
    def export_chart_png(self, path: str | Path) -> Path:
        self._draw_if_dirty(self.state.kind)
        return self.chart().export_png(path)

    def export_chart_svg(self, path: str | Path) -> Path:
        self._draw_if_dirty(self.state.kind)
        return self.chart().export_svg(path)

    def export_table_csv(self, path: str | Path) -> Path:
        return self.state.export_table_csv(path)

    def export_table_markdown(self, path: str | Path) -> Path:
        return self.state.export_table_markdown(path)

    def table_text(self, fmt: str) -> str:
        return self.state.table_text(fmt)

    def copy_table(self, fmt: str) -> None:
        QGuiApplication.clipboard().setText(self.table_text(fmt))
        self.show_message(f"Copied the table as {'CSV' if fmt == 'csv' else 'Markdown'}.")

    def copy_chart_image(self) -> None:
        self._draw_if_dirty(self.state.kind)
        QGuiApplication.clipboard().setImage(self.chart().render_image())
        self.show_message("Copied the chart image.")

    def _save(self, fmt: str) -> None:
        filters = {"png": "PNG image (*.png)", "svg": "SVG image (*.svg)",
                   "csv": "CSV table (*.csv)", "md": "Markdown (*.md)"}
        stem = "compare-table" if fmt in ("csv", "md") else f"compare-{self.state.kind}"
        key = "export/table_folder" if fmt in ("csv", "md") else "export/chart_folder"
        remembered = self.settings.get(key)
        folder = Path(remembered) if remembered and Path(remembered).is_dir() else Path.home()
        default = str(folder / f"{stem}.{fmt}")
        path, _filter = QFileDialog.getSaveFileName(self, "Export", default, filters[fmt])
        if not path:
            return
        if not path.lower().endswith(f".{fmt}"):
            path += f".{fmt}"
        writer = {"png": self.export_chart_png, "svg": self.export_chart_svg,
                  "csv": self.export_table_csv, "md": self.export_table_markdown}[fmt]
        try:
            written = writer(path)
        except (CompareExportError, DlhwError, OSError) as exc:
            show_error(self, "Export failed", str(exc))
            return
        self.settings.set(key, str(Path(written).parent))
        self.show_message(f"Saved {written}.")
