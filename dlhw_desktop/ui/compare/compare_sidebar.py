"""The Compare tab's sidebar: the accelerators being compared, in their order.

A mixin of ``CompareTab``: the preset menu, the picker that adds an accelerator by name,
the list (drag to reorder; Delete, Alt+Up and Alt+Down; a context menu that also sets
the baseline) with its buttons, and the message line. The list is redrawn from the
comparison's change events (``_fill_list``); its actions only call the comparison's
methods. ``_action`` makes the tab's named actions, the toolbar's export menu's too.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from PySide6.QtCore import QPoint, QSize, Qt
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QHBoxLayout,
    QLabel,
    QListWidgetItem,
    QMenu,
    QPushButton,
    QSizePolicy,
    QVBoxLayout,
    QWidget,
)

from dlhw_desktop.core.compare.comparison import MAX_PARTS
from dlhw_desktop.core.compare.presets import PRESETS
from dlhw_desktop.core.compare.scatter import part_tooltip
from dlhw_desktop.ui.common.theme import set_text_style
from dlhw_desktop.ui.compare.charts.base import compared_colour
from dlhw_desktop.ui.compare.compare_picker import AcceleratorPicker
from dlhw_desktop.ui.compare.compare_widgets import ID_ROLE, PartList, swatch

if TYPE_CHECKING:
    from collections.abc import Sequence

    from dlhw_desktop.catalog.store import Catalog
    from dlhw_desktop.core.compare.comparison import AddResult, Comparison
    from dlhw_desktop.core.parts import Part
    from dlhw_desktop.ui.compare.compare_state import CompareState


class CompareSidebar:
    """The list of compared accelerators for ``CompareTab`` (a mixin)."""

    # what the mixin reads of the tab
    catalog: Catalog
    comparison: Comparison
    state: CompareState

    if TYPE_CHECKING:  # declared for type checkers only: at run time the tab's own win
        def parts(self) -> list[Part]: ...

        def add_parts(self, part_ids: Sequence[str]) -> AddResult: ...

        def load_preset(self, name: str) -> list[str]: ...

        def show_message(self, text: str) -> None: ...

    # --- construction -----------------------------------------------------------------
    def _build_sidebar(self) -> None:
        self.sidebar = QWidget(objectName="compare_sidebar")
        self.sidebar.setFixedWidth(290)
        box = QVBoxLayout(self.sidebar)
        box.setContentsMargins(0, 0, 4, 0)

        self.preset_combo = QComboBox(objectName="preset_combo")
        self.preset_combo.addItem("Load a preset comparison…", None)
        for preset in PRESETS:
            self.preset_combo.addItem(preset.name, preset.name)
            self.preset_combo.setItemData(self.preset_combo.count() - 1, preset.description,
                                          Qt.ItemDataRole.ToolTipRole)
        self.preset_combo.activated.connect(self._preset_chosen)

        self.picker = AcceleratorPicker(self.catalog, self.comparison,
                                        lambda: self.comparison.precision)
        self.completions = self.picker.completions
        self.completer = self.picker.completer
        self.picker.part_chosen.connect(lambda part_id: self.add_parts([part_id]))
        self.picker.no_match.connect(
            lambda text: self.show_message(f"No accelerator to add matches “{text}”."))

        self.count_label = QLabel(objectName="compare_count")
        self.part_list = PartList(objectName="compare_list")
        self.part_list.setDragDropMode(QAbstractItemView.DragDropMode.InternalMove)
        self.part_list.setDefaultDropAction(Qt.DropAction.MoveAction)
        self.part_list.setIconSize(QSize(12, 12))
        self.part_list.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
        self.part_list.customContextMenuRequested.connect(self._list_menu)
        self.part_list.reordered.connect(self._list_reordered)
        self.part_list.currentRowChanged.connect(lambda _r: self._update_buttons())

        self.action_remove = self._action("action_compare_remove", "&Remove from comparison",
                                          QKeySequence.StandardKey.Delete, self.remove_selected)
        self.action_up = self._action("action_compare_move_up", "Move &up", "Alt+Up",
                                      lambda: self.move_selected(-1))
        self.action_down = self._action("action_compare_move_down", "Move &down", "Alt+Down",
                                        lambda: self.move_selected(1))
        self.action_baseline = self._action("action_compare_set_baseline", "Use as &baseline",
                                            None, self._baseline_from_list)
        for action in (self.action_remove, self.action_up, self.action_down):
            action.setShortcutContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
            self.part_list.addAction(action)

        buttons = QHBoxLayout()
        self.up_button = self._button("compare_up", "↑", "Move up (Alt+Up)", self.action_up)
        self.down_button = self._button("compare_down", "↓", "Move down (Alt+Down)",
                                        self.action_down)
        self.remove_button = self._button("compare_remove", "Remove", "Remove (Delete)",
                                          self.action_remove)
        self.clear_button = QPushButton("Clear", objectName="compare_clear")
        self.clear_button.clicked.connect(self.comparison.clear)
        for button in (self.up_button, self.down_button, self.remove_button,
                       self.clear_button):
            buttons.addWidget(button)

        self.message = QLabel(objectName="compare_message")
        self.message.setWordWrap(True)
        self.message.setTextFormat(Qt.TextFormat.PlainText)
        self.message.setSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Minimum)
        hint = QLabel("Tip: select accelerators in the Catalog tab and press Compare "
                      "(Ctrl+Shift+C); click a point in the whole-catalog chart to add it.")
        hint.setWordWrap(True)
        hint.setObjectName("compare_hint")
        set_text_style(hint, muted=True)

        box.addWidget(QLabel("<b>Accelerators to compare</b>"))
        box.addWidget(self.preset_combo)
        box.addWidget(self.picker)
        box.addWidget(self.count_label)
        box.addWidget(self.part_list, 1)
        box.addLayout(buttons)
        box.addWidget(self.message)
        box.addWidget(hint)

    def _action(self, name: str, text: str, shortcut: QKeySequence.StandardKey | str | None,
                slot: Callable[[], object]) -> QAction:
        action = QAction(text, self)
        action.setObjectName(name)
        if shortcut is not None:
            action.setShortcut(QKeySequence(shortcut))
        action.triggered.connect(lambda _c=False: slot())
        return action

    def _button(self, name: str, text: str, tip: str, action: QAction) -> QPushButton:
        button = QPushButton(text, objectName=name)
        button.setToolTip(tip)
        button.clicked.connect(action.trigger)
        return button

    # --- the list follows the comparison ----------------------------------------------
    def _fill_list(self) -> None:
        current = self.part_list.currentItem()
        current_id = current.data(ID_ROLE) if current else None
        self.part_list.blockSignals(True)
        self.part_list.clear()
        precision = self.comparison.precision
        for part in self.parts():  # a part's swatch is its own colour, wherever it moves
            item = QListWidgetItem(swatch(compared_colour(self.comparison.colour_index(
                part.id))), part.display_name)
            item.setData(ID_ROLE, part.id)
            item.setToolTip(part_tooltip(part, precision))
            self.part_list.addItem(item)
            if part.id == current_id:
                self.part_list.setCurrentItem(item)
        self.part_list.blockSignals(False)
        count = len(self.comparison)
        self.count_label.setText(f"{count} of {MAX_PARTS} accelerators"
                                 + (" (full)" if count >= MAX_PARTS else ""))
        self.picker.setEnabled(count < MAX_PARTS)
        self.picker.setPlaceholderText("Add an accelerator: type a name…" if count < MAX_PARTS
                                       else f"Full: remove one to add another ({MAX_PARTS} max)")
        self._update_buttons()

    def _update_buttons(self) -> None:
        row = self.part_list.currentRow()
        count = self.part_list.count()
        has = 0 <= row < count
        self.action_remove.setEnabled(has)
        self.action_up.setEnabled(has and row > 0)
        self.action_down.setEnabled(has and row < count - 1)
        self.remove_button.setEnabled(has)
        self.up_button.setEnabled(has and row > 0)
        self.down_button.setEnabled(has and row < count - 1)
        self.clear_button.setEnabled(count > 0)

    # --- user actions on the list ------------------------------------------------------
    def _preset_chosen(self, index: int) -> None:
        name = self.preset_combo.itemData(index)
        self.preset_combo.setCurrentIndex(0)
        if name:
            self.load_preset(name)

    def update_completions(self) -> None:
        self.picker.update_completions()

    def add_from_picker(self) -> None:
        self.picker.add_best_match()

    def _selected_id(self) -> str | None:
        item = self.part_list.currentItem()
        return item.data(ID_ROLE) if item is not None else None

    def remove_selected(self) -> None:
        part_id = self._selected_id()
        if part_id is None:
            return
        row = self.part_list.currentRow()
        self.comparison.remove(part_id)
        if self.part_list.count():
            self.part_list.setCurrentRow(min(row, self.part_list.count() - 1))
        self.show_message(f"Removed {self.state.name(part_id)}.")

    def move_selected(self, delta: int) -> None:
        part_id = self._selected_id()
        if part_id is not None and self.comparison.move(part_id, delta):
            self.part_list.setCurrentRow(self.comparison.ids.index(part_id))

    def _baseline_from_list(self) -> None:
        part_id = self._selected_id()
        if part_id is not None:
            self.comparison.set_baseline(part_id)

    def _list_reordered(self, ids: list[str]) -> None:
        self.comparison.set_ids([i for i in ids if i])

    def _list_menu(self, pos: QPoint) -> None:
        if self._selected_id() is None:
            return
        menu = QMenu(self)
        for action in (self.action_up, self.action_down, self.action_baseline,
                       self.action_remove):
            menu.addAction(action)
        menu.exec(self.part_list.viewport().mapToGlobal(pos))
