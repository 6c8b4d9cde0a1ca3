"""Tables as one block per row, so a page break falls between rows and never inside one.

Columns have fixed widths (fractions of the table's width) so rows measured apart still
line up; cell text wraps (anywhere if it must, e.g. a long URL) instead of widening a
column. The header row repeats at the top of each page a table continues on.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QColor, QFontMetricsF, QPaintDevice, QPainter, QPen, QTextDocument

from dlhw_desktop.ui.pdf.blocks import Block, draw_document, make_document
from dlhw_desktop.ui.pdf.page import mm
from dlhw_desktop.ui.pdf.style import (
    HEADER_FILL,
    RULE,
    RULE_STRONG,
    STATUS_WORDS,
    TABLE_PT,
    ZEBRA_FILL,
    font,
    status_colour,
)

PAD_X = mm(1.3)
PAD_Y = mm(0.7)


@dataclass(frozen=True, slots=True)
class Column:
    header: str
    width: float
    """A fraction of the table's width; the fractions of a table add up to 1."""
    align: str = "left"


@dataclass(frozen=True, slots=True)
class StatusCell:
    """A check status drawn as a coloured pill with its word (colour is never the only cue)."""

    status: str


Cell = str | StatusCell
"""A cell's rich text (HTML), or a status pill."""


@dataclass(frozen=True, slots=True)
class Row:
    cells: Sequence[Cell]
    fill: str | None = None
    strong_top: bool = False


PILL_PT = 6.2


def pill_size(device: QPaintDevice, status: str) -> tuple[float, float]:
    metrics = QFontMetricsF(font(PILL_PT, bold=True), device)
    word = STATUS_WORDS.get(status, status.upper())
    return metrics.horizontalAdvance(word) + mm(2.2), metrics.height() + mm(0.4)


def draw_pill(painter: QPainter, x: float, y: float, status: str,
              device: QPaintDevice) -> None:
    """A rounded, filled status badge with the status word in white."""
    width, height = pill_size(device, status)
    rect = QRectF(x, y, width, height)
    painter.save()
    painter.setRenderHint(QPainter.RenderHint.Antialiasing)
    painter.setPen(Qt.PenStyle.NoPen)
    painter.setBrush(status_colour(status))
    painter.drawRoundedRect(rect, mm(0.8), mm(0.8))
    painter.setPen(QColor("white"))
    painter.setFont(font(PILL_PT, bold=True))
    painter.drawText(rect, Qt.AlignmentFlag.AlignCenter,
                     STATUS_WORDS.get(status, status.upper()))
    painter.restore()


class TableRow(Block):
    """One row: each cell laid out at its column's width; drawn with its fill and rule."""

    def __init__(self, row: Row, columns: Sequence[Column], width: float,
                 device: QPaintDevice, *, size_pt: float = TABLE_PT, bold: bool = False,
                 rule: str = RULE, rule_width: float = mm(0.15)) -> None:
        self.row = row
        self.device = device
        self.width = width
        self.rule = rule
        self.rule_width = rule_width
        self.widths = [c.width * width for c in columns]
        self.cells: list[QTextDocument | StatusCell] = []
        heights = [0.0]
        for cell, column, col_width in zip(row.cells, columns, self.widths, strict=True):
            if isinstance(cell, StatusCell):
                self.cells.append(cell)
                heights.append(pill_size(device, cell.status)[1])
            else:
                doc = make_document(cell, max(col_width - 2 * PAD_X, mm(2)), device, size_pt,
                                    bold, column.align)
                self.cells.append(doc)
                heights.append(doc.size().height())
        self.height = max(heights) + 2 * PAD_Y

    def draw(self, painter: QPainter, x: float, y: float) -> None:
        if self.row.fill:
            painter.fillRect(QRectF(x, y, self.width, self.height), QColor(self.row.fill))
        cx = x
        for cell, col_width in zip(self.cells, self.widths, strict=True):
            if isinstance(cell, StatusCell):
                draw_pill(painter, cx + PAD_X, y + PAD_Y, cell.status, self.device)
            else:
                draw_document(painter, cell, cx + PAD_X, y + PAD_Y)
            cx += col_width
        painter.save()
        if self.row.strong_top:
            painter.setPen(QPen(QColor(RULE_STRONG), mm(0.3)))
            painter.drawLine(QPointF(x, y), QPointF(x + self.width, y))
        painter.setPen(QPen(QColor(self.rule), self.rule_width))
        painter.drawLine(QPointF(x, y + self.height), QPointF(x + self.width, y + self.height))
        painter.restore()


def table_blocks(columns: Sequence[Column], rows: Sequence[Row | Sequence[Cell]],
                 width: float, device: QPaintDevice, *, size_pt: float = TABLE_PT,
                 header: bool = True, zebra: bool = True,
                 keep_together: bool = False) -> list[Block]:
    """The header row (kept with the first row, repeated after page breaks) and the rows;
    ``keep_together`` keeps a short table on one page (it moves whole to the next)."""
    blocks: list[Block] = []
    head: TableRow | None = None
    if header:
        head = TableRow(Row([c.header for c in columns], fill=HEADER_FILL), columns, width,
                        device, size_pt=size_pt, bold=True, rule=RULE_STRONG,
                        rule_width=mm(0.3))
        head.keep_with_next = True
        blocks.append(head)
    for i, item in enumerate(rows):
        row = item if isinstance(item, Row) else Row(list(item))
        if row.fill is None and zebra and i % 2 == 1:
            row = Row(row.cells, ZEBRA_FILL, row.strong_top)
        block = TableRow(row, columns, width, device, size_pt=size_pt)
        block.header = head
        block.keep_with_next = keep_together and i < len(rows) - 1
        blocks.append(block)
    return blocks
