"""The workload panel's inputs: the model, the job, its size, and how the GPUs share it.

The form shows a ``BuildWorkload`` (``show``) and reads itself back into one (``read``):
the only place the panel's text boxes and spin boxes become a workload, parsed once.
It emits ``edited`` when the user changes an input; it never touches the build.
"""

from __future__ import annotations

import re

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QFormLayout,
    QGridLayout,
    QLabel,
    QLineEdit,
    QSpinBox,
    QWidget,
)

from dlhw_desktop.core.workload import MODES, InvalidWorkloadError, Workload, presets
from dlhw_desktop.core.workload.build_workload import BuildWorkload
from dlhw_desktop.core.workload.mapping import CUSTOM, format_count, parse_count, strategies_for
from dlhw_desktop.core.workload.model_presets import preset
from dlhw_desktop.core.workload.models import ModelSpec, custom_model
from dlhw_desktop.core.workload.precision import (
    WEIGHT_FORMATS,
    format_label,
    precisions_for_mode,
)
from dlhw_desktop.core.workload.workload import (
    DEFAULT_MFU,
    default_parallelism,
    recipe_defaults,
)
from dlhw_desktop.ui.common.number_input import CountSpinBox, NumberSpinBox, debounced, mark_field
from dlhw_desktop.ui.workload.labels import MODE_LABELS, STRATEGY_LABELS, mfu_tooltip

NO_MODEL = ""
MIN_COMBO_CHARS = 14
DEFAULT_PRESET = "llama-3.1-8b"


def _count(edit: QLineEdit, what: str) -> float:
    """The count typed in ``edit`` ("70B", "2T", "1.5k": the app's one number reading);
    a bad one marks its field and raises ``InvalidWorkloadError`` naming it."""
    try:
        value = parse_count(edit.text().strip())
    except InvalidWorkloadError:
        problem = f"the {what} “{edit.text().strip()}” is not a number (e.g. 8B, 350M, 1.5T)"
        mark_field(edit, problem)
        raise InvalidWorkloadError(problem) from None
    mark_field(edit, None)
    return value


_SIZE_IN_NAME = re.compile(r"\(\d[\d.]*[MBT](?: MoE)?\)")
"""A preset whose name already gives its size: "GPT-2 (124M)", "DeepSeek-V3 (671B MoE)"."""


