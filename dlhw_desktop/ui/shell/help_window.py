"""Help > User guide (F1) and Help > Keyboard shortcuts: offline, in a window of the app.

The guide is ``resources/help/user-guide.md`` (bundled, read with Qt's Markdown reader);
the shortcut list is made from the action registry (``ui.common.actions``) plus the keys
the views handle themselves, so it cannot drift from what the keys do.
"""

from __future__ import annotations

from html import escape

from PySide6.QtCore import Qt
from PySide6.QtGui import QKeySequence
from PySide6.QtWidgets import QDialog, QDialogButtonBox, QTextBrowser, QVBoxLayout, QWidget

from dlhw_desktop.resources import resource_path
from dlhw_desktop.ui.common.actions import ACTIONS

GUIDE = ("help", "user-guide.md")

VIEW_KEYS: tuple[tuple[str, str], ...] = (
    ("Enter", "Add the selected parts to the build (Catalog tab, part list)"),
    ("Double-click", "Add a part from the build's part list"),
    ("Delete", "Remove the selected part from the build or the comparison"),
    ("+ / -", "One more / one fewer of the selected part in the build"),
    ("Alt+Up / Alt+Down", "Move an accelerator up or down in the comparison"),
    ("Ctrl+Tab", "Type a tab character in the build's notes (Tab moves on)"),
)
"""Keys the views handle themselves (not menu actions)."""


def shortcut_rows() -> list[tuple[str, str]]:
    """(keys, what they do) for every action with a shortcut, then the views' own keys."""
    rows: list[tuple[str, str]] = []
    for spec in ACTIONS.values():
        if spec.shortcut is None:
            continue
        keys = QKeySequence(spec.shortcut).toString(QKeySequence.SequenceFormat.NativeText)
        if keys:
            rows.append((keys, spec.text.replace("&", "").rstrip("…") + (
                f": {spec.tip}" if spec.tip else "")))
    return rows + list(VIEW_KEYS)


def shortcuts_html() -> str:
    cells = "".join(f"<tr><td style='padding:2px 14px 2px 0'><b>{escape(keys)}</b></td>"
                    f"<td>{escape(text)}</td></tr>" for keys, text in shortcut_rows())
    return f"<h2>Keyboard shortcuts</h2><table>{cells}</table>"


class HelpWindow(QDialog):
    """A non-modal window with the user guide or the shortcut list."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("help_window")
        self.setWindowTitle("DL Hardware Desktop — Help")
        self.browser = QTextBrowser(objectName="help_browser")
        self.browser.setOpenExternalLinks(False)
        self.browser.setOpenLinks(False)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        buttons.rejected.connect(self.close)
        layout = QVBoxLayout(self)
        layout.addWidget(self.browser)
        layout.addWidget(buttons)
        self.resize(760, 640)
        self.setWindowModality(Qt.WindowModality.NonModal)

    def show_guide(self) -> None:
        path = resource_path(*GUIDE)
        try:
            text = path.read_text(encoding="utf-8")
        except OSError as exc:
            self.browser.setPlainText(f"The user guide is missing from this install "
                                      f"({path}: {exc.strerror}).")
        else:
            self.browser.setMarkdown(text)
        self._present()

    def show_shortcuts(self) -> None:
        self.browser.setHtml(shortcuts_html())
        self._present()

    def _present(self) -> None:
        self.show()
        self.raise_()
        self.activateWindow()
