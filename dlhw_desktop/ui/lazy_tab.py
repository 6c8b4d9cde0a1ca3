"""A tab page that builds its real widget the first time it is shown (start-up stays fast)."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtGui import QShowEvent
from PySide6.QtWidgets import QVBoxLayout, QWidget


class LazyTab(QWidget):
    """Holds a factory; ``widget()`` creates the page on first use (show or request)."""

    def __init__(self, factory: Callable[[], QWidget], name: str,
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName(f"lazy_{name}")
        self._factory = factory
        self._widget: QWidget | None = None
        self._layout = QVBoxLayout(self)
        self._layout.setContentsMargins(0, 0, 0, 0)

    @property
    def is_created(self) -> bool:
        return self._widget is not None

    def widget(self) -> QWidget:
        if self._widget is None:
            self._widget = self._factory()
            self._layout.addWidget(self._widget)
        return self._widget

    def showEvent(self, event: QShowEvent) -> None:
        self.widget()
        super().showEvent(event)
