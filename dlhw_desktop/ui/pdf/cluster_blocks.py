"""The cluster section of the build sheet (``reports.cluster_section``) as PDF blocks.

A heading, the headline figures as tiles, then each table (bill of materials, racks,
fabric, power and cooling, cost, storage, time) with its note, the plan's assumptions and
its sources. Its size does not grow with the node count: identical items are one row.
"""

from __future__ import annotations

from html import escape

from PySide6.QtGui import QPaintDevice

from dlhw_desktop.reports.cluster_section import ClusterSection, ClusterTable
from dlhw_desktop.reports.sheet_model import Figure
from dlhw_desktop.ui.pdf.blocks import Block, Spacer, TextBlock
from dlhw_desktop.ui.pdf.page import mm
from dlhw_desktop.ui.pdf.sheet_blocks import heading, tiles_block
from dlhw_desktop.ui.pdf.style import BODY_PT, MUTED, SMALL_PT
from dlhw_desktop.ui.pdf.table import Column, Row, table_blocks


def _muted(text: str) -> str:
    return f'<span style="color:{MUTED}; font-size:{SMALL_PT}pt">{escape(text)}</span>'


def table(spec: ClusterTable, width: float, device: QPaintDevice) -> list[Block]:
    headed = any(spec.headers)
    columns = [Column(h, s, a) for h, s, a in zip(spec.headers, spec.shares, spec.aligns,
                                                  strict=True)]
    rows: list[Row | list[str]] = []
    for cells in spec.rows:
        first, *rest = cells
        rows.append([escape(first) if headed else f"<b>{escape(first)}</b>",
                     *(escape(c) for c in rest)])
    if spec.total:
        rows.append(Row([f"<b>{escape(c)}</b>" for c in spec.total], fill="#ffffff",
                        strong_top=True))
    blocks: list[Block] = [
        TextBlock(f"<b>{escape(spec.title)}</b>", width, device, size_pt=BODY_PT + 0.5,
                  keep_with_next=True), Spacer(mm(0.8))]
    blocks[-1].keep_with_next = True
    body = table_blocks(columns, rows, width, device, header=headed,
                        keep_together=len(rows) <= 12)
    blocks += body
    if spec.note:
        body[-1].keep_with_next = True
        blocks += [Spacer(mm(0.8)), TextBlock(_muted(spec.note), width, device,
                                              size_pt=SMALL_PT)]
    return blocks


def cluster_blocks(section: ClusterSection, width: float, device: QPaintDevice) -> list[Block]:
    blocks: list[Block] = [heading(section.title, width, device), Spacer(mm(1)),
                           tiles_block([Figure(label, value, note)
                                        for label, value, note in section.summary],
                                       width, device)]
    for spec in section.tables:
        blocks += [Spacer(mm(4)), *table(spec, width, device)]
    if section.assumptions:
        blocks += [Spacer(mm(3)),
                   TextBlock("<b>Assumptions</b><br>" + "<br>".join(
                       _muted(f"• {a}") for a in section.assumptions), width, device,
                       size_pt=SMALL_PT)]
    if section.sources:
        blocks += [Spacer(mm(2)),
                   TextBlock("<b>Cluster sources</b><br>" + "<br>".join(
                       _muted(s) for s in section.sources), width, device,
                       size_pt=SMALL_PT)]
    return blocks

