"""A Build and its check report -> a ``BuildSheet`` (pure: no Qt, no SQL).

The sheet is what a colleague or a purchasing office reads: what to buy and what it
costs, whether it works (every check with its status and numbers), what it draws and
heats, what the workload needs, and where every figure comes from. Unknown figures read
"n/a", never 0.

    sheet = make_build_sheet(build, report, catalog_info=catalog.info(),
                             candidates=catalog.parts(Category.ACCELERATOR, chips_only=True))
    sheet = sheet_from_catalog(build, report, catalog)      # the same, from a Catalog
"""

from __future__ import annotations

import datetime as _dt
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any, Protocol

from dlhw_desktop import APP_NAME, __version__
from dlhw_desktop.core.build.build import Build, BuildItem, Slot
from dlhw_desktop.core.build.buildfile import is_placeholder
from dlhw_desktop.core.build.tiers import TIER_LABELS
from dlhw_desktop.core.checks import CheckReport, CheckResult, CheckSettings, worst
from dlhw_desktop.core.checks.basis import basis_text
from dlhw_desktop.core.checks.summary import BuildSummary
from dlhw_desktop.core.fields import FIELDS_BY_NAME, Category
from dlhw_desktop.core.formatting import (
    NA,
    btu_per_hour,
    gigabytes,
    money,
    number,
    percent,
    price_range_text,
    short_source,
    watts,
)
from dlhw_desktop.core.parts import Part, format_value
from dlhw_desktop.core.prices.currency import DisplayCurrency
from dlhw_desktop.core.prices.kinds import describe_price
from dlhw_desktop.core.user_figures import figures_of
from dlhw_desktop.core.verdict import Status, grouped
from dlhw_desktop.core.workload.errors import WorkloadError
from dlhw_desktop.core.workload.fit import FitResult
from dlhw_desktop.reports.sheet_charts import (
    alternatives_charts,
    power_chart,
    system_memory_chart,
)
from dlhw_desktop.reports.sheet_model import (
    BarChart,
    BuildSheet,
    CheckRow,
    Figure,
    PartRow,
    SourceRow,
    WorkloadSection,
)
from dlhw_desktop.reports.workload_section import (
    error_section,
    memory_chart,
    sheet_comparison,
    sheet_fit,
    sheet_settings,
    workload_section,
)

if TYPE_CHECKING:
    from dlhw_desktop.catalog.store import Catalog

TITLE = "Build sheet"
KIND_ORDER = ("compatibility", "power", "cooling", "memory", "workload")
KIND_LABELS = {"compatibility": "Compatibility", "power": "Power", "cooling": "Cooling",
               "memory": "Memory", "workload": "Workload"}
COUNT_ORDER: tuple[Status, ...] = ("fail", "warn", "unknown", "pass")


class CatalogInfoLike(Protocol):
    @property
    def catalog_version(self) -> str: ...

    @property
    def data_date(self) -> str: ...


