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
from dlhw_desktop.core.workload import FitOption, FitResult, MemoryEstimate, Workload, break_even
from dlhw_desktop.core.workload.mapping import format_count
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
                 cloud: FitOption | None, machine_priced: bool) -> None:
        """``result`` is the fit on the build's GPUs (``None``: the build has none, and the
        bar shows what one GPU would need); ``cloud`` the cheapest offering that fits;
        ``machine_priced``: the own cost prices the whole machine, not the GPUs alone."""
        self._shown = (workload, memory, result, cloud, machine_priced)
        self._show_memory(memory, result)
        self._show_time(workload, result)
        self._show_cost(workload, result, cloud, machine_priced)

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
                             f"{t.gpus} GPU{plural} at {t.mfu:.0%} MFU")
                lines.append(f"{t.flops:.2e} FLOPs ({rule}); {t.gpu_hours:,.1f} GPU-hours")
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
        self.time_label.setText("<br>".join(lines))

    def _show_cost(self, workload: Workload, result: FitResult | None,
                   cloud: FitOption | None, machine_priced: bool) -> None:
        muted_colour = self.palette().color(QPalette.ColorRole.PlaceholderText).name()

        def line(label: str, value: str, detail: str = "") -> str:
            tail = f" <span style='color:{muted_colour}'>{detail}</span>" if detail else ""
            return f"{label}: <b>{value}</b>{tail}"

        lines: list[str] = []
        own = result.own if result else None
        rented = result is not None and result.cloud_usd_per_hour is not None
        if rented:
            assert result is not None
            lines.append(line("This rented setup", f"{money(result.cloud_usd_per_hour)}/h"))
        elif own is not None:
            basis = "the machine" if machine_priced else "GPUs only"
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
        elif not rented and result is not None:
            lines.append(line("Break-even", "n/a",
                              "this build has no complete price" if own is None
                              else "no priced cloud offering fits"))
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
            lines.append(line(f"Per million tokens at batch {workload.batch}",
                              f"{money(mine)} {here}",
                              f"· {money(theirs)} on that cloud"))
        self.cost_label.setText("<br>".join(lines))
