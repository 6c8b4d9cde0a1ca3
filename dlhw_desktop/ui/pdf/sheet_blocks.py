"""A ``BuildSheet`` -> the blocks of the PDF, in reading order.

Page one opens with what a purchasing office needs first: the build, its verdict, the
headline figures and the parts with prices. Then the totals, every check, the workload
fit, the charts and, last, where every figure comes from.
"""

from __future__ import annotations

from collections.abc import Sequence
from html import escape

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QColor, QFontMetricsF, QPaintDevice, QPainter, QPen

from dlhw_desktop.reports.sheet_model import BarChart, BuildSheet, Figure, WorkloadSection
from dlhw_desktop.ui.pdf.blocks import Block, PaintBlock, Spacer, TextBlock, make_document
from dlhw_desktop.ui.pdf.blocks import draw_document as _draw_document
from dlhw_desktop.ui.pdf.charts import chart_row_block
from dlhw_desktop.ui.pdf.page import mm
from dlhw_desktop.ui.pdf.style import (
    ACCENT,
    BODY_PT,
    HEADER_FILL,
    HEADING_PT,
    INK,
    MUTED,
    RULE_STRONG,
    SMALL_PT,
    STATUS_WORDS,
    TITLE_PT,
    font,
    status_colour,
)
from dlhw_desktop.ui.pdf.table import Column, Row, StatusCell, draw_pill, pill_size, table_blocks

COUNT_WORDS = {"fail": ("fail", "fail"), "warn": ("warning", "warnings"),
               "unknown": ("unknown", "unknown"), "pass": ("pass", "pass")}


def _muted(text: str, size_pt: float = SMALL_PT) -> str:
    return f'<span style="color:{MUTED}; font-size:{size_pt}pt">{escape(text)}</span>'


def counts_text(sheet: BuildSheet) -> str:
    words = []
    for status, n in sheet.verdict_counts:
        one, many = COUNT_WORDS[status]
        words.append(f"{n} {one if n == 1 else many}")
    text = ", ".join(words) if words else "no checks ran"
    return f"{sheet.incomplete}; {text}" if sheet.incomplete else text


def verdict_word(sheet: BuildSheet) -> str:
    """The verdict box's word: an incomplete build that nothing fails is INCOMPLETE, not
    WARN or PASS (its checks speak only of the parts chosen so far)."""
    if sheet.incomplete and sheet.verdict != "fail":
        return "INCOMPLETE"
    return STATUS_WORDS.get(sheet.verdict, sheet.verdict.upper())


# --- building blocks of the sheet ---------------------------------------------------------


def heading(text: str, width: float, device: QPaintDevice, status: str | None = None) -> Block:
    """A section title with a rule under it; kept with what follows."""
    title_font = font(HEADING_PT, bold=True)
    metrics = QFontMetricsF(title_font, device)
    height = metrics.height() + mm(1.6)

    def paint(painter: QPainter, rect: QRectF) -> None:
        painter.setFont(title_font)
        painter.setPen(QColor(ACCENT))
        text_rect = QRectF(rect.left(), rect.top(), rect.width(), metrics.height())
        painter.drawText(text_rect, Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter,
                         text)
        if status is not None:
            _, h = pill_size(device, status)
            x = rect.left() + metrics.horizontalAdvance(text) + mm(2.5)
            draw_pill(painter, x, rect.top() + (metrics.height() - h) / 2, status, device)
        painter.setPen(QPen(QColor(ACCENT), mm(0.35)))
        y = rect.top() + metrics.height() + mm(0.6)
        painter.drawLine(QPointF(rect.left(), y), QPointF(rect.right(), y))

    return PaintBlock(height, width, paint, keep_with_next=True)