def make_build_sheet(
    build: Build,
    report: CheckReport,
    *,
    catalog_info: CatalogInfoLike | None = None,
    candidates: Sequence[Part] = (),
    fit_result: FitResult | None = None,
    date: _dt.date | str | None = None,
    warnings: Iterable[str] = (),
    currency: DisplayCurrency | None = None,
    cloud: Sequence[Part] = (),
) -> BuildSheet:
    """Assemble the sheet. ``candidates`` are catalog accelerators for the comparison
    chart; ``fit_result`` is computed from the build's workload when not given;
    ``warnings`` (e.g. parts a build file named that the catalog lacks) print on it;
    ``currency`` is the one the user reads totals in (US dollars when not given);
    ``cloud`` the offers own-vs-rent compares with (the panel's comparison)."""
    summary = report.summary
    currency = currency or DisplayCurrency()
    price_per_kwh, utilisation = _energy_assumptions(report)
    section: WorkloadSection | None = None
    if fit_result is None and build.workload.is_set:
        by_id = {p.id: p for p in candidates}
        try:
            fit_result = sheet_fit(build, summary, price_per_kwh, utilisation, by_id.get)
        except WorkloadError as exc:
            section = error_section(build.workload, exc)
        else:
            if fit_result is None:
                section = error_section(build.workload,
                                        "the build has no accelerator to run it on")
    if fit_result is not None:
        by_id = {p.id: p for p in candidates}
        comparison = sheet_comparison(build, fit_result, candidates, cloud, by_id.get,
                                      sheet_settings(price_per_kwh, utilisation))
        section = workload_section(fit_result, comparison)

    checks = _check_rows(report.results)
    if fit_result is not None:
        present = {c.id for c in checks}
        checks += tuple(CheckRow(c.id, c.kind, "Workload fit", c.status, c.message,
                                 c.suggestion, basis_text(c, notable_only=True))
                        for c, _ in grouped(fit_result.checks)  # one row for N like GPUs
                        if c.id not in present)
    statuses = [c.status for c in checks]
    verdict: Status = worst(statuses) if statuses else "unknown"
    counts = tuple((s, statuses.count(s)) for s in COUNT_ORDER if statuses.count(s))

    sources, refs = _sources(build.items(), fit_result)
    charts: list[BarChart] = [power_chart(build, summary)]
    charts.append(memory_chart(fit_result) if fit_result is not None
                  else system_memory_chart(build, summary))
    charts.extend(alternatives_charts(build, candidates))
    charts = [c for c in charts if any(b.known for b in c.bars)]  # nothing known: no chart

    when = date if isinstance(date, str) else (date or _dt.date.today()).isoformat()
    return BuildSheet(
        title=TITLE,
        build_name=build.name,
        notes=build.notes.strip(),
        date=when,
        tier=TIER_LABELS.get(build.tier or "", ""),
        verdict=verdict,
        verdict_counts=counts,
        headline=_headline(summary, price_per_kwh, currency),
        parts=tuple(_part_row(item, refs) for item in build.items()),
        price_total=_price_total(summary, currency),
        totals=_totals(build, summary, report, price_per_kwh, utilisation, currency),
        checks=checks,
        workload=section,
        charts=tuple(charts),
        sources=sources,
        catalog_version=getattr(catalog_info, "catalog_version", "") or NA,
        data_date=getattr(catalog_info, "data_date", "") or NA,
        app_name=APP_NAME,
        app_version=__version__,
        warnings=tuple(warnings),
        assumptions=_assumptions(price_per_kwh, utilisation),
        incomplete=report.incomplete,
        your_figures=_your_figures(build),
    )


def sheet_from_catalog(build: Build, report: CheckReport, catalog: Catalog,
                       **kwargs: Any) -> BuildSheet:
    """``make_build_sheet`` with the catalog's version and accelerators filled in, totals
    in the currency the user chose in their price book (unless ``currency`` is given)."""
    if "currency" not in kwargs:
        kwargs["currency"] = users_currency()
    kwargs.setdefault("cloud", catalog.parts(Category.CLOUD))
    return make_build_sheet(build, report, catalog_info=catalog.info(),
                            candidates=catalog.parts(Category.ACCELERATOR, chips_only=True),
                            **kwargs)


# --- pieces ---------------------------------------------------------------------------


def users_currency() -> DisplayCurrency:
    """The currency and rate from the user's price book; US dollars when it cannot be read
    (a damaged price book must not stop a sheet)."""
    from dlhw_desktop.catalog.price_store import PriceBook
    from dlhw_desktop.core.prices.book import PriceBookError

    try:
        return PriceBook().display_currency()
    except PriceBookError:
        return DisplayCurrency()


def _energy_assumptions(report: CheckReport) -> tuple[float, float]:
    """The electricity price and utilisation the checks used (from their own figures)."""
    defaults = CheckSettings()
    price, utilisation = defaults.price_per_kwh_usd, defaults.utilisation
    circuit = report.get("power.circuit")
    if circuit is not None:
        value = circuit.figures.get("price_per_kwh_usd")
        if isinstance(value, int | float) and not isinstance(value, bool):
            price = float(value)
        value = circuit.figures.get("utilisation_pct")
        if isinstance(value, int | float) and not isinstance(value, bool):
            utilisation = float(value) / 100.0
    return price, utilisation


def _check_rows(results: Iterable[CheckResult]) -> tuple[CheckRow, ...]:
    def label(result: CheckResult) -> str:
        if result.id.startswith("tier."):
            return "Workload tier"
        if result.id.startswith("workload."):
            return "Workload fit"
        return KIND_LABELS.get(result.kind, result.kind.title())

    ordered = sorted(enumerate(results),
                     key=lambda pair: (KIND_ORDER.index(pair[1].kind)
                                       if pair[1].kind in KIND_ORDER else len(KIND_ORDER),
                                       pair[0]))
    return tuple(CheckRow(r.id, r.kind, label(r), r.status, r.message, r.suggestion,
                          basis_text(r, notable_only=True))
                 for _, r in ordered)


