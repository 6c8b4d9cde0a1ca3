"""What fits: catalog accelerators and cloud offerings that run a workload, cheapest first.

The ranking is ``core.workload.rank_fits`` (the smallest count of each GPU that fits, and
each cloud offering whose GPUs fit, by the cost of the job); this module shows it in a
table model (display text in ``DisplayRole``, raw sortable values in ``UserRole``) and
turns "Add to build" into ``add_requested(part_id, quantity)``: the accelerator with its
count, or the cloud offering once.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from PySide6.QtCore import (
    QAbstractTableModel,
    QByteArray,
    QEvent,
    QModelIndex,
    QObject,
    QPersistentModelIndex,
    QSortFilterProxyModel,
    Qt,
    Signal,
)
from PySide6.QtGui import QAction, QColor, QKeyEvent, QMouseEvent, QPainter, QPalette
from PySide6.QtWidgets import (
    QAbstractItemView,
    QApplication,
    QCheckBox,
    QDialog,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QPushButton,
    QStyle,
    QStyledItemDelegate,
    QStyleOptionButton,
    QStyleOptionViewItem,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from dlhw_desktop.catalog.store import Catalog
from dlhw_desktop.core.fields import Category
from dlhw_desktop.core.parts import Part
from dlhw_desktop.core.workload import CostAssumptions, FitOption, Workload, rank_fits
from dlhw_desktop.ui.common.settings import AppSettings
from dlhw_desktop.ui.workload.labels import (
    STATUS_TEXT,
    duration,
    gib,
    money,
    rate,
    status_text_colour,
    workload_summary,
)

Index = QModelIndex | QPersistentModelIndex

OPTION_ROLE = Qt.ItemDataRole.UserRole + 1
"""The row's ``FitOption`` (any column)."""

COLUMNS: tuple[tuple[str, str], ...] = (
    ("rank", "#"),
    ("option", "Option"),
    ("kind", "Buy / rent"),
    ("status", "Fit"),
    ("memory", "Memory per GPU"),
    ("speed", "Time / speed"),
    ("cost", "Cost for the job"),
    ("add", ""),
)
ADD_COLUMN = len(COLUMNS) - 1
STATUS_ORDER = {"pass": 0, "warn": 1, "unknown": 2, "fail": 3}


def add_request(option: FitOption) -> tuple[str, int]:
    """What "Add to build" adds: N of the accelerator, or the cloud offering once."""
    return (option.part_id, option.count if option.kind == "own" else 1)


