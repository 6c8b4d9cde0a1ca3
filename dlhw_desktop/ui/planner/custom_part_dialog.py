"""New custom part: a form per category built from the field vocabulary.

Empty fields stay unknown (never 0), so the checks say "unknown" rather than guess. The
part is stored with ``UserParts`` (``custom/...`` ids) and is then found everywhere a
part id is resolved: the planner, saved builds, ``dlhw check``.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtGui import QDoubleValidator, QIntValidator
from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QLabel,
    QLineEdit,
    QScrollArea,
    QVBoxLayout,
    QWidget,
)

from dlhw_desktop.catalog.userparts import UserParts, UserPartsError
from dlhw_desktop.core.fields import Category, FieldSpec, detail_fields_for
from dlhw_desktop.core.parts import Part


class CustomPartDialog(QDialog):
    """Category, vendor, name, price, notes, then the category's own figures."""

    def __init__(self, user_parts: UserParts, category: Category = Category.ACCELERATOR,
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("custom_part_dialog")
        self.setWindowTitle("New custom part")
        self.resize(460, 620)
        self._store = user_parts
        self.part: Part | None = None
        self.fields: dict[str, QWidget] = {}

        self.category = QComboBox(objectName="custom_category")
        for cat in Category:
            if cat is not Category.CLOUD:
                self.category.addItem(cat.label, cat.value)
        self.vendor = QLineEdit(objectName="custom_vendor")
        self.name = QLineEdit(objectName="custom_name")
        self.price = QLineEdit(objectName="custom_price")
        self.price.setValidator(QDoubleValidator(0, 10_000_000, 2, self))
        self.price.setPlaceholderText("unknown")
        self.notes = QLineEdit(objectName="custom_notes")
        head = QFormLayout()
        head.addRow("Category", self.category)
        head.addRow("Vendor", self.vendor)
        head.addRow("Name", self.name)
        head.addRow("Price (USD)", self.price)
        head.addRow("Notes", self.notes)

        self.figures_host = QWidget()
        self.figures_form = QFormLayout(self.figures_host)
        scroll = QScrollArea()
        scroll.setWidgetResizable(True)
        scroll.setWidget(self.figures_host)
        self.error = QLabel(objectName="custom_error")
        self.error.setStyleSheet("color: #c62828;")
        self.error.setWordWrap(True)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Save
                                   | QDialogButtonBox.StandardButton.Cancel)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)

        layout = QVBoxLayout(self)
        layout.addLayout(head)
        hint = QLabel("Figures (leave empty when unknown; the checks then say so):")
        hint.setWordWrap(True)
        layout.addWidget(hint)
        layout.addWidget(scroll, 1)
        layout.addWidget(self.error)
        layout.addWidget(buttons)

        self.category.currentIndexChanged.connect(lambda _i: self._rebuild())
        self.category.setCurrentIndex(max(0, self.category.findData(category.value)))
        self._rebuild()

    def current_category(self) -> Category:
        return Category(self.category.currentData())

    def _rebuild(self) -> None:
        while self.figures_form.rowCount():
            self.figures_form.removeRow(0)
        self.fields.clear()
        for spec in detail_fields_for(self.current_category()):
            widget = _editor(spec)
            widget.setObjectName(f"custom_field_{spec.name}")
            self.fields[spec.name] = widget
            label = spec.header
            self.figures_form.addRow(label, widget)
            if spec.description:
                widget.setToolTip(spec.description)

    def figures(self) -> dict[str, Any]:
        """The entered figures; empty fields are left out (unknown)."""
        values: dict[str, Any] = {}
        for name, widget in self.fields.items():
            if isinstance(widget, QComboBox):
                value = widget.currentData()
            else:
                assert isinstance(widget, QLineEdit)
                value = widget.text().strip() or None
            if value is not None:
                values[name] = value
        return values

    def accept(self) -> None:
        price_text = self.price.text().strip().replace(",", "")
        try:
            self.part = self._store.add(
                self.current_category(), self.vendor.text(), self.name.text(),
                self.figures(), price_usd=float(price_text) if price_text else None,
                notes=self.notes.text().strip())
        except (UserPartsError, ValueError) as exc:
            self.error.setText(str(exc))
            return
        super().accept()


def _editor(spec: FieldSpec) -> QWidget:
    if spec.kind == "bool":
        combo = QComboBox()
        combo.addItem("unknown", None)
        combo.addItem("yes", True)
        combo.addItem("no", False)
        return combo
    edit = QLineEdit()
    edit.setPlaceholderText(f"unknown{f' ({spec.unit})' if spec.unit else ''}")
    if spec.kind == "int":
        edit.setValidator(QIntValidator(0, 2_000_000_000, edit))
    elif spec.kind == "float":
        validator = QDoubleValidator(0, 1e12, 3, edit)
        validator.setNotation(QDoubleValidator.Notation.StandardNotation)
        edit.setValidator(validator)
    edit.setAlignment(Qt.AlignmentFlag.AlignLeft)
    return edit
