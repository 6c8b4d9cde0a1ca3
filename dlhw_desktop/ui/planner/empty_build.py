"""What an empty Build tab offers: the ways in (a template, this computer, the part list).

Shown above the build while it has no parts; a first-time user sees where to start
instead of an empty tree.
"""

from __future__ import annotations

from PySide6.QtCore import Signal
from PySide6.QtWidgets import QFrame, QGridLayout, QLabel, QMenu, QPushButton, QWidget

from dlhw_desktop.core.build.templates import TEMPLATES
from dlhw_desktop.ui.common.theme import set_text_style

FEATURED = ("single-rtx-4090", "four-gpu-workstation", "demanding-recommended")
"""The templates offered first (the others are one click further, under More)."""


class EmptyBuildGuide(QFrame):
    """Buttons for the featured templates, all templates, and "Detect this computer"."""

    template_chosen = Signal(str)
    detect_requested = Signal()

    def __init__(self, templates_menu: QMenu, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("empty_build_guide")
        self.setFrameShape(QFrame.Shape.StyledPanel)
        title = QLabel("Start a build")
        set_text_style(title, 13, bold=True)
        hint = QLabel("Start from a machine people build, from the computer this app runs "
                      "on, or drag parts from the list on the left. Every step can be "
                      "undone.")
        hint.setWordWrap(True)
        set_text_style(hint, muted=True)
        grid = QGridLayout(self)
        grid.setContentsMargins(12, 10, 12, 10)
        grid.addWidget(title, 0, 0, 1, 3)
        grid.addWidget(hint, 1, 0, 1, 3)
        by_key = {t.key: t for t in TEMPLATES}
        self.buttons: dict[str, QPushButton] = {}
        for column, key in enumerate(k for k in FEATURED if k in by_key):
            tpl = by_key[key]
            button = QPushButton(tpl.name, objectName=f"guide_template_{key}")
            button.setToolTip(tpl.description)
            button.clicked.connect(lambda _c=False, k=key: self.template_chosen.emit(k))
            grid.addWidget(button, 2, column)
            self.buttons[key] = button
        more = QPushButton("More templates", objectName="guide_more_templates")
        more.setMenu(templates_menu)
        detect = QPushButton("Detect this computer", objectName="guide_detect")
        detect.setToolTip("Read this machine's CPU, memory, GPUs and drives and check them "
                          "like any build")
        detect.clicked.connect(self.detect_requested)
        grid.addWidget(more, 3, 0)
        grid.addWidget(detect, 3, 1)
        self.detect_button = detect
