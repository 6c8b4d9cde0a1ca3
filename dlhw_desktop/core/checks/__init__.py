"""Checks on a build: power, cooling, memory, physical fit and the workload tier.

Entry points::

    report = check_build(build, settings, tiers, extra_checks=[my_check])
    report.results, report.verdict, report.summary

    run_checks(build, settings, tiers, extra_checks) -> tuple[CheckResult, ...]
    summarize(build, settings) -> BuildSummary
    verdict(results) -> "pass" | "warn" | "fail" | "unknown"

A check is any callable ``check(ctx: CheckContext)`` returning ``CheckResult``s (a list,
one result, or ``None``); the workload-fit check joins through ``extra_checks``. Checks
emit a result only when the parts they judge are in the build; ``compat.complete`` says
what is still to choose, so an incomplete build is "unknown" at best, never "pass".
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from dlhw_desktop.core.build.build import Build
from dlhw_desktop.core.build.tiers import WorkloadTier
from dlhw_desktop.core.checks import case_fit, cooling, memory, platform, power, server, tier
from dlhw_desktop.core.checks._util import MISSING_SEEN
from dlhw_desktop.core.checks.basis import completed
from dlhw_desktop.core.checks.budget import PowerBudget, efficiency_at
from dlhw_desktop.core.checks.context import Check, CheckContext
from dlhw_desktop.core.checks.settings import MAINS, CheckSettings, Mains
from dlhw_desktop.core.checks.summary import BuildSummary, summarize_context
from dlhw_desktop.core.compat.connectors import parse_power_connectors
from dlhw_desktop.core.parts import Part
from dlhw_desktop.core.verdict import (
    KINDS,
    STATUS_RANK,
    STATUSES,
    CheckResult,
    Kind,
    Status,
    verdict,
    worst,
)

BUILTIN_CHECKS: tuple[Check, ...] = (
    platform.CHECKS + server.CHECKS + power.CHECKS + case_fit.CHECKS + cooling.CHECKS
    + memory.CHECKS + tier.CHECKS
)


@dataclass(frozen=True, slots=True)
class CheckReport:
    """Everything the checks panel shows: the results, their verdict and the totals."""

    results: tuple[CheckResult, ...]
    summary: BuildSummary

    @property
    def verdict(self) -> Status:
        return verdict(self.results)

    @property
    def incomplete(self) -> str:
        """What the build still lacks (``"Not yet chosen: power supply and storage"``), or
        "" when every essential part is there. A verdict of an incomplete build is about
        the parts chosen so far, never about the machine: say so beside it."""
        result = self.get("compat.complete")
        return result.message if result is not None else ""

    def by_kind(self, kind: Kind) -> tuple[CheckResult, ...]:
        return tuple(r for r in self.results if r.kind == kind)

    def get(self, check_id: str) -> CheckResult | None:
        """The first result with this id (some checks emit one per part)."""
        return next((r for r in self.results if r.id == check_id), None)


def _run(ctx: CheckContext, checks: Iterable[Check]) -> tuple[CheckResult, ...]:
    """Every check once; each result completed with what it rests on and what it needs
    (``checks.basis``)."""
    results: list[CheckResult] = []
    parts = {item.part.id: item.part for item in ctx.build.items()}
    for check in checks:
        named: list[tuple[Part, str]] = []
        token = MISSING_SEEN.set(named)
        try:
            produced = check(ctx)
        finally:
            MISSING_SEEN.reset(token)
        if produced is None:
            continue
        if isinstance(produced, CheckResult):
            produced = (produced,)
        results.extend(completed(result, parts, named) for result in produced)
    return tuple(results)


def check_build(build: Build, settings: CheckSettings | None = None,
                tiers: Mapping[str, WorkloadTier] | None = None,
                extra_checks: Iterable[Check] = ()) -> CheckReport:
    """Run every built-in check plus ``extra_checks`` once, and total the build."""
    ctx = CheckContext(build, settings, tiers)
    results = _run(ctx, (*BUILTIN_CHECKS, *extra_checks))
    return CheckReport(results, summarize_context(ctx))


def run_checks(build: Build, settings: CheckSettings | None = None,
               tiers: Mapping[str, WorkloadTier] | None = None,
               extra_checks: Iterable[Check] = ()) -> tuple[CheckResult, ...]:
    """The results alone, in check order (compatibility, power, cooling, memory, tier)."""
    return _run(CheckContext(build, settings, tiers), (*BUILTIN_CHECKS, *extra_checks))


def summarize(build: Build, settings: CheckSettings | None = None) -> BuildSummary:
    return summarize_context(CheckContext(build, settings))


__all__ = [
    "BUILTIN_CHECKS",
    "KINDS",
    "MAINS",
    "STATUSES",
    "STATUS_RANK",
    "BuildSummary",
    "Check",
    "CheckContext",
    "CheckReport",
    "CheckResult",
    "CheckSettings",
    "Kind",
    "Mains",
    "PowerBudget",
    "Status",
    "check_build",
    "efficiency_at",
    "parse_power_connectors",
    "run_checks",
    "summarize",
    "verdict",
    "worst",
]
