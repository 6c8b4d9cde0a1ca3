"""Build sheets as PDF with Qt's own PDF engine: layout, charts, pagination, writing.

    info = write_build_sheet_pdf(sheet, "sheet.pdf", paper="a4")   # -> PdfInfo

``sheet`` is a ``reports.sheet_model.BuildSheet``. Modules: ``page`` (paper and units),
``style``, ``blocks`` (measured pieces of a page), ``table`` (one block per row),
``charts`` (vector bar charts), ``paginate``, ``sheet_blocks`` (the sheet's content),
``render`` (to bytes), ``output`` (atomic write, clear errors), ``app`` (headless Qt).
"""

from __future__ import annotations

from dlhw_desktop.ui.pdf.app import ensure_gui_application
from dlhw_desktop.ui.pdf.errors import SheetExportError, SheetFontError
from dlhw_desktop.ui.pdf.output import PdfInfo, write_build_sheet_pdf
from dlhw_desktop.ui.pdf.page import PAPERS
from dlhw_desktop.ui.pdf.render import RenderedSheet, render_build_sheet

__all__ = [
    "PAPERS",
    "PdfInfo",
    "RenderedSheet",
    "SheetExportError",
    "SheetFontError",
    "ensure_gui_application",
    "render_build_sheet",
    "write_build_sheet_pdf",
]
