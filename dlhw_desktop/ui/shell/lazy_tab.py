"""A tab page that builds its real widget the first time it is shown (start-up stays fast)."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import Signal
from PySide6.QtGui import QShowEvent
from PySide6.QtWidgets import QVBoxLayout, QWidget


class LazyTab(QWidget):
    """Holds a factory; ``widget()`` creates the page on first use (show or request).

    With ``build_on_show=False`` showing the page does not build it: the owner calls
    ``widget()`` when it chooses (the Catalog tab is filled in right after the window's
    first frame)."""

    created = Signal(QWidget)  # the page, once it is in place

    def __init__(self, factory: Callable[[], QWidget], name: str,
                 parent: QWidget | None = None, *, build_on_show: bool = True) -> None:
        super().__init__(parent)
        self._build_on_show = build_on_show
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
            if self.isVisible():
                # Built while on screen: give it its final size and show it now, so its
                # first frame is painted once and its own show handling (splitter
                # proportions) sees the real width, not a default 640 x 480.
                self._widget.setGeometry(self.contentsRect())
                self._widget.show()
                self._layout.activate()
            self.created.emit(self._widget)
        return self._widget

    def showEvent(self, event: QShowEvent) -> None:
        if self._build_on_show:
            self.widget()
        super().showEvent(event)
