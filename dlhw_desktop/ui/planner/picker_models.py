"""The part picker's table models: the catalog's parts as a narrow list, and the user's own.

``PickerModel`` is the Catalog tab's lazy ``PartTableModel`` with short headers (the full
ones in tooltips); given the build's compatibility rules it greys the parts that do not
fit, marks the ones that could not be checked and says why on hover, judging only the
rows Qt asks about (``FIT_ROLE`` gives a row's ``PartFit``). ``UserPartsModel`` lists the
user's custom parts with the same roles and drag payload. Neither runs SQL: the catalog
and the user-parts store answer them.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QModelIndex, QPersistentModelIndex, Qt
from PySide6.QtGui import QPalette
from PySide6.QtWidgets import QApplication, QStyle

from dlhw_desktop.catalog.store import Catalog
from dlhw_desktop.catalog.userparts import UserParts, UserPartsError
from dlhw_desktop.core.compat.filter import FITS, CompatFilter, PartFit
from dlhw_desktop.core.fields import Category
from dlhw_desktop.core.formatting import price_range_text
from dlhw_desktop.core.parts import Part
from dlhw_desktop.ui.common.part_table_model import PART_ROLE, PartRowsModel, PartTableModel

Index = QModelIndex | QPersistentModelIndex
FIT_ROLE = Qt.ItemDataRole.UserRole + 7
"""The row's ``PartFit``: why it does not fit, or what could not be checked."""


PICKER_COLUMNS: dict[Category | None, tuple[str, ...]] = {
    None: ("name", "category", "price_usd"),
    Category.ACCELERATOR: ("name", "memory_gb", "board_length_mm", "price_usd",
                           "bf16_tensor_tflops"),
    Category.CPU: ("name", "socket", "price_usd", "cores"),
    Category.MEMORY: ("name", "capacity_gb", "price_usd", "memory_type"),
    Category.STORAGE: ("name", "capacity_gb", "price_usd", "storage_kind"),
    Category.PSU: ("name", "wattage_w", "price_usd", "efficiency_rating"),
    Category.COOLER: ("name", "height_mm", "price_usd", "cooler_kind"),
    Category.MOTHERBOARD: ("name", "socket", "price_usd", "memory_type"),
    Category.CASE: ("name", "max_gpu_length_mm", "price_usd", "case_kind"),
    Category.CLOUD: ("name", "accelerator_count", "price_per_hour_usd"),
    Category.SERVER: ("name", "gpu_count", "price_usd", "gpu_form_factor", "max_power_w"),
}
"""The picker's columns: the name, the category's key figure (what tells look-alike rows
apart and decides a fit: wattage, card or clearance length, socket, cooler height), the
price, then what scrolls into view."""

SHORT_HEADERS: dict[str, str] = {
    "board_length_mm": "Length", "height_mm": "Height",
    "memory_gb": "GB", "bf16_tensor_tflops": "BF16 TF", "price_usd": "Price",
    "cores": "Cores", "socket": "Socket", "memory_type": "Type", "capacity_gb": "GB",
    "storage_kind": "Kind", "wattage_w": "W", "efficiency_rating": "80+",
    "cooler_kind": "Kind", "case_kind": "Kind", "max_gpu_length_mm": "GPU mm",
    "accelerator_count": "GPUs", "price_per_hour_usd": "$/h", "category": "Category",
    "gpu_count": "GPUs", "gpu_form_factor": "Module", "max_power_w": "Max W",
}


class PickerModel(PartTableModel):
    """The catalog table with short headers for a narrow list (full ones in tooltips),
    greying the parts that do not fit the build and saying why on hover."""

    def __init__(self, catalog: Catalog, parent: Any = None) -> None:
        super().__init__(catalog, parent)
        self.vendor_in_name = True  # thousands of parts from a hundred makers, no Vendor column
        self.compat: CompatFilter | None = None
        self._fits: dict[str, PartFit] = {}
        style = QApplication.style()
        self._icons = {
            "unknown": style.standardIcon(QStyle.StandardPixmap.SP_MessageBoxQuestion),
            "incompatible": style.standardIcon(QStyle.StandardPixmap.SP_DialogCancelButton),
        }

    def columns_for(self, category: Category | None) -> tuple[str, ...]:
        return PICKER_COLUMNS.get(category, PICKER_COLUMNS[None])

    def set_compat(self, compat: CompatFilter | None) -> None:
        """Judge rows against new rules (the query is set separately)."""
        self.compat = compat
        self._fits.clear()

    def fit(self, part: Part) -> PartFit:
        """The part's fit, judged the first time a row is painted or hovered."""
        if self.compat is None:
            return FITS
        found = self._fits.get(part.id)
        if found is None:
            if len(self._fits) > 2_000:
                self._fits.clear()
            found = self._fits[part.id] = self.compat.judge(part)
        return found

    def headerData(self, section: int, orientation: Qt.Orientation,
                   role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if role == Qt.ItemDataRole.DisplayRole and orientation == Qt.Orientation.Horizontal \
                and 0 <= section < len(self.columns):
            name = self.columns[section]
            if name in SHORT_HEADERS:
                return SHORT_HEADERS[name]
        return super().headerData(section, orientation, role)

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if role in _FIT_ROLES and index.isValid() and self.compat is not None:
            part = self.part_at(index.row())
            if part is not None:
                fit = self.fit(part)
                if role == _FIT:
                    return fit
                if role == _FOREGROUND and fit.status == "incompatible":
                    return QApplication.palette().color(QPalette.ColorGroup.Disabled,
                                                        QPalette.ColorRole.Text)
                if role == _DECORATION:
                    return self._icons.get(fit.status) if index.column() == 0 else None
                if role == _TOOLTIP and fit.status != "ok":
                    return f"{super().data(index, role)}\n\n{fit.describe()}"
        return super().data(index, role)


_FIT = int(FIT_ROLE)
_FOREGROUND = int(Qt.ItemDataRole.ForegroundRole)
_DECORATION = int(Qt.ItemDataRole.DecorationRole)
_TOOLTIP = int(Qt.ItemDataRole.ToolTipRole)
_FIT_ROLES = frozenset({_FIT, _FOREGROUND, _DECORATION, _TOOLTIP})


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
                    price_range_text(part.price_usd, part.price_high_usd))[index.column()]
        if role == Qt.ItemDataRole.ToolTipRole:
            return f"{part.display_name}\n{part.id}\nYour own part"
        return None
