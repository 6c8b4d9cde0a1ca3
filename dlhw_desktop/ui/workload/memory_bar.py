"""The memory bar: what one GPU must hold (weights, gradients, optimizer, activations, KV
cache, overhead) drawn against its memory, one row per GPU model of the build.

Pure painting: the rows come from ``bar_rows`` (a ``MemoryEstimate`` and the build's
GPUs); the verdict per row is ``core.workload.fit.memory_status``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from html import escape
from typing import Any

from PySide6.QtCore import QEvent, QPointF, QRectF, QSize, Qt
from PySide6.QtGui import (
    QBrush,
    QColor,
    QFont,
    QFontMetricsF,
    QHelpEvent,
    QPainter,
    QPainterPath,
    QPaintEvent,
    QPalette,
    QPen,
)
from PySide6.QtWidgets import QSizePolicy, QToolTip, QWidget

from dlhw_desktop.core.parts import Part
from dlhw_desktop.core.workload.fit import memory_status, vram_bytes
from dlhw_desktop.core.workload.memory import GiB, MemoryEstimate
from dlhw_desktop.ui.common.theme import STATUS_COLOURS, ink_on
from dlhw_desktop.ui.workload.labels import gib, status_text_colour


@dataclass(frozen=True, slots=True)
class SegmentKind:
    key: str
    label: str
    items: tuple[str, ...]
    light: str
    dark: str


SEGMENTS: tuple[SegmentKind, ...] = (
    SegmentKind("weights", "Weights", ("weights", "adapters"), "#3f72af", "#5b93d6"),
    SegmentKind("gradients", "Gradients", ("gradients",), "#e07b39", "#f09a5b"),
    SegmentKind("optimizer", "Optimizer", ("optimizer", "master"), "#8e63a8", "#b58bd0"),
    SegmentKind("activations", "Activations", ("activations",), "#3d9a5b", "#5cc07c"),
    SegmentKind("kv_cache", "KV cache", ("kv_cache",), "#1f9e9a", "#3cc4bf"),
    SegmentKind("overhead", "Overhead", ("overhead",), "#8a8f98", "#9aa0a8"),
)
"""The bar's six segments; master weights count as optimizer state (ZeRO's K = 12), LoRA
adapters as weights. Two tones each: light and dark palettes."""


@dataclass(frozen=True, slots=True)
class Segment:
    key: str
    label: str
    bytes: float | None
    notes: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class BarRow:
    """One bar: a GPU model (``count`` of them, all holding the same share)."""

    label: str
    count: int
    segments: tuple[Segment, ...]
    vram: float | None
    status: str

    @property
    def total(self) -> float:
        return sum(s.bytes for s in self.segments if s.bytes is not None)

    @property
    def complete(self) -> bool:
        return all(s.bytes is not None for s in self.segments)

    @property
    def fraction(self) -> float | None:
        return None if not self.vram else self.total / self.vram


def segments_of(memory: MemoryEstimate) -> tuple[Segment, ...]:
    """The estimate's items grouped into the bar's segments, in bar order."""
    segments: list[Segment] = []
    for kind in SEGMENTS:
        items = [i for i in memory.items if i.key in kind.items]
        if not items:
            continue
        known = [i.bytes for i in items if i.bytes is not None]
        value = None if len(known) < len(items) else sum(known)
        notes = tuple(f"{i.label}: {gib(i.bytes, 2)}" + (f" — {i.note}" if i.note else "")
                      for i in items)
        segments.append(Segment(kind.key, kind.label, value, notes))
    return tuple(segments)


class MemoryBar(QWidget):
    """Stacked per-GPU memory bars against each GPU's VRAM, with a legend.

    Painted with QPainter (cheap, no chart library): one row per GPU model, segments
    labelled with their size where they are wide enough, a line at the VRAM limit, a
    faint mark at the 90 % pass limit, and a legend with every segment's size. Unknown
    segments are listed as "n/a" and never drawn as zero.
    """

    BAR_H = 24
    ROW_GAP = 12
    PAD = 8  # above and below
    HPAD = 2  # left and right: the bars line up with the panel's headings

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("workload_memory_bar")
        self.setMouseTracking(True)
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Fixed)
        self._rows: tuple[BarRow, ...] = ()
        self._hit: list[tuple[QRectF, str]] = []

    # --- data ---------------------------------------------------------------------------
    @property
    def rows(self) -> tuple[BarRow, ...]:
        return self._rows

    def set_rows(self, rows: Sequence[BarRow]) -> None:
        self._rows = tuple(rows)
        self.setAccessibleDescription(self.summary())
        self.setMinimumHeight(self._height_for(max(self.width(), 240)))
        self.updateGeometry()
        self.update()

    def summary(self) -> str:
        """The bars as a sentence (screen readers, tests)."""
        parts = []
        for row in self._rows:
            limit = f" of {gib(row.vram)}" if row.vram else ""
            parts.append(f"{row.label}: {gib(row.total)}{limit} ({row.status})")
        return "; ".join(parts)

    # --- geometry -----------------------------------------------------------------------
    def _line_h(self) -> float:
        return QFontMetricsF(self.font()).height()

    def _legend_rows(self, width: float) -> int:
        if not self._rows:
            return 0
        fm = QFontMetricsF(self.font())
        x, rows = 0.0, 1
        for seg in self._rows[0].segments:
            w = 14 + fm.horizontalAdvance(f"{seg.label} {gib(seg.bytes)}") + 16
            if x and x + w > width:
                rows, x = rows + 1, 0.0
            x += w
        return rows

    def _height_for(self, width: float) -> int:
        line = self._line_h()
        per_row = line + 4 + self.BAR_H + line + self.ROW_GAP
        legend = self._legend_rows(width - 2 * self.HPAD) * (line + 4)
        return int(self.PAD * 2 + max(1, len(self._rows)) * per_row + legend)

    def hasHeightForWidth(self) -> bool:
        return True

    def heightForWidth(self, width: int) -> int:
        return self._height_for(width)

    def sizeHint(self) -> QSize:
        return QSize(420, self._height_for(420))

    def minimumSizeHint(self) -> QSize:
        return QSize(240, self._height_for(240))

    def resizeEvent(self, event: Any) -> None:
        super().resizeEvent(event)
        height = self._height_for(self.width())
        if self.minimumHeight() != height:
            self.setMinimumHeight(height)

    # --- colours ------------------------------------------------------------------------
    def _dark(self) -> bool:
        return self.palette().color(QPalette.ColorRole.Window).lightness() < 128

    def segment_colour(self, key: str) -> QColor:
        kind = next(k for k in SEGMENTS if k.key == key)
        return QColor(kind.dark if self._dark() else kind.light)

    # --- painting -----------------------------------------------------------------------
    def paintEvent(self, event: QPaintEvent) -> None:
        painter = QPainter(self)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        palette = self.palette()
        text = palette.color(QPalette.ColorRole.WindowText)
        muted = QColor(text)
        muted.setAlphaF(0.62)
        dark = self._dark()
        track = QColor(255, 255, 255, 22) if dark else QColor(0, 0, 0, 16)
        track_edge = QColor(255, 255, 255, 60) if dark else QColor(0, 0, 0, 45)
        self._hit = []
        fm = QFontMetricsF(self.font())
        line = fm.height()
        width = self.width() - 2 * self.HPAD
        if not self._rows:
            painter.setPen(muted)
            painter.drawText(QRectF(self.HPAD, self.PAD, width, line * 2),
                             Qt.AlignmentFlag.AlignLeft, "No estimate")
            painter.end()
            return
        scale_max = max(max(r.total, r.vram or 0.0) for r in self._rows) * 1.02
        scale = width / scale_max if scale_max > 0 else 0.0
        bold = QFont(self.font())
        bold.setBold(True)
        small = QFont(self.font())
        small.setPointSizeF(max(7.0, self.font().pointSizeF() * 0.88))
        y = float(self.PAD)
        for row in self._rows:
            # heading: GPU on the left, the total against its memory on the right
            colour = QColor(status_text_colour(row.status, dark))
            painter.setFont(bold)
            painter.setPen(text)
            total = ("at least " if not row.complete else "") + gib(row.total)
            right = (f"{total} of {row.vram / GiB:,.0f} GiB" if row.vram
                     else f"{total} per GPU")
            if row.fraction is not None:
                right += f" · {row.fraction:.0%}"
            right_w = QFontMetricsF(bold).horizontalAdvance(right)
            label = QFontMetricsF(bold).elidedText(
                row.label, Qt.TextElideMode.ElideRight, max(40.0, width - right_w - 12))
            painter.drawText(QRectF(self.HPAD, y, width, line),
                             Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter, label)
            painter.setPen(colour)
            painter.drawText(QRectF(self.HPAD, y, width, line),
                             Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter, right)
            y += line + 4
            bar = QRectF(self.HPAD, y, width, self.BAR_H)
            # the GPU's capacity as a track
            if row.vram:
                cap = QRectF(bar.left(), bar.top(), row.vram * scale, bar.height())
                painter.setPen(QPen(track_edge, 1))
                painter.setBrush(track)
                painter.drawRoundedRect(cap.adjusted(0.5, 0.5, -0.5, -0.5), 4, 4)
            # the segments
            painter.setFont(small)
            x = bar.left()
            known = [s for s in row.segments if s.bytes]
            outline = QPainterPath()
            outline.addRoundedRect(QRectF(bar.left(), bar.top(), row.total * scale,
                                          bar.height()), 4, 4)
            painter.save()
            painter.setClipPath(outline)
            for i, seg in enumerate(known):
                w = seg.bytes * scale  # type: ignore[operator]
                rect = QRectF(x, bar.top(), w, bar.height())
                fill = self.segment_colour(seg.key)
                painter.setPen(Qt.PenStyle.NoPen)
                painter.setBrush(fill)
                painter.drawRect(rect)
                if i:  # a hairline between segments keeps neighbours apart
                    painter.setPen(QPen(palette.color(QPalette.ColorRole.Window), 1))
                    painter.drawLine(QPointF(x, bar.top()), QPointF(x, bar.bottom()))
                value = f"{seg.bytes / GiB:,.1f}"  # type: ignore[operator]
                if fm.horizontalAdvance(value) + 8 < w:
                    painter.setPen(ink_on_colour(fill))
                    painter.drawText(rect, Qt.AlignmentFlag.AlignCenter, value)
                self._hit.append((rect, f"<b>{escape(seg.label)}</b>: {gib(seg.bytes, 2)}<br>"
                                  + "<br>".join(escape(n) for n in seg.notes)))
                x += w
            painter.restore()
            # over the limit: hatch what does not fit
            if row.vram and row.total > row.vram:
                over = QRectF(bar.left() + row.vram * scale, bar.top(),
                              (row.total - row.vram) * scale, bar.height())
                fail = QColor(STATUS_COLOURS["fail"])
                painter.setPen(Qt.PenStyle.NoPen)
                painter.setBrush(QBrush(QColor(255, 255, 255, 110) if not dark
                                        else QColor(0, 0, 0, 110),
                                        Qt.BrushStyle.BDiagPattern))
                painter.drawRect(over)
                painter.setPen(QPen(fail, 1.5))
                painter.setBrush(Qt.BrushStyle.NoBrush)
                painter.drawRect(over.adjusted(0.75, 0.75, -0.75, -0.75))
            # 90 % pass limit and the VRAM line
            if row.vram:
                limit_x = bar.left() + row.vram * scale
                pass_x = bar.left() + row.vram * 0.9 * scale
                painter.setPen(QPen(muted, 1, Qt.PenStyle.DotLine))
                painter.drawLine(QPointF(pass_x, bar.top() - 2), QPointF(pass_x, bar.bottom() + 2))
                painter.setPen(QPen(text, 2))
                painter.drawLine(QPointF(limit_x, bar.top() - 4),
                                 QPointF(limit_x, bar.bottom() + 4))
                caption = f"{row.vram / GiB:,.0f} GiB VRAM"
                cw = fm.horizontalAdvance(caption)
                cx = min(max(limit_x - cw / 2, bar.left()), bar.right() - cw)
                painter.setPen(muted)
                painter.drawText(QRectF(cx, bar.bottom() + 4, cw + 2, line),
                                 Qt.AlignmentFlag.AlignLeft, caption)
                self._hit.append((QRectF(pass_x - 3, bar.top() - 2, 6, bar.height() + 4),
                                  "90 % of VRAM: up to here the verdict is “fits”; "
                                  "the rest is headroom for fragmentation and peaks"))
            y += self.BAR_H + line + self.ROW_GAP
            painter.setFont(self.font())
        # legend (the first row's segments: every GPU holds the same share)
        x = float(self.HPAD)
        for seg in self._rows[0].segments:
            entry = f"{seg.label} {gib(seg.bytes)}"
            w = 14 + fm.horizontalAdvance(entry) + 16
            if x > self.HPAD and x + w > self.HPAD + width:
                x, y = float(self.HPAD), y + line + 4
            swatch = QRectF(x, y + (line - 10) / 2, 10, 10)
            painter.setPen(Qt.PenStyle.NoPen)
            painter.setBrush(self.segment_colour(seg.key))
            painter.drawRoundedRect(swatch, 2, 2)
            painter.setPen(text if seg.bytes is not None else muted)
            painter.drawText(QRectF(x + 14, y, w, line),
                             Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter, entry)
            self._hit.append((QRectF(x, y, w, line),
                              "<br>".join(escape(n) for n in seg.notes)))
            x += w
        painter.end()

    def event(self, event: QEvent) -> bool:
        if event.type() == QEvent.Type.ToolTip and isinstance(event, QHelpEvent):
            pos = QPointF(event.pos())
            tip = next((t for r, t in reversed(self._hit) if r.contains(pos)), "")
            if tip:
                QToolTip.showText(event.globalPos(), tip, self)
            else:
                QToolTip.hideText()
                event.ignore()
            return True
        return super().event(event)




def bar_rows(memory: MemoryEstimate, gpus: Sequence[Part]) -> tuple[BarRow, ...]:
    """One row per GPU model in the build (even split: every GPU holds the same share)."""
    segments = segments_of(memory)
    if not gpus:
        return (BarRow("Per GPU (no accelerator in the build)", 1, segments, None, "unknown"),)
    counts: dict[str, tuple[Part, int]] = {}
    for part in gpus:
        first, n = counts.get(part.id, (part, 0))
        counts[part.id] = (first, n + 1)
    rows = []
    for part, n in counts.values():
        vram = vram_bytes(part)
        status = memory_status(memory.per_gpu_bytes, vram, memory.complete)
        label = f"{n} × {part.name}, each" if n > 1 else part.name
        rows.append(BarRow(label, n, segments, vram, status))
    return tuple(rows)


def ink_on_colour(fill: QColor) -> QColor:
    return QColor(ink_on(fill.name()))