def _your_figures(build: Build) -> tuple[str, ...]:
    """Each figure the builder entered, once: "<part>: <figure> <value>, entered <date>"."""
    lines: list[str] = []
    for item in build.items():
        for figure in figures_of(item.part):
            note = f" ({figure.note})" if figure.note else ""
            lines.append(f"{item.part.display_name}: {figure.label.lower()} "
                         f"{format_value(figure.field, figure.value)}, entered "
                         f"{figure.entered}{note}")
    return tuple(dict.fromkeys(lines))


def _part_row(item: BuildItem, refs: dict[str, int]) -> PartRow:
    part = item.part
    placeholder = is_placeholder(part)
    if item.slot is Slot.CLOUD:
        hourly = part.number("price_per_hour_usd")
        monthly = part.number("price_per_month_usd")
        unit = money(hourly, "h") if hourly is not None else money(monthly, "month")
        rate = describe_price(part.price_kind, part.price_date) if (
            hourly is not None or monthly is not None) else ""
        return PartRow(part.category.label, part.display_name, part.id, item.quantity, unit,
                       NA, short_source(part.source), refs.get(part.source),
                       part.price_date or "", None, None,
                       "; ".join(x for x in ("rented, not bought: not in the total", rate) if x))
    subtotal = None if part.price_usd is None else part.price_usd * item.quantity
    note = "not in the catalog: its figures are unknown" if placeholder else (
        "your own part" if part.custom else "")
    if part.price_usd is not None:
        note = "; ".join(x for x in (note, describe_price(part.price_kind, part.price_date)) if x)
    return PartRow(
        category=part.category.label,
        name=part.display_name,
        part_id=part.id,
        quantity=item.quantity,
        unit_price=(price_range_text(part.price_usd, part.price_high_usd)
                    if part.price_high_usd is not None else money(part.price_usd)),
        subtotal=(price_range_text(subtotal, part.price_high_usd * item.quantity)
                  if part.price_high_usd is not None and subtotal is not None
                  else money(subtotal)),
        source="not in the catalog" if placeholder else short_source(part.source),
        source_ref=None if placeholder else refs.get(part.source),
        price_date=part.price_date or "",
        unit_price_usd=part.price_usd,
        subtotal_usd=subtotal,
        note=note,
    )


def _price_total(summary: BuildSummary, currency: DisplayCurrency | None = None) -> Figure:
    note = ""
    if summary.unknown_price_parts:
        n = summary.unknown_price_parts
        note = (f"{n} part{'s' if n != 1 else ''} without a price "
                + ("(the total is a lower bound)" if summary.price_usd is not None else ""))
    value, basis = _in_currency(summary.price_usd, currency)
    if summary.price_high_usd is not None:
        top, _ = _in_currency(summary.price_high_usd, currency)
        value = f"from {value} to {top}"
        note = "; ".join(x for x in (note.strip(), "a part's price is a reported range") if x)
    note = "; ".join(x for x in (basis, note.strip()) if x)
    return Figure("Total (parts with a price)" if summary.unknown_price_parts else "Total",
                  value, note, key="price")


def _in_currency(usd: float | None, currency: DisplayCurrency | None) -> tuple[str, str]:
    """A total as the user reads it and what it rests on: ``("€3,412", "at 0.92 EUR/USD set
    2026-11-20; $3,709 in US dollars")``; dollars (and why) when no rate converts."""
    if usd is None or currency is None or currency.code == "USD":
        return money(usd), ""
    if currency.converts:
        return currency.format(usd), f"{currency.basis()}; {money(usd)} in US dollars"
    return money(usd), currency.basis()


def _headline(summary: BuildSummary, price_per_kwh: float,
              currency: DisplayCurrency | None = None) -> tuple[Figure, ...]:
    price, basis = _in_currency(summary.price_usd, currency)
    unpriced = summary.unknown_price_parts
    if summary.price_usd is not None and unpriced:
        price = f"{price}+"
    gpus = summary.accelerators
    priced_note = (f"+ {unpriced} unpriced part{'s' if unpriced != 1 else ''}"
                   if unpriced else "all parts priced")
    if basis:
        priced_note = f"{priced_note}; {basis.split(';')[0]}"
    return (
        Figure("Price", price, priced_note, key="price"),
        Figure("Accelerators", f"{gpus}" if gpus else "none", key="accelerators"),
        Figure("GPU memory", gigabytes(summary.vram_gb), "all cards", key="vram"),
        Figure("BF16 tensor", number(summary.bf16_tflops, 0, "TFLOPS"), "dense", key="bf16"),
        Figure("Wall draw", watts(summary.wall_w),
               "vendor maximum" if summary.wall_basis else "at the socket", key="wall"),
        Figure("Electricity per year", money(summary.yearly_cost_usd),
               f"at ${price_per_kwh:.2f}/kWh", key="yearly_cost"),
    )