class WorkloadForm(QWidget):
    """Model and job inputs; ``edited`` after every user change (not after ``show``)."""

    edited = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("workload_form")
        self._loading = False
        self._gpus = 0
        self._last_preset = DEFAULT_PRESET
        self._custom_name = ""
        # a custom model richer than the form shows (read from a file: MoE, MLA, windows,
        # exact sizes) is kept as long as the inputs the form does show are unchanged
        self._custom_spec: ModelSpec | None = None
        self._custom_shown: tuple[object, ...] = ()
        self._make_widgets()
        self._make_layout()
        self._connect()

    # --- construction -------------------------------------------------------------------
    def _make_widgets(self) -> None:
        self.model_combo = QComboBox(objectName="workload_model")
        self.model_combo.addItem("No workload", NO_MODEL)
        self.model_combo.insertSeparator(1)
        for model in presets():
            billions = model.params / 1e9
            size = f"{billions:,.1f}B" if billions >= 1 else f"{model.params / 1e6:,.0f}M"
            named = _SIZE_IN_NAME.search(model.name) is not None  # "GPT-2 (124M)" says it
            self.model_combo.addItem(model.name if named else f"{model.name} ({size})",
                                     model.key)
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
        self.layers_spin = _spin("workload_layers", 1, 1024, 32)
        self.hidden_spin = _spin("workload_hidden", 64, 131072, 4096, step=256)
        self.heads_spin = _spin("workload_heads", 1, 1024, 32)
        self.kv_heads_spin = _spin("workload_kv_heads", 1, 1024, 8)
        self.kv_heads_spin.setToolTip("Key/value heads: fewer than the heads is grouped-query "
                                      "attention (GQA), which shrinks the KV cache")

        self.mode_combo = QComboBox(objectName="workload_mode")
        for mode in MODES:
            self.mode_combo.addItem(MODE_LABELS[mode], mode)
        self.precision_combo = QComboBox(objectName="workload_precision")
        self.precision_combo.setToolTip(
            "Weights for inference (BF16, INT8, GGUF/GPTQ/AWQ 4-bit ...); compute precision "
            "for training (BF16 = mixed precision with fp32 master weights)")
        self.batch_spin = _spin("workload_batch", 1, 65536, 1)
        self.batch_spin.setToolTip("Concurrent sequences (inference) or the sequences "
                                   "trained per step (training), split over the GPUs: "
                                   "a batch of 1 keeps one GPU computing")
        self.seq_spin = _spin("workload_seq", 0, 1 << 20, 0, step=512)
        self.seq_spin.setToolTip("Tokens per sequence (prompt + output for serving)")
        self.tokens_edit = QLineEdit(objectName="workload_tokens")
        self.tokens_edit.setPlaceholderText("e.g. 1B, 100M")
        self.tokens_label = QLabel("Tokens to train on")
        self.mfu_spin = NumberSpinBox(objectName="workload_mfu")
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
                                         "for about a third more compute. On by default "
                                         "for LoRA and QLoRA, as their recipes run.")
        self.strategy_combo = QComboBox(objectName="workload_strategy")
        self.strategy_label = QLabel("Multi-GPU")
        for combo in (self.model_combo, self.mode_combo, self.precision_combo,
                      self.strategy_combo):
            # long choices elide in a narrow panel instead of pushing it wider than its
            # column (the full text is in the open list)
            combo.setSizeAdjustPolicy(
                QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
            combo.setMinimumContentsLength(MIN_COMBO_CHARS)

    def _make_layout(self) -> None:
        inputs = QFormLayout(self)
        inputs.setContentsMargins(0, 0, 0, 0)
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

    def _connect(self) -> None:
        self.model_combo.currentIndexChanged.connect(self._model_changed)
        self.mode_combo.currentIndexChanged.connect(self._mode_changed)
        for combo in (self.precision_combo, self.strategy_combo):
            combo.currentIndexChanged.connect(self._changed)
        for spin in (self.batch_spin, self.seq_spin, self.layers_spin, self.hidden_spin,
                     self.heads_spin, self.kv_heads_spin):
            spin.valueChanged.connect(self._changed)
        self.mfu_spin.valueChanged.connect(self._changed)
        self._typing = debounced(self, self._changed)  # counts apply as you type
        for edit in (self.params_edit, self.tokens_edit):
            edit.textEdited.connect(lambda _t: self._typing.start())
            edit.editingFinished.connect(self._typed_now)
        for check in (self.arch_check, self.checkpoint_check):
            check.toggled.connect(self._changed)

    # --- showing a workload -------------------------------------------------------------
    def show_workload(self, planned: BuildWorkload) -> None:
        """Put a workload's values in the inputs without emitting ``edited``."""
        self._loading = True
        try:
            workload = planned.workload
            model = workload.model if workload is not None else None
            key = NO_MODEL if model is None else model.key
            self.model_combo.setCurrentIndex(max(0, self.model_combo.findData(key)))
            if model is not None and model.key == CUSTOM:
                self._custom_name = model.name
                self.params_edit.setText(format_count(model.params))
                self.arch_check.setChecked(model.has_architecture)
                for value, spin in ((model.layers, self.layers_spin),
                                    (model.hidden, self.hidden_spin),
                                    (model.heads, self.heads_spin),
                                    (model.kv_heads, self.kv_heads_spin)):
                    if value:
                        spin.setValue(int(value))
                self._custom_spec = model
                self._custom_shown = self._custom_inputs()
            shown = workload or Workload(preset(DEFAULT_PRESET))
            self.mode_combo.setCurrentIndex(max(0, self.mode_combo.findData(shown.mode)))
            self._fill_precisions(shown.precision)
            self.batch_spin.setValue(shown.batch)
            self.seq_spin.setValue(shown.seq or 0)
            self.tokens_edit.setText(format_count(shown.tokens) if shown.tokens else "")
            self.mfu_spin.setValue(shown.mfu * 100)
            self.checkpoint_check.setChecked(shown.checkpointing)
            self._update_strategy_choices(planned.strategy or "")
            self._update_visibility()
        finally:
            self._loading = False

    def set_gpu_count(self, gpus: int) -> None:
        """The build's GPU count: whether and how a multi-GPU strategy applies."""
        self._gpus = gpus
        self._update_strategy_choices()
        self._update_visibility()

    # --- reading it back ----------------------------------------------------------------
    def read(self, base: BuildWorkload) -> BuildWorkload:
        """The inputs as the build's new workload, over ``base`` (what the inputs do not
        show, such as the optimizer or a newer file's keys, is kept from it).

        Raises ``WorkloadError`` when an input cannot be read (a bad parameter count,
        heads that KV heads do not divide, ...).
        """
        key = self.model_combo.currentData()
        if key == NO_MODEL:
            return BuildWorkload(extra=base.extra)
        mode = str(self.mode_combo.currentData())
        tokens_text = self.tokens_edit.text().strip()
        previous = base.workload
        kept = {} if previous is None else {
            "samples": previous.samples, "optimizer": _optimizer(previous, mode),
            "fp32_grads": previous.fp32_grads, "flash_attention": previous.flash_attention,
            "lora_rank": previous.lora_rank, "kv_precision": previous.kv_precision,
            "serving": previous.serving}
        workload = Workload(
            self._model(str(key)), mode=mode,
            precision=self.precision_combo.currentData() or "BF16",
            batch=self.batch_spin.value(), seq=self.seq_spin.value() or None,
            tokens=_count(self.tokens_edit, "tokens to train on") if tokens_text else None,
            checkpointing=mode != "inference" and self.checkpoint_check.isChecked(),
            mfu=round(self.mfu_spin.value() / 100, 4), **kept)
        strategy = self.strategy_combo.currentData() or None
        return BuildWorkload(workload, strategy, base.cpu_offload, base.extra)

    def _custom_inputs(self) -> tuple[object, ...]:
        return (self.params_edit.text().strip(), self.arch_check.isChecked(),
                self.layers_spin.value(), self.hidden_spin.value(), self.heads_spin.value(),
                self.kv_heads_spin.value())

    def _model(self, key: str) -> ModelSpec:
        if key != CUSTOM:
            return preset(key)
        if self._custom_spec is not None and self._custom_inputs() == self._custom_shown:
            return self._custom_spec  # the model as read (from a file), not a re-guess
        text = self.params_edit.text().strip()
        if not text:
            raise InvalidWorkloadError("enter the parameter count (e.g. 8B or 350M)")
        arch = {}
        if self.arch_check.isChecked():
            arch = {"layers": self.layers_spin.value(), "hidden": self.hidden_spin.value(),
                    "heads": self.heads_spin.value(), "kv_heads": self.kv_heads_spin.value()}
        return custom_model(_count(self.params_edit, "parameter count"),
                            name=self._custom_name or "Custom model", **arch)

    def _typed_now(self) -> None:
        if self._typing.isActive():
            self._typing.stop()
            self._changed()

    # --- keeping the inputs consistent --------------------------------------------------
    def _fill_precisions(self, current: str) -> None:
        mode = self.mode_combo.currentData()
        blocked = self.precision_combo.blockSignals(True)
        self.precision_combo.clear()
        for name in precisions_for_mode(str(mode)):
            fmt = WEIGHT_FORMATS[name]
            self.precision_combo.addItem(format_label(name), name)
            self.precision_combo.setItemData(self.precision_combo.count() - 1,
                                             fmt.note or fmt.source,
                                             Qt.ItemDataRole.ToolTipRole)
        index = self.precision_combo.findData(current.upper())
        if index < 0:
            index = max(0, self.precision_combo.findData("BF16"))
        self.precision_combo.setCurrentIndex(index)
        self.precision_combo.blockSignals(blocked)

    def _update_strategy_choices(self, chosen: str | None = None) -> None:
        if chosen is None:
            chosen = self.strategy_combo.currentData() or ""
        mode = self.mode_combo.currentData() or "inference"
        auto = default_parallelism(mode, max(self._gpus, 2)).strategy
        blocked = self.strategy_combo.blockSignals(True)
        self.strategy_combo.clear()
        self.strategy_combo.addItem(f"Automatic: {STRATEGY_LABELS[auto]}", None)
        for strategy in strategies_for(mode):
            self.strategy_combo.addItem(STRATEGY_LABELS[strategy], strategy)
        index = self.strategy_combo.findData(chosen) if chosen else 0
        self.strategy_combo.setCurrentIndex(max(0, index))
        self.strategy_combo.setEnabled(self._gpus > 1)
        self.strategy_combo.setToolTip(
            "How the build's GPUs share the work" if self._gpus > 1
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
            widget.setEnabled(has_model)
        self.strategy_combo.setEnabled(has_model and self._gpus > 1)
        default = 4096
        if model not in (NO_MODEL, CUSTOM):
            default = preset(str(model)).default_seq
        self.seq_spin.setSpecialValueText(f"Model default ({default:,})")

    def _model_changed(self) -> None:
        key = self.model_combo.currentData()
        if key == CUSTOM and not self.params_edit.text().strip():
            self._prefill_custom()
        if key not in (NO_MODEL, CUSTOM):
            self._last_preset = key
        self._changed()

    def _prefill_custom(self) -> None:
        """Start a custom model from the last preset, so the user edits rather than types."""
        model = preset(self._last_preset)
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
        recipe = recipe_defaults(str(self.mode_combo.currentData()))
        blocked = self.checkpoint_check.blockSignals(True)
        self.checkpoint_check.setChecked(recipe.checkpointing)  # the new job's recipe
        self.checkpoint_check.blockSignals(blocked)
        self._fill_precisions(self.precision_combo.currentData() or "BF16")
        self._update_strategy_choices()
        self._changed()

    def _changed(self, *_args: object) -> None:
        if self._loading:
            return
        self._update_visibility()
        self.edited.emit()


def _optimizer(previous: Workload, mode: str) -> str:
    """The optimizer kept from the previous job, unless it was that job's recipe default
    and the mode changed: then the new mode's recipe (QLoRA: paged AdamW)."""
    if previous.mode != mode and previous.optimizer == recipe_defaults(previous.mode).optimizer:
        return recipe_defaults(mode).optimizer
    return previous.optimizer


def _spin(name: str, low: int, high: int, value: int, step: int = 1) -> QSpinBox:
    spin = CountSpinBox(objectName=name)
    spin.setRange(low, high)
    spin.setValue(value)
    spin.setSingleStep(step)
    spin.setGroupSeparatorShown(True)
    spin.setKeyboardTracking(False)  # one edit per Enter / focus-out / arrow step
    return spin
