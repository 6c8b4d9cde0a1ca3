"""Render a ``BuildSheet`` to PDF bytes with Qt's own PDF engine (no browser).

A 300-dpi ``QPdfWriter`` over an in-memory buffer; the blocks are measured against the
writer itself (so points mean points), paginated, then painted page by page with one
``QPainter``, a footer on each. Text stays text (selectable, extractable) in the bundled
DejaVu Sans, which Qt embeds as a subset. Safe to call off the GUI thread.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from PySide6.QtCore import QBuffer, QIODevice, QMarginsF
from PySide6.QtGui import QFontInfo, QFontMetrics, QPageLayout, QPageSize, QPainter, QPdfWriter

from dlhw_desktop.reports.sheet_model import BuildSheet
from dlhw_desktop.ui.common.fonts import BUNDLED_FAMILY, font_has_glyphs
from dlhw_desktop.ui.pdf.cluster_blocks import cluster_blocks
from dlhw_desktop.ui.pdf.errors import SheetExportError, SheetFontError
from dlhw_desktop.ui.pdf.page import DPI, PAPERS, PageGeometry, paper_key
from dlhw_desktop.ui.pdf.paginate import paginate
from dlhw_desktop.ui.pdf.sheet_blocks import draw_footer, sheet_blocks
from dlhw_desktop.ui.pdf.style import BODY_PT, font

BASIC_TEXT = "AZaz09$%.,:;()/-"


@dataclass(frozen=True, slots=True)
class RenderedSheet:
    data: bytes
    pages: int
    paper: str
    missing_glyphs: str = ""
    """Characters of the sheet the bundled font lacks (another font may draw them)."""


def check_fonts(texts: Iterable[str]) -> str:
    """Fail loudly when the bundled font is not in use or cannot draw plain text; return
    the sheet's characters it lacks (rare: e.g. CJK in a build's name)."""
    missing: set[str] = set()
    for bold in (False, True):
        f = font(BODY_PT, bold)
        family = QFontInfo(f).family()
        if family != BUNDLED_FAMILY or not font_has_glyphs(f, BASIC_TEXT):
            raise SheetFontError(
                f"cannot write the sheet: the bundled font {BUNDLED_FAMILY} is not available "
                f"(Qt chose {family or 'no font'}), so the PDF would show boxes instead of "
                "text; reinstall the app")
    metrics = QFontMetrics(font(BODY_PT))
    for text in texts:
        for ch in text:
            if not ch.isspace() and ch not in missing and not metrics.inFontUcs4(ord(ch)):
                missing.add(ch)
    return "".join(sorted(missing))


def render_build_sheet(sheet: BuildSheet, paper: str = "a4") -> RenderedSheet:
    key = paper_key(paper)
    missing = check_fonts(sheet.texts())
    buffer = QBuffer()
    buffer.open(QIODevice.OpenModeFlag.WriteOnly)
    writer = QPdfWriter(buffer)
    writer.setResolution(DPI)
    writer.setPageLayout(QPageLayout(QPageSize(PAPERS[key]), QPageLayout.Orientation.Portrait,
                                     QMarginsF(0, 0, 0, 0), QPageLayout.Unit.Millimeter))
    writer.setTitle(f"{sheet.title}: {sheet.build_name}")
    writer.setCreator(f"{sheet.app_name} {sheet.app_version}")
    geometry = PageGeometry.for_paper(key)
    cluster = (cluster_blocks(sheet.cluster, geometry.content_width, writer)
               if sheet.cluster is not None else [])
    blocks = sheet_blocks(sheet, geometry.content_width, writer, cluster)
    pages = paginate(blocks, geometry.content_height)
    painter = QPainter()
    if not painter.begin(writer):
        raise SheetExportError("cannot write the sheet: Qt could not start the PDF")
    try:
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        painter.setRenderHint(QPainter.RenderHint.TextAntialiasing)
        painter.setRenderHint(QPainter.RenderHint.LosslessImageRendering)
        for number, page in enumerate(pages, start=1):
            if number > 1:
                writer.newPage()
            for placed in page:
                placed.block.draw(painter, geometry.left, geometry.top + placed.y)
            draw_footer(painter, geometry.footer_rect, sheet, number, len(pages))
    finally:
        painter.end()
    buffer.close()
    return RenderedSheet(bytes(buffer.data()), len(pages), key, missing)
