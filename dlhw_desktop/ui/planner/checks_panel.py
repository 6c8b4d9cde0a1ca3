"""The checks panel: the overall verdict in words and colour, then every check grouped by
kind with a status icon, its message (with the numbers) and a suggested fix.

Selecting a check emits the part ids it concerns, so the build view can highlight them.
"""

from __future__ import annotations

from collections.abc import Callable
from html import escape

from PySide6.QtCore import QEvent, QModelIndex, QPersistentModelIndex, QRect, QSize, Qt, Signal
from PySide6.QtGui import (
    QColor,
    QFontMetrics,
    QIcon,
    QMouseEvent,
    QPainter,
    QPalette,
    QPen,
    QPixmap,
    QResizeEvent,
)
from PySide6.QtWidgets import (
    QAbstractItemView,
    QFrame,
    QHBoxLayout,
    QLabel,
    QStyle,
    QStyledItemDelegate,
    QStyleOptionViewItem,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from dlhw_desktop.core.checks import KINDS, STATUS_RANK, CheckReport, CheckResult, worst
from dlhw_desktop.core.checks.basis import basis_text
from dlhw_desktop.core.checks.explain import explain
from dlhw_desktop.core.field_values import code_label
from dlhw_desktop.core.fields import field_label, figure_label
from dlhw_desktop.ui.common.status_icons import (
    STATUS_WORDS,
    status_colour,
    status_icon,
    status_pixmap,
)
from dlhw_desktop.ui.common.theme import status_ink

KIND_LABELS = {"compatibility": "Compatibility and fit", "power": "Power",
               "cooling": "Cooling", "memory": "Memory", "workload": "Workload tier and fit"}
KIND_ORDER = ("compatibility", "power", "cooling", "memory", "workload")
RESULT_ROLE = Qt.ItemDataRole.UserRole + 10
ENTER_ROLE = Qt.ItemDataRole.UserRole + 11  # (part id, field) of an "Enter it…" row


def verdict_text(report: CheckReport | None) -> tuple[str, str]:
    """(headline, detail) in words for the overall verdict."""
    if report is None or (not report.summary.parts and not report.results):
        return ("Empty build", "Add parts from the list on the left, drag them in, or start "
                "from a template.")
    counts = {s: sum(r.status == s for r in report.results)
              for s in ("pass", "warn", "fail", "unknown")}
    verdict = report.verdict
    if verdict == "fail":
        n = counts["fail"]
        return ("Will not work as planned",
                f"{n} failing check{'s' if n != 1 else ''} to fix"
                + (f", {counts['warn']} warning{'s' if counts['warn'] != 1 else ''}"
                   if counts["warn"] else "")
                + (f"; incomplete ({report.incomplete})" if report.incomplete else ""))
    if report.incomplete:  # warnings or not, an incomplete build is not shown to work
        n = counts["warn"]
        return ("Not complete yet", report.incomplete
                + (f"; {n} warning{'s' if n != 1 else ''} so far" if n else ""))
    if verdict == "warn":
        n = counts["warn"]
        return ("Works, with warnings",
                f"{n} warning{'s' if n != 1 else ''} worth reading; nothing fails"
                + (f"; {counts['unknown']} unknown" if counts["unknown"] else ""))
    if verdict == "unknown":
        n = counts["unknown"]
        return ("Not shown to work yet",
                f"{n} check{'s' if n != 1 else ''} lack a figure; nothing known fails")
    return ("Works", f"All {counts['pass']} checks pass")


class WrappingDelegate(QStyledItemDelegate):
    """Row heights from the text wrapped to the column's width, so whole messages show
    (a tree view asks its delegate for a size without telling it the width)."""

    def __init__(self, tree: QTreeWidget) -> None:
        super().__init__(tree)
        self._tree = tree

    def sizeHint(self, option: QStyleOptionViewItem,
                 index: QModelIndex | QPersistentModelIndex) -> QSize:
        size = super().sizeHint(option, index)
        styled = QStyleOptionViewItem(option)
        self.initStyleOption(styled, index)
        depth, parent = 0, index.parent()
        while parent.isValid():
            depth, parent = depth + 1, parent.parent()
        icon = option.decorationSize.width() + 8
        width = self._tree.viewport().width() - self._tree.indentation() * (depth + 1) - icon - 8
        text = str(index.data(Qt.ItemDataRole.DisplayRole) or "")
        flags = int(Qt.TextFlag.TextWordWrap)
        metrics = QFontMetrics(styled.font)
        rect = metrics.boundingRect(QRect(0, 0, max(width, 80), 10_000), flags, text)
        return QSize(size.width(), max(size.height(), rect.height() + 6))

    def initStyleOption(self, option: QStyleOptionViewItem,
                        index: QModelIndex | QPersistentModelIndex) -> None:
        super().initStyleOption(option, index)
        option.features |= QStyleOptionViewItem.ViewItemFeature.WrapText
        option.displayAlignment = Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignTop
        option.decorationAlignment = Qt.AlignmentFlag.AlignHCenter | Qt.AlignmentFlag.AlignTop
        option.state &= ~QStyle.StateFlag.State_HasFocus


class ChecksTree(QTreeWidget):
    """Re-lays out rows when the width changes, so wrapped messages keep fitting."""

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        if event.oldSize().width() != event.size().width():
            self.scheduleDelayedItemsLayout()


class ChecksPanel(QWidget):
    """Verdict banner over a tree of checks grouped by kind."""

    check_selected = Signal(tuple, str)  # part ids, status ("" when nothing is selected)
    figure_requested = Signal(str, str)  # part id, field: "Enter it…" under an unknown

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("checks_panel")
        self._report: CheckReport | None = None

        self.banner = VerdictBanner(objectName="verdict_banner")
        self.banner.clicked.connect(self.show_worst)
        self.verdict_icon = QLabel(objectName="verdict_icon")
        self.verdict_label = QLabel(objectName="verdict_label")
        self.verdict_detail = QLabel(objectName="verdict_detail")
        self.verdict_detail.setWordWrap(True)
        words = QVBoxLayout()
        words.setSpacing(0)
        words.addWidget(self.verdict_label)
        words.addWidget(self.verdict_detail)
        banner_layout = QHBoxLayout(self.banner)
        banner_layout.setContentsMargins(10, 6, 10, 6)
        banner_layout.addWidget(self.verdict_icon, 0, Qt.AlignmentFlag.AlignTop)
        banner_layout.addLayout(words, 1)

        self.tree = ChecksTree(objectName="checks_tree")
        self.tree.setItemDelegate(WrappingDelegate(self.tree))
        self.tree.setHeaderHidden(True)
        self.tree.setColumnCount(1)
        self.tree.setWordWrap(True)
        self.tree.setUniformRowHeights(False)
        self.tree.setIndentation(14)
        self.tree.setTextElideMode(Qt.TextElideMode.ElideNone)
        self.tree.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.tree.setVerticalScrollMode(QAbstractItemView.ScrollMode.ScrollPerPixel)
        self.tree.itemSelectionChanged.connect(self._selection_changed)
        self.tree.itemClicked.connect(self._clicked)
        self.tree.itemActivated.connect(self._clicked)
        self._names: dict[str, str] = {}

        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        title = QLabel("<b>Checks</b>")
        layout.addWidget(title)
        layout.addWidget(self.banner)
        layout.addWidget(self.tree, 1)
        self.show_report(None)

    @property
    def report(self) -> CheckReport | None:
        return self._report

    def set_part_names(self, names: dict[str, str]) -> None:
        """Display names by part id, for the "Enter the … of <part>…" rows."""
        self._names = dict(names)

    def show_report(self, report: CheckReport | None) -> None:
        """Redraw from a report, keeping the selected check selected if it is still there;
        a check the last change made fail is scrolled to and selected."""
        selected = self.selected_result()
        key = (selected.id, selected.part_ids) if selected else None
        before = _failing(self._report)
        self._report = report
        self._show_verdict()

        self.tree.blockSignals(True)
        self.tree.clear()
        reselect: QTreeWidgetItem | None = None
        results = report.results if report is not None else ()
        groups = {kind: [r for r in results if r.kind == kind] for kind in KINDS}
        # The worst group first (a failure is what to read first), then the usual order.
        order = sorted((k for k in KINDS if groups[k]), key=lambda k: (
            -STATUS_RANK[worst(r.status for r in groups[k])],
            KIND_ORDER.index(k) if k in KIND_ORDER else 99))
        for kind in order:
            group = groups[kind]
            top = QTreeWidgetItem([self._group_text(kind, group)])
            top.setIcon(0, status_icon(worst(r.status for r in group)))
            font = top.font(0)
            font.setBold(True)
            top.setFont(0, font)
            top.setFlags(Qt.ItemFlag.ItemIsEnabled)
            self.tree.addTopLevelItem(top)
            for result in sorted(group, key=_order):
                child = QTreeWidgetItem([self._result_text(result)])
                child.setIcon(0, status_icon(result.status))
                child.setData(0, RESULT_ROLE, result)
                child.setToolTip(0, _tooltip(result))
                child.setWhatsThis(0, explain(result.id) or result.message)
                top.addChild(child)
                for part_id, field in result.needs:
                    child.addChild(self._enter_row(part_id, field))
                child.setExpanded(True)
                if key == (result.id, result.part_ids):
                    reselect = child
            top.setExpanded(True)
        if reselect is not None:
            reselect.setSelected(True)
            self.tree.setCurrentItem(reselect)
        self.tree.blockSignals(False)
        if key is not None and reselect is None:
            self.check_selected.emit((), "")
        elif reselect is not None:  # the same check, judged again: its status may differ
            result = reselect.data(0, RESULT_ROLE)
            self.check_selected.emit(tuple(result.part_ids), result.status)
        new = [k for k in _failing(report) or [] if before is not None and k not in before]
        if new:
            self._select(lambda r: (r.id, r.part_ids) == new[0])

    def _show_verdict(self) -> None:
        """The banner: its frame in the verdict's colour, the headline in that colour at
        4.5:1 on the current theme's window (chosen again when the theme changes)."""
        report = self._report
        status = report.verdict if report is not None and report.results else "unknown"
        headline, detail = verdict_text(report)
        frame = status_colour(status).name()
        ink = status_ink(status, self.palette().color(QPalette.ColorRole.Window))
        self.banner.setStyleSheet(
            f"#verdict_banner {{ border: 2px solid {frame}; border-radius: 6px; }}")
        self.verdict_icon.setPixmap(status_pixmap(status, 28))
        self.verdict_label.setText(
            f"<span style='font-size:15pt; font-weight:600; color:{ink}'>"
            f"{escape(headline)}</span>")
        self.verdict_detail.setText(escape(detail))
        self.verdict_label.setProperty("status", status)

    def changeEvent(self, event: QEvent) -> None:
        super().changeEvent(event)
        if event.type() == QEvent.Type.PaletteChange:
            self._show_verdict()

    def show_worst(self) -> bool:
        """Scroll to and select the first check of the verdict's status (the first failing
        one when anything fails): what clicking the verdict banner does."""
        report = self._report
        if report is None or not report.results:
            return False
        worst_status = report.verdict
        return self._select(lambda r: r.status == worst_status)

    def _select(self, wanted: Callable[[CheckResult], bool]) -> bool:
        for i in range(self.tree.topLevelItemCount()):
            top = self.tree.topLevelItem(i)
            for j in range(top.childCount()):
                child = top.child(j)
                result = child.data(0, RESULT_ROLE)
                if isinstance(result, CheckResult) and wanted(result):
                    self.tree.setCurrentItem(child)
                    self.tree.scrollToItem(child, QAbstractItemView.ScrollHint.PositionAtTop)
                    self._reveal(child)
                    return True
        return False

    def selected_result(self) -> CheckResult | None:
        items = self.tree.selectedItems()
        result = items[0].data(0, RESULT_ROLE) if items else None
        return result if isinstance(result, CheckResult) else None

    def select_check(self, check_id: str) -> bool:
        """Select the first result with this id (as a click would)."""
        for i in range(self.tree.topLevelItemCount()):
            top = self.tree.topLevelItem(i)
            for j in range(top.childCount()):
                child = top.child(j)
                result = child.data(0, RESULT_ROLE)
                if isinstance(result, CheckResult) and result.id == check_id:
                    self.tree.setCurrentItem(child)
                    self._reveal(child)
                    return True
        return False

    def visible_results(self) -> list[CheckResult]:
        found = []
        for i in range(self.tree.topLevelItemCount()):
            top = self.tree.topLevelItem(i)
            found += [top.child(j).data(0, RESULT_ROLE) for j in range(top.childCount())]
        return found

    def _reveal(self, item: QTreeWidgetItem) -> None:
        """A check with "Enter it…" rows: scroll so the last of them shows too."""
        if item.childCount():
            self.tree.scrollToItem(item.child(item.childCount() - 1))

    def _enter_row(self, part_id: str, field: str) -> QTreeWidgetItem:
        name = self._names.get(part_id, part_id)
        row = QTreeWidgetItem([f"Enter the {field_label(field)} of {name}…"])
        row.setData(0, ENTER_ROLE, (part_id, field))
        row.setIcon(0, QIcon.fromTheme("document-edit", _pencil_icon()))
        row.setForeground(0, self.palette().link())
        row.setToolTip(0, "Read it from the box or the maker's page: it is kept as your "
                          "figure and used by every check")
        return row

    def _clicked(self, item: QTreeWidgetItem, _column: int = 0) -> None:
        wanted = item.data(0, ENTER_ROLE)
        if isinstance(wanted, tuple) and len(wanted) == 2:
            self.figure_requested.emit(*wanted)

    def enter_rows(self) -> list[tuple[str, str]]:
        """The (part id, field) of every "Enter it…" row shown, in order."""
        found: list[tuple[str, str]] = []
        for i in range(self.tree.topLevelItemCount()):
            top = self.tree.topLevelItem(i)
            for j in range(top.childCount()):
                child = top.child(j)
                found += [child.child(k).data(0, ENTER_ROLE)
                          for k in range(child.childCount())]
        return found

    def _selection_changed(self) -> None:
        result = self.selected_result()
        if result is None:
            self.check_selected.emit((), "")
        else:
            self.check_selected.emit(tuple(result.part_ids), result.status)

    @staticmethod
    def _group_text(kind: str, group: list[CheckResult]) -> str:
        counts = [(s, sum(r.status == s for r in group)) for s in ("fail", "warn", "unknown",
                                                                   "pass")]
        parts = [f"{n} {STATUS_WORDS[s].lower()}{'s' if n > 1 and s != 'pass' else ''}"
                 if s != "pass" else f"{n} pass" for s, n in counts if n]
        return f"{KIND_LABELS.get(kind, kind.title())}  ·  {', '.join(parts)}"

    @staticmethod
    def _result_text(result: CheckResult) -> str:
        text = result.message
        if result.suggestion:
            text += f"\n→ {result.suggestion}"
        rests = basis_text(result, notable_only=True)
        if rests:
            text += f"\nRests on: {rests}"
        return text


class VerdictBanner(QFrame):
    """The verdict; a click goes to the check that decided it."""

    clicked = Signal()

    def __init__(self, **kwargs: object) -> None:
        super().__init__(**kwargs)  # type: ignore[arg-type]
        self.setCursor(Qt.CursorShape.PointingHandCursor)
        self.setToolTip("Click to go to the check that decides the verdict")
        self.setWhatsThis("The overall verdict: the worst of the checks below. Click it to "
                          "scroll to the first check with that status.")

    def mouseReleaseEvent(self, event: QMouseEvent) -> None:
        if event.button() == Qt.MouseButton.LeftButton:
            self.clicked.emit()
        super().mouseReleaseEvent(event)


def _failing(report: CheckReport | None) -> list[tuple[str, tuple[str, ...]]] | None:
    if report is None:
        return None
    return [(r.id, r.part_ids) for r in report.results if r.status == "fail"]


def _order(result: CheckResult) -> int:
    return {"fail": 0, "warn": 1, "unknown": 2, "pass": 3}[result.status]


def _pencil_icon() -> QIcon:
    """A small pencil for "Enter it…" rows where the desktop theme has no edit icon."""
    pixmap = QPixmap(16, 16)
    pixmap.fill(Qt.GlobalColor.transparent)
    painter = QPainter(pixmap)
    painter.setRenderHint(QPainter.RenderHint.Antialiasing)
    pen = QPen(QColor("#1e6fd9"), 2.2)
    painter.setPen(pen)
    painter.drawLine(3, 13, 12, 4)
    painter.drawLine(2, 14, 4, 14)
    painter.end()
    return QIcon(pixmap)


def _tooltip(result: CheckResult) -> str:
    lines = [STATUS_WORDS[result.status]]
    lines += [f"Rests on {u.describe()}" for u in result.basis]
    for key, value in result.figures.items():  # labels, never the internal names
        lines.append(f"{figure_label(key)}: {_figure_text(value)}")
    return "\n".join(lines)


def _figure_text(value: object) -> str:
    """A check's figure as read: 2.0 is "2", 2000.0 "2,000", unknown "n/a"."""
    if value is None:
        return "n/a"
    if isinstance(value, float):
        return f"{value:,.0f}" if value.is_integer() else f"{value:,.4g}"
    return code_label(value) if isinstance(value, str) else str(value)
