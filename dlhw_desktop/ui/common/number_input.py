"""Numbers typed anywhere in the app: one reading, applied as you type, a bad one marked.

Every numeric field reads text with ``core.numbers.parse_number`` ("70B", "2T", "100M",
"1e9", "1.5k", "70,000,000,000"), applies it a moment after the last keystroke (no Enter
needed), and a value it cannot read marks its own field (a red frame and a tooltip that
says why) while the result of the last good value stays on screen.
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QObject, QTimer, Signal
from PySide6.QtGui import QKeyEvent, QValidator
from PySide6.QtWidgets import QAbstractSpinBox, QDoubleSpinBox, QLineEdit, QSpinBox, QWidget

from dlhw_desktop.core.numbers import parse_number

TYPING_DELAY_MS = 300
"""How long typing pauses before a field's value is applied (the searches' delay too)."""

BAD_FRAME = "border: 2px solid #c62828; border-radius: 3px;"
"""A field whose text is not a number: a red frame, fixed (it reads on both themes)."""


def debounced(parent: QObject, slot: Callable[[], None],
              delay_ms: int = TYPING_DELAY_MS) -> QTimer:
    """A single-shot timer that calls ``slot`` ``delay_ms`` after its last ``start()``."""
    timer = QTimer(parent, singleShot=True, interval=delay_ms)
    timer.timeout.connect(slot)
    return timer


def mark_field(widget: QWidget, problem: str | None) -> None:
    """Frame ``widget`` in red with ``problem`` as its tooltip; ``None`` clears both."""
    bad = problem is not None
    if bool(widget.property("invalid")) == bad and widget.toolTip() == (problem or ""):
        return
    widget.setProperty("invalid", bad)
    kind = type(widget).__name__ if not isinstance(widget, QLineEdit) else "QLineEdit"
    widget.setStyleSheet(f"{kind} {{ {BAD_FRAME} }}" if bad else "")
    widget.setToolTip(problem or "")


class NumberSpinBox(QDoubleSpinBox):
    """A spin box that reads "1.5k" or "2,000" like every other number field, and
    announces ``settled`` once typing pauses (a value set, stepped or wheeled at once)."""

    settled = Signal(float)
    _unit = ""  # read by validate() while Qt applies the keyword properties

    def __init__(self, parent: QWidget | None = None, unit: str = "",
                 **kwargs: object) -> None:
        super().__init__(parent, **kwargs)
        self._unit = unit
        self.setKeyboardTracking(True)
        self.setCorrectionMode(QAbstractSpinBox.CorrectionMode.CorrectToPreviousValue)
        self._typing = False
        self._timer = debounced(self, lambda: self.settled.emit(self.value()))
        self.valueChanged.connect(self._changed)

    def _changed(self, value: float) -> None:
        if self._typing:
            self._timer.start()  # typed: applied once typing pauses
        else:
            self._timer.stop()
            self.settled.emit(value)  # set, stepped or wheeled: at once

    def keyPressEvent(self, event: QKeyEvent) -> None:
        self._typing = True
        try:
            super().keyPressEvent(event)
        finally:
            self._typing = False

    def validate(self, text: str, pos: int) -> object:
        return _validate(self, self._unit, text, pos)

    def valueFromText(self, text: str) -> float:
        return _value(self, self._unit, text)

    def flush(self) -> None:
        """Apply a pending value now (tests, and a window closing)."""
        if self._timer.isActive():
            self._timer.stop()
            self.settled.emit(self.value())


class CountSpinBox(QSpinBox):
    """A whole-number spin box that reads "4k" or "32,768" like every number field."""

    _unit = ""

    def __init__(self, parent: QWidget | None = None, unit: str = "",
                 **kwargs: object) -> None:
        super().__init__(parent, **kwargs)
        self._unit = unit

    def validate(self, text: str, pos: int) -> object:
        return _validate(self, self._unit, text, pos, whole=True)

    def valueFromText(self, text: str) -> int:
        return round(_value(self, self._unit, text))


def _body(box: QAbstractSpinBox, text: str) -> str:
    """The number part of a spin box's text: its prefix and suffix ("40 %") left out."""
    text = text.strip()
    prefix, suffix = box.prefix().strip(), box.suffix().strip()  # type: ignore[attr-defined]
    if prefix and text.startswith(prefix):
        text = text[len(prefix):]
    if suffix and text.endswith(suffix):
        text = text[: -len(suffix)]
    return text.strip()


def _validate(box: QAbstractSpinBox, unit: str, text: str, pos: int,
              whole: bool = False) -> object:
    body = _body(box, text)
    special = box.specialValueText()
    if special and text.strip() == special.strip():
        return QValidator.State.Acceptable, text, pos
    value = parse_number(body, unit) if body else None
    low, high = box.minimum(), box.maximum()  # type: ignore[attr-defined]
    if value is None or not low <= value <= high or (whole and value != int(value)):
        # Part of a number still being typed ("1.", "1e", "4") may yet be completed.
        return QValidator.State.Intermediate, text, pos
    return QValidator.State.Acceptable, text, pos


def _value(box: QAbstractSpinBox, unit: str, text: str) -> float:
    special = box.specialValueText()
    if special and text.strip() == special.strip():
        return box.minimum()  # type: ignore[attr-defined, no-any-return]
    value = parse_number(_body(box, text), unit)
    return box.value() if value is None else value  # type: ignore[attr-defined]