def header_block(sheet: BuildSheet, width: float, device: QPaintDevice) -> Block:
    """The build's name, tier and date on the left; the overall verdict on the right."""
    right_w = mm(64)
    left_w = width - right_w - mm(4)
    kicker = font(SMALL_PT, bold=True)
    kicker_h = QFontMetricsF(kicker, device).height() + mm(0.8)
    name_doc = make_document(escape(sheet.build_name), left_w, device, TITLE_PT, bold=True)
    details = [f"Exported {sheet.date}"]
    if sheet.tier:
        details.insert(0, f"Workload tier: {sheet.tier}")
    sub_doc = make_document(_muted(" · ".join(details), BODY_PT), left_w, device, BODY_PT)
    verdict_font = font(11.0, bold=True)
    verdict_metrics = QFontMetricsF(verdict_font, device)
    verdict_h = verdict_metrics.height() + mm(2.6)
    counts_doc = make_document(_muted(counts_text(sheet), SMALL_PT + 0.4), right_w, device,
                               SMALL_PT, align="right")
    left_h = kicker_h + name_doc.size().height() + mm(1) + sub_doc.size().height()
    right_h = kicker_h + verdict_h + mm(1.2) + counts_doc.size().height()
    height = max(left_h, right_h) + mm(2.5)

    def paint(painter: QPainter, rect: QRectF) -> None:
        x, y = rect.left(), rect.top()
        painter.setFont(kicker)
        painter.setPen(QColor(MUTED))
        painter.drawText(QRectF(x, y, left_w, kicker_h), Qt.AlignmentFlag.AlignLeft,
                         f"{sheet.title.upper()} · {sheet.app_name.upper()}")
        _draw_document(painter, name_doc, x, y + kicker_h)
        _draw_document(painter, sub_doc, x, y + kicker_h + name_doc.size().height() + mm(1))
        rx = rect.right() - right_w
        painter.setFont(kicker)
        painter.setPen(QColor(MUTED))
        painter.drawText(QRectF(rx, y, right_w, kicker_h), Qt.AlignmentFlag.AlignRight,
                         "OVERALL VERDICT")
        word = verdict_word(sheet)
        box_w = verdict_metrics.horizontalAdvance(word) + mm(8)
        box = QRectF(rect.right() - box_w, y + kicker_h, box_w, verdict_h)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        painter.setPen(Qt.PenStyle.NoPen)
        painter.setBrush(status_colour("unknown" if word == "INCOMPLETE" else sheet.verdict))
        painter.drawRoundedRect(box, mm(1.2), mm(1.2))
        painter.setPen(QColor("white"))
        painter.setFont(verdict_font)
        painter.drawText(box, Qt.AlignmentFlag.AlignCenter, word)
        _draw_document(painter, counts_doc, rx, y + kicker_h + verdict_h + mm(1.2))
        painter.setPen(QPen(QColor(INK), mm(0.5)))
        bottom = rect.bottom() - mm(0.3)
        painter.drawLine(QPointF(rect.left(), bottom), QPointF(rect.right(), bottom))

    return PaintBlock(height, width, paint)


def tiles_block(figures: Sequence[Figure], width: float, device: QPaintDevice) -> Block:
    """The headline figures as a row of boxes; values shrink together to fit their box."""
    gap = mm(2)
    n = max(len(figures), 1)
    tile_w = (width - gap * (n - 1)) / n
    inner_w = tile_w - mm(3.2)
    size = 12.0
    while size > 8.0 and any(
            QFontMetricsF(font(size, bold=True), device).horizontalAdvance(f.value) > inner_w
            for f in figures):
        size -= 0.5
    label_font, value_font, note_font = font(SMALL_PT), font(size, bold=True), font(SMALL_PT)
    lh = QFontMetricsF(label_font, device).height()
    value_metrics = QFontMetricsF(value_font, device)
    vh = QFontMetricsF(font(12.0, bold=True), device).height()
    note_metrics = QFontMetricsF(note_font, device)
    nh = note_metrics.height()
    height = lh + vh + nh + mm(3.0)

    def paint(painter: QPainter, rect: QRectF) -> None:
        for i, figure in enumerate(figures):
            x = rect.left() + i * (tile_w + gap)
            box = QRectF(x, rect.top(), tile_w, height)
            painter.fillRect(box, QColor(HEADER_FILL))
            painter.fillRect(QRectF(x, rect.top(), mm(0.8), height), QColor(ACCENT))
            inner = x + mm(2.2)
            y = rect.top() + mm(1.1)
            painter.setFont(label_font)
            painter.setPen(QColor(MUTED))
            painter.drawText(QRectF(inner, y, inner_w, lh), Qt.AlignmentFlag.AlignLeft,
                             figure.label)
            painter.setFont(value_font)
            painter.setPen(QColor(INK))
            painter.drawText(QRectF(inner, y + lh, inner_w, vh),
                             Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter,
                             value_metrics.elidedText(figure.value,
                                                      Qt.TextElideMode.ElideRight, inner_w))
            if figure.note:
                painter.setFont(note_font)
                painter.setPen(QColor(MUTED))
                painter.drawText(QRectF(inner, y + lh + vh, inner_w, nh),
                                 Qt.AlignmentFlag.AlignLeft,
                                 note_metrics.elidedText(figure.note,
                                                         Qt.TextElideMode.ElideRight, inner_w))

    return PaintBlock(height, width, paint)


