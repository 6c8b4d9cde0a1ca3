"""What a user can read in a window: every label, button, tab, list cell, header, tooltip
and text pane, collected for the scans that keep internal names out of sight."""

from __future__ import annotations

import re
from html import unescape

from PySide6.QtCore import QAbstractItemModel, QModelIndex, Qt
from PySide6.QtWidgets import (
    QAbstractButton,
    QAbstractItemView,
    QComboBox,
    QGroupBox,
    QLabel,
    QLineEdit,
    QTabWidget,
    QTextEdit,
    QWidget,
)

_TAGS = re.compile(r"<[^>]+>")


def plain(text: str) -> str:
    """Rich text as it reads on screen (tags dropped, entities decoded)."""
    if "<" in text and ">" in text:
        text = _TAGS.sub(" ", re.sub(r"(?is)<(style|head)\b.*?</\1>", " ", text))
    return unescape(text)


def _count(method, parent: QModelIndex) -> int:
    """A list model hides its counts' ``parent`` argument (private in Qt's bindings)."""
    try:
        return int(method(parent))
    except TypeError:
        if parent.isValid():
            return 0
        return 1 if method.__name__ == "columnCount" else int(method())


def model_texts(model: QAbstractItemModel, rows: int = 40,
                parent: QModelIndex | None = None, depth: int = 0) -> list[str]:
    """Headers and the first ``rows`` rows (display text and tooltips), children included."""
    parent = parent or QModelIndex()
    texts: list[str] = []
    columns = _count(model.columnCount, parent)
    if depth == 0:
        for column in range(columns):
            header = model.headerData(column, Qt.Orientation.Horizontal)
            texts.append(str(header or ""))
            tip = model.headerData(column, Qt.Orientation.Horizontal,
                                   Qt.ItemDataRole.ToolTipRole)
            texts.append(str(tip or ""))
    for row in range(min(rows, _count(model.rowCount, parent))):
        for column in range(columns):
            index = model.index(row, column, parent)
            for role in (Qt.ItemDataRole.DisplayRole, Qt.ItemDataRole.ToolTipRole):
                value = model.data(index, role)
                if isinstance(value, str):
                    texts.append(plain(value))
            if column == 0 and depth < 3 and _count(model.rowCount, index) > 0:
                texts += model_texts(model, rows, index, depth + 1)
    return texts


def visible_texts(root: QWidget, rows: int = 40) -> list[str]:
    """Every text ``root`` and its children show (hidden widgets too: a click shows them)."""
    texts: list[str] = []
    for widget in [root, *root.findChildren(QWidget)]:
        texts.append(plain(widget.toolTip()))
        texts.append(widget.windowTitle() if widget.isWindow() else "")
        if isinstance(widget, QLabel):
            texts.append(plain(widget.text()))
        elif isinstance(widget, QAbstractButton):
            texts.append(widget.text())
        elif isinstance(widget, QGroupBox):
            texts.append(widget.title())
        elif isinstance(widget, QTabWidget):
            texts += [widget.tabText(i) for i in range(widget.count())]
            texts += [widget.tabToolTip(i) for i in range(widget.count())]
        elif isinstance(widget, QComboBox):
            texts += [widget.itemText(i) for i in range(widget.count())]
        elif isinstance(widget, QLineEdit):
            texts += [widget.text(), widget.placeholderText()]
        elif isinstance(widget, QTextEdit):
            texts.append(widget.toPlainText())
        elif isinstance(widget, QAbstractItemView) and widget.model() is not None:
            texts += model_texts(widget.model(), rows)
    return [t for t in texts if t and t.strip()]
