"""The Cluster tab's node: the current build, or a GPU server platform from the catalog
filled with its GPU modules (a DGX H100 cluster without replacing the build); and the
delegate that lets the plan's long rows wrap.

Each platform is offered once per GPU model it takes ("DGX A100 — 8x A100 SXM4 80 GB"),
with ``gpu_count`` modules; the 8-GPU servers come first, the one-chip systems after.
"""

from __future__ import annotations

from dataclasses import dataclass

from PySide6.QtCore import QModelIndex, QRect, QSize, Qt, Signal
from PySide6.QtGui import QFontMetrics
from PySide6.QtWidgets import (
    QComboBox,
    QStyledItemDelegate,
    QStyleOptionViewItem,
    QTreeView,
    QWidget,
)

from dlhw_desktop.catalog.part_query import PartQuery
from dlhw_desktop.catalog.store import Catalog
from dlhw_desktop.core.build.build import Build
from dlhw_desktop.core.errors import CatalogError
from dlhw_desktop.core.fields import Category
from dlhw_desktop.core.parts import Part

CURRENT = "current"
"""The combo's key for the Build tab's build."""


@dataclass(frozen=True, slots=True)
class Platform:
    """A server platform with ``count`` of one GPU model it takes."""

    server: Part
    gpu: Part
    count: int

    @property
    def key(self) -> str:
        return f"{self.server.id}|{self.gpu.id}"

    @property
    def label(self) -> str:
        return f"{self.server.display_name} — {self.count}x {self.gpu.name}"

    def build(self, catalog: Catalog) -> Build:
        """The server and its modules as a build (the parts with their figures' sources,
        for the sheet)."""
        build = Build(name=self.server.display_name)
        build.add(catalog.find(self.server.id) or self.server)
        build.add(catalog.find(self.gpu.id) or self.gpu, self.count)
        return build


def platforms(catalog: Catalog) -> list[Platform]:
    """Every server platform of the catalog with each GPU model it lists, multi-GPU
    servers first, then by name."""
    try:  # list rows without per-figure sources: 6 ms, not 130
        servers = catalog.search(PartQuery(category=Category.SERVER), 0, 10_000,
                                 with_sources=False)
        wanted = {i.strip() for s in servers for i in s.text("supported_gpus").split(";")
                  if i.strip()}
        gpus = {p.id: p for p in catalog.get_many(sorted(wanted))}
    except CatalogError:
        return []
    found: list[Platform] = []
    for server in servers:
        count = int(server.number("gpu_count") or 0)
        ids = [i.strip() for i in server.text("supported_gpus").split(";") if i.strip()]
        for gpu_id in ids:
            gpu = gpus.get(gpu_id)
            if gpu is not None and count > 0:
                found.append(Platform(server, gpu, count))
    found.sort(key=lambda p: (p.count < 2, p.server.display_name.lower(), p.gpu.name))
    return found


class WrappingDelegate(QStyledItemDelegate):
    """Rows as tall as their text wrapped to the column's width (QTreeView alone keeps
    one line and ends a long value in "…")."""

    def __init__(self, view: QTreeView) -> None:
        super().__init__(view)
        self._view = view

    def sizeHint(self, option: QStyleOptionViewItem, index: QModelIndex) -> QSize:
        size = super().sizeHint(option, index)
        width = self._view.columnWidth(index.column()) - 8
        text = str(index.data(Qt.ItemDataRole.DisplayRole) or "")
        if width <= 0 or not text:
            return size
        bound = QFontMetrics(option.font).boundingRect(
            QRect(0, 0, width, 100_000), int(Qt.TextFlag.TextWordWrap), text)
        return QSize(size.width(), max(size.height(), bound.height() + 4))


class NodeChoice(QComboBox):
    """"The current build" or a catalog platform; ``chosen`` after the user picks."""

    chosen = Signal()

    def __init__(self, catalog: Catalog, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("cluster_node_choice")
        self.setToolTip("What one node is: the build on the Build tab, or a GPU server "
                        "from the catalog with its GPU modules")
        self.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
        self.setMinimumContentsLength(30)
        self._catalog = catalog
        self._platforms = {p.key: p for p in platforms(catalog)}
        self._builds: dict[str, Build] = {}
        self.addItem("The current build (Build tab)", CURRENT)
        self.insertSeparator(1)
        for key, platform in self._platforms.items():
            self.addItem(platform.label, key)
        self.view().setMinimumWidth(self.view().sizeHintForColumn(0) + 24)
        self.currentIndexChanged.connect(self._chosen)

    def _chosen(self, _index: int) -> None:
        self.setToolTip(f"{self.currentText()}\n\nWhat one node is: the build on the Build "
                        "tab, or a GPU server from the catalog with its GPU modules")
        self.chosen.emit()

    def platform_build(self) -> Build | None:
        """The chosen platform as a build (made once), ``None`` for the current build."""
        key = self.currentData()
        platform = self._platforms.get(key) if key != CURRENT else None
        if platform is None:
            return None
        if key not in self._builds:
            self._builds[key] = platform.build(self._catalog)
        return self._builds[key]

    def choose(self, key: str) -> bool:
        index = self.findData(key)
        if index >= 0:
            self.setCurrentIndex(index)
        return index >= 0

    def choose_matching(self, text: str) -> bool:
        """Choose the first platform whose label holds ``text`` (case ignored)."""
        wanted = text.lower()
        for key, platform in self._platforms.items():
            if wanted in platform.label.lower():
                return self.choose(key)
        return False
