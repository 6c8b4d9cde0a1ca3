"""The advisor: the second seed article's questions, three proposals with their reasons.

The questions and their reasons are ``core.workload.QUESTIONS`` (model size, batch size,
training or inference, budget, cloud or on-premise, data privacy); the proposals come from
``core.workload.advise``, costed with the build's own assumptions (the panel's: the whole
machine, the wall draw). A proposal to buy is applied with ``apply_requested([(part_id,
n)], workload)``: the Build tab puts the GPUs in place of the build's and takes the
advisor's workload, as one undo step. A proposal to rent is never put into the build:
``compare_requested(part_id, workload)`` shows it in the panel's cost comparison.
Answers are recomputed as they change (a ranking takes milliseconds).
"""

from __future__ import annotations

from html import escape
from typing import Any

from PySide6.QtCore import QByteArray, Qt, Signal
from PySide6.QtGui import QPalette
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDialog,
    QFrame,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QScrollArea,
    QVBoxLayout,
    QWidget,
)

from dlhw_desktop.catalog.store import Catalog
from dlhw_desktop.core.fields import Category
from dlhw_desktop.core.parts import Part
from dlhw_desktop.core.workload import (
    MODES,
    QUESTIONS,
    Advice,
    Answers,
    InvalidWorkloadError,
    Proposal,
    Workload,
    WorkloadError,
    advise,
    custom_model,
    preset,
    presets,
)
from dlhw_desktop.core.workload.advisor import SEED_ARTICLE
from dlhw_desktop.core.workload.fit import CostAssumptions
from dlhw_desktop.core.workload.mapping import format_count, parse_count
from dlhw_desktop.core.workload.precision import precisions_for_mode
from dlhw_desktop.core.workload.workload import recipe_defaults
from dlhw_desktop.ui.common.number_input import CountSpinBox, NumberSpinBox
from dlhw_desktop.ui.common.settings import AppSettings
from dlhw_desktop.ui.workload.labels import (
    MODE_LABELS,
    status_text_colour,
)
from dlhw_desktop.ui.workload.proposal_card import ProposalCard
from dlhw_desktop.ui.workload.what_fits import add_request

CUSTOM = "custom"
DEPLOYMENT_LABELS = {"either": "Either: show both", "cloud": "Cloud (rent)",
                     "on-premise": "On-premise (buy)"}


def _muted(text: str = "", name: str = "") -> QLabel:
    label = QLabel(text, objectName=name)
    label.setWordWrap(True)
    label.setForegroundRole(QPalette.ColorRole.PlaceholderText)
    return label


