"""The workload panel's answers: memory per GPU against its VRAM, the verdict, time, cost.

``show_fit`` draws what ``core.workload`` computed for the build; nothing is computed here
beyond choosing words and colours.
"""

from __future__ import annotations

from html import escape

from PySide6.QtCore import QEvent, Qt
from PySide6.QtGui import QPalette
from PySide6.QtWidgets import QHBoxLayout, QLabel, QVBoxLayout, QWidget

from dlhw_desktop.core.verdict import worst
from dlhw_desktop.core.workload import FitResult, MemoryEstimate, Workload
from dlhw_desktop.core.workload.comparison import OwnVsRent
from dlhw_desktop.core.workload.cost_text import cost_figures
from dlhw_desktop.core.workload.mapping import format_count
from dlhw_desktop.core.workload.workload import recipe_text
from dlhw_desktop.ui.workload.labels import (
    STATUS_TEXT,
    duration,
    is_dark,
    money,
    rate,
    status_text_colour,
)
from dlhw_desktop.ui.workload.memory_bar import MemoryBar, bar_rows


def heading(text: str) -> QLabel:
    label = QLabel(text)
    font = label.font()
    font.setBold(True)
    label.setFont(font)
    return label


def muted(label: QLabel) -> QLabel:
    label.setWordWrap(True)
    label.setTextFormat(Qt.TextFormat.RichText)
    label.setForegroundRole(QPalette.ColorRole.PlaceholderText)
    label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
    return label


def value_label(name: str) -> QLabel:
    label = QLabel(objectName=name)
    label.setWordWrap(True)
    label.setTextFormat(Qt.TextFormat.RichText)
    label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
    return label


