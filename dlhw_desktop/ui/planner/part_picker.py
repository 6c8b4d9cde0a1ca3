"""The planner's part list: a category, a search box, and parts to drag onto the build.

Reuses the Catalog tab's lazy ``PartTableModel`` (drag payloads included) and adds the
user's own parts as a category. Enter, a double-click and the "Add to build" button are
the keyboard and mouse twins of a drag.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import (
    QModelIndex,
    QPersistentModelIndex,
    Qt,
    QTimer,
    Signal,
)
from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from dlhw_desktop.catalog.store import Catalog, PartQuery
from dlhw_desktop.catalog.userparts import UserParts, UserPartsError
from dlhw_desktop.core.fields import Category
from dlhw_desktop.core.parts import Part, format_value
from dlhw_desktop.ui.common.part_table import SEARCH_DELAY_MS, PartTable
from dlhw_desktop.ui.common.part_table_model import PART_ROLE, PartRowsModel, PartTableModel

Index = QModelIndex | QPersistentModelIndex
CUSTOM = "custom"
"""The category key of the user's own parts in the picker's list."""

PICKER_COLUMNS: dict[Category | None, tuple[str, ...]] = {
    None: ("name", "category", "price_usd"),
    Category.ACCELERATOR: ("name", "memory_gb", "bf16_tensor_tflops", "price_usd"),
    Category.CPU: ("name", "cores", "socket", "price_usd"),
    Category.MEMORY: ("name", "memory_type", "capacity_gb", "price_usd"),
    Category.STORAGE: ("name", "storage_kind", "capacity_gb", "price_usd"),
    Category.PSU: ("name", "wattage_w", "efficiency_rating", "price_usd"),
    Category.COOLER: ("name", "cooler_kind", "price_usd"),
    Category.MOTHERBOARD: ("name", "socket", "memory_type", "price_usd"),
    Category.CASE: ("name", "case_kind", "max_gpu_length_mm", "price_usd"),
    Category.CLOUD: ("name", "accelerator_count", "price_per_hour_usd"),
    Category.SERVER: ("name", "gpu_count", "gpu_form_factor", "max_power_w", "price_usd"),
}


SHORT_HEADERS: dict[str, str] = {
    "memory_gb": "GB", "bf16_tensor_tflops": "BF16 TF", "price_usd": "Price",
    "cores": "Cores", "socket": "Socket", "memory_type": "Type", "capacity_gb": "GB",
    "storage_kind": "Kind", "wattage_w": "W", "efficiency_rating": "80+",
    "cooler_kind": "Kind", "case_kind": "Kind", "max_gpu_length_mm": "GPU mm",
    "accelerator_count": "GPUs", "price_per_hour_usd": "$/h", "category": "Category",
    "gpu_count": "GPUs", "gpu_form_factor": "Module", "max_power_w": "Max W",
}


class PickerModel(PartTableModel):
    """The catalog table with short headers for a narrow list (full ones in tooltips)."""

    def headerData(self, section: int, orientation: Qt.Orientation,
                   role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if role == Qt.ItemDataRole.DisplayRole and orientation == Qt.Orientation.Horizontal \
                and 0 <= section < len(self.columns):
            name = self.columns[section]
            if name in SHORT_HEADERS:
                return SHORT_HEADERS[name]
        return super().headerData(section, orientation, role)


class UserPartsModel(PartRowsModel):
    """The user's own parts, as a small table with the same roles and drag payload."""

    HEADERS = ("Name", "Category", "Price (USD)")

    def __init__(self, user_parts: UserParts, parent: Any = None) -> None:
        super().__init__(parent)
        self._store = user_parts
        self._rows: list[Part] = []
        self._text = ""

    def set_text(self, text: str) -> None:
        self.beginResetModel()
        self._text = text.strip().lower()
        try:
            parts = self._store.all()
        except UserPartsError:
            parts = []
        words = self._text.split()
        self._rows = [p for p in parts
                      if all(w in f"{p.vendor} {p.name} {p.category.label}".lower()
                             for w in words)]
        self.endResetModel()

    @property
    def total(self) -> int:
        return len(self._rows)

    def rowCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self._rows)

    def columnCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self.HEADERS)

    def headerData(self, section: int, orientation: Qt.Orientation,
                   role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if orientation == Qt.Orientation.Horizontal and role == Qt.ItemDataRole.DisplayRole:
            return self.HEADERS[section]
        return None

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid() or index.row() >= len(self._rows):
            return None
        part = self._rows[index.row()]
        if role == PART_ROLE:
            return part
        if role == Qt.ItemDataRole.DisplayRole:
            return (part.display_name, part.category.label,
                    format_value("price_usd", part.price_usd))[index.column()]
        if role == Qt.ItemDataRole.ToolTipRole:
            return f"{part.display_name}\n{part.id}\nYour own part"
        return None


NAME_MIN_PX = 150
NAME_SHARE = 0.62
"""The name column takes what its names need, at most this share of the table."""


class PartPicker(QWidget):
    """Choose a category, type to search, then drag, press Enter or click Add."""

    add_requested = Signal(list)  # part ids

    def __init__(self, catalog: Catalog, user_parts: UserParts,
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("part_picker")
        self.catalog = catalog
        self.catalog_model = PickerModel(catalog, self)
        self.user_model = UserPartsModel(user_parts, self)

        self.category = QComboBox(objectName="picker_category")
        self.category.addItem("All parts", None)
        for category in Category:
            self.category.addItem(category.plural, category.value)
        self.category.addItem("Your custom parts", CUSTOM)
        self.search = QLineEdit(objectName="picker_search")
        self.search.setPlaceholderText("Search parts… e.g. 4090, epyc, ddr5 rdimm")
        self.search.setClearButtonEnabled(True)
        self._timer = QTimer(self, singleShot=True, interval=SEARCH_DELAY_MS)
        self._timer.timeout.connect(self.apply_query)
        self.search.textChanged.connect(lambda _t: self._timer.start())
        self.search.returnPressed.connect(self._focus_table)

        self.table = PartTable(objectName="picker_table")
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.ExtendedSelection)
        self.table.setDragEnabled(True)
        self.table.setDragDropMode(QAbstractItemView.DragDropMode.DragOnly)
        self.table.setAlternatingRowColors(True)
        self.table.setSortingEnabled(True)
        self.table.setWordWrap(False)
        self.table.verticalHeader().setVisible(False)
        self.table.verticalHeader().setDefaultSectionSize(24)
        self.table.horizontalHeader().setStretchLastSection(False)
        self.table.setToolTip("Drag parts onto the build, or press Enter to add them")
        self.table.activated_parts.connect(self.add_requested)
        self.table.doubleClicked.connect(lambda _i: self.add_selected())

        self.count_label = QLabel(objectName="picker_count")
        self.add_button = QPushButton("Add to build", objectName="picker_add_button")
        self.add_button.setToolTip("Add the selected parts to the build (Enter); or drag them")
        self.add_button.clicked.connect(self.add_selected)

        top = QHBoxLayout()
        top.addWidget(self.category, 1)
        bottom = QHBoxLayout()
        bottom.addWidget(self.count_label, 1)
        bottom.addWidget(self.add_button)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        title = QLabel("<b>Parts</b>")
        layout.addWidget(title)
        layout.addLayout(top)
        layout.addWidget(self.search)
        layout.addWidget(self.table, 1)
        layout.addLayout(bottom)

        self.category.currentIndexChanged.connect(lambda _i: self.apply_query())
        self.catalog_model.modelReset.connect(self._fit_columns)
        self.catalog_model.rowsInserted.connect(lambda *_: self._update_count())
        self.set_category(Category.ACCELERATOR)

    # --- public API -------------------------------------------------------------------
    def set_category(self, category: Category | str | None) -> None:
        key = category.value if isinstance(category, Category) else category
        row = self.category.findData(key)
        if row != self.category.currentIndex():
            self.category.setCurrentIndex(row)
        else:
            self.apply_query()

    def current_category(self) -> Category | str | None:
        key = self.category.currentData()
        return CUSTOM if key == CUSTOM else (Category(key) if key else None)

    def refresh(self) -> None:
        """Reload after the user's own parts changed."""
        self.apply_query()

    def apply_query(self) -> None:
        self._timer.stop()
        category = self.current_category()
        if category == CUSTOM:
            self.user_model.set_text(self.search.text())
            if self.table.model() is not self.user_model:
                self.table.setModel(self.user_model)
            self._fit_columns()
        else:
            assert category is None or isinstance(category, Category)
            old = self.catalog_model.query
            query = PartQuery(category=category, text=self.search.text(),
                              sort_field=old.sort_field if old.category == category else "name",
                              descending=old.descending if old.category == category else False)
            self.catalog_model.set_query(query)
            if self.table.model() is not self.catalog_model:
                self.table.setModel(self.catalog_model)
                self._fit_columns()
        self._update_count()
        if self.table.model().rowCount() and not self.table.selectionModel().hasSelection():
            self.table.selectRow(0)

    def selected_ids(self) -> list[str]:
        return self.table.selected_ids()

    def add_selected(self) -> None:
        ids = self.selected_ids()
        if ids:
            self.add_requested.emit(ids)

    def focus_search(self) -> None:
        self.search.setFocus()
        self.search.selectAll()

    # --- internals --------------------------------------------------------------------
    def _focus_table(self) -> None:
        self.table.setFocus()
        if self.table.model().rowCount() and not self.table.selectionModel().hasSelection():
            self.table.selectRow(0)

    def _update_count(self) -> None:
        model = self.table.model()
        total = model.total if hasattr(model, "total") else model.rowCount()
        text = f"{total:,} part{'s' if total != 1 else ''}"
        category = self.current_category()
        search = self.search.text().strip()
        if total == 0 and search and isinstance(category, Category):
            # say where the typed part is instead of an empty list and nothing else
            elsewhere = self.catalog.count(PartQuery(text=search))
            text = (f"No {category.plural.lower()} match; {elsewhere:,} part"
                    f"{'s' if elsewhere != 1 else ''} in All parts" if elsewhere
                    else f"Nothing matches “{search}”")
        self.count_label.setText(text)

    def _fit_columns(self) -> None:
        if self.table.model() is self.user_model:
            header = self.table.horizontalHeader()
            header.setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
            return
        category = self.catalog_model.query.category
        shown = PICKER_COLUMNS.get(category, PICKER_COLUMNS[None])
        header = self.table.horizontalHeader()
        for column, name in enumerate(self.catalog_model.columns):
            self.table.setColumnHidden(column, name not in shown)
            if name == "name":
                # as wide as the names, within limits: the figures scroll sideways past it
                header.setSectionResizeMode(column, QHeaderView.ResizeMode.Interactive)
                wanted = self.table.sizeHintForColumn(column) + 12
                room = max(NAME_MIN_PX, int(self.table.viewport().width() * NAME_SHARE))
                header.resizeSection(column, max(NAME_MIN_PX, min(wanted, room)))
            else:
                header.setSectionResizeMode(column, QHeaderView.ResizeMode.ResizeToContents)