class AdvisorDialog(QDialog):
    """Ask the article's six questions; show three proposals, each with its reasons."""

    apply_requested = Signal(list, object)  # [(part id, quantity)], the advisor's Workload
    compare_requested = Signal(str, object)  # a rent offer's id, the advisor's Workload

    def __init__(self, catalog: Catalog, parent: QWidget | None = None, *,
                 workload: Workload | None = None,
                 settings: AppSettings | None = None,
                 assumptions: CostAssumptions | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("advisor_dialog")
        self.setWindowTitle("Hardware advisor")
        self.catalog = catalog
        self.settings = settings
        self._accelerators: list[Part] | None = None
        self._cloud: list[Part] | None = None
        self._advice: Advice | None = None
        self.assumptions = assumptions  # the panel's (the build's machine); then recompute
        self._error = ""
        self._make_widgets()
        self._make_layout()
        self._load(workload)
        self._connect()
        self.resize(1100, 760)
        if settings is not None:
            geometry = settings.get("advisor/geometry")
            if geometry:
                self.restoreGeometry(QByteArray(geometry))
        self.recompute()

    # --- construction -------------------------------------------------------------------
    def _make_widgets(self) -> None:
        self.model_combo = QComboBox(objectName="advisor_model")
        for model in presets():
            self.model_combo.addItem(model.name, model.key)
        self.model_combo.addItem("Custom: give the parameter count", CUSTOM)
        self.params_edit = QLineEdit(objectName="advisor_params")
        self.params_edit.setPlaceholderText("Parameters, e.g. 8B or 350M")
        self.batch_spin = CountSpinBox(objectName="advisor_batch")
        self.batch_spin.setRange(1, 65536)
        self.batch_spin.setPrefix("batch ")
        self.seq_spin = CountSpinBox(objectName="advisor_seq")
        self.seq_spin.setRange(0, 1 << 20)
        self.seq_spin.setSingleStep(512)
        self.seq_spin.setSpecialValueText("model's default length")
        self.seq_spin.setSuffix(" tokens")
        self.seq_spin.setGroupSeparatorShown(True)
        self.mode_combo = QComboBox(objectName="advisor_mode")
        for mode in MODES:
            self.mode_combo.addItem(MODE_LABELS[mode], mode)
        self.precision_combo = QComboBox(objectName="advisor_precision")
        self.tokens_edit = QLineEdit(objectName="advisor_tokens")
        self.tokens_edit.setPlaceholderText("e.g. 1B: gives the time and cost of a run")
        self.budget_spin = NumberSpinBox(objectName="advisor_budget")
        self.budget_spin.setRange(0, 100_000_000)
        self.budget_spin.setDecimals(0)
        self.budget_spin.setSingleStep(500)
        self.budget_spin.setPrefix("$")
        self.budget_spin.setGroupSeparatorShown(True)
        self.budget_spin.setSpecialValueText("No limit")
        self.deployment_combo = QComboBox(objectName="advisor_deployment")
        for key, label in DEPLOYMENT_LABELS.items():
            self.deployment_combo.addItem(label, key)
        self.hours_spin = CountSpinBox(objectName="advisor_hours")
        self.hours_spin.setRange(0, 744)
        self.hours_spin.setSingleStep(10)
        self.hours_spin.setSpecialValueText("hours a month: not given")
        self.hours_spin.setSuffix(" h a month")
        self.private_check = QCheckBox("Yes, the data must stay on our own premises",
                                       objectName="advisor_private")
        for spin in (self.batch_spin, self.seq_spin, self.budget_spin, self.hours_spin):
            spin.setKeyboardTracking(False)

        self.cards = [ProposalCard(i, self) for i in range(3)]
        self.notes_label = _muted(name="advisor_notes")
        self.error_label = QLabel(objectName="advisor_error")
        self.error_label.setWordWrap(True)
        self.headline = QLabel(objectName="advisor_headline")
        self.headline.setWordWrap(True)
        self.headline.setTextFormat(Qt.TextFormat.RichText)
        self.close_button = QPushButton("Close", objectName="advisor_close")
        self.close_button.setAutoDefault(False)

    def _question(self, key: str, *widgets: QWidget, below: QWidget | None = None) -> QWidget:
        question = next(q for q in QUESTIONS if q.key == key)
        box = QWidget(objectName=f"advisor_question_{key}")
        layout = QVBoxLayout(box)
        layout.setContentsMargins(0, 0, 0, 6)
        layout.setSpacing(3)
        number = QUESTIONS.index(question) + 1
        text = QLabel(f"<b>{number}. {escape(question.text)}</b>")
        text.setWordWrap(True)
        layout.addWidget(text)
        row = QHBoxLayout()
        for widget in widgets:
            row.addWidget(widget, 1)
        layout.addLayout(row)
        if below is not None:
            layout.addWidget(below)
        layout.addWidget(_muted(question.why))
        return box

    def _make_layout(self) -> None:
        questions = QWidget(objectName="advisor_questions")
        column = QVBoxLayout(questions)
        column.addWidget(self._question("model", self.model_combo, below=self.params_edit))
        column.addWidget(self._question("batch", self.batch_spin, self.seq_spin))
        tokens = QWidget()
        tokens_row = QHBoxLayout(tokens)
        tokens_row.setContentsMargins(0, 0, 0, 0)
        tokens_row.addWidget(QLabel("Tokens to train on"))
        tokens_row.addWidget(self.tokens_edit, 1)
        self.tokens_box = tokens
        column.addWidget(self._question("mode", self.mode_combo, self.precision_combo,
                                        below=tokens))
        column.addWidget(self._question("budget", self.budget_spin))
        column.addWidget(self._question("deployment", self.deployment_combo,
                                        below=self.hours_spin))
        column.addWidget(self._question("data_private", self.private_check))
        source = _muted(f"Questions from {SEED_ARTICLE}.")
        column.addWidget(source)
        column.addStretch(1)
        left = QScrollArea()
        left.setWidgetResizable(True)
        left.setFrameShape(QFrame.Shape.NoFrame)
        left.setWidget(questions)
        left.setMinimumWidth(380)
        left.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)

        proposals = QWidget(objectName="advisor_proposals")
        right = QVBoxLayout(proposals)
        right.addWidget(self.headline)
        right.addWidget(self.error_label)
        for card in self.cards:
            right.addWidget(card)
        right.addWidget(self.notes_label)
        right.addStretch(1)
        right_scroll = QScrollArea()
        right_scroll.setWidgetResizable(True)
        right_scroll.setFrameShape(QFrame.Shape.NoFrame)
        right_scroll.setWidget(proposals)
        right_scroll.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)

        body = QHBoxLayout()
        body.addWidget(left, 2)
        body.addWidget(right_scroll, 3)
        bottom = QHBoxLayout()
        bottom.addStretch(1)
        bottom.addWidget(self.close_button)
        layout = QVBoxLayout(self)
        layout.addLayout(body, 1)
        layout.addLayout(bottom)

    def _connect(self) -> None:
        for combo in (self.model_combo, self.mode_combo, self.precision_combo,
                      self.deployment_combo):
            combo.currentIndexChanged.connect(self.recompute)
        self.mode_combo.currentIndexChanged.connect(self._fill_precisions)
        for spin in (self.batch_spin, self.seq_spin, self.budget_spin, self.hours_spin):
            spin.valueChanged.connect(self.recompute)
        for edit in (self.params_edit, self.tokens_edit):
            edit.editingFinished.connect(self.recompute)
        self.private_check.toggled.connect(self.recompute)
        for card in self.cards:
            card.apply_clicked.connect(self.apply)
            card.compare_clicked.connect(self.compare)
        self.close_button.clicked.connect(self.close)

    def _load(self, workload: Workload | None) -> None:
        """Start from the panel's workload and the answers given last time."""
        if workload is not None:
            key = workload.model.key
            index = self.model_combo.findData(key)
            if index < 0:
                index = self.model_combo.findData(CUSTOM)
                self.params_edit.setText(format_count(workload.model.params))
            self.model_combo.setCurrentIndex(index)
            self.mode_combo.setCurrentIndex(self.mode_combo.findData(workload.mode))
            self._fill_precisions()
            precision = self.precision_combo.findData(workload.precision)
            self.precision_combo.setCurrentIndex(max(0, precision))
            self.batch_spin.setValue(workload.batch)
            self.seq_spin.setValue(workload.seq or 0)
            if workload.tokens:
                self.tokens_edit.setText(format_count(workload.tokens))
        else:
            self.model_combo.setCurrentIndex(max(0, self.model_combo.findData("llama-3.1-8b")))
            self._fill_precisions()
        if self.settings is not None:
            self.budget_spin.setValue(float(self.settings.get("advisor/budget_usd")))
            deployment = self.deployment_combo.findData(self.settings.get("advisor/deployment"))
            self.deployment_combo.setCurrentIndex(max(0, deployment))
            self.private_check.setChecked(bool(self.settings.get("advisor/data_private")))
        self._update_visibility()

    def _fill_precisions(self, *_args: object) -> None:
        mode = self.mode_combo.currentData()
        current = self.precision_combo.currentData() or "BF16"
        names = precisions_for_mode(str(mode))
        blocked = self.precision_combo.blockSignals(True)
        self.precision_combo.clear()
        for name in names:
            self.precision_combo.addItem(name, name)
        self.precision_combo.setCurrentIndex(max(0, self.precision_combo.findData(current),
                                                 self.precision_combo.findData("BF16")))
        self.precision_combo.setEnabled(mode != "qlora")
        self.precision_combo.blockSignals(blocked)

    def _update_visibility(self) -> None:
        self.params_edit.setVisible(self.model_combo.currentData() == CUSTOM)
        self.tokens_box.setVisible(self.mode_combo.currentData() != "inference")
        allowed = self.deployment_combo.currentData() != "on-premise" \
            and not self.private_check.isChecked()
        self.hours_spin.setEnabled(allowed)

    # --- answers -> advice -------------------------------------------------------------------
    def answers(self) -> Answers:
        """The answers as the core reads them; ``WorkloadError`` for unreadable input."""
        key = self.model_combo.currentData()
        if key == CUSTOM:
            text = self.params_edit.text().strip()
            if not text:
                raise InvalidWorkloadError("give the model's parameter count (e.g. 8B)")
            model = custom_model(parse_count(text))
        else:
            model = preset(key)
        mode = self.mode_combo.currentData()
        tokens_text = self.tokens_edit.text().strip()
        tokens = parse_count(tokens_text) if tokens_text and mode != "inference" else None
        budget = self.budget_spin.value() or None
        hours = self.hours_spin.value() or None
        workload = Workload(
            model, mode, self.precision_combo.currentData() or "BF16",
            batch=self.batch_spin.value(), seq=self.seq_spin.value() or None, tokens=tokens)
        return Answers(workload, budget_usd=budget,
                       deployment=self.deployment_combo.currentData(),
                       data_private=self.private_check.isChecked(), hours_per_month=hours)

    @property
    def advice(self) -> Advice | None:
        return self._advice

    def _parts(self) -> tuple[list[Part], list[Part]]:
        if self._accelerators is None:
            self._accelerators = self.catalog.parts(Category.ACCELERATOR, chips_only=True)
            self._cloud = self.catalog.parts(Category.CLOUD)
        return self._accelerators, self._cloud or []

    def recompute(self, *_args: object) -> None:
        self._update_visibility()
        self._remember()
        try:
            answers = self.answers()
            accelerators, cloud = self._parts()
            self._advice = advise(answers, accelerators, cloud, self.assumptions)
            self._error = ""
        except WorkloadError as exc:
            self._advice = None
            self._error = str(exc)
        self._show()

    def _show(self) -> None:
        dark = self.palette().color(QPalette.ColorRole.Window).lightness() < 128
        advice = self._advice
        self.error_label.setVisible(bool(self._error))
        if self._error:
            colour = status_text_colour("fail", dark)
            self.error_label.setText(f"<span style='color:{colour}'>"
                                     f"{escape(self._error)}</span>")
        proposals = advice.proposals if advice else ()
        for i, card in enumerate(self.cards):
            if i < len(proposals):
                card.show_proposal(proposals[i], dark)
                card.show()
            else:
                card.proposal = None
                card.hide()
        if advice is not None:
            w = advice.workload
            activity = MODE_LABELS[w.mode].split(" (")[0]
            self.headline.setText(
                f"<b>{escape(w.model.name)}</b>: {activity} in {w.base_format}, batch "
                f"{w.batch} × {w.seq_len:,} tokens: {len(proposals)} proposal"
                f"{'s' if len(proposals) != 1 else ''} from {advice.considered} options "
                "that fit.")
        else:
            self.headline.setText("")
        notes = list(advice.notes) if advice else []
        if advice is not None and advice.workload.training:
            recipe = recipe_defaults(advice.workload.mode).describe()
            notes.append(f"As the recipe runs it: {recipe} (the panel's defaults).")
        notes.append("Costs count your build's other parts and its wall draw, as the "
                     "Workload panel does.")
        self.notes_label.setText("<br>".join(escape(n) for n in notes))
        self.notes_label.setVisible(bool(notes))

    def proposals(self) -> tuple[Proposal, ...]:
        return self._advice.proposals if self._advice else ()

    # --- applying ---------------------------------------------------------------------------
    def apply(self, proposal: Proposal) -> None:
        """A machine to buy: its GPUs and the advisor's workload, for the Build tab to
        apply as one undo step. A rent proposal goes to ``compare``."""
        workload = self._advice.workload if self._advice is not None else None
        if not proposal.buys:
            self.compare(proposal)
            return
        self.apply_requested.emit([add_request(proposal.option)], workload)

    def compare(self, proposal: Proposal) -> None:
        """A cloud offer to rent: shown in the panel's cost comparison, not in the build."""
        self.compare_requested.emit(proposal.option.part.id,
                                    self._advice.workload if self._advice else None)

    def _remember(self) -> None:
        if self.settings is None:
            return
        self.settings.set("advisor/budget_usd", float(self.budget_spin.value()))
        self.settings.set("advisor/deployment", self.deployment_combo.currentData())
        self.settings.set("advisor/data_private", self.private_check.isChecked())

    def done(self, result: int) -> None:
        self._save_geometry()
        super().done(result)

    def closeEvent(self, event: Any) -> None:
        self._save_geometry()
        super().closeEvent(event)

    def _save_geometry(self) -> None:
        if self.settings is not None:
            self.settings.set("advisor/geometry", bytes(self.saveGeometry().data()))
