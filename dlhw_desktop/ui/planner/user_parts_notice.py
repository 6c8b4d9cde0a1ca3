"""A bar that says, once, that the user's own parts database cannot be used, and offers to
move it aside (renamed, never deleted) so the next custom part starts a fresh one."""

from __future__ import annotations

from PySide6.QtCore import Signal
from PySide6.QtWidgets import QFrame, QHBoxLayout, QLabel, QPushButton, QWidget

from dlhw_desktop.catalog.userparts import UserParts, UserPartsError


class UserPartsNotice(QFrame):
    """Hidden until ``check()`` finds a problem; "Move it aside" renames the file."""

    status_message = Signal(str, int)

    def __init__(self, user_parts: UserParts, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("user_parts_notice")
        self.setStyleSheet("#user_parts_notice { background: #fde8e8; border: 1px solid "
                           "#d9534f; border-radius: 4px; }")
        self._store = user_parts
        self._said: str | None = None
        self.label = QLabel(objectName="user_parts_problem")
        self.label.setWordWrap(True)
        self.move_button = QPushButton("Move it aside", objectName="move_user_parts_aside")
        self.move_button.clicked.connect(self.move_aside)
        layout = QHBoxLayout(self)
        layout.setContentsMargins(8, 4, 8, 4)
        layout.addWidget(self.label, 1)
        layout.addWidget(self.move_button)
        self.hide()

    def check(self, problem: str | None = None) -> None:
        """Show ``problem`` (or what the store says now), each distinct one once."""
        problem = problem or self._store.problem()
        if problem is None or problem == self._said:
            return
        self._said = problem
        self.label.setText(problem)
        self.show()

    def move_aside(self) -> None:
        try:
            target = self._store.move_aside()
        except UserPartsError as exc:
            self.label.setText(str(exc))
            return
        self.hide()
        self.status_message.emit(f"Your parts database was moved to {target}; a new one "
                                 "starts with your next custom part", 10000)
