"""The planner's part list: a category, a search box, and parts to drag onto the build.

Reuses the Catalog tab's lazy ``PartTableModel`` (drag payloads included) and adds the
user's own parts as a category (both models are in ``picker_models``). Enter, a
double-click and the "Add to build" button are the keyboard and mouse twins of a drag.

By default it offers only the parts that fit the build so far (``core.compat_filter``,
filtered in SQL); "Show all parts" shows the rest greyed, and the hover says why a part
does not fit or what could not be checked (judged only for the rows Qt asks about).
"""

from __future__ import annotations

from dataclasses import replace
from html import escape

from PySide6.QtCore import Qt, QTimer, Signal
from PySide6.QtGui import QResizeEvent
from PySide6.QtWidgets import (
    QAbstractItemView,
    QCheckBox,
    QComboBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from dlhw_desktop.catalog.part_query import PartQuery
from dlhw_desktop.catalog.store import Catalog
from dlhw_desktop.catalog.userparts import UserParts
from dlhw_desktop.core.build.build import Build
from dlhw_desktop.core.compat.filter import compat_filter, is_active
from dlhw_desktop.core.compat.rules import MarkRule
from dlhw_desktop.core.errors import CatalogError
from dlhw_desktop.core.fields import Category, category_noun
from dlhw_desktop.ui.common.part_table import SEARCH_DELAY_MS, PartTable
from dlhw_desktop.ui.planner.picker_filters import FilterBar
from dlhw_desktop.ui.planner.picker_models import PickerModel, UserPartsModel

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


# A category's first order in the picker. Accelerators come fastest first: by name, 4,000
# chips and board-partner cards opened on part numbers and GT 730s.
DEFAULT_ORDER: dict[Category | str | None, tuple[str, bool]] = {
    Category.ACCELERATOR: ("bf16_tensor_tflops", True),
}


NAME_MIN_PX = 140
NAME_FLOOR_PX = 96
"""In a narrow picker the name gives way (elided in the middle, whole on hover) down to
this, so that the first figures stay in view."""
FIGURE_MAX_PX = 96
"""Figure columns take what their values need, at most this; the name takes the rest."""
FIGURES_IN_VIEW = 2
"""At least this many figure columns stay in view beside the name without scrolling."""
SHOW_ALL_LINK = "show-all"
CLEAR_LINK = "clear-filters"


def _noun(category: Category, count: int) -> str:
    """``"CPU coolers"``, ``"power supply"``: lower case unless an acronym leads."""
    return category_noun(category, count)


class PartPicker(QWidget):
    """Choose a category, type to search, then drag, press Enter or click Add."""

    add_requested = Signal(list)  # part ids

    def __init__(self, catalog: Catalog, user_parts: UserParts,
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("part_picker")
        self.catalog = catalog
        self.build: Build | None = None
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
        self._build_timer = QTimer(self, singleShot=True, interval=0)
        self._build_timer.timeout.connect(self.apply_query)

        self.show_all = QCheckBox("Show all parts", objectName="picker_show_all")
        self.show_all.setToolTip("Also show the parts that do not fit the build so far "
                                 "(greyed; hover one to see why)")
        self.show_all.toggled.connect(lambda _on: self.apply_query())
        self.filter_bar = FilterBar(catalog)
        self.filter_bar.changed.connect(self._timer.start)

        self.table = PartTable(objectName="picker_table")
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.ExtendedSelection)
        self.table.setDragEnabled(True)
        self.table.setDragDropMode(QAbstractItemView.DragDropMode.DragOnly)
        self.table.setAlternatingRowColors(True)
        self.table.setSortingEnabled(True)
        self.table.setWordWrap(False)
        # A narrow list: the name's start tells parts apart ("RTX PRO 6000 Blackwell…"),
        # the maker after it is cut first (the whole name is on hover).
        self.table.setTextElideMode(Qt.TextElideMode.ElideRight)
        self.table.frozen.setTextElideMode(Qt.TextElideMode.ElideRight)
        self.table.verticalHeader().setVisible(False)
        self.table.verticalHeader().setDefaultSectionSize(24)
        self.table.horizontalHeader().setStretchLastSection(False)
        self.table.setToolTip("Drag parts onto the build, or press Enter to add them")
        self.table.activated_parts.connect(self.add_requested)
        self.table.doubleClicked.connect(lambda _i: self.add_selected())

        self.count_label = QLabel(objectName="picker_count")
        self.count_label.setWordWrap(True)
        self.count_label.setTextFormat(Qt.TextFormat.RichText)
        self.count_label.linkActivated.connect(self._link)
        self.add_button = QPushButton("Add to build", objectName="picker_add_button")
        self.add_button.setToolTip("Add the selected parts to the build (Enter); or drag them")
        self.add_button.clicked.connect(self.add_selected)

        top = QHBoxLayout()
        top.addWidget(self.category, 1)
        options = QHBoxLayout()
        options.addWidget(self.show_all)
        options.addStretch(1)
        bottom = QHBoxLayout()
        bottom.addWidget(self.count_label, 1)
        bottom.addWidget(self.add_button)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        title = QLabel("<b>Parts</b>")
        layout.addWidget(title)
        layout.addLayout(top)
        layout.addWidget(self.search)
        layout.addLayout(options)
        layout.addWidget(self.filter_bar)
        layout.addWidget(self.table, 1)
        layout.addLayout(bottom)

        self.category.currentIndexChanged.connect(lambda _i: self._category_changed())
        self._widths: dict[tuple[Category | None, int], dict[int, int]] = {}
        self.catalog_model.modelReset.connect(self._restore_widths)
        self.catalog_model.rowsInserted.connect(lambda *_: self._update_count())
        self.set_category(Category.ACCELERATOR)

    # --- public API -------------------------------------------------------------------
    def set_category(self, category: Category | str | None) -> None:
        key = category.value if isinstance(category, Category) else category
        row = self.category.findData(key)
        if row != self.category.currentIndex():
            self.category.setCurrentIndex(row)
        else:
            self._category_changed()

    def current_category(self) -> Category | str | None:
        key = self.category.currentData()
        return CUSTOM if key == CUSTOM else (Category(key) if key else None)

    def set_build(self, build: Build | None) -> None:
        """Offer what fits ``build``; call again after it changed (coalesced)."""
        self.build = build
        self._build_timer.start()

    def refresh(self) -> None:
        """Reload after the user's own parts changed."""
        self.apply_query()

    def current_query(self, category: Category | None, compat: bool = True,
                      filters: bool = True) -> PartQuery:
        """The query for what is on screen (optionally without compatibility/filters)."""
        old = self.catalog_model.query
        same = old.category == category
        rules = self.catalog_model.compat if compat and not self.show_all.isChecked() else None
        field, descending = ((old.sort_field, old.descending) if same
                             else DEFAULT_ORDER.get(category, ("name", False)))
        return PartQuery(category=category, text=self.search.text(),
                         filters=self.filter_bar.filters() if filters else (),
                         sort_field=field, descending=descending,
                         compat=rules if is_active(rules) else None)

    def apply_query(self) -> None:
        self._timer.stop()
        self._build_timer.stop()
        category = self.current_category()
        if category == CUSTOM:
            self.user_model.set_text(self.search.text())
            if self.table.model() is not self.user_model:
                self.table.setModel(self.user_model)
            self._fit_columns()
        else:
            assert category is None or isinstance(category, Category)
            rules = (compat_filter(self.build, category, self._load(category))
                     if self.build is not None and category is not None else None)
            self.catalog_model.set_compat(rules)
            # nothing to show "all" of while the build constrains nothing here
            self.show_all.setEnabled(is_active(rules) or self.show_all.isChecked())
            self.catalog_model.set_query(self.current_query(category))
            if self.table.model() is not self.catalog_model:
                self.table.setModel(self.catalog_model)
                self._fit_columns()
            self._show_order()
        self._update_count()
        if self.table.model().rowCount() and not self.table.selectionModel().hasSelection():
            self.table.selectRow(0)

    def _load(self, category: Category) -> tuple[float | None, float] | None:
        """The build's sustained load and its cards' share, for judging power supplies."""
        if category is not Category.PSU or self.build is None:
            return None
        from dlhw_desktop.core.checks.budget import budget_of
        from dlhw_desktop.core.checks.context import CheckContext

        budget = budget_of(CheckContext(self.build))
        return budget.sustained_w, budget.gpu_w or 0.0

    def _show_order(self) -> None:
        """The header's sort arrow on the column the list is ordered by."""
        query = self.catalog_model.query
        if query.sort_field in self.catalog_model.columns:
            order = (Qt.SortOrder.DescendingOrder if query.descending
                     else Qt.SortOrder.AscendingOrder)
            column = self.catalog_model.columns.index(query.sort_field)
            # the table's header and the frozen name column's own header both show it
            for header in (self.table.horizontalHeader(),
                           self.table.frozen.horizontalHeader()):
                header.blockSignals(True)  # the list is in this order already: no re-query
                header.setSortIndicator(column, order)
                header.blockSignals(False)

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
    def _category_changed(self) -> None:
        category = self.current_category()
        self.filter_bar.setVisible(category != CUSTOM)
        self.filter_bar.set_category(category if isinstance(category, Category) else None)
        self.apply_query()

    def _focus_table(self) -> None:
        self.table.setFocus()
        if self.table.model().rowCount() and not self.table.selectionModel().hasSelection():
            self.table.selectRow(0)

    def _link(self, target: str) -> None:
        if target == SHOW_ALL_LINK:
            self.show_all.setChecked(True)
        elif target == CLEAR_LINK:
            self.filter_bar.clear()

    def _update_count(self) -> None:
        try:
            self.count_label.setText(self._count_text())
        except CatalogError as exc:
            self.count_label.setText(escape(str(exc)))

    def _count_text(self) -> str:
        model = self.table.model()
        total = model.total if hasattr(model, "total") else model.rowCount()
        category = self.current_category()
        search = self.search.text().strip()
        if not isinstance(category, Category):
            return f"{total:,} part{'s' if total != 1 else ''}"
        noun = _noun(category, total)
        query = self.catalog_model.query
        compat_on = query.compat is not None
        filtered = bool(query.filters)
        rules = self.catalog_model.compat
        if total:
            if not compat_on:
                if self.show_all.isChecked() and is_active(rules):
                    fitting = self.catalog.count(replace(query, compat=rules))
                    if fitting < total:
                        return (f"{total:,} {noun}; {total - fitting:,} greyed do not fit "
                                "the build")
                return f"{total:,} {noun}"
            everything = self.catalog.count(replace(query, compat=None))
            hidden = everything - total
            marks = [r for r in rules.rules if isinstance(r, MarkRule)] if rules else []
            if marks:  # a figure of the build is unknown: nothing was judged on it
                return f"{total:,} {noun}; {marks[0].reason}"
            if not hidden:
                return f"{total:,} {noun}, all fit the build"
            return (f"{total:,} {noun} fit the build; {hidden:,} hidden "
                    f"(<a href='{SHOW_ALL_LINK}'>Show all parts</a>)")
        if compat_on or filtered:
            causes: list[str] = []
            links: list[str] = []
            if filtered:
                by_filters = self.catalog.count(replace(query, filters=()))
                if by_filters:
                    causes.append(f"{by_filters:,} hidden by filters")
                links.append(f"<a href='{CLEAR_LINK}'>Clear filters</a>")
            if compat_on:
                misfits = self.catalog.count(replace(query, compat=None))
                if misfits:
                    causes.append(f"{misfits:,} do not fit the build")
                links.append(f"<a href='{SHOW_ALL_LINK}'>Show all parts</a>")
            head = (f"No compatible {_noun(category, 1)}" if compat_on
                    else f"No {_noun(category, 2)} match the filters")
            return f"{head} — {', '.join(causes) or 'none match'}; {'; '.join(links)}"
        if search:
            # say where the typed part is instead of an empty list and nothing else
            elsewhere = self.catalog.count(PartQuery(text=search))
            return (f"No {_noun(category, 2)} match; {elsewhere:,} part"
                    f"{'s' if elsewhere != 1 else ''} in All parts" if elsewhere
                    else f"Nothing matches “{escape(search)}”")
        return f"No {_noun(category, 2)}"

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        self._widths.clear()
        self._fit_columns()

    def _restore_widths(self) -> None:
        """After a new query: the widths measured for this category at this size (a
        reset forgets them; measuring again on every build change would cost more than
        the query)."""
        key = (self.catalog_model.query.category, self.table.viewport().width())
        widths = self._widths.get(key)
        if widths is None:
            self._fit_columns()
            return
        header = self.table.horizontalHeader()
        shown = PICKER_COLUMNS.get(key[0], PICKER_COLUMNS[None])
        for column, name in enumerate(self.catalog_model.columns):
            self.table.setColumnHidden(column, name not in shown)
            header.setSectionResizeMode(column, QHeaderView.ResizeMode.Interactive)
        for column, width in widths.items():
            header.resizeSection(column, width)

    def _fit_columns(self) -> None:
        header = self.table.horizontalHeader()
        if self.table.model() is self.user_model:
            header.setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
            return
        category = self.catalog_model.query.category
        if not self.catalog_model.rowCount():
            return  # nothing to measure: keep the widths until there is
        shown = PICKER_COLUMNS.get(category, PICKER_COLUMNS[None])
        figures: list[int] = []
        name_column = -1
        for column, name in enumerate(self.catalog_model.columns):
            self.table.setColumnHidden(column, name not in shown)
            header.setSectionResizeMode(column, QHeaderView.ResizeMode.Interactive)
            if name == "name":
                name_column = column
            elif name in shown:
                # as wide as its values and header, within limits
                wanted = max(self.table.sizeHintForColumn(column),
                             header.sectionSizeHint(column))
                width = min(FIGURE_MAX_PX, wanted + 4)
                header.resizeSection(column, width)
                figures.append(width)
        if name_column < 0:
            return
        room = self.table.viewport().width()
        wanted = self.table.sizeHintForColumn(name_column) + 12
        # the name takes what the names need, leaving the figures in view; when there is
        # not room for all, at least the first FIGURES_IN_VIEW stay, the rest scroll
        width = room - sum(figures)
        if width < NAME_MIN_PX:
            width = max(NAME_FLOOR_PX, room - sum(figures[:FIGURES_IN_VIEW]))
        header.resizeSection(name_column, max(NAME_FLOOR_PX, min(wanted, width)))
        self._widths[(category, room)] = {c: header.sectionSize(c)
                                          for c in range(header.count())}