class FitOptionsModel(QAbstractTableModel):
    """The ranked options; no SQL and no arithmetic beyond formatting (the core ranks)."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._options: list[FitOption] = []
        self._dark = False

    def set_options(self, options: Sequence[FitOption], dark: bool = False) -> None:
        self.beginResetModel()
        self._options = list(options)
        self._dark = dark
        self.endResetModel()

    def option_at(self, row: int) -> FitOption:
        return self._options[row]

    def rowCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self._options)

    def columnCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(COLUMNS)

    def headerData(self, section: int, orientation: Qt.Orientation,
                   role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if orientation == Qt.Orientation.Horizontal and role == Qt.ItemDataRole.DisplayRole:
            return COLUMNS[section][1]
        return None

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid():
            return None
        option = self._options[index.row()]
        key = COLUMNS[index.column()][0]
        if role == OPTION_ROLE:
            return option
        if role == Qt.ItemDataRole.DisplayRole:
            return self._text(option, key, index.row())
        if role == Qt.ItemDataRole.UserRole:
            return self._sort_value(option, key, index.row())
        if role == Qt.ItemDataRole.ForegroundRole and key == "status":
            return QColor(status_text_colour(option.status, self._dark))
        if role == Qt.ItemDataRole.ToolTipRole:
            return self._tooltip(option, key)
        if role == Qt.ItemDataRole.TextAlignmentRole and key in ("rank", "memory", "cost"):
            return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        return None

    @staticmethod
    def _text(option: FitOption, key: str, row: int) -> str:
        if key == "rank":
            return str(row + 1)
        if key == "option":
            return option.label
        if key == "kind":
            return "Buy" if option.kind == "own" else "Rent"
        if key == "status":
            return STATUS_TEXT.get(option.status, option.status)
        if key == "memory":
            fraction = "" if option.fraction is None else f" ({option.fraction:.0%})"
            return f"{gib(option.per_gpu_bytes)} of {gib(option.vram_bytes, 0)}{fraction}"
        if key == "speed":
            if option.job_hours is not None:
                return duration(option.job_hours)
            if option.tokens_per_s:
                return f"{rate(option.tokens_per_s)} tokens/s"
            return "n/a"
        if key == "cost":
            if option.kind == "cloud" and option.job_hours is None \
                    and option.cost_usd is not None:
                return f"{money(option.cost_usd)} a month"
            own = option.result.own
            if option.kind == "own" and own is not None:  # the machine, as the panel costs it
                return f"{'at least ' if not own.complete else ''}{money(own.price_usd)} to buy"
            return money(option.cost_usd)
        return "Add to build"

    @staticmethod
    def _sort_value(option: FitOption, key: str, row: int) -> Any:
        big = float("inf")
        if key == "rank":
            return row
        if key == "option":
            return option.label.lower()
        if key == "kind":
            return option.kind
        if key == "status":
            return STATUS_ORDER.get(option.status, 9)
        if key == "memory":
            return option.fraction if option.fraction is not None else big
        if key == "speed":
            if option.job_hours is not None:
                return option.job_hours
            return 1 / option.tokens_per_s if option.tokens_per_s else big
        if key == "cost":
            return option.cost_usd if option.cost_usd is not None else big
        return row

    @staticmethod
    def _tooltip(option: FitOption, key: str) -> str:
        if key == "cost":
            extra = ""
            if option.usd_per_hour is not None:
                extra = f"; {money(option.usd_per_hour)}/h"
            return option.cost_basis + extra
        if key == "add":
            _part_id, quantity = add_request(option)
            return f"Add {quantity} × {option.part.display_name} to the build"
        if key == "status" and option.status == "warn":
            return "Over 90 % of GPU memory: a smaller batch or sequence gives headroom"
        if key == "option":  # the name in full, then the id for the command line
            return f"{option.part.display_name}\n{option.part_id}"
        return ""


class _SortProxy(QSortFilterProxyModel):
    """Sorts on ``UserRole``; hides rented or bought options, and tight fits, on request."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setSortRole(Qt.ItemDataRole.UserRole)
        self.show_own = True
        self.show_cloud = True
        self.show_tight = True

    def set_filters(self, own: bool, cloud: bool, tight: bool) -> None:
        begin = getattr(self, "beginFilterChange", None)  # Qt 6.10+; older: invalidate
        if begin is not None:
            begin()
        self.show_own, self.show_cloud, self.show_tight = own, cloud, tight
        if begin is not None:
            self.endFilterChange(QSortFilterProxyModel.Direction.Rows)
        else:
            self.invalidateRowsFilter()

    def filterAcceptsRow(self, row: int, parent: Index) -> bool:
        model = self.sourceModel()
        option = model.index(row, 0, parent).data(OPTION_ROLE)
        if option is None:
            return False
        if option.kind == "own" and not self.show_own:
            return False
        if option.kind == "cloud" and not self.show_cloud:
            return False
        return self.show_tight or option.status != "warn"


class _AddButtonDelegate(QStyledItemDelegate):
    """Draws "Add to build" as a push button in its column and reports clicks."""

    clicked = Signal(QModelIndex)

    def paint(self, painter: QPainter, option: QStyleOptionViewItem, index: Index) -> None:
        button = QStyleOptionButton()
        button.rect = option.rect.adjusted(3, 2, -3, -2)  # type: ignore[attr-defined]
        button.text = "Add to build"
        button.state = QStyle.StateFlag.State_Enabled
        if option.state & QStyle.StateFlag.State_MouseOver:  # type: ignore[attr-defined]
            button.state |= QStyle.StateFlag.State_MouseOver
        widget = option.widget  # type: ignore[attr-defined]
        style = widget.style() if widget is not None else QApplication.style()
        style.drawControl(QStyle.ControlElement.CE_PushButton, button, painter, widget)

    def editorEvent(self, event: QEvent, model: Any, option: QStyleOptionViewItem,
                    index: Index) -> bool:
        if event.type() == QEvent.Type.MouseButtonRelease and isinstance(event, QMouseEvent) \
                and event.button() == Qt.MouseButton.LeftButton \
                and option.rect.contains(event.position().toPoint()):  # type: ignore[attr-defined]
            self.clicked.emit(QModelIndex(index))
            return True
        return False


