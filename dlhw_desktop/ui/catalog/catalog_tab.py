"""The Catalog tab: choose a category, search as you type, filter, sort, read the details."""

from __future__ import annotations

from dataclasses import dataclass

from PySide6.QtCore import QEvent, QItemSelectionModel, QModelIndex, QObject, Qt, QTimer, Signal
from PySide6.QtGui import QAction
from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QDoubleSpinBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QMenu,
    QPushButton,
    QSplitter,
    QVBoxLayout,
    QWidget,
)

from dlhw_desktop.catalog.part_query import RELEVANCE, Filter, PartQuery
from dlhw_desktop.catalog.price_store import PriceBook
from dlhw_desktop.catalog.store import Catalog
from dlhw_desktop.catalog.user_figures_store import UserFiguresError, UserFiguresStore
from dlhw_desktop.core.field_values import value_label
from dlhw_desktop.core.fields import FIELDS_BY_NAME, Category
from dlhw_desktop.core.parts import Part
from dlhw_desktop.ui.catalog.catalog_view import (
    EmptyNote,
    clear_sort_indicator,
    count_text,
    fit_columns,
    place_filter,
)
from dlhw_desktop.ui.catalog.part_details import PartDetails, cards_filter, catalog_chip_links
from dlhw_desktop.ui.catalog.price_entry import PriceEntry
from dlhw_desktop.ui.common.actions import make_action
from dlhw_desktop.ui.common.elsewhere import linked_category
from dlhw_desktop.ui.common.figure_dialog import enter_figure
from dlhw_desktop.ui.common.flow_layout import FlowLayout
from dlhw_desktop.ui.common.number_input import NumberSpinBox
from dlhw_desktop.ui.common.part_table import SEARCH_DELAY_MS, PartTable
from dlhw_desktop.ui.common.part_table_model import PART_ROLE, PartTableModel


@dataclass(frozen=True, slots=True)
class FilterSpec:
    field: str
    kind: str  # "choice" | "min" | "max" | "boards"
    label: str


def _f(field: str, kind: str, label: str = "") -> FilterSpec:
    return FilterSpec(field, kind, label or FIELDS_BY_NAME[field].label)


FILTERS: dict[Category | None, tuple[FilterSpec, ...]] = {
    None: (_f("vendor", "choice"),),
    Category.ACCELERATOR: (_f("vendor", "choice"), _f("accelerator_type", "choice", "Type"),
                           _f("form_factor", "choice"), _f("market_segment", "choice"),
                           _f("memory_gb", "min", "Memory ≥"), _f("tdp_w", "max", "TDP ≤"),
                           _f("chip_id", "boards", "Boards")),
    Category.CPU: (_f("vendor", "choice"), _f("socket", "choice"), _f("cores", "min", "Cores ≥"),
                   _f("tdp_w", "max", "TDP ≤")),
    Category.MEMORY: (_f("vendor", "choice"), _f("memory_type", "choice"),
                      _f("capacity_gb", "min", "Capacity ≥")),
    Category.STORAGE: (_f("vendor", "choice"), _f("storage_kind", "choice"),
                       _f("capacity_gb", "min", "Capacity ≥")),
    Category.PSU: (_f("vendor", "choice"), _f("efficiency_rating", "choice"),
                   _f("wattage_w", "min", "Output ≥")),
    Category.COOLER: (_f("vendor", "choice"), _f("cooler_kind", "choice")),
    Category.MOTHERBOARD: (_f("vendor", "choice"), _f("socket", "choice"),
                           _f("memory_type", "choice")),
    Category.CASE: (_f("vendor", "choice"), _f("case_kind", "choice"),
                    _f("max_gpu_length_mm", "min", "GPU clearance ≥")),
    Category.CLOUD: (_f("provider", "choice"), _f("offering_kind", "choice"),
                     _f("accelerator_count", "min", "Accelerators ≥"),
                     _f("price_per_hour_usd", "max", "Price/h ≤")),
    Category.SERVER: (_f("vendor", "choice"), _f("gpu_form_factor", "choice", "Module"),
                      _f("system_cooling", "choice", "Cooling")),
}


