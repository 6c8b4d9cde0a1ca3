"""The workload panel's serving answer: how many users, how fast, at what cost, and the
chart. Words and layout only: the numbers come from ``core.workload.serving``."""

from __future__ import annotations

from html import escape
from typing import TYPE_CHECKING

from PySide6.QtWidgets import QLabel, QVBoxLayout, QWidget

from dlhw_desktop.core.formatting import gib, rate
from dlhw_desktop.core.workload.serving import ServingEstimate
from dlhw_desktop.ui.workload.labels import money
from dlhw_desktop.ui.workload.workload_results import heading, muted, value_label

if TYPE_CHECKING:  # pyqtgraph is imported when the first chart is shown
    from dlhw_desktop.ui.workload.serving_chart import ServingChart


def _seconds(value: float | None) -> str:
    if value is None:
        return "n/a"
    return f"{value * 1000:,.0f} ms" if value < 1 else f"{value:,.2f} s"


class ServingView(QWidget):
    """Capacity, speed per user, first token, cost per million tokens, and the chart."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("serving_view")
        self.summary_label = value_label("serving_summary")
        self.basis_label = muted(QLabel(objectName="serving_basis"))
        self.chart: ServingChart | None = None
        self._column = QVBoxLayout(self)
        self._column.setContentsMargins(0, 0, 0, 0)
        self._column.setSpacing(4)
        self._column.addWidget(heading("Serving"))
        self._column.addWidget(self.summary_label)
        self._column.addWidget(self.basis_label)

    def clear(self, message: str = "") -> None:
        self.summary_label.setText(escape(message))
        self.basis_label.setText("")
        if self.chart is not None:
            self.chart.setVisible(False)

    def show_estimate(self, estimate: ServingEstimate) -> None:
        self.summary_label.setText("<br>".join(self._lines(estimate)))
        notes = [estimate.basis, *estimate.notes]
        self.basis_label.setText("<br>".join(escape(n) for n in notes))
        if estimate.max_concurrency == 0:
            if self.chart is not None:
                self.chart.setVisible(False)
            return
        if self.chart is None:
            from dlhw_desktop.ui.workload.serving_chart import ServingChart

            self.chart = ServingChart(self)
            self._column.insertWidget(2, self.chart)
        self.chart.setVisible(True)
        self.chart.set_estimate(estimate)

    @staticmethod
    def _lines(e: ServingEstimate) -> list[str]:
        lines = [f"{e.input_tokens:,} input + {e.output_tokens:,} output tokens per "
                 f"request on {escape(e.stack)}"]
        if e.max_concurrency == 0:
            lines.append("<b>No user</b>: the weights leave no memory for a KV cache.")
            return lines
        if e.limit == "batch":
            lines.append(f"<b>{e.max_concurrency:,} concurrent requests</b> at most: "
                         f"{escape(e.stack)}'s batch limit (the memory holds more)")
        else:
            lines.append(f"Memory holds <b>{e.max_concurrency:,} concurrent requests</b> "
                         f"({gib(e.copy.kv_bytes_per_seq_held)} of KV cache each)")
        for target in e.targets:
            lines.append(("Target met" if target.met else "<b>Target not met</b>")
                         + f": {escape(target.describe())}")
        if e.at is not None:
            a = e.at
            queued = " (some wait in the queue)" if a.queued else ""
            speed = rate(a.per_user_tokens_per_s)
            lines.append(f"At {a.concurrency:,.0f} users{queued}: <b>{speed} tokens/s per "
                         f"user</b>, {rate(a.aggregate_tokens_per_s)} in all, first token "
                         f"after {_seconds(a.ttft_s)}")
            own, rented = e.own_usd_per_million, e.rented_usd_per_million
            rent = (f"{money(rented)} rented ({escape(e.rented_basis)})"
                    if rented is not None else "rented n/a (no cloud price for these GPUs)")
            lines.append(f"Per million output tokens: {money(own)} owned · {rent}")
        return lines