def parts_blocks(sheet: BuildSheet, width: float, device: QPaintDevice) -> list[Block]:
    columns = (Column("Category", 0.12), Column("Part", 0.40), Column("Qty", 0.05, "right"),
               Column("Unit price", 0.11, "right"), Column("Subtotal", 0.11, "right"),
               Column("Source", 0.21))
    rows: list[Row | list[str]] = []
    for part in sheet.parts:
        name = escape(part.name) + (f"<br>{_muted(part.note)}" if part.note else "")
        price = escape(part.unit_price) + (
            f"<br>{_muted(part.price_date)}" if part.price_date else "")
        source = (f"[{part.source_ref}] " if part.source_ref else "") + escape(part.source)
        rows.append([escape(part.category), name, str(part.quantity), price,
                     escape(part.subtotal), source])
    total = sheet.price_total
    quantity = sum(p.quantity for p in sheet.parts)
    rows.append(Row(["", f"<b>{escape(total.label)}</b>"
                     + (f"<br>{_muted(total.note)}" if total.note else ""),
                     f"<b>{quantity}</b>", "", f"<b>{escape(total.value)}</b>", ""],
                    fill="#ffffff", strong_top=True))
    if not sheet.parts:
        rows.insert(0, ["", _muted("The build has no parts yet.", BODY_PT), "", "", "", ""])
    return table_blocks(columns, rows, width, device, keep_together=len(rows) <= 16)


def figure_pairs_blocks(left: Sequence[Figure], right: Sequence[Figure], width: float,
                        device: QPaintDevice, headers: tuple[str, ...] | None = None,
                        shares: tuple[float, ...] = (0.15, 0.15, 0.2, 0.15, 0.15, 0.2),
                        ) -> list[Block]:
    """Two lists of labelled figures side by side (label, value, note) x 2."""
    names = headers or ("", "", "", "", "", "")
    aligns = ("left", "right", "left", "left", "right", "left")
    columns = [Column(n, s, a) for n, s, a in zip(names, shares, aligns, strict=True)]

    def cells(figure: Figure | None) -> list[str]:
        if figure is None:
            return ["", "", ""]
        return [escape(figure.label), f"<b>{escape(figure.value)}</b>",
                _muted(figure.note) if figure.note else ""]

    rows = [cells(left[i] if i < len(left) else None)
            + cells(right[i] if i < len(right) else None)
            for i in range(max(len(left), len(right)))]
    return table_blocks(columns, rows, width, device, header=headers is not None,
                        keep_together=True)


def totals_blocks(sheet: BuildSheet, width: float, device: QPaintDevice) -> list[Block]:
    half = (len(sheet.totals) + 1) // 2
    return figure_pairs_blocks(sheet.totals[:half], sheet.totals[half:], width, device)


def checks_blocks(sheet: BuildSheet, width: float, device: QPaintDevice) -> list[Block]:
    intro = (f"Overall verdict: <b>{STATUS_WORDS.get(sheet.verdict, sheet.verdict)}</b> "
             f"({escape(counts_text(sheet))}). "
             + _muted("The verdict is the worst status of all checks; unknown means a figure "
                      "the check needs is missing, so it is not a pass.", BODY_PT))
    blocks: list[Block] = [TextBlock(intro, width, device), Spacer(mm(1.5))]
    columns = (Column("Status", 0.105), Column("Area", 0.125), Column("Check", 0.77))
    rows = []
    previous = ""
    for check in sheet.checks:
        area = escape(check.kind_label) if check.kind_label != previous else ""
        previous = check.kind_label
        message = escape(check.message)
        if check.suggestion:
            message += (f'<br><span style="color:{ACCENT}">Suggestion: '
                        f"{escape(check.suggestion)}</span>")
        if check.basis:
            message += "<br>" + _muted(f"Rests on: {check.basis}")
        rows.append([StatusCell(check.status), area, message])
    if not rows:
        rows.append(["", "", _muted("No check ran: the build is empty.", BODY_PT)])
    blocks += table_blocks(columns, rows, width, device)
    return blocks


