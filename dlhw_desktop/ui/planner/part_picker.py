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

from PySide6.QtCore import QItemSelection, QItemSelectionModel, Qt, QTimer, Signal
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
    QStyle,
    QVBoxLayout,
    QWidget,
)

from dlhw_desktop.catalog.part_query import RELEVANCE, PartQuery
from dlhw_desktop.catalog.store import Catalog
from dlhw_desktop.catalog.userparts import UserParts
from dlhw_desktop.core.build.build import Build
from dlhw_desktop.core.compat.filter import compat_filter, is_active
from dlhw_desktop.core.compat.rules import MarkRule
from dlhw_desktop.core.errors import CatalogError
from dlhw_desktop.core.fields import Category, category_noun
from dlhw_desktop.ui.common.elsewhere import elsewhere_text, linked_category
from dlhw_desktop.ui.common.part_table import SEARCH_DELAY_MS, PartTable
from dlhw_desktop.ui.planner.picker_filters import FilterBar
from dlhw_desktop.ui.planner.picker_models import PickerModel, UserPartsModel
from dlhw_desktop.ui.planner.picker_names import NameDelegate

CUSTOM = "custom"
"""The category key of the user's own parts in the picker's list."""

# A category's first order in the picker. Accelerators come fastest first: by name, 4,000
# chips and board-partner cards opened on part numbers and GT 730s. The others come
# most recent first, real names before part numbers (``RELEVANCE``).
DEFAULT_ORDER: dict[Category | str | None, tuple[str, bool]] = {
    Category.ACCELERATOR: ("bf16_tensor_tflops", True),
}
PRICE_COLUMNS = ("price_usd", "price_per_hour_usd")


NAME_MIN_PX = 150
NAME_FLOOR_PX = 110
"""In a narrow picker the name gives way (elided in the middle, whole on hover) down to
this, so that the first figures stay in view."""
FIGURE_MAX_PX = 96
"""Figure columns take what their values need, at most this; the name takes the rest."""
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
        # Names on two lines, cut in the middle when longer (``picker_names``): the series
        # and the model number at the end both stay in view (the whole name on hover).
        self.names = NameDelegate(self)
        self.table.setItemDelegateForColumn(0, self.names)
        self.table.frozen.setItemDelegateForColumn(0, self.names)
        self.table.verticalHeader().setVisible(False)
        self.table.verticalHeader().setDefaultSectionSize(
            2 * self.table.fontMetrics().height() + 8)
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
        self.catalog_model.modelReset.connect(self._count_words)
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

    def show_slot(self, category: Category, build: Build | None, focus: bool = True) -> None:
        """An empty slot was chosen: its category, what fits ``build``, no search typed."""
        self.build = build
        self.search.blockSignals(True)
        self.search.clear()
        self.search.blockSignals(False)
        self.show_all.blockSignals(True)
        self.show_all.setChecked(False)
        self.show_all.blockSignals(False)
        self.table.clearSelection()
        self.set_category(category)  # runs the query
        if focus:
            self._focus_table()

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
                             else DEFAULT_ORDER.get(category, (RELEVANCE, False)))
        return PartQuery(category=category, text=self.search.text(),
                         filters=self.filter_bar.filters() if filters else (),
                         sort_field=field, descending=descending,
                         compat=rules if is_active(rules) else None)

    def apply_query(self) -> None:
        self._timer.stop()
        self._build_timer.stop()
        # after an add, Enter again adds the same part
        kept = self.selected_ids() if self.table.selectionModel() is not None else []
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
        self._reselect(kept)

    def _reselect(self, part_ids: list[str]) -> None:
        """Select ``part_ids`` again where the new list still has them (among the rows
        fetched), else its first row."""
        model = self.table.model()
        if not model.rowCount():
            return
        rows: list[int] = []
        if model is self.catalog_model:
            rows = [r for r in map(self.catalog_model.row_of, part_ids) if r >= 0]
        if not rows:
            if not self.table.selectionModel().hasSelection():
                self.table.selectRow(0)
            return
        selection = QItemSelection()
        for row in rows:
            selection.select(model.index(row, 0), model.index(row, model.columnCount() - 1))
        self.table.selectionModel().select(
            selection, QItemSelectionModel.SelectionFlag.ClearAndSelect)
        self.table.selectionModel().setCurrentIndex(
            model.index(rows[0], 0), QItemSelectionModel.SelectionFlag.NoUpdate)
        self.table.scrollTo(model.index(rows[0], 0))

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
        found, category = linked_category(target)
        if found:
            self.set_category(category)  # the words typed stay
        elif target == SHOW_ALL_LINK:
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
            # say where the typed part is, with links there, not an empty list alone
            return elsewhere_text(self.catalog, search, category,
                                  f"No {_noun(category, 2)} match")
        return f"No {_noun(category, 2)}"

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        self._widths.clear()
        self._fit_columns()

    def _text_width(self, column: int) -> int:
        """The widest of the first rows' texts in ``column`` (measured, not laid out: right
        after a reset the view has not placed its rows yet)."""
        model = self.catalog_model
        metrics = self.table.fontMetrics()
        texts = {str(model.data(model.index(row, column)) or "")
                 for row in range(min(model.rowCount(), 100))}
        return max((metrics.horizontalAdvance(t) for t in texts), default=0) + 12

    def _count_words(self) -> None:
        """The words the listed names share give way first when a name is cut."""
        model = self.catalog_model
        self.names.set_common(str(model.data(model.index(row, 0)) or "")
                              for row in range(model.rowCount()))

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
        for column in range(header.count()):
            self.table.setColumnHidden(column, False)
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
        columns = self.catalog_model.columns
        figures: list[int] = []
        for column in range(len(columns)):
            self.table.setColumnHidden(column, False)
            header.setSectionResizeMode(column, QHeaderView.ResizeMode.Interactive)
            if column:  # as wide as its values and header, within limits
                head = str(self.catalog_model.headerData(column, Qt.Orientation.Horizontal))
                width = min(FIGURE_MAX_PX, max(self._text_width(column),
                                               header.fontMetrics().horizontalAdvance(head)
                                               + 14))
                header.resizeSection(column, width)
                figures.append(width)
        # the key figure and the price stay in view beside the name; the rest may scroll.
        # The name takes the rest: it wraps onto two lines (``picker_names``).
        in_view = next((n for n, name in enumerate(columns[1:], 1) if name in PRICE_COLUMNS),
                       len(columns) - 1)
        room = self.table.viewport().width()
        bar = self.table.verticalScrollBar()
        if not bar.isVisible() and self.catalog_model.total * \
                self.table.verticalHeader().defaultSectionSize() > self.table.viewport().height():
            room -= self.table.style().pixelMetric(QStyle.PixelMetric.PM_ScrollBarExtent)
        width = room - sum(figures)
        if width < NAME_MIN_PX:
            width = room - sum(figures[:in_view])
        header.resizeSection(0, max(NAME_FLOOR_PX, width))
        self._widths[(category, room)] = {c: header.sectionSize(c)
                                          for c in range(header.count())}
