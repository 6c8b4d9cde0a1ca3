"""What a page is made of: blocks of known height, laid out top to bottom.

A block is measured once (``height``) and drawn at a position. Most blocks are atomic
(a table row, a chart, the header) and never split across pages; a long text block may
split between two lines. ``keep_with_next`` keeps a heading with what follows it, and
``header`` names a block (a table's header row) to repeat on the page where a row lands
after a break.
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QRectF, Qt
from PySide6.QtGui import (
    QAbstractTextDocumentLayout,
    QColor,
    QPaintDevice,
    QPainter,
    QPalette,
    QTextDocument,
    QTextOption,
)

from dlhw_desktop.ui.pdf.style import BODY_PT, INK, font


class Block:
    height: float = 0.0
    keep_with_next: bool = False
    header: Block | None = None

    def draw(self, painter: QPainter, x: float, y: float) -> None:  # pragma: no cover
        raise NotImplementedError

    def split(self, available: float) -> tuple[Block, Block] | None:
        """A head that fits ``available`` and the rest; ``None`` = cannot split."""
        return None


class Spacer(Block):
    """Vertical space; dropped at the top of a page."""

    def __init__(self, height: float) -> None:
        self.height = height

    def draw(self, painter: QPainter, x: float, y: float) -> None:
        return None


class PaintBlock(Block):
    """A block drawn by a function given the painter and the block's rectangle."""

    def __init__(self, height: float, width: float,
                 paint: Callable[[QPainter, QRectF], None], *,
                 keep_with_next: bool = False) -> None:
        self.height = height
        self.width = width
        self.paint = paint
        self.keep_with_next = keep_with_next

    def draw(self, painter: QPainter, x: float, y: float) -> None:
        painter.save()
        self.paint(painter, QRectF(x, y, self.width, self.height))
        painter.restore()


def make_document(html: str, width: float, device: QPaintDevice, size_pt: float = BODY_PT,
                  bold: bool = False, align: str = "left") -> QTextDocument:
    """Rich text laid out for ``device`` (its dpi turns points into pixels) at ``width``."""
    doc = QTextDocument()
    doc.documentLayout().setPaintDevice(device)
    doc.setDefaultFont(font(size_pt, bold))
    doc.setDocumentMargin(0)
    option = QTextOption()
    option.setWrapMode(QTextOption.WrapMode.WrapAtWordBoundaryOrAnywhere)
    if align in ("right", "center"):
        option.setAlignment(Qt.AlignmentFlag.AlignRight if align == "right"
                            else Qt.AlignmentFlag.AlignHCenter)
        html = f'<div align="{align}">{html}</div>'
    doc.setDefaultTextOption(option)
    doc.setHtml(html)
    doc.setTextWidth(width)
    return doc


def draw_document(painter: QPainter, doc: QTextDocument, x: float, y: float,
                  top: float = 0.0, bottom: float | None = None) -> None:
    """Draw a document (or the slice ``top``..``bottom`` of it) with its top at ``y``.

    The text colour is set here, not taken from the application palette, so a dark
    theme never prints light grey text.
    """
    painter.save()
    painter.translate(x, y - top)
    context = QAbstractTextDocumentLayout.PaintContext()
    palette = QPalette()
    palette.setColor(QPalette.ColorRole.Text, QColor(INK))
    palette.setColor(QPalette.ColorRole.WindowText, QColor(INK))
    context.palette = palette
    if bottom is not None or top:
        end = doc.size().height() if bottom is None else bottom
        clip = QRectF(-1.0, top, doc.textWidth() + 2.0, end - top)
        painter.setClipRect(clip)
        context.clip = clip
    doc.documentLayout().draw(painter, context)
    painter.restore()


def line_bottoms(doc: QTextDocument) -> list[float]:
    """The y of every line's bottom edge: where a text block may be cut."""
    bottoms: list[float] = []
    block = doc.begin()
    while block.isValid():
        layout = block.layout()
        origin = layout.position().y()
        for i in range(layout.lineCount()):
            bottoms.append(origin + layout.lineAt(i).rect().bottom())
        block = block.next()
    return sorted(bottoms)


class TextBlock(Block):
    """Flowing rich text the width of the column; splits between lines when it must."""

    def __init__(self, html: str, width: float, device: QPaintDevice, *,
                 size_pt: float = BODY_PT, bold: bool = False, align: str = "left",
                 keep_with_next: bool = False, indent: float = 0.0) -> None:
        self.doc = make_document(html, width - indent, device, size_pt, bold, align)
        self.indent = indent
        self.top = 0.0
        self.bottom = self.doc.size().height()
        self.height = self.bottom
        self.keep_with_next = keep_with_next

    def draw(self, painter: QPainter, x: float, y: float) -> None:
        sliced = self.top > 0 or self.bottom < self.doc.size().height()
        draw_document(painter, self.doc, x + self.indent, y, self.top,
                      self.bottom if sliced else None)

    def split(self, available: float) -> tuple[Block, Block] | None:
        cuts = [b for b in line_bottoms(self.doc)
                if self.top < b < self.bottom and b - self.top <= available]
        if not cuts:
            return None
        cut = cuts[-1]
        return self._slice(self.top, cut), self._slice(cut, self.bottom)

    def _slice(self, top: float, bottom: float) -> TextBlock:
        piece = object.__new__(TextBlock)
        piece.doc, piece.indent = self.doc, self.indent
        piece.top, piece.bottom, piece.height = top, bottom, bottom - top
        piece.keep_with_next, piece.header = False, None
        return piece