def workload_blocks(section: WorkloadSection, width: float,
                    device: QPaintDevice) -> list[Block]:
    blocks: list[Block] = [heading(f"Workload: {section.title}", width, device,
                                   section.status)]
    if section.error:
        blocks.append(TextBlock(escape(section.error), width, device))
        return blocks
    settings = " · ".join(f"{escape(f.label)}: <b>{escape(f.value)}</b>"
                          for f in section.settings)
    blocks += [TextBlock(settings, width, device), Spacer(mm(1.5))]
    columns = (Column("Estimate", 0.17), Column("Value", 0.16, "right"),
               Column("Basis", 0.67))
    rows = [[escape(e.label), f"<b>{escape(e.value)}</b>", _muted(e.note)]
            for e in section.estimates]
    blocks += table_blocks(columns, rows, width, device, keep_together=True)
    blocks.append(Spacer(mm(2.5)))
    columns = (Column("GPU memory, per GPU", 0.24), Column("Amount", 0.11, "right"),
               Column("How it is estimated", 0.65))
    rows: list[Row | list[str]] = []
    for figure in section.memory:
        cells = [escape(figure.label), escape(figure.value), _muted(figure.note)]
        if figure.key == "total":
            rows.append(Row([f"<b>{c}</b>" if i < 2 else c for i, c in enumerate(cells)],
                            fill="#ffffff", strong_top=True))
        else:
            rows.append(cells)
    blocks += table_blocks(columns, rows, width, device, keep_together=True)
    if section.notes:
        blocks[-1].keep_with_next = True  # the notes explain the table: keep them with it
        blocks.append(Spacer(mm(1)))
        blocks.append(TextBlock("<br>".join(_muted(f"Note: {n}") for n in section.notes),
                                width, device, size_pt=SMALL_PT))
    return blocks


CHART_SECTIONS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("Power and memory", ("power", "memory")),
    ("The build's GPUs against comparable ones",
     ("alternatives_per_dollar", "alternatives_per_watt")),
)


def chart_blocks(charts: Sequence[BarChart], width: float, device: QPaintDevice) -> list[Block]:
    """Charts two by two, each pair under its own heading (kept with its charts)."""
    by_key = {c.key: c for c in charts}
    known = {key for _, keys in CHART_SECTIONS for key in keys}
    sections = [(title, [by_key[k] for k in keys if k in by_key])
                for title, keys in CHART_SECTIONS]
    others = [c for c in charts if c.key not in known]
    if others:
        sections.append(("More charts", others))
    blocks: list[Block] = []
    for title, group in sections:
        for i in range(0, len(group), 2):
            blocks += [Spacer(mm(5)), heading(title if i == 0 else f"{title} (continued)",
                                              width, device),
                       Spacer(mm(0.5)), chart_row_block(group[i:i + 2], width, device)]
    return blocks


def sources_blocks(sheet: BuildSheet, width: float, device: QPaintDevice) -> list[Block]:
    columns = (Column("#", 0.04), Column("Source", 0.55), Column("Read", 0.1),
               Column("Used for", 0.31))
    rows = [[str(s.ref), escape(s.source), escape(s.read),
             "; ".join(escape(u) for u in s.used_by)] for s in sheet.sources]
    if not rows:
        rows.append(["", _muted("No parts, no sources.", BODY_PT), "", ""])
    blocks: list[Block] = list(table_blocks(columns, rows, width, device, size_pt=SMALL_PT))
    blocks.append(Spacer(mm(2)))
    catalog = (f"Catalog {escape(sheet.catalog_version)}, data as of "
               f"{escape(sheet.data_date)}; sheet made by {escape(sheet.app_name)} "
               f"{escape(sheet.app_version)} on {escape(sheet.date)}.")
    blocks.append(TextBlock(catalog, width, device, size_pt=SMALL_PT + 0.4))
    if sheet.your_figures:
        blocks.append(TextBlock("<b>Figures entered from the box</b> (your figures, carried "
                                "in the build file)<br>"
                                + "<br>".join(_muted(f"• {line}")
                                              for line in sheet.your_figures),
                                width, device))
    if sheet.assumptions:
        blocks.append(Spacer(mm(1)))
        blocks.append(TextBlock("<br>".join(_muted(f"• {a}") for a in sheet.assumptions),
                                width, device, size_pt=SMALL_PT))
    return blocks