class WhatFitsDialog(QDialog):
    """Ranked ways to run one workload; "Add to build" emits ``add_requested``.

    Non-modal: it can stay open beside the Build tab. ``set_workload`` reranks.
    """

    add_requested = Signal(str, int)

    def __init__(self, catalog: Catalog, workload: Workload | None = None,
                 parent: QWidget | None = None, *, settings: AppSettings | None = None,
                 assumptions: CostAssumptions | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("what_fits_dialog")
        self.setWindowTitle("What fits")
        self.catalog = catalog
        self.settings = settings
        self._workload: Workload | None = None
        self._assumptions = assumptions
        self._accelerators: list[Part] | None = None
        self._cloud: list[Part] | None = None
        self._all: list[FitOption] = []

        self.summary = QLabel(objectName="what_fits_summary")
        self.summary.setWordWrap(True)
        self.buy_check = QCheckBox("Buy", objectName="what_fits_buy", checked=True)
        self.rent_check = QCheckBox("Rent (cloud)", objectName="what_fits_rent", checked=True)
        self.tight_check = QCheckBox("Tight fits (over 90 % of memory)",
                                     objectName="what_fits_tight", checked=True)
        self.model = FitOptionsModel(self)
        self.proxy = _SortProxy(self)
        self.proxy.setSourceModel(self.model)
        self.table = QTableView(objectName="what_fits_table")
        self.table.setModel(self.proxy)
        self.table.setSortingEnabled(True)
        self.table.sortByColumn(0, Qt.SortOrder.AscendingOrder)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.setAlternatingRowColors(True)
        self.table.verticalHeader().hide()
        self.table.setMouseTracking(True)
        self.table.setContextMenuPolicy(Qt.ContextMenuPolicy.ActionsContextMenu)
        header = self.table.horizontalHeader()
        header.setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        header.setSectionResizeMode(1, QHeaderView.ResizeMode.Stretch)
        self.delegate = _AddButtonDelegate(self.table)
        self.table.setItemDelegateForColumn(ADD_COLUMN, self.delegate)
        # the keyboard twin of the button: Enter on a row (eventFilter) or this action
        self.add_action = QAction("Add to build", self, objectName="what_fits_add")
        self.table.addAction(self.add_action)
        self.table.installEventFilter(self)
        self.add_button = QPushButton("Add selected to build",
                                      objectName="what_fits_add_button")
        self.close_button = QPushButton("Close", objectName="what_fits_close")
        for button in (self.add_button, self.close_button):
            button.setAutoDefault(False)
        self.empty_label = QLabel(objectName="what_fits_empty")
        self.empty_label.setWordWrap(True)

        filters = QHBoxLayout()
        filters.addWidget(QLabel("Show:"))
        for check in (self.buy_check, self.rent_check, self.tight_check):
            filters.addWidget(check)
        filters.addStretch(1)
        buttons = QHBoxLayout()
        note = QLabel("Own hardware: the purchase price of the GPUs. Cloud: hours of the job × "
                      "the hourly price (one month when the job length is unknown).")
        note.setWordWrap(True)
        note.setForegroundRole(QPalette.ColorRole.PlaceholderText)
        buttons.addWidget(note, 1)
        buttons.addWidget(self.add_button)
        buttons.addWidget(self.close_button)
        layout = QVBoxLayout(self)
        layout.addWidget(self.summary)
        layout.addLayout(filters)
        layout.addWidget(self.table, 1)
        layout.addWidget(self.empty_label)
        layout.addLayout(buttons)

        for check in (self.buy_check, self.rent_check, self.tight_check):
            check.toggled.connect(self._filter)
        self.delegate.clicked.connect(self._add_index)
        self.add_action.triggered.connect(self.add_selected)
        self.add_button.clicked.connect(self.add_selected)
        self.table.doubleClicked.connect(self._add_index)
        self.table.selectionModel().selectionChanged.connect(self._update_buttons)
        self.close_button.clicked.connect(self.close)

        self.resize(980, 560)
        if settings is not None:
            geometry = settings.get("what_fits/geometry")
            if geometry:
                self.restoreGeometry(QByteArray(geometry))
        if workload is not None:
            self.set_workload(workload, assumptions)
        self._update_buttons()

    # --- data -----------------------------------------------------------------------------
    def set_workload(self, workload: Workload,
                     assumptions: CostAssumptions | None = None) -> None:
        """Rank the catalog for ``workload`` (a few milliseconds: no thread needed)."""
        self._workload = workload
        if assumptions is not None:
            self._assumptions = assumptions
        if self._accelerators is None:
            self._accelerators = self.catalog.parts(Category.ACCELERATOR, chips_only=True)
            self._cloud = self.catalog.parts(Category.CLOUD)
        self._all = rank_fits(workload, self._accelerators, self._cloud or (),
                              assumptions=self._assumptions)
        dark = self.palette().color(QPalette.ColorRole.Window).lightness() < 128
        self.model.set_options(self._all, dark)
        self.table.sortByColumn(0, Qt.SortOrder.AscendingOrder)
        self._filter()

    @property
    def workload(self) -> Workload | None:
        return self._workload

    def options(self) -> list[FitOption]:
        """The options shown, in the table's order."""
        return [self.proxy.index(r, 0).data(OPTION_ROLE) for r in range(self.proxy.rowCount())]

    def _filter(self) -> None:
        self.proxy.set_filters(self.buy_check.isChecked(), self.rent_check.isChecked(),
                               self.tight_check.isChecked())
        shown = self.proxy.rowCount()
        workload = self._workload
        if workload is not None:
            self.summary.setText(
                f"<b>{workload_summary(workload)}</b><br>{shown} of {len(self._all)} ways to "
                "run it, cheapest first. Each GPU appears once, at the smallest count that "
                "fits (up to 8).")
        self.empty_label.setVisible(shown == 0)
        if not self._all:
            self.empty_label.setText("Nothing in the catalog runs this with up to 8 GPUs: a "
                                     "4-bit format, QLoRA, a shorter sequence or a smaller "
                                     "batch needs less memory.")
        else:
            self.empty_label.setText("Every option is hidden by the filters above.")
        self._update_buttons()

    # --- adding ---------------------------------------------------------------------------
    def selected_option(self) -> FitOption | None:
        rows = self.table.selectionModel().selectedRows()
        return rows[0].data(OPTION_ROLE) if rows else None

    def add_selected(self) -> None:
        option = self.selected_option()
        if option is not None:
            self.add_requested.emit(*add_request(option))

    def add_option(self, option: FitOption) -> None:
        self.add_requested.emit(*add_request(option))

    def _add_index(self, index: QModelIndex) -> None:
        option = index.data(OPTION_ROLE)
        if option is not None:
            self.table.selectRow(index.row())
            self.add_option(option)

    def _update_buttons(self, *_args: object) -> None:
        has = self.selected_option() is not None
        self.add_button.setEnabled(has)
        self.add_action.setEnabled(has)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        # Enter on the table adds the selected row (the keyboard twin of the button)
        if watched is self.table and event.type() == QEvent.Type.KeyPress \
                and isinstance(event, QKeyEvent) \
                and event.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter):
            self.add_selected()
            return True
        return super().eventFilter(watched, event)

    def done(self, result: int) -> None:
        if self.settings is not None:
            self.settings.set("what_fits/geometry", bytes(self.saveGeometry().data()))
        super().done(result)

    def closeEvent(self, event: Any) -> None:
        if self.settings is not None:
            self.settings.set("what_fits/geometry", bytes(self.saveGeometry().data()))
        super().closeEvent(event)
