""""Enter it…": a figure the catalog lacks, read by the user from the box or the maker's page.

Offered wherever a figure is missing (the checks panel's unknown checks, the details
pane's "n/a"). The value is checked as the command line checks it
(``core.user_figures.make_figure``: the field's human name and range in the message), kept
in the user's data (``catalog.user_figures_store``) as "your figure, <date>", and then
used by every check. Nothing is saved until the value is valid.
"""

from __future__ import annotations

from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QLabel,
    QLineEdit,
    QVBoxLayout,
    QWidget,
)

from dlhw_desktop.catalog.user_figures_store import UserFiguresError, UserFiguresStore
from dlhw_desktop.core.fields import FIELDS_BY_NAME, field_label
from dlhw_desktop.core.parts import Part, format_value
from dlhw_desktop.core.user_figures import (
    CHOICES,
    UserFigure,
    UserFigureError,
    make_figure,
    range_text,
)

ERROR_STYLE = "color: #c62828"


class FigureDialog(QDialog):
    """One figure of one part: the value (a list for a closed vocabulary), a note."""

    def __init__(self, part: Part, field: str, store: UserFiguresStore,
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("figure_dialog")
        spec = FIELDS_BY_NAME[field]
        self.part, self.field, self.store = part, field, store
        self.figure: UserFigure | None = None
        self.setWindowTitle(f"Enter the {field_label(field)} of {part.display_name}")
        current = part.get(field)
        kind = part.figure_kind(field) if current is not None else ""
        now = (f"Now: {format_value(field, current)} ({kind})" if current is not None
               else "Now: n/a (the catalog has no figure)")
        intro = QLabel(
            f"<b>{spec.label}</b> of {part.display_name}<br>{now}<br>"
            "<span style='color:gray'>Read it from the box or the maker's page. It is kept "
            "in your data as <i>your figure</i>, used by every check, and saved with your "
            "builds so a colleague opening one gets the same verdict.</span>")
        intro.setWordWrap(True)
        choices = CHOICES.get(field) or (("yes", "no") if spec.kind == "bool" else ())
        if choices:
            self.value: QLineEdit | QComboBox = QComboBox(objectName="figure_value")
            self.value.addItems(list(choices))
        else:
            self.value = QLineEdit(objectName="figure_value")
            self.value.setPlaceholderText(range_text(spec))
            if current is not None and kind == "your figure":
                self.value.setText(str(current))
        self.note = QLineEdit(objectName="figure_note")
        self.note.setPlaceholderText('where it is from, e.g. "box" or the page\'s address')
        self.error = QLabel(objectName="figure_error")
        self.error.setStyleSheet(ERROR_STYLE)
        self.error.setWordWrap(True)
        unit = f" ({spec.unit})" if spec.unit else ""
        form = QFormLayout()
        form.addRow(f"{spec.label}{unit}:", self.value)
        form.addRow("Note:", self.note)
        hint = QLabel(range_text(spec).capitalize(), objectName="figure_range")
        hint.setStyleSheet("color: gray")
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Save
                                   | QDialogButtonBox.StandardButton.Cancel)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(intro)
        layout.addLayout(form)
        layout.addWidget(hint)
        layout.addWidget(self.error)
        layout.addWidget(buttons)
        self.resize(460, self.sizeHint().height())

    def text(self) -> str:
        return (self.value.currentText() if isinstance(self.value, QComboBox)
                else self.value.text())

    def accept(self) -> None:
        """Save only a valid figure; otherwise say why, keep the dialog open."""
        try:
            figure = make_figure(self.part, self.field, self.text(), self.note.text().strip())
            self.store.save([figure])
        except (UserFigureError, UserFiguresError) as exc:
            self.error.setText(str(exc))
            return
        self.figure = figure
        super().accept()


def enter_figure(parent: QWidget, part: Part, field: str,
                 store: UserFiguresStore) -> UserFigure | None:
    """Ask for one figure; the figure saved, or ``None`` when cancelled."""
    if field not in FIELDS_BY_NAME:
        return None
    dialog = FigureDialog(part, field, store, parent)
    return dialog.figure if dialog.exec() == QDialog.DialogCode.Accepted else None
