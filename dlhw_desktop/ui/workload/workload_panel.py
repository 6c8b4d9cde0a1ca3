"""The workload-fit panel: pick a model and a job, see whether it fits the build's GPUs.

Composition only: ``WorkloadForm`` holds the inputs, ``WorkloadResults`` the answers; the
numbers come from ``core.workload`` (memory, time, cost) and the verdict from
``core.build_fit`` (the same function the planner's checks run through ``extra_check``).
The panel never changes the build: an edit is emitted as ``workload_edited`` (a typed
``BuildWorkload``) for the Build tab to turn into one undoable command
(``SetWorkloadCommand``), and the panel redraws from the build's ``WorkloadChanged``
event like every other view (DESIGN habits 2 and 3).
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from html import escape
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QPalette
from PySide6.QtWidgets import (
    QFrame,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QScrollArea,
    QVBoxLayout,
    QWidget,
)

from dlhw_desktop.catalog.store import Catalog
from dlhw_desktop.core.build.build import (
    Build,
    BuildEvent,
    BuildReset,
    PartAdded,
    PartRemoved,
    PartReplaced,
    QuantityChanged,
    Slot,
    WorkloadChanged,
)
from dlhw_desktop.core.build.workload_fit import build_accelerators, workload_checks
from dlhw_desktop.core.checks.context import CheckContext
from dlhw_desktop.core.checks.own_cost import compare_job, job_assumptions
from dlhw_desktop.core.checks.settings import CheckSettings
from dlhw_desktop.core.fields import Category
from dlhw_desktop.core.parts import Part
from dlhw_desktop.core.verdict import CheckResult
from dlhw_desktop.core.workload import (
    CostAssumptions,
    FitOption,
    FitResult,
    MemoryEstimate,
    Workload,
    WorkloadError,
    estimate_memory,
    fit,
)
from dlhw_desktop.core.workload.build_workload import NO_WORKLOAD, BuildWorkload
from dlhw_desktop.core.workload.comparison import OwnVsRent
from dlhw_desktop.core.workload.serving import ServingEstimate, serving_for_fit
from dlhw_desktop.ui.common.settings import AppSettings
from dlhw_desktop.ui.common.theme import status_ink
from dlhw_desktop.ui.workload.model_drop import ModelFileActions
from dlhw_desktop.ui.workload.serving_form import ServingForm
from dlhw_desktop.ui.workload.serving_view import ServingView
from dlhw_desktop.ui.workload.workload_form import WorkloadForm
from dlhw_desktop.ui.workload.workload_results import WorkloadResults, muted

if TYPE_CHECKING:  # model files are read only when the user opens one
    from dlhw_desktop.core.workload.model_files import LoadedModel


class WorkloadPanel(ModelFileActions, QWidget):
    """Model and job inputs; memory per GPU, verdict, time and cost for the build's GPUs.

    ``set_build(build)`` follows one build (unsubscribing from the previous one);
    ``workload_edited(BuildWorkload)`` carries every user edit as the build's new workload;
    ``extra_check(ctx)`` is the planner check. The "What fits…" and "Advisor…" buttons
    open their dialogs; their requests come out as ``add_requested(part_id, quantity)``
    and ``apply_requested([(part_id, quantity), ...], BuildWorkload)`` (the advisor's
    machine to buy, one undo step); a rent proposal only changes the cost comparison
    (``compare_with``).
    """

    workload_edited = Signal(object)
    add_requested = Signal(str, int)
    apply_requested = Signal(list, object)

    def __init__(self, catalog: Catalog, parent: QWidget | None = None, *,
                 settings: AppSettings | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("workload_panel")
        self.catalog = catalog
        self.settings = settings
        self._build: Build | None = None
        # the build's unsubscribe, in a plain list so the destroyed hook needs no Qt
        self._subscription: list[Callable[[], None] | None] = [None]
        holder = self._subscription
        self.destroyed.connect(lambda *_: holder[0]() if holder[0] else None)
        self._planned: BuildWorkload = NO_WORKLOAD
        self._accelerators: list[Part] | None = None
        self._cloud: list[Part] | None = None
        self._assumptions: CostAssumptions | None = None
        self._result: FitResult | None = None
        self._memory: MemoryEstimate | None = None
        self._cloud_option: FitOption | None = None
        self._comparison: OwnVsRent | None = None
        self._preferred_offer: str | None = None
        self._error = ""
        self._what_fits: QWidget | None = None
        self._advisor: QWidget | None = None
        self._loaded: LoadedModel | None = None  # the model file last opened
        self.form = WorkloadForm(self)
        self.serving_form = ServingForm(self)
        self.results = WorkloadResults(self)
        self.serving_view = ServingView(self)
        self._serving: ServingEstimate | None = None
        self._serving_error = ""
        self.hint_label = muted(QLabel(objectName="workload_hint"))
        self.what_fits_button = QPushButton("What fits…", objectName="workload_what_fits")
        self.what_fits_button.setToolTip("Catalog GPUs and cloud offerings that run this "
                                         "workload, cheapest first")
        self.model_file_button = QPushButton("Open model…", objectName="workload_open_model")
        self.model_file_button.setToolTip("Read a model from disk: a GGUF file, a Hugging "
                                          "Face folder, its config.json or a .safetensors "
                                          "file (only the header and tensor table are "
                                          "read). You can also drop it here.")
        self.file_label = muted(QLabel(objectName="workload_model_file"))
        self.file_label.setVisible(False)
        self.setAcceptDrops(True)
        self.advisor_button = QPushButton("Advisor…", objectName="workload_advisor")
        self.advisor_button.setToolTip("Answer six questions, get three proposals with "
                                       "their reasons")
        self._make_layout()
        self.form.edited.connect(self._edited)
        self.serving_form.edited.connect(self._edited)
        self.what_fits_button.clicked.connect(self.open_what_fits)
        self.advisor_button.clicked.connect(self.open_advisor)
        self.model_file_button.clicked.connect(lambda: self.open_model_dialog())
        self.form.show_workload(self._planned)
        self._refresh()

    def _make_layout(self) -> None:
        line = QFrame()
        line.setFrameShape(QFrame.Shape.HLine)
        line.setFrameShadow(QFrame.Shadow.Sunken)
        buttons = QHBoxLayout()
        buttons.addWidget(self.what_fits_button)
        buttons.addWidget(self.advisor_button)
        buttons.addWidget(self.model_file_button)
        buttons.addStretch(1)
        content = QWidget()
        column = QVBoxLayout(content)
        column.setContentsMargins(8, 8, 8, 8)
        column.setSpacing(8)
        column.addWidget(self.form)
        column.addWidget(self.serving_form)
        column.addWidget(self.file_label)
        column.addWidget(line)
        column.addWidget(self.hint_label)
        column.addWidget(self.results)
        column.addWidget(self.serving_view)
        column.addLayout(buttons)
        column.addStretch(1)
        scroll = QScrollArea(objectName="workload_scroll")
        scroll.setWidgetResizable(True)
        scroll.setFrameShape(QFrame.Shape.NoFrame)
        scroll.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        scroll.setWidget(content)
        outer = QVBoxLayout(self)
        outer.setContentsMargins(0, 0, 0, 0)
        outer.addWidget(scroll)

    # --- the build ------------------------------------------------------------------------
    @property
    def build(self) -> Build | None:
        return self._build

    def set_build(self, build: Build | None) -> None:
        """Follow ``build``: show its workload, judge it on its GPUs, redraw on its events."""
        unsubscribe = self._subscription[0]
        if unsubscribe is not None:
            unsubscribe()
            self._subscription[0] = None
        self._build = build
        self._preferred_offer = None  # an offer chosen in the Advisor was for that build
        if build is not None:
            self._subscription[0] = build.subscribe(self._on_build_event)
        self._load_from_build()

    def _on_build_event(self, event: BuildEvent) -> None:
        if isinstance(event, WorkloadChanged | BuildReset):
            self._load_from_build()
        elif isinstance(event, PartAdded | PartRemoved | PartReplaced | QuantityChanged) \
                and event.slot in (Slot.ACCELERATOR, Slot.CLOUD):
            self.form.set_gpu_count(self.gpu_count())
            self._refresh()

    def _load_from_build(self) -> None:
        self._planned = self._build.workload if self._build is not None else NO_WORKLOAD
        self._error = self._planned.error
        self.form.set_gpu_count(self.gpu_count())
        self.form.show_workload(self._planned)
        shown = self._planned.workload
        self.serving_form.show_request(self._planned.serving,
                                       shown.serving if shown else None,
                                       shown.kv_precision if shown else "BF16")
        self._refresh()

    def closeEvent(self, event: Any) -> None:
        self.set_build(None)
        super().closeEvent(event)

    # --- cost assumptions -----------------------------------------------------------------
    def set_cost_assumptions(self, assumptions: CostAssumptions | None) -> None:
        """Fixed assumptions (tests, embedding); ``None`` reads the stored settings."""
        self._assumptions = assumptions
        self._refresh()

    def cost_assumptions(self) -> CostAssumptions:
        """``core.checks.own_cost.job_assumptions`` over the stored check settings: the
        one function ``dlhw fit``, the sheet, the share text and the cluster use too."""
        if self._assumptions is not None:
            return self._assumptions
        settings = CheckSettings()
        years: float | None = None
        if self.settings is not None:
            with contextlib.suppress(KeyError, TypeError, ValueError):
                settings = CheckSettings(
                    price_per_kwh_usd=float(self.settings.get("build/electricity_usd_per_kwh")),
                    utilisation=float(self.settings.get("build/utilisation")))
            with contextlib.suppress(KeyError, TypeError, ValueError):
                years = float(self.settings.get("workload/years"))
        return job_assumptions(self._build, settings, years=years)

    # --- catalog ----------------------------------------------------------------------------
    def accelerators(self) -> list[Part]:
        if self._accelerators is None:
            self._accelerators = self.catalog.parts(Category.ACCELERATOR, chips_only=True)
        return self._accelerators

    def cloud_offerings(self) -> list[Part]:
        if self._cloud is None:
            self._cloud = self.catalog.parts(Category.CLOUD)
        return self._cloud

    def _find(self, part_id: str) -> Part | None:
        return self.catalog.find(part_id)

    # --- the planner check -----------------------------------------------------------------
    def extra_check(self, ctx: CheckContext) -> list[CheckResult]:
        """Workload verdict per GPU (kind ``workload``); nothing when no workload is set.

        Reads the build the checks run on (``ctx.build``), not the panel's inputs, so the
        verdict always matches the saved, undoable state.
        """
        return workload_checks(ctx.build, self._find)

    def gpu_count(self) -> int:
        if self._build is None:
            return 0
        pairs, _ = build_accelerators(self._build, self._find)
        return sum(n for _, n in pairs)

    # --- edits ----------------------------------------------------------------------------
    def _edited(self) -> None:
        try:
            planned = self._with_serving(self.form.read(self._planned))
        except WorkloadError as exc:
            self._error = str(exc)
            self._refresh()
            return
        self._error = ""
        if planned == self._planned:
            self._refresh()
            return
        self._planned = planned
        self._refresh()
        self.workload_edited.emit(planned)

    def _with_serving(self, planned: BuildWorkload) -> BuildWorkload:
        """The form's job with the serving form's request, stack and KV cache format."""
        planned = planned.with_serving(self.serving_form.read())
        workload = planned.workload
        if workload is None or workload.mode != "inference":
            return planned
        return planned.with_workload(workload.but(serving=self.serving_form.stack,
                                                  kv_precision=self.serving_form.kv_precision))

    def adopt_workload(self, workload: Workload) -> None:
        """Take a workload from elsewhere (the advisor) as if the user had typed it."""
        self._error = ""
        self._planned = self._planned.with_workload(workload)
        self.form.show_workload(self._planned)
        self._refresh()
        self.workload_edited.emit(self._planned)

    # --- estimates -------------------------------------------------------------------------
    @property
    def planned(self) -> BuildWorkload:
        """The workload the panel shows (the build's, or the latest edit)."""
        return self._planned

    @property
    def result(self) -> FitResult | None:
        """The fit on the build's GPUs (``None`` without a workload or GPUs)."""
        return self._result

    @property
    def memory(self) -> MemoryEstimate | None:
        return self._memory

    @property
    def cheapest_cloud(self) -> FitOption | None:
        """The like-for-like rental the cost compares with."""
        return self._cloud_option

    @property
    def comparison(self) -> OwnVsRent | None:
        """Own against rent for the shown job (``core.workload.comparison``)."""
        return self._comparison

    @property
    def serving(self) -> ServingEstimate | None:
        """The serving answer on the build's GPUs (inference of a generating model)."""
        return self._serving

    def workload(self) -> Workload | None:
        """The shown workload, or ``None`` (none chosen). While an input cannot be read,
        the last one that could: its answer stays on screen, the field says what is wrong."""
        return self._planned.workload

    def refresh(self) -> None:
        """Recompute (e.g. after the check settings changed the electricity price)."""
        self._refresh()

    def _refresh(self) -> None:
        self._result = None
        self._memory = None
        self._cloud_option = None
        self._comparison = None
        self._serving, self._serving_error = None, ""
        error = self._error
        workload = self.workload()
        if workload is not None:
            try:
                self._estimate(workload)
            except WorkloadError as exc:
                error = str(exc)
                workload = None
        self.results.setVisible(workload is not None)
        self.file_label.setVisible(self._loaded is not None and workload is not None
                                   and workload.model == self._loaded.model)
        self.what_fits_button.setEnabled(workload is not None)
        if error:
            colour = status_ink("fail", self.palette().color(QPalette.ColorRole.Window))
            kept = (" — the answer below is for the last figures that could be read"
                    if workload is not None else "")
            self.hint_label.setText(f"<span style='color:{colour}'>Cannot estimate: "
                                    f"{escape(error)}{kept}</span>")
        elif workload is None:
            self.hint_label.setText("Choose a model to see whether it fits this build's "
                                    "GPUs, how long it takes and what it costs.")
        elif not self._result:
            self.hint_label.setText("No accelerator in the build: the bar shows what one GPU "
                                    "would need. Add GPUs, or see what fits.")
        self.hint_label.setVisible(bool(error) or workload is None or self._result is None)
        serving = workload is not None and workload.mode == "inference"
        self.serving_form.setVisible(serving and workload.model.autoregressive)
        self.serving_view.setVisible(serving and (self._serving is not None
                                                  or bool(self._serving_error)))
        if workload is None or self._memory is None:
            self.results.clear()
            return
        self.results.show_fit(workload, self._memory, self._result, self._comparison)
        if self._serving is not None:
            self.serving_view.show_estimate(self._serving)
        else:
            self.serving_view.clear(self._serving_error)

    def _estimate(self, workload: Workload) -> None:
        build = self._build
        pairs, offering = build_accelerators(build, self._find) if build else ([], None)
        assumptions = self.cost_assumptions()
        if pairs:
            parallel = self._planned.parallelism(sum(n for _, n in pairs))
            self._result = fit(workload, pairs, parallel, cloud_offering=offering,
                               assumptions=assumptions)
            self._memory = self._result.memory
            try:
                self._serving = serving_for_fit(self._result, self._planned.serving,
                                                self.cloud_offerings())
            except WorkloadError as exc:
                self._serving_error = f"No serving estimate: {exc}"
        else:
            self._memory = estimate_memory(workload, self._planned.parallelism(1))
        self._comparison = compare_job(self._result, workload, assumptions,
                                       self.accelerators(), self.cloud_offerings(),
                                       pairs[0][0] if pairs else None, self._find,
                                       self._preferred_offer)
        self._cloud_option = self._comparison.offer

    # --- the dialogs ------------------------------------------------------------------------
    def open_what_fits(self) -> QWidget | None:
        """The ranked list of what runs this workload; its "Add" requests come out here."""
        workload = self.workload()
        if workload is None:
            return None
        from dlhw_desktop.ui.workload.what_fits import WhatFitsDialog

        if self._what_fits is None:
            dialog = WhatFitsDialog(self.catalog, workload, self, settings=self.settings,
                                    assumptions=self.cost_assumptions())
            dialog.add_requested.connect(self.add_requested)
            self._what_fits = dialog
        else:
            self._what_fits.set_workload(workload,  # type: ignore[attr-defined]
                                         self.cost_assumptions())
        self._what_fits.show()
        self._what_fits.raise_()
        return self._what_fits

    def open_advisor(self) -> QWidget:
        from dlhw_desktop.ui.workload.advisor_dialog import AdvisorDialog

        if self._advisor is None:
            dialog = AdvisorDialog(self.catalog, self, workload=self.workload(),
                                   settings=self.settings,
                                   assumptions=self.cost_assumptions())
            dialog.apply_requested.connect(self._apply_proposal)
            dialog.compare_requested.connect(self.compare_with)
            self._advisor = dialog
        else:  # the build may have changed since: cost its machine as it is now
            self._advisor.assumptions = self.cost_assumptions()  # type: ignore[attr-defined]
            self._advisor.recompute()  # type: ignore[attr-defined]
        self._advisor.show()
        self._advisor.raise_()
        return self._advisor

    def _apply_proposal(self, parts: list, workload: Workload | None) -> None:
        """The advisor's machine to buy: its GPUs and workload, one undo step for the
        Build tab (``apply_requested``)."""
        planned = self._planned.with_workload(workload) if workload is not None \
            else self._planned
        self.apply_requested.emit(parts, planned)

    def compare_with(self, offer_id: str, workload: Workload | None = None) -> None:
        """Compare the build with this cloud offer (the advisor's rent proposal) in the
        cost section; the build itself is not changed. The advisor's workload, when it
        differs, is taken as an ordinary (undoable) workload edit."""
        self._preferred_offer = offer_id
        if workload is not None and workload != self.workload():
            self.adopt_workload(workload)
        else:
            self._refresh()
