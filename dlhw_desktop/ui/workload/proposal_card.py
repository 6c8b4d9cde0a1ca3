"""One Advisor proposal as a card: what to get, its figures, reasons and caveats, and the
button that applies it (a machine to buy) or compares it (an offer to rent)."""

from __future__ import annotations

from html import escape

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import QFrame, QHBoxLayout, QLabel, QPushButton, QVBoxLayout, QWidget

from dlhw_desktop.core.workload import Proposal
from dlhw_desktop.ui.workload.labels import (
    STATUS_TEXT,
    duration,
    gib,
    money,
    rate,
    status_text_colour,
)


class ProposalCard(QFrame):
    """One proposal: what to get, the figures, the reasons and caveats, and "Apply"."""

    apply_clicked = Signal(object)  # Proposal
    compare_clicked = Signal(object)  # Proposal

    def __init__(self, index: int, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName(f"advisor_proposal_{index}")
        self.setFrameShape(QFrame.Shape.StyledPanel)
        self.proposal: Proposal | None = None
        self.title = QLabel(objectName=f"advisor_title_{index}")
        font = self.title.font()
        font.setBold(True)
        font.setPointSizeF(font.pointSizeF() * 1.1)
        self.title.setFont(font)
        self.option = QLabel(objectName=f"advisor_option_{index}")
        self.option.setWordWrap(True)
        self.option.setTextFormat(Qt.TextFormat.RichText)
        self.figures = QLabel(objectName=f"advisor_figures_{index}")
        self.figures.setTextFormat(Qt.TextFormat.RichText)
        self.figures.setWordWrap(True)
        self.reasons = QLabel(objectName=f"advisor_reasons_{index}")
        self.reasons.setTextFormat(Qt.TextFormat.RichText)
        self.reasons.setWordWrap(True)
        self.reasons.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.caveats = QLabel(objectName=f"advisor_caveats_{index}")
        self.caveats.setTextFormat(Qt.TextFormat.RichText)
        self.caveats.setWordWrap(True)
        self.apply_button = QPushButton("Apply to build", objectName=f"advisor_apply_{index}",
                                        autoDefault=False)
        self.apply_button.clicked.connect(self._apply)
        head = QHBoxLayout()
        head.addWidget(self.title)
        head.addStretch(1)
        head.addWidget(self.apply_button)
        layout = QVBoxLayout(self)
        layout.setSpacing(4)
        layout.addLayout(head)
        layout.addWidget(self.option)
        layout.addWidget(self.figures)
        layout.addWidget(self.reasons)
        layout.addWidget(self.caveats)

    def show_proposal(self, proposal: Proposal, dark: bool) -> None:
        self.proposal = proposal
        option = proposal.option
        self.title.setText(proposal.title)
        kind = "Buy" if option.kind == "own" else "Rent"
        self.option.setText(f"<b>{kind}: {escape(option.label)}</b>")
        colour = status_text_colour(option.status, dark)
        speed = (duration(option.job_hours) if option.job_hours is not None
                 else f"{rate(option.tokens_per_s)} tokens/s" if option.tokens_per_s
                 else "speed n/a")
        fraction = "" if option.fraction is None else f" ({option.fraction:.0%})"
        bound = "at least " if option.result.own and not option.result.own.complete else ""
        self.figures.setText(
            f"<span style='color:{colour}; font-weight:600'>"
            f"{STATUS_TEXT.get(option.status, option.status)}</span> · "
            f"{gib(option.per_gpu_bytes)} of {gib(option.vram_bytes, 0)} per GPU{fraction} · "
            f"{speed} · <b>{bound}{money(option.cost_usd)}</b>")
        self.reasons.setText("<ul style='margin-left:-20px'>" + "".join(
            f"<li>{escape(r)}</li>" for r in proposal.reasons) + "</ul>")
        warn = status_text_colour("warn", dark)
        self.caveats.setText("<br>".join(f"<span style='color:{warn}'>⚠ {escape(c)}</span>"
                                         for c in proposal.caveats))
        self.caveats.setVisible(bool(proposal.caveats))
        if proposal.buys:
            self.apply_button.setText("Apply to build")
            self.apply_button.setToolTip(
                f"Put {option.count} × {option.accelerator.display_name} in place of the "
                "build's GPUs and take this workload (one step: Undo takes it back)")
        else:
            self.apply_button.setText("Compare with the build")
            self.apply_button.setToolTip(
                f"Show {option.part.display_name} in the Workload panel's cost comparison; "
                "a rented instance is not a part to buy, so the build is not changed")

    def _apply(self) -> None:
        if self.proposal is None:
            return
        if self.proposal.buys:
            self.apply_clicked.emit(self.proposal)
        else:
            self.compare_clicked.emit(self.proposal)
