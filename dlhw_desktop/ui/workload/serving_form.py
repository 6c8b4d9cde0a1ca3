"""The serving question of the workload panel: the stack and its KV cache format, request
lengths, users and a target.

Shows a ``ServingRequest`` with the workload's stack and KV format (``show_request``) and
reads them back (``read``, ``stack``, ``kv_precision``); ``edited`` after every user
change. Zero in a spin box means "not given" (the special
text says what is assumed then); the spin boxes' ranges are the request's own limits, so
what can be typed is what ``ServingRequest`` accepts.
"""

from __future__ import annotations

from PySide6.QtCore import Signal
from PySide6.QtWidgets import (
    QComboBox,
    QFormLayout,
    QSpinBox,
    QWidget,
)

from dlhw_desktop.core.workload.decode_model import STACK_NAMES
from dlhw_desktop.core.workload.inference import DEFAULT_OUTPUT_TOKENS
from dlhw_desktop.core.workload.precision import format_label
from dlhw_desktop.core.workload.serving_request import (
    MAX_TARGET_TPS,
    MAX_TARGET_TTFT_S,
    MAX_TOKENS,
    MAX_USERS,
    ServingRequest,
)
from dlhw_desktop.core.workload.workload import SERVING_STACK_KEYS
from dlhw_desktop.ui.common.number_input import CountSpinBox, NumberSpinBox

NO_TARGET, SPEED, FIRST_TOKEN = "", "tps", "ttft"
KV_FORMATS = ("BF16", "FP8", "Q8_0", "Q4_0")
"""KV cache formats the stacks offer (16-bit by default; FP8 in vLLM and TensorRT-LLM,
Q8_0 and Q4_0 in llama.cpp)."""


