"""The workload-fit panel: pick a model and a job, see whether it fits the build's GPUs.

Composition only: the numbers come from ``core.workload`` (memory, time, cost) and the
verdict from ``core.build_fit`` (the same function the planner's checks run
through ``extra_check``). The panel never changes the build: an edit is emitted as
``workload_edited(mapping)`` for the Build tab to turn into one undoable command
(``SetWorkloadCommand``), and the panel redraws from the build's ``WorkloadChanged``
event like every other view (DESIGN habits 2 and 3).
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from html import escape
from typing import Any

from PySide6.QtCore import QEvent, QPointF, QRectF, QSize, Qt, Signal
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
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDoubleSpinBox,
    QFormLayout,
    QFrame,
    QGridLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QScrollArea,
    QSizePolicy,
    QSpinBox,
    QToolTip,
    QVBoxLayout,
    QWidget,
)

from dlhw_desktop.catalog.store import Catalog
from dlhw_desktop.core.build import (
    Build,
    BuildEvent,
    BuildReset,
    PartAdded,
    PartRemoved,
    PartReplaced,
    QuantityChanged,
    Slot,
    WorkloadChanged,
)
from dlhw_desktop.core.build_fit import (
    build_accelerators,
    cost_assumptions,
    machine_price,
    workload_checks,
)
from dlhw_desktop.core.checks.context import CheckContext
from dlhw_desktop.core.fields import Category
from dlhw_desktop.core.parts import Part
from dlhw_desktop.core.verdict import CheckResult, worst
from dlhw_desktop.core.workload import (
    MODES,
    CostAssumptions,
    FitOption,
    FitResult,
    InvalidWorkloadError,
    MemoryEstimate,
    Workload,
    WorkloadError,
    break_even,
    estimate_memory,
    fit,
    has_workload,
    parallelism_from_dict,
    presets,
    rank_fits,
    workload_from_dict,
)
from dlhw_desktop.core.workload.fit import cheapest_cloud, memory_status, vram_bytes
from dlhw_desktop.core.workload.mapping import (
    ARCHITECTURE_KEYS,
    WORKLOAD_KEYS,
    format_count,
    parse_count,
    strategies_for,
)
from dlhw_desktop.core.workload.memory import GiB
from dlhw_desktop.core.workload.precision import WEIGHT_FORMATS, precisions_for_mode
from dlhw_desktop.core.workload.workload import DEFAULT_MFU
from dlhw_desktop.ui.common.settings import AppSettings
from dlhw_desktop.ui.common.theme import STATUS_COLOURS
from dlhw_desktop.ui.workload.labels import (
    MODE_LABELS,
    STATUS_TEXT,
    STRATEGY_LABELS,
    duration,
    gib,
    is_dark,
    mfu_tooltip,
    money,
    rate,
    status_text_colour,
)

MODEL_KEYS = ("model", "model_name", "params", "active_params", *ARCHITECTURE_KEYS)


# --- the memory bar -----------------------------------------------------------------------


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
                    painter.setPen(_ink_on(fill))
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


def _ink_on(fill: QColor) -> QColor:
    """Black or white text, whichever reads better on ``fill`` (WCAG relative luminance)."""
    def channel(c: float) -> float:
        return c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4

    lum = (0.2126 * channel(fill.redF()) + 0.7152 * channel(fill.greenF())
           + 0.0722 * channel(fill.blueF()))
    return QColor("#111111") if lum > 0.33 else QColor("#ffffff")


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


# --- the panel ----------------------------------------------------------------------------

NO_MODEL = ""
CUSTOM = "custom"


def _heading(text: str) -> QLabel:
    label = QLabel(text)
    font = label.font()
    font.setBold(True)
    label.setFont(font)
    return label


def _muted(label: QLabel) -> QLabel:
    label.setWordWrap(True)
    label.setTextFormat(Qt.TextFormat.RichText)
    label.setForegroundRole(QPalette.ColorRole.PlaceholderText)
    label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
    return label


def _value_label(name: str) -> QLabel:
    label = QLabel(objectName=name)
    label.setWordWrap(True)
    label.setTextFormat(Qt.TextFormat.RichText)
    label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
    return label


class WorkloadPanel(QWidget):
    """Model and job inputs; memory per GPU, verdict, time and cost for the build's GPUs.

    ``set_build(build)`` follows one build (unsubscribing from the previous one);
    ``workload_edited(dict)`` carries every user edit as the build's new workload mapping;
    ``extra_check(ctx)`` is the planner check. The "What fits…" and "Advisor…" buttons
    open their dialogs; their requests come out as ``add_requested(part_id, quantity)``
    and ``apply_requested([(part_id, quantity), ...])``.
    """

    workload_edited = Signal(dict)
    add_requested = Signal(str, int)
    apply_requested = Signal(list)

    def __init__(self, catalog: Catalog, parent: QWidget | None = None, *,
                 settings: AppSettings | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("workload_panel")
        self.catalog = catalog
        self.settings = settings
        self._build: Build | None = None
        # the build's unsubscribe, in a plain list so the destroyed hook needs no Qt
        self._subscription: list[Callable[[], None] | None] = [None]
        holder = self._subscription
        self.destroyed.connect(lambda *_: holder[0]() if holder[0] else None)
        self._mapping: dict[str, Any] = {}
        self._loading = False
        self._accelerators: list[Part] | None = None
        self._cloud: list[Part] | None = None
        self._assumptions: CostAssumptions | None = None
        self._result: FitResult | None = None
        self._memory: MemoryEstimate | None = None
        self._cloud_option: FitOption | None = None
        self._error = ""
        self._last_preset = "llama-3.1-8b"
        self._what_fits: QWidget | None = None
        self._advisor: QWidget | None = None
        self._make_widgets()
        self._make_layout()
        self._connect()
        self._show_inputs({})
        self._refresh()

    # --- construction -------------------------------------------------------------------
    def _make_widgets(self) -> None:
        self.model_combo = QComboBox(objectName="workload_model")
        self.model_combo.addItem("No workload", NO_MODEL)
        self.model_combo.insertSeparator(1)
        for model in presets():
            billions = model.params / 1e9
            size = f"{billions:,.1f}B" if billions >= 1 else f"{model.params / 1e6:,.0f}M"
            self.model_combo.addItem(f"{model.name} ({size})", model.key)
            self.model_combo.setItemData(self.model_combo.count() - 1,
                                         model.source, Qt.ItemDataRole.ToolTipRole)
        self.model_combo.insertSeparator(self.model_combo.count())
        self.model_combo.addItem("Custom model…", CUSTOM)
        self.model_combo.setToolTip("A preset with its published architecture, or your own")

        self.params_edit = QLineEdit(objectName="workload_params")
        self.params_edit.setPlaceholderText("e.g. 8B, 350M")
        self.params_edit.setToolTip("Parameter count: 8e9, 8B, 125M")
        self.arch_check = QCheckBox("I know the architecture", objectName="workload_arch")
        self.arch_check.setToolTip("Layers, hidden size and heads give the KV cache and the "
                                   "activations; with the parameter count alone they are "
                                   "unknown and the total is a lower bound")
        self.layers_spin = self._spin("workload_layers", 1, 1024, 32)
        self.hidden_spin = self._spin("workload_hidden", 64, 131072, 4096, step=256)
        self.heads_spin = self._spin("workload_heads", 1, 1024, 32)
        self.kv_heads_spin = self._spin("workload_kv_heads", 1, 1024, 8)
        self.kv_heads_spin.setToolTip("Key/value heads: fewer than the heads is grouped-query "
                                      "attention (GQA), which shrinks the KV cache")

        self.mode_combo = QComboBox(objectName="workload_mode")
        for mode in MODES:
            self.mode_combo.addItem(MODE_LABELS[mode], mode)
        self.precision_combo = QComboBox(objectName="workload_precision")
        self.precision_combo.setToolTip(
            "Weights for inference (BF16, INT8, GGUF/GPTQ/AWQ 4-bit ...); compute precision "
            "for training (BF16 = mixed precision with fp32 master weights)")
        self.batch_spin = self._spin("workload_batch", 1, 65536, 1)
        self.batch_spin.setToolTip("Concurrent sequences (inference) or the micro-batch each "
                                   "GPU holds (training; gradient accumulation does not "
                                   "add memory)")
        self.seq_spin = self._spin("workload_seq", 0, 1 << 20, 0, step=512)
        self.seq_spin.setToolTip("Tokens per sequence (prompt + output for serving)")
        self.tokens_edit = QLineEdit(objectName="workload_tokens")
        self.tokens_edit.setPlaceholderText("e.g. 1B, 100M")
        self.tokens_label = QLabel("Tokens to train on")
        self.mfu_spin = QDoubleSpinBox(objectName="workload_mfu")
        self.mfu_spin.setRange(1.0, 100.0)
        self.mfu_spin.setDecimals(0)
        self.mfu_spin.setSuffix(" %")
        self.mfu_spin.setValue(DEFAULT_MFU * 100)
        self.mfu_spin.setKeyboardTracking(False)
        self.mfu_spin.setToolTip(mfu_tooltip())
        self.checkpoint_check = QCheckBox("Activation checkpointing",
                                          objectName="workload_checkpointing")
        self.checkpoint_check.setToolTip("Keep only each layer's input and recompute the rest "
                                         "in the backward pass: far less activation memory "
                                         "for about a third more compute")
        self.strategy_combo = QComboBox(objectName="workload_strategy")
        self.strategy_label = QLabel("Multi-GPU")

        self.status_label = _value_label("workload_verdict")
        self.bar = MemoryBar(self)
        self.notes_label = _muted(QLabel(objectName="workload_notes"))
        self.time_label = _value_label("workload_time")
        self.cost_label = _value_label("workload_cost")
        self.hint_label = _muted(QLabel(objectName="workload_hint"))
        self.what_fits_button = QPushButton("What fits…", objectName="workload_what_fits")
        self.what_fits_button.setToolTip("Catalog GPUs and cloud offerings that run this "
                                         "workload, cheapest first")
        self.advisor_button = QPushButton("Advisor…", objectName="workload_advisor")
        self.advisor_button.setToolTip("Answer six questions, get three proposals with "
                                       "their reasons")

    def _spin(self, name: str, low: int, high: int, value: int, step: int = 1) -> QSpinBox:
        spin = QSpinBox(objectName=name)
        spin.setRange(low, high)
        spin.setValue(value)
        spin.setSingleStep(step)
        spin.setGroupSeparatorShown(True)
        spin.setKeyboardTracking(False)  # one edit per Enter / focus-out / arrow step
        return spin

    def _make_layout(self) -> None:
        inputs = QFormLayout()
        inputs.setFieldGrowthPolicy(QFormLayout.FieldGrowthPolicy.AllNonFixedFieldsGrow)
        inputs.addRow("Model", self.model_combo)
        self.custom_box = QWidget(objectName="workload_custom")
        custom = QFormLayout(self.custom_box)
        custom.setContentsMargins(0, 0, 0, 0)
        custom.addRow("Parameters", self.params_edit)
        custom.addRow("", self.arch_check)
        self.arch_box = QWidget()
        arch = QGridLayout(self.arch_box)
        arch.setContentsMargins(0, 0, 0, 0)
        for i, (text, spin) in enumerate((("Layers", self.layers_spin),
                                          ("Hidden", self.hidden_spin),
                                          ("Heads", self.heads_spin),
                                          ("KV heads", self.kv_heads_spin))):
            arch.addWidget(QLabel(text), i // 2, (i % 2) * 2)
            arch.addWidget(spin, i // 2, (i % 2) * 2 + 1)
        custom.addRow(self.arch_box)
        inputs.addRow(self.custom_box)
        inputs.addRow("Job", self.mode_combo)
        inputs.addRow("Precision", self.precision_combo)
        inputs.addRow("Batch size", self.batch_spin)
        inputs.addRow("Sequence length", self.seq_spin)
        inputs.addRow(self.tokens_label, self.tokens_edit)
        inputs.addRow("MFU", self.mfu_spin)
        inputs.addRow("", self.checkpoint_check)
        inputs.addRow(self.strategy_label, self.strategy_combo)
        self._inputs_form = inputs

        line = QFrame()
        line.setFrameShape(QFrame.Shape.HLine)
        line.setFrameShadow(QFrame.Shadow.Sunken)

        buttons = QHBoxLayout()
        buttons.addWidget(self.what_fits_button)
        buttons.addWidget(self.advisor_button)
        buttons.addStretch(1)

        content = QWidget()
        column = QVBoxLayout(content)
        column.setContentsMargins(8, 8, 8, 8)
        column.setSpacing(8)
        column.addLayout(inputs)
        column.addWidget(line)
        column.addWidget(self.hint_label)
        memory_head = QHBoxLayout()
        memory_head.addWidget(_heading("Memory per GPU"))
        memory_head.addStretch(1)
        memory_head.addWidget(self.status_label)
        self.results = QWidget(objectName="workload_results")
        results = QVBoxLayout(self.results)
        results.setContentsMargins(0, 0, 0, 0)
        results.setSpacing(4)
        results.addLayout(memory_head)
        results.addWidget(self.bar)
        results.addWidget(self.notes_label)
        results.addSpacing(4)
        results.addWidget(_heading("Time"))
        results.addWidget(self.time_label)
        results.addSpacing(4)
        results.addWidget(_heading("Cost"))
        results.addWidget(self.cost_label)
        column.addWidget(self.results)
        column.addLayout(buttons)
        column.addStretch(1)

        scroll = QScrollArea(objectName="workload_scroll")
        scroll.setWidgetResizable(True)
        scroll.setFrameShape(QFrame.Shape.NoFrame)
        scroll.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        scroll.setWidget(content)
        outer = QVBoxLayout(self)
        outer.setContentsMargins(0, 0, 0, 0)
        outer.addWidget(scroll)

    def _connect(self) -> None:
        self.model_combo.currentIndexChanged.connect(self._model_changed)
        self.mode_combo.currentIndexChanged.connect(self._mode_changed)
        for combo in (self.precision_combo, self.strategy_combo):
            combo.currentIndexChanged.connect(self._edited)
        for spin in (self.batch_spin, self.seq_spin, self.layers_spin, self.hidden_spin,
                     self.heads_spin, self.kv_heads_spin):
            spin.valueChanged.connect(self._edited)
        self.mfu_spin.valueChanged.connect(self._edited)
        for edit in (self.params_edit, self.tokens_edit):
            edit.editingFinished.connect(self._edited)
        for check in (self.arch_check, self.checkpoint_check):
            check.toggled.connect(self._edited)
        self.what_fits_button.clicked.connect(self.open_what_fits)
        self.advisor_button.clicked.connect(self.open_advisor)

    # --- the build ------------------------------------------------------------------------
    @property
    def build(self) -> Build | None:
        return self._build

    def set_build(self, build: Build | None) -> None:
        """Follow ``build``: show its workload, judge it on its GPUs, redraw on its events."""
        unsubscribe = self._subscription[0]
        if unsubscribe is not None:
            unsubscribe()
            self._subscription[0] = None
        self._build = build
        if build is not None:
            self._subscription[0] = build.subscribe(self._on_build_event)
        self._load_from_build()

    def _on_build_event(self, event: BuildEvent) -> None:
        if isinstance(event, WorkloadChanged | BuildReset):
            self._load_from_build()
        elif isinstance(event, PartAdded | PartRemoved | PartReplaced | QuantityChanged) \
                and event.slot in (Slot.ACCELERATOR, Slot.CLOUD):
            self._update_strategy_choices()
            self._refresh()

    def _load_from_build(self) -> None:
        self._mapping = dict(self._build.workload) if self._build is not None else {}
        self._show_inputs(self._mapping)
        self._refresh()

    def closeEvent(self, event: Any) -> None:
        self.set_build(None)
        super().closeEvent(event)

    # --- cost assumptions -----------------------------------------------------------------
    def set_cost_assumptions(self, assumptions: CostAssumptions | None) -> None:
        """Electricity price, utilisation, years (e.g. from the check settings); ``None``
        reads the stored settings (or the core defaults without settings)."""
        self._assumptions = assumptions
        self._refresh()

    def cost_assumptions(self) -> CostAssumptions:
        """``core.build_fit.cost_assumptions`` over the stored settings: the same function
        ``dlhw fit`` uses, so both cost a job the same."""
        if self._assumptions is not None:
            base = self._assumptions
            price = machine_price(self._build) if self._build is not None else None
            if price is not None and base.hardware_price_usd is None:
                return replace(base, hardware_price_usd=price)
            return base
        values: dict[str, float] = {}
        if self.settings is not None:
            for name, key in (("years", "workload/years"),
                              ("electricity_usd_per_kwh", "build/electricity_usd_per_kwh"),
                              ("utilisation", "build/utilisation")):
                with contextlib.suppress(KeyError, TypeError, ValueError):
                    values[name] = float(self.settings.get(key))
        return cost_assumptions(self._build, **values)

    def _machine_price(self) -> float | None:
        return machine_price(self._build) if self._build is not None else None

    # --- catalog ----------------------------------------------------------------------------
    def accelerators(self) -> list[Part]:
        if self._accelerators is None:
            self._accelerators = self.catalog.parts(Category.ACCELERATOR)
        return self._accelerators

    def cloud_offerings(self) -> list[Part]:
        if self._cloud is None:
            self._cloud = self.catalog.parts(Category.CLOUD)
        return self._cloud

    def _find(self, part_id: str) -> Part | None:
        return self.catalog.find(part_id)

    # --- the planner check -----------------------------------------------------------------
    def extra_check(self, ctx: CheckContext) -> list[CheckResult]:
        """Workload verdict per GPU (kind ``workload``); nothing when no workload is set.

        Reads the build the checks run on (``ctx.build``), not the panel's inputs, so the
        verdict always matches the saved, undoable state.
        """
        return workload_checks(ctx.build, self._find)

    # --- inputs -> mapping -----------------------------------------------------------------
    def _show_inputs(self, mapping: Mapping[str, Any]) -> None:
        """Put a mapping's values in the inputs without emitting edits."""
        self._loading = True
        try:
            model = mapping.get("model") or (CUSTOM if mapping.get("params") else NO_MODEL)
            index = self.model_combo.findData(model)
            self.model_combo.setCurrentIndex(max(0, index))
            if model == CUSTOM:
                params = mapping.get("params")
                self.params_edit.setText(format_count(float(params)) if params else "")
                has_arch = all(mapping.get(k) for k in ("layers", "hidden", "heads"))
                self.arch_check.setChecked(has_arch)
                for key, spin in (("layers", self.layers_spin), ("hidden", self.hidden_spin),
                                  ("heads", self.heads_spin),
                                  ("kv_heads", self.kv_heads_spin)):
                    if mapping.get(key):
                        spin.setValue(int(mapping[key]))
            mode = mapping.get("mode") or "inference"
            self.mode_combo.setCurrentIndex(max(0, self.mode_combo.findData(mode)))
            self._fill_precisions(str(mapping.get("precision") or "BF16"))
            self.batch_spin.setValue(_int_or(mapping.get("batch"), 1))
            self.seq_spin.setValue(_int_or(mapping.get("seq"), 0))
            tokens = mapping.get("tokens")
            self.tokens_edit.setText(format_count(float(tokens)) if tokens else "")
            self.mfu_spin.setValue(float(mapping.get("mfu") or DEFAULT_MFU) * 100)
            self.checkpoint_check.setChecked(bool(mapping.get("checkpointing")))
            self._update_strategy_choices(mapping.get("strategy"))
            self._update_visibility()
        finally:
            self._loading = False

    def _fill_precisions(self, current: str) -> None:
        mode = self.mode_combo.currentData()
        names = precisions_for_mode(str(mode))
        blocked = self.precision_combo.blockSignals(True)
        self.precision_combo.clear()
        for name in names:
            fmt = WEIGHT_FORMATS[name]
            self.precision_combo.addItem(f"{name} ({fmt.bits:g} bits)", name)
            self.precision_combo.setItemData(self.precision_combo.count() - 1,
                                             fmt.note or fmt.source,
                                             Qt.ItemDataRole.ToolTipRole)
        index = self.precision_combo.findData(current.upper())
        if index < 0:
            index = max(0, self.precision_combo.findData("BF16"))
        self.precision_combo.setCurrentIndex(index)
        self.precision_combo.setEnabled(mode != "qlora")
        self.precision_combo.blockSignals(blocked)

    def gpu_count(self) -> int:
        if self._build is None:
            return 0
        pairs, _ = build_accelerators(self._build, self._find)
        return sum(n for _, n in pairs)

    def _update_strategy_choices(self, chosen: object = None) -> None:
        if chosen is None:
            chosen = self.strategy_combo.currentData()
        mode = self.mode_combo.currentData() or "inference"
        gpus = self.gpu_count()
        auto = parallelism_from_dict({}, mode, max(gpus, 2)).strategy
        blocked = self.strategy_combo.blockSignals(True)
        self.strategy_combo.clear()
        self.strategy_combo.addItem(f"Automatic: {STRATEGY_LABELS[auto]}", None)
        for strategy in strategies_for(mode):
            self.strategy_combo.addItem(STRATEGY_LABELS[strategy], strategy)
        index = self.strategy_combo.findData(chosen) if chosen else 0
        self.strategy_combo.setCurrentIndex(max(0, index))
        self.strategy_combo.setEnabled(gpus > 1)
        self.strategy_combo.setToolTip(
            "How the build's GPUs share the work" if gpus > 1
            else "Applies when the build has more than one GPU")
        self.strategy_combo.blockSignals(blocked)

    def _update_visibility(self) -> None:
        model = self.model_combo.currentData()
        has_model = model != NO_MODEL
        self.custom_box.setVisible(model == CUSTOM)
        self.arch_box.setVisible(model == CUSTOM and self.arch_check.isChecked())
        training = self.mode_combo.currentData() != "inference"
        self.checkpoint_check.setVisible(training)
        self.tokens_label.setText("Tokens to train on" if training else "Tokens to generate")
        self.tokens_edit.setToolTip(
            "The dataset size D for 6ND: gives the training time and the cost of a run"
            if training else "Optional: how many tokens to serve, for the time and cost")
        for widget in (self.mode_combo, self.precision_combo, self.batch_spin, self.seq_spin,
                       self.tokens_edit, self.mfu_spin, self.checkpoint_check):
            widget.setEnabled(has_model and (widget is not self.precision_combo
                                             or self.mode_combo.currentData() != "qlora"))
        self.strategy_combo.setEnabled(has_model and self.gpu_count() > 1)
        self._update_seq_hint()

    def _update_seq_hint(self) -> None:
        default = 4096
        key = self.model_combo.currentData()
        if key not in (NO_MODEL, CUSTOM):
            default = next(m.default_seq for m in presets() if m.key == key)
        self.seq_spin.setSpecialValueText(f"Model default ({default:,})")

    def _model_changed(self) -> None:
        key = self.model_combo.currentData()
        if key == CUSTOM and not self.params_edit.text().strip():
            self._prefill_custom()
        if key not in (NO_MODEL, CUSTOM):
            self._last_preset = key
        self._update_visibility()
        self._edited()

    def _prefill_custom(self) -> None:
        """Start a custom model from the last preset, so the user edits rather than types."""
        model = next((m for m in presets() if m.key == self._last_preset), None)
        if model is None:
            return
        self._loading, was = True, self._loading
        try:
            self.params_edit.setText(format_count(model.params))
            if model.has_architecture:
                self.layers_spin.setValue(model.layers or 1)
                self.hidden_spin.setValue(model.hidden or 64)
                self.heads_spin.setValue(model.heads or 1)
                self.kv_heads_spin.setValue(model.kv_heads_effective or 1)
                self.arch_check.setChecked(True)
        finally:
            self._loading = was

    def _mode_changed(self) -> None:
        self._fill_precisions(self.precision_combo.currentData() or "BF16")
        self._update_strategy_choices()
        self._update_visibility()
        self._edited()

    def input_mapping(self) -> dict[str, Any]:
        """The inputs as a workload mapping over the build's other keys.

        Raises ``WorkloadError`` when an input cannot be read (a bad parameter count).
        """
        base = {k: v for k, v in self._mapping.items() if k not in MODEL_KEYS}
        model = self.model_combo.currentData()
        if model == NO_MODEL:
            return {k: v for k, v in base.items() if k not in WORKLOAD_KEYS}
        data: dict[str, Any] = dict(base)
        if model == CUSTOM:
            text = self.params_edit.text().strip()
            if not text:
                raise InvalidWorkloadError("enter the parameter count (e.g. 8B or 350M)")
            data["model"] = CUSTOM
            data["params"] = parse_count(text)
            if self._mapping.get("model_name"):
                data["model_name"] = self._mapping["model_name"]
            if self.arch_check.isChecked():
                data.update(layers=self.layers_spin.value(), hidden=self.hidden_spin.value(),
                            heads=self.heads_spin.value(), kv_heads=self.kv_heads_spin.value())
        else:
            data["model"] = model
        mode = self.mode_combo.currentData()
        data.update(mode=mode, precision=self.precision_combo.currentData() or "BF16",
                    batch=self.batch_spin.value(), mfu=round(self.mfu_spin.value() / 100, 4))
        data["seq"] = self.seq_spin.value() or None
        text = self.tokens_edit.text().strip()
        data["tokens"] = parse_count(text) if text else None
        data["checkpointing"] = mode != "inference" and self.checkpoint_check.isChecked()
        strategy = self.strategy_combo.currentData()
        if strategy:
            data["strategy"] = strategy
        else:
            data.pop("strategy", None)
        return {k: v for k, v in data.items() if v is not None}

    def _edited(self, *_args: object) -> None:
        if self._loading:
            return
        self._update_visibility()
        try:
            mapping = self.input_mapping()
            if has_workload(mapping):
                workload_from_dict(mapping)
        except WorkloadError as exc:
            self._error = str(exc)
            self._refresh()
            return
        self._error = ""
        if mapping == self._mapping:
            self._refresh()
            return
        self._mapping = mapping
        self._refresh()
        self.workload_edited.emit(dict(mapping))

    def adopt_workload(self, mapping: Mapping[str, Any]) -> None:
        """Take a workload from elsewhere (the advisor) as if the user had typed it."""
        base = {k: v for k, v in self._mapping.items() if k not in WORKLOAD_KEYS}
        new = {**base, **mapping}
        if "strategy" in self._mapping and "strategy" not in mapping:
            new["strategy"] = self._mapping["strategy"]
        self._error = ""
        self._mapping = new
        self._show_inputs(new)
        self._refresh()
        self.workload_edited.emit(dict(new))

    # --- estimates -------------------------------------------------------------------------
    @property
    def mapping(self) -> dict[str, Any]:
        """The workload the panel shows (the build's, or the latest edit)."""
        return dict(self._mapping)

    @property
    def result(self) -> FitResult | None:
        """The fit on the build's GPUs (``None`` without a workload or GPUs)."""
        return self._result

    @property
    def memory(self) -> MemoryEstimate | None:
        return self._memory

    @property
    def cheapest_cloud(self) -> FitOption | None:
        return self._cloud_option

    def workload(self) -> Workload | None:
        """The shown workload, or ``None`` (none chosen, or it cannot be estimated)."""
        if not has_workload(self._mapping):
            return None
        try:
            return workload_from_dict(self._mapping)
        except WorkloadError:
            return None

    def refresh(self) -> None:
        """Recompute (e.g. after the check settings changed the electricity price)."""
        self._refresh()

    def _refresh(self) -> None:
        self._result = None
        self._memory = None
        self._cloud_option = None
        workload: Workload | None = None
        error = self._error
        if has_workload(self._mapping) and not error:
            try:
                workload = workload_from_dict(self._mapping)
                self._estimate(workload)
            except WorkloadError as exc:
                error = str(exc)
                workload = None
        self.results.setVisible(workload is not None)
        self.what_fits_button.setEnabled(workload is not None)
        if error:
            colour = STATUS_COLOURS["fail"]
            self.hint_label.setText(f"<span style='color:{colour}'>Cannot estimate: "
                                    f"{escape(error)}</span>")
        elif workload is None:
            self.hint_label.setText("Choose a model to see whether it fits this build's "
                                    "GPUs, how long it takes and what it costs.")
        elif not self._result:
            self.hint_label.setText("No accelerator in the build: the bar shows what one GPU "
                                    "would need. Add GPUs, or see what fits.")
        self.hint_label.setVisible(bool(error) or workload is None or self._result is None)
        if workload is None:
            self.bar.set_rows(())
            self.status_label.setText("")
            return
        self._show_memory(workload)
        self._show_time(workload)
        self._show_cost(workload)

    def _estimate(self, workload: Workload) -> None:
        build = self._build
        pairs, offering = build_accelerators(build, self._find) if build else ([], None)
        assumptions = self.cost_assumptions()
        if pairs:
            gpus = sum(n for _, n in pairs)
            parallel = parallelism_from_dict(self._mapping, workload.mode, gpus)
            self._result = fit(workload, pairs, parallel, cloud_offering=offering,
                               assumptions=assumptions)
            self._memory = self._result.memory
        else:
            self._memory = estimate_memory(
                workload, parallelism_from_dict(self._mapping, workload.mode, 1))
        options = rank_fits(workload, self.accelerators(), self.cloud_offerings(),
                            max_gpus=1, assumptions=assumptions)
        self._cloud_option = cheapest_cloud(options, pairs[0][0] if pairs else None,
                                            self._find)

    def _show_memory(self, workload: Workload) -> None:
        assert self._memory is not None
        gpus = self._result.gpus if self._result else ()
        self.bar.set_rows(bar_rows(self._memory, gpus))
        if self._result is not None:
            status = self._result.status
        else:
            status = worst(r.status for r in self.bar.rows) if gpus else "unknown"
        colour = status_text_colour(status if gpus else "unknown", is_dark(self))
        word = STATUS_TEXT[status] if gpus else "No GPU"
        self.status_label.setText(
            f"<span style='color:{colour}; font-weight:600'>{escape(word)}</span>")
        self.status_label.setProperty("status", status if gpus else "unknown")
        notes = list(self._result.notes if self._result else self._memory.notes)
        if self._result is not None:
            suggestion = next((c.suggestion for c in self._result.checks if c.suggestion), "")
            if suggestion:
                notes.append(f"Tip: {suggestion}")
        if not self._memory.complete:
            notes.append("Lower bound: " + ", ".join(self._memory.unknown).lower()
                         + " not known for this model")
        self.notes_label.setText("<br>".join(escape(n) for n in notes))

    def _show_time(self, workload: Workload) -> None:
        result = self._result
        lines: list[str] = []
        if result is None:
            lines.append("Needs the build's GPUs.")
        elif result.status == "fail":
            lines.append("Does not fit in these GPUs' memory: no time or cost is estimated.")
        elif workload.training:
            t = result.training
            if t is not None:
                rule = t.rule
                plural = "s" if t.gpus > 1 else ""
                lines.append(f"<b>{duration(t.hours)}</b> to train on "
                             f"{format_count(workload.dataset_tokens or 0)} tokens on "
                             f"{t.gpus} GPU{plural} at {t.mfu:.0%} MFU")
                lines.append(f"{t.flops:.2e} FLOPs ({rule}); {t.gpu_hours:,.1f} GPU-hours")
            elif workload.dataset_tokens is None:
                lines.append("Give the tokens to train on for a training time.")
            else:
                lines.append(f"{workload.compute} throughput of these GPUs is unknown.")
        else:
            i = result.inference
            if i is not None and i.tokens_per_s:
                span = i.range_tokens_per_s
                shown = (f"{rate(span[0])}–{rate(span[1])}" if span and span[1] > span[0]
                         else f"~{rate(i.tokens_per_s)}")
                lines.append(
                    f"<b>{shown} tokens/s</b> (estimate; "
                    f"{rate(i.per_sequence_tokens_per_s)} per sequence × {i.batch}), "
                    f"{i.bound}-bound" + (f", {escape(i.stack)} at {i.efficiency:.0%} of "
                                          "the bandwidth ceiling"
                                          if i.stack and i.efficiency else ""))
                bounds = []
                if i.ceiling_tokens_per_s:
                    bounds.append(f"memory bound {rate(i.ceiling_tokens_per_s)}")
                if i.compute_bound_tokens_per_s:
                    bounds.append(f"compute bound {rate(i.compute_bound_tokens_per_s)} "
                                  f"(× {workload.mfu:.0%} MFU)")
                if bounds:
                    lines.append("Upper bounds: " + ", ".join(bounds) + " tokens/s")
                if i.samples_per_s:
                    lines.append(f"~{i.samples_per_s:,.1f} samples/s")
                if result.job_hours is not None and workload.tokens:
                    lines.append(f"{format_count(workload.tokens)} tokens in "
                                 f"{duration(result.job_hours)}")
            else:
                lines.append("Throughput unknown: the GPUs' bandwidth or tensor rate "
                             "is not in the catalog.")
        self.time_label.setText("<br>".join(lines))

    def _show_cost(self, workload: Workload) -> None:
        result, cloud = self._result, self._cloud_option
        muted = self.palette().color(QPalette.ColorRole.PlaceholderText).name()

        def line(label: str, value: str, detail: str = "") -> str:
            tail = f" <span style='color:{muted}'>{detail}</span>" if detail else ""
            return f"{label}: <b>{value}</b>{tail}"

        lines: list[str] = []
        own = result.own if result else None
        rented = result is not None and result.cloud_usd_per_hour is not None
        if rented:
            assert result is not None
            lines.append(line("This rented setup", f"{money(result.cloud_usd_per_hour)}/h"))
        elif own is not None:
            basis = "the machine" if self._machine_price() is not None else "GPUs only"
            lines.append(line(
                "Own", f"{money(own.usd_per_hour)}/h",
                f"{basis}, {money(own.price_usd)}: {money(own.amortised_usd_per_hour)} "
                f"amortised over {own.years:g} years at {own.utilisation:.0%} use + "
                f"{money(own.energy_usd_per_hour)} power"))
        elif result is not None:
            lines.append(line("Own", "n/a", "a price or board power is unknown"))
        if cloud is not None:
            lines.append(line("Cheapest cloud that fits", f"{money(cloud.usd_per_hour)}/h",
                              escape(cloud.part.display_name)
                              + (" (tight)" if cloud.status == "warn" else "")))
        else:
            lines.append(line("Cloud", "n/a", "no catalog offering with a price fits"))
        if own is not None and cloud is not None and cloud.usd_per_hour:
            be = break_even(own, cloud.usd_per_hour)
            if be.months is None:
                lines.append(line("Break-even", "never",
                                  "that cloud costs less per hour than the power"))
            else:
                lines.append(line("Break-even", f"{be.months:,.1f} months",
                                  f"{be.hours:,.0f} h of use"))
        here = "this setup" if rented else "this build"
        if workload.training:
            mine = None
            if result is not None and result.cost is not None:
                mine = result.cost.cloud_usd if rented else result.cost.own_usd
            theirs = cloud.cost_usd if cloud and cloud.job_hours is not None else None
            lines.append(line("Per training run", f"{money(mine)} {here}",
                              f"· {money(theirs)} on that cloud"))
        else:
            mine = result.usd_per_million_tokens if result else None
            theirs = cloud.result.usd_per_million_tokens if cloud else None
            lines.append(line("Per million tokens", f"{money(mine)} {here}",
                              f"· {money(theirs)} on that cloud"))
        self.cost_label.setText("<br>".join(lines))

    # --- the dialogs ------------------------------------------------------------------------
    def open_what_fits(self) -> QWidget | None:
        """The ranked list of what runs this workload; its "Add" requests come out here."""
        workload = self.workload()
        if workload is None:
            return None
        from dlhw_desktop.ui.workload.what_fits import WhatFitsDialog

        if self._what_fits is None:
            dialog = WhatFitsDialog(self.catalog, workload, self, settings=self.settings,
                                    assumptions=self.cost_assumptions())
            dialog.add_requested.connect(self.add_requested)
            self._what_fits = dialog
        else:
            self._what_fits.set_workload(workload,  # type: ignore[attr-defined]
                                         self.cost_assumptions())
        self._what_fits.show()
        self._what_fits.raise_()
        return self._what_fits

    def open_advisor(self) -> QWidget:
        from dlhw_desktop.ui.workload.advisor_dialog import AdvisorDialog

        if self._advisor is None:
            dialog = AdvisorDialog(self.catalog, self, workload=self.workload(),
                                   settings=self.settings)
            dialog.workload_chosen.connect(self.adopt_workload)
            dialog.apply_requested.connect(self.apply_requested)
            self._advisor = dialog
        self._advisor.show()
        self._advisor.raise_()
        return self._advisor


def _int_or(value: object, default: int) -> int:
    try:
        return int(value)  # type: ignore[arg-type]
    except (TypeError, ValueError):
        return default