class CatalogTab(QWidget):
    """Browse and search the catalog. Emits requests; other tabs act on them."""

    compare_requested = Signal(list)  # part ids
    add_to_build_requested = Signal(list)  # part ids
    part_selected = Signal(object)  # Part | None
    status_message = Signal(str)  # for the main window's status bar
    price_changed = Signal(str)  # part id whose price the user set or cleared here
    figure_changed = Signal(str)  # part id whose figure the user entered or removed here

    def __init__(self, catalog: Catalog, parent: QWidget | None = None, *,
                 category: Category | None = Category.ACCELERATOR,
                 price_book: PriceBook | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("catalog_tab")
        self._catalog = catalog
        self._category: Category | None = Category.ACCELERATOR
        self._filter_widgets: dict[str, QWidget] = {}
        self._fitted_columns: tuple[str, ...] = ()
        self._chip: Part | None = None  # listing this chip's board-partner cards
        self.model = PartTableModel(catalog, self)

        self.categories = QListWidget(objectName="category_list")
        self.categories.setMinimumWidth(170)
        self.categories.setMaximumWidth(240)
        counts = catalog.info().counts
        all_item = QListWidgetItem(f"All parts  ({sum(counts.values()):,})")
        all_item.setData(Qt.ItemDataRole.UserRole, None)
        self.categories.addItem(all_item)
        for each in Category:
            item = QListWidgetItem(f"{each.plural}  ({counts.get(each.value, 0):,})")
            item.setData(Qt.ItemDataRole.UserRole, each.value)
            self.categories.addItem(item)

        self.search = QLineEdit(objectName="catalog_search")
        self.search.setPlaceholderText("Search name, vendor, family… e.g. rtx 4090, a100 80, "
                                       "threadripper")
        self.search.setClearButtonEnabled(True)
        self._search_timer = QTimer(self, singleShot=True, interval=SEARCH_DELAY_MS)
        self._search_timer.timeout.connect(self.apply_query)
        self.search.textChanged.connect(lambda _t: self._search_timer.start())
        self.search.returnPressed.connect(self._focus_table)

        # Filters wrap onto a second line in a narrow window (they never scroll sideways).
        self.filters_bar = FlowLayout()
        self.result_label = QLabel(objectName="result_count")
        self.result_label.setTextFormat(Qt.TextFormat.RichText)
        self.result_label.linkActivated.connect(self._link)
        self._order_reset = True  # a category opens in its default order

        self.table = PartTable(objectName="parts_table")
        self.table.setModel(self.model)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.ExtendedSelection)
        # The model starts sorted by name, ascending: say so before enabling sorting, or
        # Qt re-sorts (and re-queries) on the header's default descending indicator.
        self.table.horizontalHeader().setSortIndicator(-1, Qt.SortOrder.AscendingOrder)
        self.table.setSortingEnabled(True)
        self.table.setAlternatingRowColors(True)
        self.table.setDragEnabled(True)
        self.table.setDragDropMode(QAbstractItemView.DragDropMode.DragOnly)
        self.table.verticalHeader().setVisible(False)
        self.table.verticalHeader().setDefaultSectionSize(24)
        self.table.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
        self.table.viewport().installEventFilter(self)  # the name takes a new width
        self.empty_note = EmptyNote(self.table, self._link)
        self.table.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
        self.table.customContextMenuRequested.connect(self._context_menu)
        self.table.activated_parts.connect(self.add_to_build_requested)
        self.table.doubleClicked.connect(lambda _i: self._emit_add())

        self.details = PartDetails(chip_links=catalog_chip_links(catalog), enterable=True)
        self.user_figures = UserFiguresStore()
        self.details.figure_requested.connect(self._enter_figure)
        self.details.figure_removal_requested.connect(self._remove_figure)
        self.details.status_message.connect(self.status_message)
        self.details.chip_cards_requested.connect(self.show_chip_cards)
        self.details.part_requested.connect(self.select_part)
        self.all_cards_button = QPushButton("Show all", objectName="clear_chip_filter")
        self.all_cards_button.setToolTip("Back to every accelerator")
        self.all_cards_button.clicked.connect(lambda: self.show_chip_cards(None))
        self.all_cards_button.hide()
        self.details.setMinimumWidth(260)
        self.price_book = price_book if price_book is not None else PriceBook()
        self.price_entry = PriceEntry(self.price_book)
        self.price_entry.status_message.connect(self.status_message)
        self.price_entry.price_changed.connect(self._price_changed)
        self.model.set_adjust(self.price_entry.priced)  # the price column: the one that counts
        details_pane = QWidget(objectName="details_pane")
        details_layout = QVBoxLayout(details_pane)
        details_layout.setContentsMargins(0, 0, 0, 0)
        details_layout.setSpacing(2)
        details_layout.addWidget(self.details, 1)
        details_layout.addWidget(self.price_entry)

        self.action_compare: QAction = make_action("action_compare_part", self)
        self.action_add: QAction = make_action("action_add_to_build", self)
        self.action_copy_id: QAction = make_action("action_copy_id", self)
        for action in (self.action_compare, self.action_add, self.action_copy_id):
            action.setShortcutContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
            self.addAction(action)
        self.action_compare.triggered.connect(self._emit_compare)
        self.action_add.triggered.connect(self._emit_add)
        self.action_copy_id.triggered.connect(self._copy_ids)
        self.compare_button = QPushButton("Compare", objectName="compare_button")
        self.compare_button.setToolTip("Add the selected accelerators to the comparison "
                                       "(Ctrl+Shift+C)")
        self.compare_button.clicked.connect(self._emit_compare)
        self.add_button = QPushButton("Add to build", objectName="add_to_build_button")
        self.add_button.setToolTip("Add the selected parts to the build (Enter or Ctrl+B; "
                                   "or drag them onto the Build tab)")
        self.add_button.clicked.connect(self._emit_add)

        top = QHBoxLayout()
        top.addWidget(self.search, 1)
        top.addWidget(self.result_label)
        top.addWidget(self.all_cards_button)
        top.addWidget(self.compare_button)
        top.addWidget(self.add_button)
        filters_host = QWidget(objectName="filters_host")
        filters_host.setLayout(self.filters_bar)
        centre = QWidget()
        centre_layout = QVBoxLayout(centre)
        centre_layout.setContentsMargins(0, 0, 0, 0)
        centre_layout.addLayout(top)
        centre_layout.addWidget(filters_host)
        centre_layout.addWidget(self.table, 1)

        self.splitter = QSplitter(Qt.Orientation.Horizontal, objectName="catalog_splitter")
        self.splitter.addWidget(self.categories)
        self.splitter.addWidget(centre)
        self.splitter.addWidget(details_pane)
        self.splitter.setStretchFactor(1, 1)
        self.splitter.setSizes([190, 760, 330])
        layout = QVBoxLayout(self)
        layout.setContentsMargins(6, 6, 6, 6)
        layout.addWidget(self.splitter)

        self.categories.currentRowChanged.connect(self._category_changed)
        self.table.selectionModel().currentRowChanged.connect(self._current_changed)
        self.model.modelReset.connect(self._update_count)
        self.model.modelReset.connect(self._fit_columns)
        self.model.rowsInserted.connect(self._update_count)
        self.set_category(category)

    # --- public API -------------------------------------------------------------
    @property
    def category(self) -> Category | None:
        return self._category

    def set_category(self, category: Category | None) -> None:
        row = 0 if category is None else list(Category).index(category) + 1
        if self.categories.currentRow() != row:
            self.categories.setCurrentRow(row)  # -> _category_changed
        else:
            self._category_changed(row)

    def focus_search(self) -> None:
        self.search.setFocus()
        self.search.selectAll()

    def select_part(self, part_id: str) -> bool:
        """Show a part: switch to its category, clear filters, select its row."""
        part = self._catalog.find(part_id)
        if part is None:
            return False
        self.search.blockSignals(True)
        self.search.setText("")
        self.search.blockSignals(False)
        self.set_category(part.category)
        row = self.model.row_of(part_id)
        while row < 0 and self.model.canFetchMore():
            self.model.fetchMore()
            row = self.model.row_of(part_id)
        if row >= 0:
            index = self.model.index(row, 0)
            self.table.selectionModel().setCurrentIndex(
                index, QItemSelectionModel.SelectionFlag.ClearAndSelect
                | QItemSelectionModel.SelectionFlag.Rows)
            self.table.scrollTo(index)
        return row >= 0

    def show_chip_cards(self, chip_id: str | None) -> None:
        """List one chip's board-partner cards (``None``: every part again)."""
        self.search.blockSignals(True)
        self.search.setText("")
        self.search.blockSignals(False)
        if chip_id and self._category is not Category.ACCELERATOR:
            self.set_category(Category.ACCELERATOR)  # (which ends any chip's list)
        self._chip = self._catalog.find(chip_id) if chip_id else None
        self.all_cards_button.setVisible(self._chip is not None)
        self.apply_query()

    def selected_ids(self) -> list[str]:
        return self.table.selected_ids()

    # --- query ------------------------------------------------------------------
    def current_query(self) -> PartQuery:
        filters: list[Filter] = []
        for spec in FILTERS[self._category] + self._price_specs():
            widget = self._filter_widgets.get(spec.field + ":" + spec.kind)
            if isinstance(widget, QComboBox):
                value = widget.currentData()
                if value is not None:
                    filters.append(Filter(spec.field, "null" if spec.kind == "boards" else "eq",
                                          value))
            elif isinstance(widget, QDoubleSpinBox) and widget.value() > widget.minimum():
                filters.append(Filter(spec.field, "ge" if spec.kind == "min" else "le",
                                      widget.value()))
        if self._chip is not None:
            filters.append(cards_filter(self._chip.id))
        old = self.model.query
        field, descending = ((RELEVANCE, False) if self._order_reset
                             else (old.sort_field, old.descending))
        return PartQuery(category=self._category, text=self.search.text(),
                         filters=tuple(filters), sort_field=field, descending=descending)

    def apply_query(self) -> None:
        self._search_timer.stop()
        self.model.set_query(self.current_query())
        self._order_reset = False
        if self.model.rowCount() and not self.table.selectionModel().hasSelection():
            self.table.selectRow(0)
        elif not self.model.rowCount():
            self._show_details(None)

    def _price_specs(self) -> tuple[FilterSpec, ...]:
        if self._category == Category.CLOUD:
            return ()
        return (_f("price_usd", "min", "Price ≥"), _f("price_usd", "max", "≤"))

    def _category_changed(self, row: int) -> None:
        item = self.categories.item(row)
        value = item.data(Qt.ItemDataRole.UserRole) if item else None
        self._category = Category(value) if value else None
        self._chip = None
        self.all_cards_button.hide()
        self._order_reset = True  # most recent first, real names before part numbers
        clear_sort_indicator(self.table)
        self._rebuild_filters()
        self.apply_query()
        self.compare_button.setEnabled(self._category in (None, Category.ACCELERATOR))

    def _rebuild_filters(self) -> None:
        while self.filters_bar.count():
            item = self.filters_bar.takeAt(0)
            if item.widget():
                item.widget().deleteLater()
        self._filter_widgets.clear()
        for spec in FILTERS[self._category] + self._price_specs():
            widget = self._make_filter(spec)
            self._filter_widgets[spec.field + ":" + spec.kind] = widget
            # a label and its field wrap together, the price bounds too ("Price ≥ … ≤ …")
            place_filter(self.filters_bar, QLabel(spec.label), widget,
                         joined=spec.label == "≤")
        self.filters_bar.invalidate()

    def _make_filter(self, spec: FilterSpec) -> QWidget:
        name = f"filter_{spec.field}_{spec.kind}"
        if spec.kind == "boards":  # a chip's row (chip_id unknown) or a partner's card
            combo = QComboBox(objectName=name)
            combo.addItem("chips and cards", None)
            combo.addItem("chips only", True)
            combo.addItem("partner cards only", False)
            combo.setToolTip("A chip is the GPU as its maker specifies it; a board-partner "
                             "card (ASUS, MSI, …) is built on one, with its own length, "
                             "power connectors and cooling")
            combo.currentIndexChanged.connect(lambda _i: self.apply_query())
            return combo
        if spec.kind == "choice":
            combo = QComboBox(objectName=name)
            combo.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToContents)
            combo.setMinimumContentsLength(4)
            combo.setMaximumWidth(180)  # the list shows long values whole
            combo.addItem("any", None)
            values = (self._catalog.distinct(self._category, spec.field)
                      if self._category else self._catalog.distinct_all(spec.field))
            for value in values:
                combo.addItem(value_label(spec.field, value), value)
            combo.currentIndexChanged.connect(lambda _i: self.apply_query())
            return combo
        unit = FIELDS_BY_NAME[spec.field].unit
        box = NumberSpinBox(objectName=name, unit=unit)  # "1.5k", applied as you type
        box.setMinimumWidth(86)
        box.setDecimals(2 if spec.field.endswith("per_hour_usd") else 0)
        box.setRange(0, 10_000_000)
        box.setSpecialValueText("any")
        box.setSuffix(f" {unit}" if unit else "")
        rng = self._catalog.value_range(self._category, spec.field) if self._category else None
        if rng:
            box.setMaximum(max(rng[1], 1))
        step = {"price_usd": 100, "tdp_w": 25, "memory_gb": 8, "capacity_gb": 500,
                "wattage_w": 100, "max_gpu_length_mm": 10}.get(spec.field, 1)
        box.setSingleStep(step)
        box.settled.connect(lambda _v: self.apply_query())
        return box

    # --- selection and actions ------------------------------------------------------
    def _current_changed(self, current: QModelIndex, _previous: QModelIndex) -> None:
        part = current.data(PART_ROLE) if current.isValid() else None
        shown = self.details.part
        if isinstance(part, Part) and shown is not None and shown.id == part.id:
            return  # the same part on top again after a keystroke: nothing to redraw
        self._show_details(part if isinstance(part, Part) else None)
        self.part_selected.emit(part)

    def _show_details(self, part: Part | None) -> None:
        """The part with the user's quote applied (it is the price that counts)."""
        shown = part
        if part is not None:
            plain = part if part.custom else (self._catalog.find(part.id) or part)
            shown = self.price_entry.priced(self.user_figures.apply(plain))
        self.details.show_part(shown)
        self.price_entry.show_part(part)

    def prices_changed(self, part_ids: list[str]) -> None:
        """Prices set elsewhere (an imported price list): the details show the new one."""
        self.model.reprice(part_ids)
        part = self.price_entry.part
        if part is not None and part.id in set(part_ids):
            self._show_details(part)

    def _enter_figure(self, part_id: str, field: str) -> None:
        """The details pane's "Enter it…" / "Change…": ask, save, show, tell the build."""
        part = self.price_entry.part
        if part is None or part.id != part_id:
            return
        figure = enter_figure(self, self.user_figures.apply(part), field, self.user_figures)
        if figure is not None:
            self._show_details(part)
            self.status_message.emit(f"{part.display_name}: your {figure.label.lower()} is "
                                     "saved and used by every check")
            self.figure_changed.emit(part_id)

    def _remove_figure(self, part_id: str, field: str) -> None:
        part = self.price_entry.part
        if part is None or part.id != part_id:
            return
        try:
            self.user_figures.remove(part_id, field)
        except UserFiguresError as exc:
            self.status_message.emit(f"Not removed: {exc}")
            return
        self._show_details(part)
        self.figure_changed.emit(part_id)

    def _price_changed(self, part_id: str) -> None:
        self.model.reprice([part_id])
        part = self.price_entry.part
        if part is not None and part.id == part_id:
            self._show_details(part)
        self.price_changed.emit(part_id)

    def _fit_columns(self) -> None:
        """Size the columns to what they hold (when the columns change)."""
        if self._fitted_columns == self.model.columns:
            return
        self._fitted_columns = self.model.columns
        fit_columns(self.table, self.model)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if watched is self.table.viewport() and event.type() == QEvent.Type.Resize:
            fit_columns(self.table, self.model)
        return super().eventFilter(watched, event)

    def _update_count(self) -> None:
        text = count_text(self._catalog, self.model,
                          self._chip.display_name if self._chip is not None else None)
        self.result_label.setText(text)
        self.empty_note.say("" if self.model.total else text)

    def _link(self, link: str) -> None:
        """"12 in Power supplies": that category, with the words typed."""
        found, category = linked_category(link)
        if found:
            self.set_category(category)

    def _focus_table(self) -> None:
        self.table.setFocus()
        if self.model.rowCount() and not self.table.selectionModel().hasSelection():
            self.table.selectRow(0)

    def _emit_compare(self) -> None:
        ids = [i for i in self.selected_ids() if i.startswith("accelerator/")]
        if ids:
            self.compare_requested.emit(ids)

    def _emit_add(self) -> None:
        ids = self.selected_ids()
        if ids:
            self.add_to_build_requested.emit(ids)

    def _copy_ids(self) -> None:
        from PySide6.QtGui import QGuiApplication

        ids = self.selected_ids()
        if ids:
            QGuiApplication.clipboard().setText("\n".join(ids))

    def _context_menu(self, pos) -> None:
        if not self.selected_ids():
            return
        menu = QMenu(self)
        menu.addAction(self.action_add)
        menu.addAction(self.action_compare)
        menu.addSeparator()
        menu.addAction(self.action_copy_id)
        self.action_compare.setEnabled(any(i.startswith("accelerator/")
                                           for i in self.selected_ids()))
        menu.exec(self.table.viewport().mapToGlobal(pos))
