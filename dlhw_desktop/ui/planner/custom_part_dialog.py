"""New custom part: a form per category built from the field vocabulary.

Empty fields stay unknown (never 0), so the checks say "unknown" rather than guess. A
field with a vocabulary is a list to choose from (``custom_part_fields``); a figure is
read as typed and, when it is not a number in range, says why beside it and keeps Save
disabled, so nothing typed is dropped in silence. The part is stored with ``UserParts``
(``custom/...`` ids) and is then found everywhere a part id is resolved: the planner,
saved builds, ``dlhw check``. Whether it also goes into the open build is the user's
choice ("Add it to the build").
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QEvent, Qt
from PySide6.QtGui import QColor, QPalette
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QCompleter,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QScrollArea,
    QVBoxLayout,
    QWidget,
)

from dlhw_desktop.catalog.userparts import UserParts, UserPartsError
from dlhw_desktop.core.fields import FIELDS_BY_NAME, Category, FieldSpec, detail_fields_for
from dlhw_desktop.core.limits import MAX_NAME_CHARS, MAX_TEXT_CHARS
from dlhw_desktop.core.parts import Part
from dlhw_desktop.ui.common.theme import set_text_style
from dlhw_desktop.ui.planner.custom_part_fields import (
    CLOSED_CHOICES,
    OPEN_CHOICES,
    Vocabulary,
    catalog_values,
    closed_choices,
    number_range,
    open_choices,
    read_number,
)

UNKNOWN = "unknown"
LIST_HINTS = {"supported_sockets": "e.g. AM5; LGA1700",
              "supported_board_form_factors": "e.g. E-ATX; ATX; mATX"}


class MessageLabel(QLabel):
    """Why a field is refused, in a red that reads on the current theme (re-chosen when
    the palette changes, never fixed by a style sheet)."""

    def __init__(self, object_name: str) -> None:
        super().__init__(objectName=object_name)
        self.setWordWrap(True)
        set_text_style(self, 8.5)
        self._recolour()
        self.hide()

    def _recolour(self) -> None:
        palette = self.palette()
        wanted = QColor("#ff8a80" if is_dark_palette(palette) else "#b71c1c")
        if palette.color(QPalette.ColorRole.WindowText) != wanted:
            palette.setColor(QPalette.ColorRole.WindowText, wanted)
            self.setPalette(palette)  # one more PaletteChange, which then finds it right

    def changeEvent(self, event: QEvent) -> None:
        super().changeEvent(event)
        if event.type() in (QEvent.Type.PaletteChange, QEvent.Type.ApplicationPaletteChange):
            self._recolour()

    def say(self, text: str) -> None:
        self.setText(text)
        self.setVisible(bool(text))


def is_dark_palette(palette: QPalette) -> bool:
    return palette.color(QPalette.ColorRole.Window).lightness() < 128


class CustomPartDialog(QDialog):
    """Category, vendor, name, price, notes, then the category's own figures."""

    def __init__(self, user_parts: UserParts, category: Category = Category.ACCELERATOR,
                 parent: QWidget | None = None, *, vocabulary: Vocabulary | None = None,
                 ) -> None:
        super().__init__(parent)
        self.setObjectName("custom_part_dialog")
        self.setWindowTitle("New custom part")
        self.resize(540, 680)
        self._store = user_parts
        self._vocabulary = vocabulary
        self.part: Part | None = None
        self.fields: dict[str, QWidget] = {}
        """Field name -> its editor: a QLineEdit (figures, free text) or a QComboBox."""
        self.messages: dict[str, MessageLabel] = {}
        """Figure name (and ``price_usd``) -> the message beside it."""

        self.category = QComboBox(objectName="custom_category")
        for cat in Category:
            if cat is not Category.CLOUD:
                self.category.addItem(cat.label, cat.value)
        self.vendor = QLineEdit(objectName="custom_vendor")
        self.vendor.setMaxLength(MAX_NAME_CHARS)
        self.vendor.setPlaceholderText("required, e.g. NVIDIA")
        self.name = QLineEdit(objectName="custom_name")
        self.name.setMaxLength(MAX_NAME_CHARS)
        self.name.setPlaceholderText("required, e.g. GeForce RTX 5090")
        self.price = QLineEdit(objectName="custom_price")
        self.price.setPlaceholderText(UNKNOWN)
        price_spec = FIELDS_BY_NAME["price_usd"]
        self.price.setToolTip(f"Purchase price: {number_range(price_spec)}; empty when "
                              "unknown")
        self.messages["price_usd"] = MessageLabel("custom_message_price_usd")
        self.notes = QLineEdit(objectName="custom_notes")
        self.notes.setMaxLength(MAX_TEXT_CHARS)
        head = QFormLayout()
        head.addRow("Category", self.category)
        head.addRow("Vendor", self.vendor)
        head.addRow("Name", self.name)
        head.addRow("Price (USD)", _with_message(self.price, self.messages["price_usd"]))
        head.addRow("Notes", self.notes)

        self.figures_host = QWidget()
        self.figures_form = QFormLayout(self.figures_host)
        scroll = QScrollArea()
        scroll.setWidgetResizable(True)
        scroll.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        scroll.setWidget(self.figures_host)
        self.add_to_build = QCheckBox("Add it to the build", objectName="custom_add_to_build")
        self.add_to_build.setChecked(True)
        self.add_to_build.setToolTip("The part is always saved to your parts (the picker's "
                                     "Custom list); untick to save it without adding it")
        self.error = MessageLabel("custom_error")
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Save
                                   | QDialogButtonBox.StandardButton.Cancel)
        save = buttons.button(QDialogButtonBox.StandardButton.Save)
        assert isinstance(save, QPushButton)
        self.save_button = save
        save.setObjectName("custom_save")
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)

        layout = QVBoxLayout(self)
        layout.addLayout(head)
        hint = QLabel("Figures (leave empty when unknown; the checks then say so):")
        hint.setWordWrap(True)
        layout.addWidget(hint)
        layout.addWidget(scroll, 1)
        layout.addWidget(self.add_to_build)
        layout.addWidget(self.error)
        layout.addWidget(buttons)

        for edit in (self.vendor, self.name, self.price):
            edit.textChanged.connect(self.validate)
        self.category.currentIndexChanged.connect(lambda _i: self._rebuild())
        self.category.setCurrentIndex(max(0, self.category.findData(category.value)))
        self._rebuild()

    def current_category(self) -> Category:
        return Category(self.category.currentData())

    def _rebuild(self) -> None:
        while self.figures_form.rowCount():
            self.figures_form.removeRow(0)
        self.fields.clear()
        for key in [k for k in self.messages if k != "price_usd"]:
            del self.messages[key]
        category = self.current_category()
        for spec in detail_fields_for(category):
            widget = self._editor(spec, category)
            widget.setObjectName(f"custom_field_{spec.name}")
            self.fields[spec.name] = widget
            tip = spec.description
            if spec.numeric:
                tip = f"{tip}. " if tip else ""
                tip += f"{number_range(spec)[:1].upper()}{number_range(spec)[1:]}"
                tip += f" ({spec.unit})" if spec.unit else ""
                message = MessageLabel(f"custom_message_{spec.name}")
                self.messages[spec.name] = message
                self.figures_form.addRow(spec.header, _with_message(widget, message))
            else:
                self.figures_form.addRow(spec.header, widget)
            if tip:
                widget.setToolTip(tip)
        self._fill_vendors(category)
        self.validate()

    def _fill_vendors(self, category: Category) -> None:
        vendors = catalog_values(self._vocabulary, category, "vendor")
        completer = QCompleter(vendors, self.vendor)
        completer.setCaseSensitivity(Qt.CaseSensitivity.CaseInsensitive)
        self.vendor.setCompleter(completer)

    def _editor(self, spec: FieldSpec, category: Category) -> QWidget:
        if spec.kind == "bool":
            combo = QComboBox()
            combo.addItem(UNKNOWN, None)
            combo.addItem("yes", True)
            combo.addItem("no", False)
            return combo
        if spec.name in CLOSED_CHOICES:
            combo = QComboBox()
            combo.addItem(UNKNOWN, None)
            for value, label in closed_choices(spec, category, self._vocabulary):
                combo.addItem(label, value)
            return combo
        if spec.name in OPEN_CHOICES:
            combo = QComboBox()
            combo.setEditable(True)
            combo.setInsertPolicy(QComboBox.InsertPolicy.NoInsert)
            # long catalog values ("NVLink 3 bridge (112.5 GB/s) / PCIe 4.0 x16") must not
            # widen the form past the dialog: the list shows them whole when opened
            combo.setSizeAdjustPolicy(
                QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
            combo.setMinimumContentsLength(12)
            combo.addItem("")
            combo.addItems(list(open_choices(spec, category, self._vocabulary)))
            line = combo.lineEdit()
            assert line is not None
            line.setMaxLength(MAX_TEXT_CHARS)
            line.setPlaceholderText(f"{UNKNOWN}: choose or type")
            return combo
        edit = QLineEdit()
        if spec.numeric:
            edit.setPlaceholderText(f"{UNKNOWN}{f' ({spec.unit})' if spec.unit else ''}")
            edit.textChanged.connect(self.validate)
        else:
            edit.setMaxLength(MAX_TEXT_CHARS)
            edit.setPlaceholderText(LIST_HINTS.get(spec.name, UNKNOWN))
        return edit

    # --- validation --------------------------------------------------------------------
    def problems(self) -> list[tuple[str, str]]:
        """Why the part cannot be saved yet: (field label, reason) per field."""
        found: list[tuple[str, str]] = []
        if not self.vendor.text().strip() or not self.name.text().strip():
            found.append(("", "Enter a vendor and a name"))
        for name, message in self.messages.items():
            spec = FIELDS_BY_NAME[name]
            edit = self.price if name == "price_usd" else self.fields[name]
            assert isinstance(edit, QLineEdit)
            reading = read_number(edit.text(), spec)
            message.say(reading.error)
            if reading.error:
                found.append(("Price (USD)" if name == "price_usd" else spec.header,
                              reading.error))
        return found

    def validate(self) -> bool:
        """Messages beside the fields, Save enabled only when every field is valid, and
        the reason shown below when it is not."""
        found = self.problems()
        self.save_button.setEnabled(not found)
        fields = [label for label, _ in found if label]
        if not found:
            self.error.say("")
        elif len(fields) > 1:
            shown = ", ".join(fields[:4]) + (f" and {len(fields) - 4} more"
                                             if len(fields) > 4 else "")
            self.error.say(f"Cannot save yet: fix {len(fields)} figures ({shown})")
        else:
            label, reason = found[0] if not fields else next(p for p in found if p[0])
            self.error.say(f"Cannot save yet: {label}: {reason}" if label
                           else f"Cannot save yet: {reason}")
        return not found

    def figures(self) -> dict[str, Any]:
        """The entered figures; empty fields are left out (unknown)."""
        values: dict[str, Any] = {}
        for name, widget in self.fields.items():
            spec = FIELDS_BY_NAME[name]
            value: Any
            if isinstance(widget, QComboBox):
                value = (widget.currentText().strip() or None) if widget.isEditable() \
                    else widget.currentData()
            else:
                assert isinstance(widget, QLineEdit)
                value = (read_number(widget.text(), spec).value if spec.numeric
                         else widget.text().strip() or None)
            if value is not None:
                values[name] = value
        return values

    def accept(self) -> None:
        if not self.validate():
            return
        price = read_number(self.price.text(), FIELDS_BY_NAME["price_usd"]).value
        try:
            self.part = self._store.add(
                self.current_category(), self.vendor.text(), self.name.text(),
                self.figures(), price_usd=None if price is None else float(price),
                notes=self.notes.text().strip())
        except (UserPartsError, ValueError) as exc:
            self.error.say(str(exc))
            return
        super().accept()


def _with_message(editor: QWidget, message: QLabel) -> QWidget:
    """The editor with its message right under it, in one form row."""
    host = QWidget()
    box = QVBoxLayout(host)
    box.setContentsMargins(0, 0, 0, 0)
    box.setSpacing(1)
    box.addWidget(editor)
    box.addWidget(message)
    return host