class ServingForm(QWidget):
    """Input and output tokens per request, concurrent users, a speed or first-token
    target; ``edited`` after every user change (not after ``show_request``)."""

    edited = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("serving_form")
        self._loading = False
        self.input_spin = _spin("serving_input", MAX_TOKENS, "From sequence",
                                "Prompt tokens per request; by default the sequence length "
                                "less the output")
        self.output_spin = _spin("serving_output", MAX_TOKENS,
                                 f"{DEFAULT_OUTPUT_TOKENS} (default)",
                                 "Generated tokens per request")
        self.users_spin = _spin("serving_users", MAX_USERS, "As many as fit",
                                "Concurrent users to judge; by default as many as the KV "
                                "cache holds")
        self.stack_combo = QComboBox(objectName="serving_stack")
        self.stack_combo.addItem("Automatic (llama.cpp for GGUF, else vLLM)", None)
        for key in SERVING_STACK_KEYS:
            self.stack_combo.addItem(STACK_NAMES[key], key)
        self.stack_combo.setToolTip("The serving engine: how it splits the model over GPUs "
                                    "and keeps its KV cache")
        self.kv_combo = QComboBox(objectName="serving_kv_precision")
        for name in KV_FORMATS:
            self.kv_combo.addItem(format_label(name), name)
        self.kv_combo.setToolTip("The KV cache's format: FP8 (vLLM, TensorRT-LLM) or "
                                 "Q8_0/Q4_0 (llama.cpp) hold twice or four times as many "
                                 "tokens as 16-bit")
        self.target_combo = QComboBox(objectName="serving_target_kind")
        self.target_combo.addItem("No target", NO_TARGET)
        self.target_combo.addItem("Tokens/s per user (at least)", SPEED)
        self.target_combo.addItem("First token within", FIRST_TOKEN)
        for combo in (self.stack_combo, self.kv_combo, self.target_combo):
            combo.setSizeAdjustPolicy(
                QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
            combo.setMinimumContentsLength(14)
        self.target_combo.setToolTip("The chart and the answer show the most users served "
                                     "at this target")
        self.target_spin = NumberSpinBox(objectName="serving_target_value")
        self.target_spin.setDecimals(2)
        self.target_spin.setKeyboardTracking(False)
        self.target_spin.setGroupSeparatorShown(True)
        layout = QFormLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setFieldGrowthPolicy(QFormLayout.FieldGrowthPolicy.AllNonFixedFieldsGrow)
        layout.addRow("Serving stack", self.stack_combo)
        layout.addRow("KV cache", self.kv_combo)
        layout.addRow("Input tokens", self.input_spin)
        layout.addRow("Output tokens", self.output_spin)
        layout.addRow("Users", self.users_spin)
        layout.addRow("Target", self.target_combo)
        layout.addRow("", self.target_spin)
        for spin in (self.input_spin, self.output_spin, self.users_spin):
            spin.valueChanged.connect(self._changed)
        self.target_spin.valueChanged.connect(self._changed)
        self.target_combo.currentIndexChanged.connect(self._target_kind_changed)
        for combo in (self.stack_combo, self.kv_combo):
            combo.currentIndexChanged.connect(self._changed)
        self._update_target_range()

    def show_request(self, request: ServingRequest, stack: str | None = None,
                     kv_precision: str = "BF16") -> None:
        """Put a request's values (and the workload's stack and KV format) in the inputs
        without emitting ``edited``."""
        self._loading = True
        try:
            self.stack_combo.setCurrentIndex(max(0, self.stack_combo.findData(stack)))
            if self.kv_combo.findData(kv_precision) < 0:
                self.kv_combo.addItem(format_label(kv_precision), kv_precision)
            self.kv_combo.setCurrentIndex(self.kv_combo.findData(kv_precision))
            self.input_spin.setValue(request.input_tokens or 0)
            self.output_spin.setValue(request.output_tokens or 0)
            self.users_spin.setValue(request.users or 0)
            kind = (SPEED if request.target_tps is not None
                    else FIRST_TOKEN if request.target_ttft_s is not None else NO_TARGET)
            self.target_combo.setCurrentIndex(self.target_combo.findData(kind))
            self._update_target_range()
            value = request.target_tps or request.target_ttft_s
            if value is not None:
                self.target_spin.setValue(value)
        finally:
            self._loading = False

    @property
    def stack(self) -> str | None:
        """The chosen stack's key; ``None``: the workload's default."""
        data = self.stack_combo.currentData()
        return str(data) if data else None

    @property
    def kv_precision(self) -> str:
        return str(self.kv_combo.currentData() or "BF16")

    def read(self) -> ServingRequest:
        kind = self.target_combo.currentData()
        value = self.target_spin.value()
        return ServingRequest(
            input_tokens=self.input_spin.value() or None,
            output_tokens=self.output_spin.value() or None,
            users=self.users_spin.value() or None,
            target_tps=value if kind == SPEED else None,
            target_ttft_s=value if kind == FIRST_TOKEN else None)

    def _update_target_range(self) -> None:
        kind = self.target_combo.currentData()
        blocked = self.target_spin.blockSignals(True)
        if kind == FIRST_TOKEN:
            self.target_spin.setRange(0.01, MAX_TARGET_TTFT_S)
            self.target_spin.setSuffix(" s")
            self.target_spin.setValue(1.0)
        else:
            self.target_spin.setRange(0.1, MAX_TARGET_TPS)
            self.target_spin.setSuffix(" tokens/s")
            self.target_spin.setValue(20.0)
        self.target_spin.setEnabled(kind != NO_TARGET)
        self.target_spin.blockSignals(blocked)

    def _target_kind_changed(self) -> None:
        self._update_target_range()
        self._changed()

    def _changed(self, *_args: object) -> None:
        if not self._loading:
            self.edited.emit()


def _spin(name: str, most: int, unset: str, tip: str) -> QSpinBox:
    spin = CountSpinBox(objectName=name)
    spin.setRange(0, most)
    spin.setSpecialValueText(unset)
    spin.setGroupSeparatorShown(True)
    spin.setKeyboardTracking(False)
    spin.setToolTip(tip)
    return spin
