"""The Cluster tab: N nodes of the current build, as a tree of the plan's sections.

The view only: the plan comes from ``reports.cluster_sheet.plan_for_build`` (pure), the
build from the shell (``build_provider``). The plan is recomputed when an input changes and
when the tab is shown (the build may have changed meanwhile); a bad input shows its one-line
reason in place of the plan, nothing is lost.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import Qt
from PySide6.QtGui import QShowEvent
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QFileDialog,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from dlhw_desktop.catalog.store import Catalog
from dlhw_desktop.core.build.build import Build
from dlhw_desktop.core.cluster import planfile
from dlhw_desktop.core.cluster.fabric import FABRICS
from dlhw_desktop.core.cluster.plan import (
    MAX_NODES,
    RACK_LIMITS_KW,
    SPEC_FIELDS,
    ClusterPlan,
    ClusterSpec,
)
from dlhw_desktop.core.errors import DlhwError
from dlhw_desktop.core.fields import Category
from dlhw_desktop.core.numbers import NumberError
from dlhw_desktop.reports.cluster_sheet import plan_for_build, sections
from dlhw_desktop.ui.cluster.gear_quotes import GearQuotes
from dlhw_desktop.ui.cluster.node_choice import CURRENT, NodeChoice, WrappingDelegate
from dlhw_desktop.ui.common.number_input import CountSpinBox, NumberSpinBox, debounced, mark_field

if TYPE_CHECKING:
    from dlhw_desktop.catalog.price_store import PriceBook


def _number(name: str, text: str) -> float | None:
    """``"70B"``, ``"2T"``, ``"70e9"``, ``"70,000,000,000"`` -> float (the one number
    reading of ``core.numbers``, with the plan's range); empty -> None; ``ValueError``
    naming the field as the form labels it otherwise."""
    field = SPEC_FIELDS[name]
    try:
        return field.check_optional(text.strip() or None)
    except NumberError as exc:
        raise ValueError(str(exc).replace(field.name, field.label, 1)) from None


BuildLoader = Callable[[Build, str], bool]
"""Hands an opened plan's node build to the planner (the file's name for the undo step);
False when the user kept their unsaved build instead."""


class ClusterTab(QWidget):
    def __init__(self, catalog: Catalog, build_provider: Callable[[], Build | None],
                 parent: QWidget | None = None, price_book: PriceBook | None = None,
                 build_loader: BuildLoader | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("cluster_tab")
        self.catalog = catalog
        self.quotes = GearQuotes(price_book)
        self._build_provider = build_provider
        self._build_loader = build_loader
        self._cloud = catalog.parts(Category.CLOUD)
        self.plan: ClusterPlan | None = None
        self._base_spec: ClusterSpec | None = None
        """An opened plan's figures the form does not show (electricity price, read
        bandwidth, ...): kept, so saving it again loses nothing."""

        self.node_choice = NodeChoice(catalog)
        self.nodes = CountSpinBox(objectName="cluster_nodes")
        self.nodes.setRange(1, MAX_NODES)
        self.nodes.setValue(32)
        self.fabric = QComboBox(objectName="cluster_fabric")
        for key, fabric in FABRICS.items():
            self.fabric.addItem(fabric.label, key)
        self.rack_kw = QComboBox(objectName="cluster_rack_kw")
        for kw in RACK_LIMITS_KW:
            self.rack_kw.addItem(f"{kw:g} kW per rack", kw)
        self.rack_kw.setCurrentIndex(RACK_LIMITS_KW.index(40.0))
        self.pue = NumberSpinBox(objectName="cluster_pue", decimals=2, singleStep=0.05)
        self.pue.setRange(1.0, 3.0)
        self.pue.setValue(1.3)
        self.storage_write = NumberSpinBox(objectName="cluster_storage_write", decimals=0)
        self.storage_write.setRange(0, 1_000_000)
        self.storage_write.setSpecialValueText("n/a")
        self.storage_write.setSuffix(" GB/s")
        self.params = QLineEdit(objectName="cluster_params", placeholderText="from the build")
        self.tokens = QLineEdit(objectName="cluster_tokens", placeholderText="from the build")
        self.mfu = QLineEdit(objectName="cluster_mfu", placeholderText="from the build")
        self.overlap = QCheckBox("Gradient exchange overlaps the backward pass",
                                 objectName="cluster_overlap", checked=True)
        self.save_button = QPushButton("Save plan…", objectName="cluster_save")
        self.open_button = QPushButton("Open plan…", objectName="cluster_open")
        self.open_button.setEnabled(build_loader is not None)
        self.open_button.setToolTip("A saved cluster plan: its node build goes to the Build "
                                    "tab, its figures to this form")
        self.pdf_button = QPushButton("Export cluster sheet (PDF)…", objectName="cluster_pdf")
        self.pdf_button.setToolTip("The node's build sheet with the cluster section: bill of "
                                   "materials, racks, fabric, power and cooling, cost, time")
        self.message = QLabel(objectName="cluster_message", wordWrap=True)
        self.tree = QTreeWidget(objectName="cluster_tree")
        self.tree.setHeaderLabels(["Item", "Value"])
        self.tree.setColumnWidth(0, 220)
        # Long values (an assumption, a switch list) wrap onto more lines: no "…" to hover
        self.tree.setWordWrap(True)
        self.tree.setUniformRowHeights(False)
        self.tree.setTextElideMode(Qt.TextElideMode.ElideNone)
        self.tree.setItemDelegateForColumn(1, WrappingDelegate(self.tree))
        self.tree.header().setStretchLastSection(True)
        self.tree.header().sectionResized.connect(lambda *_: self.tree.doItemsLayout())

        form = QFormLayout()
        form.addRow("Node", self.node_choice)
        form.addRow("Nodes", self.nodes)
        form.addRow("Fabric", self.fabric)
        form.addRow("Rack limit", self.rack_kw)
        form.addRow("PUE", self.pue)
        form.addRow("Storage write", self.storage_write)
        form.addRow("Parameters", self.params)
        form.addRow("Training tokens", self.tokens)
        form.addRow("MFU (0-1)", self.mfu)
        form.addRow(self.overlap)
        form.addRow(self.quotes)
        files = QHBoxLayout()
        files.addWidget(self.open_button)
        files.addWidget(self.save_button)
        form.addRow(files)
        form.addRow(self.pdf_button)
        left = QWidget()
        left.setLayout(form)
        right = QVBoxLayout()
        right.addWidget(self.message)
        right.addWidget(self.tree, 1)
        layout = QHBoxLayout(self)
        layout.addWidget(left)
        layout.addLayout(right, 1)

        self.node_choice.chosen.connect(self.refresh)
        self.nodes.valueChanged.connect(self.refresh)
        self.fabric.currentIndexChanged.connect(self.refresh)
        self.rack_kw.currentIndexChanged.connect(self.refresh)
        self.pue.valueChanged.connect(self.refresh)
        self.storage_write.valueChanged.connect(self.refresh)
        self._typing = debounced(self, self.refresh)  # applied as you type
        for edit in (self.params, self.tokens, self.mfu):
            edit.textEdited.connect(lambda _t: self._typing.start())
            edit.editingFinished.connect(self._typed_now)
        self.overlap.toggled.connect(self.refresh)
        self.quotes.changed.connect(self.refresh)
        self.save_button.clicked.connect(self._ask_save)
        self.open_button.clicked.connect(self._ask_open)
        self.pdf_button.clicked.connect(self.export_pdf)

    def spec(self) -> ClusterSpec:
        """The inputs as a ``ClusterSpec``; ``ValueError`` names a field that is not a number."""
        values = {name: _number(name, edit.text()) for name, edit in self._number_edits()}
        write = self.storage_write.value() or None
        base = self._base_spec or ClusterSpec(nodes=1)
        return replace(base, nodes=self.nodes.value(), fabric=self.fabric.currentData(),
                       rack_kw=float(self.rack_kw.currentData()), pue=self.pue.value(),
                       storage_write_gb_s=write, overlap=self.overlap.isChecked(), **values)

    def set_spec(self, spec: ClusterSpec) -> None:
        """Show an opened plan's figures in the form (one refresh at the end)."""
        self._base_spec = spec
        widgets = (self.nodes, self.fabric, self.rack_kw, self.pue, self.storage_write,
                   self.params, self.tokens, self.mfu, self.overlap)
        for widget in widgets:
            widget.blockSignals(True)
        try:
            self.nodes.setValue(min(spec.nodes, MAX_NODES))
            index = self.fabric.findData(spec.fabric)
            self.fabric.setCurrentIndex(max(index, 0))
            index = self.rack_kw.findData(spec.rack_kw)
            if index < 0:
                self.rack_kw.addItem(f"{spec.rack_kw:g} kW per rack", spec.rack_kw)
                index = self.rack_kw.count() - 1
            self.rack_kw.setCurrentIndex(index)
            self.pue.setValue(spec.pue)
            self.storage_write.setValue(spec.storage_write_gb_s or 0)
            for edit, value in ((self.params, spec.params), (self.tokens, spec.tokens),
                                (self.mfu, spec.mfu)):
                edit.setText("" if value is None else f"{value:g}")
            self.overlap.setChecked(spec.overlap)
        finally:
            for widget in widgets:
                widget.blockSignals(False)
        self.refresh()

    def open_plan(self, path: Path) -> bool:
        """Read a plan file: its build goes to the planner, its figures to the form; a bad
        file (or keeping the unsaved build) says why here and nothing changes."""
        from dlhw_desktop.catalog.userparts import PartResolver, UserParts

        try:
            build, spec, warnings = planfile.load(path, PartResolver(self.catalog,
                                                                     UserParts()))
        except DlhwError as exc:
            self.message.setText(f"Cannot open {path.name}: {exc}")
            return False
        if self._build_loader is None or not self._build_loader(build, path.name):
            self.message.setText(f"{path.name} not opened: the current build was kept")
            return False
        self.node_choice.blockSignals(True)  # the plan's node is now the current build
        self.node_choice.choose(CURRENT)
        self.node_choice.blockSignals(False)
        self.set_spec(spec)
        if warnings:
            self.message.setText(self.message.text() + " — " + "; ".join(warnings))
        return True

    def _ask_open(self) -> None:
        name, _ = QFileDialog.getOpenFileName(self, "Open cluster plan", "",
                                              f"Cluster plans (*{planfile.SUFFIX})")
        if name:
            self.open_plan(Path(name))

    def node_build(self) -> Build | None:
        """One node: the chosen catalog platform with its GPUs, or the current build."""
        return self.node_choice.platform_build() or self._build_provider()

    def _number_edits(self) -> tuple[tuple[str, QLineEdit], ...]:
        return (("params", self.params), ("tokens", self.tokens), ("mfu", self.mfu))

    def _typed_now(self) -> None:
        if self._typing.isActive():
            self._typing.stop()
            self.refresh()

    def _bad_input(self) -> str | None:
        """Mark each field that is not a number; the first one's problem (None: all read)."""
        first = None
        for name, edit in self._number_edits():
            try:
                _number(name, edit.text())
            except ValueError as exc:
                mark_field(edit, str(exc))
                first = first or str(exc)
            else:
                mark_field(edit, None)
        return first

    def refresh(self) -> None:
        problem = self._bad_input()
        if problem is not None:  # the last good plan stays on screen; the field says why
            shown = " The plan below is for the last figures that could be read." if (
                self.plan is not None) else ""
            self.message.setText(problem + shown)
            return
        build = self.node_build()
        self.quotes.show_fabric(FABRICS[self.fabric.currentData()])
        self.tree.clear()
        self.plan = None
        self.pdf_button.setEnabled(False)
        if build is None or not build.accelerators:
            self.message.setText("Add GPUs (or a GPU server platform and its modules) to the "
                                 "build, or choose a GPU server as the node above, then "
                                 "plan a cluster of it here.")
            return
        try:
            self.plan = plan_for_build(build, self.spec(), self._cloud, self.quotes.prices(),
                                       self.catalog.find)
        except (DlhwError, ValueError) as exc:
            # "Fabric (fabric): ..." names the field for files and flags; here its label
            self.message.setText(re.sub(r" \([a-z_]+\): ", ": ", str(exc), count=1))
            return
        self.message.setText(f"{self.plan.spec.nodes:,} nodes of “{build.name}”: "
                             f"{self.plan.gpus:,} GPUs")
        self.pdf_button.setEnabled(True)
        for title, rows in sections(self.plan):
            top = QTreeWidgetItem([title, ""])
            for label, value in rows:
                top.addChild(QTreeWidgetItem([label, value]))
            self.tree.addTopLevelItem(top)
            top.setExpanded(True)
        self.tree.resizeColumnToContents(0)

    def save_plan(self, path: Path) -> Path:
        build = self.node_build()
        if build is None:
            raise DlhwError("no build to save")
        return planfile.save(build, self.spec(), path)

    def _ask_save(self) -> None:
        name, _ = QFileDialog.getSaveFileName(self, "Save cluster plan", "",
                                              f"Cluster plans (*{planfile.SUFFIX})")
        if not name:
            return
        try:
            self.save_plan(Path(name))
        except (DlhwError, ValueError) as exc:
            self.message.setText(str(exc))

    def export_pdf(self) -> Path | None:
        """File dialog, then the cluster sheet written in the background (None: nothing to
        export, or the user cancelled)."""
        build = self.node_build()
        if build is None or self.plan is None:
            return None
        from dlhw_desktop.ui.pdf.cluster_export import export_cluster_sheet

        return export_cluster_sheet(self, build, self.plan, self.catalog)

    def showEvent(self, event: QShowEvent) -> None:
        super().showEvent(event)
        self.refresh()