def _totals(build: Build, summary: BuildSummary, report: CheckReport, price_per_kwh: float,
            utilisation: float, currency: DisplayCurrency | None = None
            ) -> tuple[Figure, ...]:
    psu = build.psu.number("wattage_w") if build.psu is not None else None
    circuit = report.get("power.circuit")
    efficiency = circuit.figures.get("efficiency_pct") if circuit is not None else None
    vram_note = ", ".join(f"{i.quantity} x {gigabytes(i.part.number('memory_gb'))}"
                          for i in build.accelerators)
    distinct = len([i for i in build.items() if i.slot is not Slot.CLOUD])
    return (
        Figure("Price", _price_total(summary, currency).value,
               _price_total(summary, currency).note, key="price"),
        Figure("Parts", str(summary.parts), f"{distinct} distinct", key="parts"),
        Figure("Sustained power", watts(summary.sustained_w),
               "DC: TDPs + platform estimate", key="sustained_w"),
        Figure("Wall draw", watts(summary.wall_w), summary.wall_basis or (
               f"at {efficiency:g} % PSU efficiency"
               if isinstance(efficiency, int | float) else ""), key="wall_w"),
        Figure("Heat to remove", watts(summary.heat_w), btu_per_hour(summary.heat_w)
               if summary.heat_w is not None else "", key="heat_w"),
        Figure("PSU load", percent(summary.psu_load),
               f"of {watts(psu)} rated" if psu is not None else "", key="psu_load"),
        Figure("GPU memory", gigabytes(summary.vram_gb), vram_note, key="vram_gb"),
        Figure("System RAM", gigabytes(summary.ram_gb), key="ram_gb"),
        Figure("BF16 tensor", number(summary.bf16_tflops, 1, "TFLOPS"),
               "dense, all accelerators", key="bf16_tflops"),
        Figure("FP16 tensor", number(summary.fp16_tflops, 1, "TFLOPS"),
               "dense, all accelerators", key="fp16_tflops"),
        Figure("Energy per year", number(summary.yearly_kwh, 0, "kWh"),
               f"at full load {percent(utilisation)} of the time", key="yearly_kwh"),
        Figure("Electricity cost", money(summary.yearly_cost_usd),
               f"per year at ${price_per_kwh:.2f}/kWh", key="yearly_cost_usd"),
    )


def _sources(items: Iterable[BuildItem], fit_result: FitResult | None
             ) -> tuple[tuple[SourceRow, ...], dict[str, int]]:
    """Distinct sources of the parts (their own and per-figure ones) and of the model."""
    found: dict[str, tuple[str, dict[str, list[str]]]] = {}

    def add(source: str, read: str, user: str, figure: str = "") -> None:
        if not source.strip():
            return
        _, users = found.setdefault(source, (read, {}))
        figures = users.setdefault(user, [])
        if figure and figure not in figures:
            figures.append(figure)

    parts = [item.part for item in items if not is_placeholder(item.part)]
    for part in parts:  # the parts' own sources first: the parts table reads [1], [2], ...
        add(part.source, part.source_date, part.display_name)
    for part in parts:
        for name, figure in sorted(part.figure_sources.items()):
            if figure.source == part.source:
                continue  # the part's own source, already cited for the whole part
            spec = FIELDS_BY_NAME.get(name)
            add(figure.source, figure.source_date, part.display_name,
                spec.label if spec is not None else name)
    if fit_result is not None and fit_result.workload.model.source:
        model = fit_result.workload.model
        add(model.source, "", f"model {model.name}")
    rows = tuple(
        SourceRow(i, source, read or NA, tuple(
            f"{user}: {', '.join(figures)}" if figures else user
            for user, figures in users.items()))
        for i, (source, (read, users)) in enumerate(found.items(), start=1))
    return rows, {row.source: row.ref for row in rows}


def _assumptions(price_per_kwh: float, utilisation: float) -> tuple[str, ...]:
    return (
        "Prices are launch or list prices in US dollars at the dates shown; shop prices "
        "differ. Parts without a price are not counted in the total.",
        "Sustained power adds the parts' TDPs and a platform estimate; the wall draw "
        "includes the PSU's losses, and all of it ends as heat in the room.",
        f"Energy at ${price_per_kwh:.2f}/kWh with the machine at full load "
        f"{percent(utilisation)} of the year.",
        "Tensor throughput is dense (no sparsity). Unknown figures read n/a, never zero. "
        "Figures are the makers' unless a check rests on a measured, estimated, derived "
        "or entered one.",
    )
