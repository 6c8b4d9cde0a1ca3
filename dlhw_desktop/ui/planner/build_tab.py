"""The Build tab (issue #4): part list on the left, the build slot by slot with live
totals in the middle, checks and the workload-fit area on the right.

Composition and user intent only: every change to the build is an undo command on the
shared stack (those edits are the ``build_edits`` mixin); views redraw from the build's
events (``BuildAdapter``); the arithmetic lives in ``core.checks``; the file work in
``BuildDocument``.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from html import escape
from pathlib import Path
from typing import Protocol

from PySide6.QtCore import QByteArray, Qt, QTimer, Signal, SignalInstance
from PySide6.QtGui import QAction, QShowEvent, QUndoStack
from PySide6.QtWidgets import (
    QDialog,
    QHBoxLayout,
    QLabel,
    QMenu,
    QSplitter,
    QTabWidget,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from dlhw_desktop import APP_NAME
from dlhw_desktop.catalog.price_store import PriceBook
from dlhw_desktop.catalog.store import Catalog
from dlhw_desktop.catalog.userparts import PartResolver, UserParts
from dlhw_desktop.core.build import buildfile
from dlhw_desktop.core.build.build import DEFAULT_NAME, Build, Slot, slot_for
from dlhw_desktop.core.build.templates import TEMPLATES
from dlhw_desktop.core.build.tiers import WorkloadTier, tiers_from_rows
from dlhw_desktop.core.checks import Check, CheckContext, CheckReport, CheckResult, check_build
from dlhw_desktop.core.errors import CatalogError
from dlhw_desktop.core.fields import Category
from dlhw_desktop.ui.common.actions import make_action
from dlhw_desktop.ui.common.settings import AppSettings
from dlhw_desktop.ui.planner.autosave import Autosaver
from dlhw_desktop.ui.planner.build_adapter import BuildAdapter
from dlhw_desktop.ui.planner.build_document import BuildDocument
from dlhw_desktop.ui.planner.build_editors import BuildEditors
from dlhw_desktop.ui.planner.build_edits import BuildEditActions
from dlhw_desktop.ui.planner.build_files import BuildFileActions
from dlhw_desktop.ui.planner.build_model import BuildModel, worst_issues
from dlhw_desktop.ui.planner.build_prices import BuildPriceActions
from dlhw_desktop.ui.planner.build_view import BuildTreeView
from dlhw_desktop.ui.planner.check_settings_dialog import (
    CheckSettingsDialog,
    check_settings_from,
    store_check_settings,
)
from dlhw_desktop.ui.planner.checks_panel import ChecksPanel
from dlhw_desktop.ui.planner.empty_build import EmptyBuildGuide
from dlhw_desktop.ui.planner.part_picker import PartPicker
from dlhw_desktop.ui.planner.totals_bar import TotalsBar
from dlhw_desktop.ui.planner.user_parts_notice import UserPartsNotice

log = logging.getLogger(__name__)
WORKLOAD_FIT = "Workload fit"


class WorkloadView(Protocol):
    """What the Build tab needs of the workload panel the shell hands it."""

    workload_edited: SignalInstance  # the build's new workload, one undoable edit
    add_requested: SignalInstance  # (part id, quantity) from What fits
    apply_requested: SignalInstance  # [(part id, quantity), ...] from the advisor

    def set_build(self, build: Build) -> None: ...

    def extra_check(self, ctx: CheckContext) -> list[CheckResult]: ...


class BuildTab(BuildEditActions, BuildFileActions, BuildPriceActions, QWidget):
    """Assemble a machine and see, before buying, whether it works."""

    status_message = Signal(str, int)  # text, timeout in ms (the main window's status bar)
    report_changed = Signal(object)  # CheckReport, after every rerun of the checks

    def __init__(self, catalog: Catalog, settings: AppSettings, undo_stack: QUndoStack,
                 parent: QWidget | None = None, user_parts: UserParts | None = None,
                 price_book: PriceBook | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("build_tab")
        self.catalog = catalog
        self.settings = settings
        self.undo_stack = undo_stack
        self.user_parts = user_parts or UserParts()
        self.resolver = PartResolver(catalog, self.user_parts, price_book)
        self.tiers: dict[str, WorkloadTier] = self._load_tiers()
        self.build = Build()
        self.adapter = BuildAdapter(self.build, self)
        self.document = BuildDocument(self.build, undo_stack, settings, self.resolver, self)
        self._extra_checks: list[Check] = []
        self._report: CheckReport | None = None

        self._make_widgets()
        self._make_layout()
        self._connect()
        self.workload_panel: QWidget | None = None
        self.autosaver = Autosaver(self.build, undo_stack, parent=self,
                                   on_error=lambda text: self.status_message.emit(text, 8000))
        self.recheck()
        self._show_guide()
        self._update_title()
        self.user_parts_notice.status_message.connect(self.status_message)
        QTimer.singleShot(0, self.user_parts_notice.check)  # after the window is up

    # --- construction -------------------------------------------------------------------
    def _load_tiers(self) -> dict[str, WorkloadTier]:
        try:
            return tiers_from_rows(self.catalog.tier_rows())
        except CatalogError as exc:
            log.warning("workload tiers unavailable: %s", exc)
            return {}

    def _make_widgets(self) -> None:
        self.picker = PartPicker(self.catalog, self.user_parts)

        self.editors = BuildEditors(self.build, self.set_name, self.set_tier, self.set_notes,
                                    lambda text: self.status_message.emit(text, 10000), self)
        self.name_edit = self.editors.name_edit
        self.tier_combo = self.editors.tier_combo
        self.notes_edit = self.editors.notes_edit

        self.templates_menu = QMenu(self, objectName="templates_menu")
        for tpl in TEMPLATES:
            action = self.templates_menu.addAction(tpl.name)
            action.setObjectName(f"template_{tpl.key}")
            action.setStatusTip(tpl.description)
            action.setToolTip(tpl.description)
            action.triggered.connect(lambda _c=False, k=tpl.key: self.apply_template(k))
        self.templates_button = QToolButton(objectName="templates_button")
        self.templates_button.setText("Templates")
        self.templates_button.setToolTip("Start from a ready-made build (undoable)")
        self.templates_button.setPopupMode(QToolButton.ToolButtonPopupMode.InstantPopup)
        self.templates_button.setMenu(self.templates_menu)

        self.action_templates = make_action("action_templates", self)
        self.action_templates.setMenu(self.templates_menu)
        self.action_new_custom_part = make_action("action_new_custom_part", self)
        self.action_new_custom_part.triggered.connect(self.new_custom_part)
        self.action_check_settings = make_action("action_check_settings", self)
        self.action_check_settings.triggered.connect(self.edit_check_settings)
        self.action_currency = make_action("action_currency", self)
        self.action_currency.triggered.connect(self.edit_currency)
        self.custom_button = QToolButton(objectName="new_custom_part_button")
        self.custom_button.setDefaultAction(self.action_new_custom_part)
        self.settings_button = QToolButton(objectName="check_settings_button")
        self.settings_button.setDefaultAction(self.action_check_settings)

        self.totals = TotalsBar()
        self.model = BuildModel(self.adapter, self)
        self.view = BuildTreeView()
        self.view.setModel(self.model)
        self.view.slots_for_ids = self._slots_for_ids
        self.notice = QLabel(objectName="build_notice")
        self.notice.setWordWrap(True)
        self.notice.setStyleSheet("background: #fff4d6; color: #5c4300; border: 1px solid "
                                  "#e0b84c; border-radius: 4px; padding: 4px 8px;")
        self.notice.hide()
        self.user_parts_notice = UserPartsNotice(self.user_parts)
        self.guide = EmptyBuildGuide(self.templates_menu)

        self.checks = ChecksPanel()
        self.extras = QTabWidget(objectName="build_extras")
        placeholder = QLabel("The workload-fit panel will sit here: pick a model and a "
                             "training or inference job, and see whether it fits this "
                             "build's GPUs.", objectName="workload_fit_placeholder")
        placeholder.setWordWrap(True)
        placeholder.setAlignment(Qt.AlignmentFlag.AlignTop | Qt.AlignmentFlag.AlignLeft)
        placeholder.setMargin(8)
        self.extras.addTab(placeholder, WORKLOAD_FIT)

    def _make_layout(self) -> None:
        header = QHBoxLayout()
        header.addWidget(QLabel("<b>Build</b>"))
        header.addWidget(self.name_edit, 3)
        header.addWidget(self.tier_combo, 1)
        header.addWidget(self.templates_button)
        header.addStretch(1)
        header.addWidget(self.custom_button)
        header.addWidget(self.settings_button)

        centre = QWidget(objectName="build_centre")
        centre_layout = QVBoxLayout(centre)
        centre_layout.setContentsMargins(0, 0, 0, 0)
        centre_layout.addWidget(self.totals)
        centre_layout.addWidget(self.user_parts_notice)
        centre_layout.addWidget(self.notice)
        centre_layout.addWidget(self.guide)
        centre_layout.addWidget(self.view, 1)
        centre_layout.addWidget(self.notes_edit)

        self.right = QSplitter(Qt.Orientation.Vertical, objectName="build_right_splitter")
        self.right.addWidget(self.checks)
        self.right.addWidget(self.extras)
        self.right.setStretchFactor(0, 4)
        self.right.setStretchFactor(1, 1)
        self.right.setSizes([640, 120])

        self.picker.setMinimumWidth(240)
        self.checks.setMinimumWidth(300)
        self.splitter = QSplitter(Qt.Orientation.Horizontal, objectName="build_splitter")
        self.splitter.addWidget(self.picker)
        self.splitter.addWidget(centre)
        self.splitter.addWidget(self.right)
        self.splitter.setStretchFactor(1, 1)
        state = self.settings.get("build/splitter")
        self._sized = bool(state) and self.splitter.restoreState(QByteArray(state))
        layout = QVBoxLayout(self)
        layout.setContentsMargins(6, 6, 6, 6)
        layout.addLayout(header)
        layout.addWidget(self.splitter, 1)

    def _connect(self) -> None:
        self.picker.add_requested.connect(self.add_parts)
        self.view.parts_dropped.connect(self.add_parts)
        self.view.remove_requested.connect(self.remove_parts)
        self.view.quantity_step_requested.connect(self.step_quantity)
        self.view.slot_requested.connect(
            lambda slot, focus: self.open_slot_picker(Category(slot.value), focus))
        self.model.quantity_edit_requested.connect(self.set_quantity)
        self.model.price_edit_requested.connect(self.set_user_price)
        self.checks.check_selected.connect(self._highlight)
        self.checks.figure_requested.connect(self.enter_figure)
        self.adapter.changed.connect(self.recheck)
        for signal in (self.adapter.part_added, self.adapter.part_removed,
                       self.adapter.part_replaced, self.adapter.quantity_changed,
                       self.adapter.reset):
            signal.connect(self._offer_fitting)  # the picker offers what fits the build
        self.picker.set_build(self.build)
        self.adapter.changed.connect(self._show_guide)
        self.guide.template_chosen.connect(self.apply_template)
        self.guide.detect_requested.connect(self.detect_computer)
        self.adapter.name_changed.connect(self._show_name)
        self.adapter.notes_changed.connect(self.editors.show_notes)
        self.adapter.tier_changed.connect(self.editors.show_tier)
        self.adapter.reset.connect(self._show_all)
        # Bound methods (not lambdas): Qt drops the connection when the tab goes away,
        # while the shared undo stack lives on.
        self.undo_stack.cleanChanged.connect(self._update_title)
        self.document.path_changed.connect(self._update_title)
        self.splitter.splitterMoved.connect(self._save_splitter)

    def _offer_fitting(self, *_args: object) -> None:
        self.picker.set_build(self.build)

    def open_slot_picker(self, category: Category, focus: bool = True) -> None:
        """List the parts of ``category`` that fit the build (a slot row was chosen)."""
        self.picker.show_slot(category, self.build, focus)

    # --- reading ---------------------------------------------------------------------------
    @property
    def report(self) -> CheckReport | None:
        """The latest check report (rerun after every change)."""
        return self._report

    @property
    def path(self) -> Path | None:
        return self.document.path

    def menu_actions(self) -> list[QAction]:
        """Actions for the main window's Build menu (Templates is a submenu)."""
        return [self.action_templates, self.action_new_custom_part, self.action_check_settings,
                self.action_currency]

    def is_modified(self) -> bool:
        return self.document.modified

    def check_settings(self):
        return check_settings_from(self.settings)

    # --- checks -----------------------------------------------------------------------------
    def add_extra_check_provider(self, check: Check) -> None:
        """Join a check to the planner's (e.g. the workload fit): ``check(ctx)`` returns
        ``CheckResult``s like the built-in checks; it runs on every change."""
        self._extra_checks.append(check)
        self.recheck()

    def remove_extra_check_provider(self, check: Check) -> None:
        if check in self._extra_checks:
            self._extra_checks.remove(check)
            self.recheck()

    def install_workload_panel(self, panel: WorkloadView) -> None:
        """Put the workload fit under the checks (the shell makes it: the planner does not
        import ``ui.workload``): its check joins the planner's, its edits are undoable."""
        panel.set_build(self.build)
        self.workload_panel = panel
        self.set_workload_panel(panel)
        self.right.setSizes([420, 420])
        self._extra_checks.append(panel.extra_check)
        panel.workload_edited.connect(self._edit_workload)
        panel.add_requested.connect(self.add_part_with_quantity)
        panel.apply_requested.connect(self.apply_proposal)
        self.recheck()

    def restore_autosave(self, path: Path) -> bool:
        """Bring back the build an interrupted session left unsaved, as a new untitled
        build, and write this session's own recovery file of it at once.

        False when the user keeps the current build (Cancel); ``DlhwError`` when the file
        cannot be read (the current build stays; the caller says where the file is kept).
        """
        loaded = buildfile.load(path, self.resolver)
        if not self.maybe_save():
            return False
        self.document.replace_untitled(loaded.build.snapshot(), "Restore unsaved build")
        self.autosaver.save_now()
        self._show_notice(loaded.warnings)
        self.status_message.emit("Restored the build you had not saved", 6000)
        return True

    def shutdown(self) -> None:
        """The app is closing normally: nothing left to recover next time."""
        self.autosaver.stop()

    def set_workload_panel(self, widget: QWidget, title: str = WORKLOAD_FIT) -> None:
        """Put the workload-fit panel (issue 5) in its place under the checks."""
        self.extras.removeTab(0)
        self.extras.insertTab(0, widget, title)
        self.extras.setCurrentIndex(0)

    def recheck(self) -> CheckReport:
        settings = self.check_settings()
        extras = [_guarded(c) for c in self._extra_checks]
        report = check_build(self.build, settings, self.tiers, extra_checks=extras)
        self._report = report
        self.checks.set_part_names({i.part_id: i.part.display_name
                                    for i in self.build.items()})
        self.checks.show_report(report)
        self.totals.show_summary(report.summary, settings, self.display_currency())
        self.model.set_issues(worst_issues(report.results,
                                           (i.part_id for i in self.build.items())))
        self.report_changed.emit(report)
        return report

    def enter_figure(self, part_id: str, field: str) -> None:
        """"Enter it…" under an unknown check: ask for the figure, keep it as the user's,
        and judge the build again with it."""
        from dlhw_desktop.ui.common.figure_dialog import enter_figure

        item = next((i for i in self.build.items() if i.part_id == part_id), None)
        if item is None:
            return
        figure = enter_figure(self, item.part, field, self.resolver.user_figures)
        if figure is None:
            return
        self.part_changed(part_id)  # the part as it now resolves, with the figure
        self.recheck()
        self.status_message.emit(f"{item.part.display_name}: your {figure.label.lower()} "
                                 "is saved and used by every check", 8000)

    def _highlight(self, part_ids: tuple[str, ...], status: str) -> None:
        self.model.set_highlight(part_ids, status or "unknown")
        if part_ids:
            index = self.model.part_index(part_ids[0])
            if index.isValid():
                self.view.scrollTo(index)

    def edit_check_settings(self) -> None:
        dialog = CheckSettingsDialog(self.check_settings(), self)
        if dialog.exec() == QDialog.DialogCode.Accepted:
            store_check_settings(self.settings, dialog.values())
            self.recheck()

    # --- editors follow the model (``BuildEditors``) -------------------------------------
    def _flush_editors(self) -> None:
        self.editors.flush()

    def _show_name(self, name: str) -> None:
        self.editors.show_name(name)
        self._update_title()

    def _show_all(self) -> None:
        self.editors.show_all()
        self._update_title()

    def _show_notice(self, warnings: Sequence[str]) -> None:
        if warnings:
            count = len(warnings)
            self.notice.setText(f"<b>{count} warning{'s' if count != 1 else ''}:</b> "
                                + escape(" ".join(warnings)))  # text from the file
            self.notice.show()
        else:
            self.notice.hide()
            self.notice.clear()

    def _show_guide(self, *_args: object) -> None:
        """The ways in, while the build is empty."""
        self.guide.setVisible(len(self.build) == 0)

    def _slots_for_ids(self, part_ids: list[str]) -> set[Slot]:
        parts = (self.resolver.find(i) for i in part_ids[:16])
        return {slot_for(p) for p in parts if p is not None}

    def window_title(self) -> str:
        """``name[*] — file — app``: Qt shows ``*`` in place of ``[*]`` when modified."""
        name = self.build.name or DEFAULT_NAME
        where = f" — {self.document.path.name}" if self.document.path else ""
        return f"{name}[*]{where} — {APP_NAME}"

    def _update_title(self, *_args: object) -> None:
        try:
            modified = self.document.modified
        except RuntimeError:  # the shared stack is being destroyed (application exit)
            return
        window = self.window()
        window.setWindowTitle(self.window_title())
        window.setWindowModified(modified)

    def _save_splitter(self, *_args: object) -> None:
        self.settings.set("build/splitter", bytes(self.splitter.saveState().data()))

    def showEvent(self, event: QShowEvent) -> None:
        super().showEvent(event)
        if not self._sized:
            # Proportions, set once the real width is known (before it, Qt squeezes).
            self._sized = True
            width = max(self.splitter.width(), 900)
            # The picker's share lets a name like "RTX PRO 6000 Blackwell Server Edition"
            # read whole at 1600 px (at 0.23 three RTX PRO cards read "RTX PRO …"), and
            # at 1280 px a name column of ~200 px beside its key figure and price.
            self.splitter.setSizes([round(width * f) for f in (0.31, 0.41, 0.28)])
        self._update_title()


def _guarded(check: Check) -> Callable[[CheckContext], list[CheckResult]]:
    """An extra check that raises shows as one "unknown" result instead of breaking the
    planner (and is logged with its traceback)."""

    def run(ctx: CheckContext) -> list[CheckResult]:
        try:
            produced = check(ctx)
        except Exception as exc:
            log.exception("extra check %r failed", check)
            name = getattr(check, "__name__", type(check).__name__)
            return [CheckResult(f"extra.{name}", "workload", "unknown",
                                f"The {name} check could not run: {exc}")]
        if produced is None:
            return []
        return [produced] if isinstance(produced, CheckResult) else list(produced)

    return run