class WorkloadResults(QWidget):
    """Memory bar with the verdict, notes, time and cost of one workload on the build."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("workload_results")
        self.status_label = value_label("workload_verdict")
        self.bar = MemoryBar(self)
        self.notes_label = muted(QLabel(objectName="workload_notes"))
        self.time_label = value_label("workload_time")
        self.cost_label = value_label("workload_cost")
        memory_head = QHBoxLayout()
        memory_head.addWidget(heading("Memory per GPU"))
        memory_head.addStretch(1)
        memory_head.addWidget(self.status_label)
        column = QVBoxLayout(self)
        column.setContentsMargins(0, 0, 0, 0)
        column.setSpacing(4)
        column.addLayout(memory_head)
        column.addWidget(self.bar)
        column.addWidget(self.notes_label)
        column.addSpacing(4)
        column.addWidget(heading("Time"))
        column.addWidget(self.time_label)
        column.addSpacing(4)
        column.addWidget(heading("Cost"))
        column.addWidget(self.cost_label)

    def clear(self) -> None:
        self._shown = None
        self.bar.set_rows(())
        self.status_label.setText("")

    def show_fit(self, workload: Workload, memory: MemoryEstimate, result: FitResult | None,
                 comparison: OwnVsRent | None) -> None:
        """``result`` is the fit on the build's GPUs (``None``: the build has none, and the
        bar shows what one GPU would need); ``comparison`` own against the like-for-like
        rental (``core.workload.comparison``), worded as the sheet words it."""
        self._shown = (workload, memory, result, comparison)
        self._show_memory(memory, result)
        self._show_time(workload, result)
        self._show_cost(workload, result, comparison)

    def changeEvent(self, event: QEvent) -> None:
        """A theme change: the colours written into the text are chosen again."""
        super().changeEvent(event)
        if event.type() == QEvent.Type.PaletteChange and getattr(self, "_shown", None):
            self.show_fit(*self._shown)

    def _show_memory(self, memory: MemoryEstimate, result: FitResult | None) -> None:
        gpus = result.gpus if result else ()
        self.bar.set_rows(bar_rows(memory, gpus))
        if result is not None:
            status = result.status
        else:
            status = worst(r.status for r in self.bar.rows) if gpus else "unknown"
        colour = status_text_colour(status if gpus else "unknown", is_dark(self))
        word = STATUS_TEXT[status] if gpus else "No GPU"
        self.status_label.setText(
            f"<span style='color:{colour}; font-weight:600'>{escape(word)}</span>")
        self.status_label.setProperty("status", status if gpus else "unknown")
        notes = list(result.notes if result else memory.notes)
        if result is not None:
            suggestion = next((c.suggestion for c in result.checks if c.suggestion), "")
            if suggestion:
                notes.append(f"Tip: {suggestion}")
        if not memory.complete:
            notes.append("Lower bound: " + ", ".join(memory.unknown).lower()
                         + " not known for this model")
        self.notes_label.setText("<br>".join(escape(n) for n in notes))

    def _show_time(self, workload: Workload, result: FitResult | None) -> None:
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
                             f"{t.gpus} GPU{plural} at {t.mfu:.0%} MFU"
                             + (f", {escape(t.mfu_basis)}" if t.mfu_basis else ""))
                lines.append(f"{t.flops:.2e} FLOPs ({rule}); {t.gpu_hours:,.1f} GPU-hours")
                if t.scaling:
                    lines.append(escape(t.scaling[0].upper() + t.scaling[1:]))
            elif workload.dataset_tokens is None:
                lines.append("Give the tokens to train on for a training time.")
            else:
                lines.append(f"{workload.compute} throughput of these GPUs is unknown.")
        else:
            i = result.inference
            if i is not None and i.tokens_per_s:
                per = (f"; {rate(i.per_sequence_tokens_per_s)} per sequence × {i.batch}"
                       if i.batch > 1 else "")
                lines.append(f"<b>{rate(i.tokens_per_s)} tokens/s</b> {escape(i.basis)}"
                             f"{per}, {escape(i.stack or '')} {i.bound}-bound")
                bounds = []
                if i.ceiling_tokens_per_s:
                    bounds.append(f"bandwidth ceiling {rate(i.ceiling_tokens_per_s)}")
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
        if workload.training:
            recipe = recipe_text(workload.checkpointing, workload.optimizer, workload.mode)
            lines.append(escape(recipe[0].upper() + recipe[1:]))
        self.time_label.setText("<br>".join(lines))

    def _show_cost(self, workload: Workload, result: FitResult | None,
                   comparison: OwnVsRent | None) -> None:
        muted_colour = self.palette().color(QPalette.ColorRole.PlaceholderText).name()

        def line(label: str, value: str, detail: str = "") -> str:
            tail = (f" <span style='color:{muted_colour}'>{escape(detail)}</span>"
                    if detail else "")
            return f"{escape(label)}: <b>{escape(value)}</b>{tail}"

        lines: list[str] = []
        rented = result is not None and result.cloud_usd_per_hour is not None
        if rented:
            assert result is not None
            lines.append(line("This rented setup", f"{money(result.cloud_usd_per_hour)}/h"))
        if comparison is not None and result is not None:
            why = "" if result.status != "fail" else "the job does not fit"
            lines += [line(f.label, f.value, f.note)
                      for f in cost_figures(comparison, rented=rented, why_no_own=why)]
        elif comparison is not None and comparison.offer is not None:
            offer = comparison.offer
            lines.append(line("Rent instead", f"{money(offer.usd_per_hour)}/h on "
                              f"{offer.part.display_name}", f"it qualifies: {comparison.why}"))
        if not workload.training and result is not None:
            mine = result.usd_per_million_tokens
            theirs = comparison.offer.result.usd_per_million_tokens \
                if comparison is not None and comparison.offer is not None else None
            here = "this setup" if rented else "this build"
            lines.append(line(f"Per million tokens at batch {workload.batch}",
                              f"{money(mine)} {here}", f"· {money(theirs)} on that cloud"))
        self.cost_label.setText("<br>".join(lines))
