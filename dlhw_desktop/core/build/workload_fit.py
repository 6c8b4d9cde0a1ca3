"""A build's workload on the build's own accelerators: the fit and the planner check.

The build keeps its workload typed (``Build.workload``, a ``BuildWorkload``); this
module runs it on the GPUs of the build, so the workload verdict joins the planner's
checks (``check_build(..., extra_checks=[...])``) with the same numbers the workload
panel shows. The GPUs are the build's local accelerators; a build with none but a cloud
offering is judged on that offering's accelerators (``find`` resolves its
``accelerator_id``), so a rented setup gets a verdict too.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from dlhw_desktop.core import limits
from dlhw_desktop.core.build.build import Build
from dlhw_desktop.core.fields import Category
from dlhw_desktop.core.parts import Part
from dlhw_desktop.core.verdict import CheckResult, grouped
from dlhw_desktop.core.workload.errors import InvalidWorkloadError, WorkloadError
from dlhw_desktop.core.workload.fit import CostAssumptions, FitResult, fit

if TYPE_CHECKING:  # the checks call this; it reads only ctx.build
    from dlhw_desktop.core.checks.context import CheckContext

Finder = Callable[[str], "Part | None"]


def build_accelerators(build: Build, find: Finder | None = None
                       ) -> tuple[list[tuple[Part, int]], Part | None]:
    """(part, count) pairs the workload runs on, and the cloud offering they belong to.

    Local accelerators when the build has any; else the first cloud item: an offering's
    ``accelerator_count`` x its ``accelerator_id`` (looked up with ``find``), or a
    cloud-only accelerator (a TPU) as it is. ``([], None)`` when there is nothing to run on.
    """
    local = [(item.part, item.quantity) for item in build.accelerators]
    if local:
        return local, None
    for item in build.cloud:
        part = item.part
        if part.category is Category.ACCELERATOR:
            return [(part, item.quantity)], None
        accelerator_id = part.text("accelerator_id")
        count = part.number("accelerator_count")
        accelerator = find(accelerator_id) if find and accelerator_id else None
        if accelerator is not None and count is not None and count >= 1:
            return [(accelerator, int(count) * item.quantity)], part
    return [], None


def fit_build(build: Build, find: Finder | None = None,
              assumptions: CostAssumptions | None = None) -> FitResult | None:
    """The build's workload on its accelerators; ``None`` without a workload or GPUs.

    Raises ``WorkloadError`` when the stored workload cannot be estimated.
    """
    planned = build.workload
    if planned.error:
        raise WorkloadError(planned.error)
    workload = planned.workload
    if workload is None:
        return None
    pairs, offering = build_accelerators(build, find)
    if not pairs:
        return None
    gpus = sum(n for _, n in pairs)
    if gpus > limits.MAX_FIT_GPUS:
        raise InvalidWorkloadError(
            f"{gpus:,} GPUs is more than a workload fit weighs ({limits.MAX_FIT_GPUS:,}, "
            "each GPU judged on its own); fit a part of the cluster")
    parallel = planned.parallelism(gpus)
    return fit(workload, pairs, parallel, cloud_offering=offering, assumptions=assumptions)


def workload_checks(build: Build, find: Finder | None = None) -> list[CheckResult]:
    """The workload verdict per distinct GPU (kind ``workload``; identical GPUs share one
    result, "8x ..."), or nothing without a workload.

    A workload that cannot be estimated, or no accelerator to run it on, is one
    ``unknown`` result saying so: the user chose a workload and must learn why it has
    no verdict.
    """
    planned = build.workload
    if not planned.is_set:
        return []
    try:
        result = fit_build(build, find)
    except WorkloadError as exc:
        return [CheckResult("workload.invalid", "workload", "unknown",
                            f"Workload cannot be estimated: {exc}")]
    workload = planned.workload
    assert workload is not None  # fit_build raised for an unreadable one
    if result is None:
        return [CheckResult(
            "workload.memory", "workload", "unknown",
            f"No accelerator to run {workload.model.name} ({workload.mode}) on",
            suggestion="add GPUs or a cloud offering; 'What fits' lists what would do")]
    return [check for check, _ in grouped(result.checks)]  # one result for N like GPUs


def workload_check(find: Finder | None = None) -> Callable[[CheckContext], list[CheckResult]]:
    """``workload_checks`` as a planner check: ``check_build(..., extra_checks=[it])``."""

    def check(ctx: CheckContext) -> list[CheckResult]:
        return workload_checks(ctx.build, find)

    check.__name__ = "workload_fit"
    return check
