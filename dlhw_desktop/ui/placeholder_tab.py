"""Shown where a tab's feature has not landed yet, saying so plainly."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QLabel, QVBoxLayout, QWidget


class PlaceholderTab(QWidget):
    def __init__(self, title: str, text: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        label = QLabel(f"<h2>{title}</h2><p>{text}</p>")
        label.setAlignment(Qt.AlignmentFlag.AlignCenter)
        label.setWordWrap(True)
        layout = QVBoxLayout(self)
        layout.addWidget(label)

    def add_parts(self, part_ids: list[str]) -> None:  # same API as the real tabs
        del part_ids