def warnings_block(sheet: BuildSheet, width: float, device: QPaintDevice) -> Block:
    text = "<br>".join(escape(w) for w in sheet.warnings)
    inner = TextBlock(f'<b>Read with care:</b><br>{text}', width - mm(6), device)
    height = inner.height + mm(3)

    def paint(painter: QPainter, rect: QRectF) -> None:
        painter.fillRect(rect, QColor("#fff4e0"))
        painter.fillRect(QRectF(rect.left(), rect.top(), mm(0.9), rect.height()),
                         status_colour("warn"))
        inner.draw(painter, rect.left() + mm(3), rect.top() + mm(1.5))

    return PaintBlock(height, width, paint)


# --- the whole sheet -------------------------------------------------------------------------


def sheet_blocks(sheet: BuildSheet, width: float, device: QPaintDevice,
                 cluster: Sequence[Block] = ()) -> list[Block]:
    """The sheet in reading order; ``cluster`` (the cluster section's blocks, when the sheet
    has one) follows the node's totals."""
    gap = mm(5)
    blocks: list[Block] = [header_block(sheet, width, device), Spacer(mm(3)),
                           tiles_block(sheet.headline, width, device)]
    if sheet.warnings:
        blocks += [Spacer(mm(3)), warnings_block(sheet, width, device)]
    if sheet.notes:
        notes = escape(sheet.notes).replace("\n", "<br>")
        blocks += [Spacer(mm(3)), TextBlock(f"<b>Notes.</b> {notes}", width, device)]
    blocks += [Spacer(gap), heading("Parts", width, device),
               *parts_blocks(sheet, width, device)]
    blocks += [Spacer(gap), heading("Totals", width, device),
               *totals_blocks(sheet, width, device)]
    if cluster:
        blocks += [Spacer(gap), *cluster]
    blocks += [Spacer(gap), heading("Checks", width, device),
               *checks_blocks(sheet, width, device)]
    if sheet.workload is not None:
        blocks += [Spacer(gap), *workload_blocks(sheet.workload, width, device)]
    if sheet.charts:
        blocks += chart_blocks(sheet.charts, width, device)
    blocks += [Spacer(gap), heading("Data sources", width, device),
               *sources_blocks(sheet, width, device)]
    return blocks


def draw_footer(painter: QPainter, rect: QRectF, sheet: BuildSheet, page: int,
                pages: int) -> None:
    """App and version, catalog version, export date; the build's name; Page N of M."""
    painter.save()
    painter.setPen(QPen(QColor(RULE_STRONG), mm(0.2)))
    painter.drawLine(QPointF(rect.left(), rect.top()), QPointF(rect.right(), rect.top()))
    small = font(SMALL_PT)
    painter.setFont(small)
    painter.setPen(QColor(MUTED))
    text_rect = QRectF(rect.left(), rect.top() + mm(1), rect.width(), rect.height() - mm(1))
    left = (f"{sheet.app_name} {sheet.app_version} · catalog {sheet.catalog_version} · "
            f"exported {sheet.date}")
    painter.drawText(text_rect, Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignTop, left)
    metrics = QFontMetricsF(small, painter.device())
    page_text = f"Page {page} of {pages}"
    room = rect.width() - metrics.horizontalAdvance(left) - mm(10)
    room -= metrics.horizontalAdvance(f" · {page_text}")
    name = metrics.elidedText(sheet.build_name, Qt.TextElideMode.ElideRight, room) \
        if room > mm(15) else ""
    right = f"{name} · {page_text}" if name else page_text
    painter.drawText(text_rect, Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignTop, right)
    painter.restore()

