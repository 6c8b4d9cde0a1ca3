"""``dlhw catalog info --coverage``: per category, the share of parts released since 2020
that carry every figure the build checks read (text, ``--json`` or ``--markdown``)."""

from __future__ import annotations

import argparse

from dlhw_desktop.catalog.coverage import SINCE_YEAR, CategoryCoverage, coverage, overall_share
from dlhw_desktop.commands.common import open_catalog, print_json
from dlhw_desktop.core.checks import (
    case_clearance_model,
    cooler_model,
    psu_connector_model,
    radiator_model,
    slot_spacing_model,
)
from dlhw_desktop.core.fields import FIELDS_BY_NAME, Category

TOP_MISSING = 3


def _label(name: str, category: Category) -> str:
    spec = FIELDS_BY_NAME[name]
    label = spec.label
    # "Kind" or "Form factor" alone is ambiguous in a catalog-wide table.
    return label if label not in ("Kind", "Form factor", "Height") else \
        f"{label} ({category.label})"


def _pct(share: float | None) -> str:
    return "n/a" if share is None else f"{share * 100:.1f} %"


def _top(row: CategoryCoverage, n: int = TOP_MISSING) -> str:
    items = list(row.missing.items())[:n]
    text = ", ".join(f"{_label(k, row.category)} {v:,}" for k, v in items)
    more = len(row.missing) - len(items)
    return text + (f", +{more} more" if more > 0 else "") if text else "-"


def estimate_models() -> list[dict[str, str | int | float]]:
    """The models that give a verdict where a maker publishes no figure: what each rests
    on and its error on rows left out of its fit."""
    cm, cc, pc = cooler_model, case_clearance_model, psu_connector_model
    rm, sm = radiator_model, slot_spacing_model
    towers = max(row[2] for key, row in cc.CLEARANCE_BANDS.items() if key[1] == "all")
    return [
        {"figure": "air cooler heat capacity", "measured": cm.AIR_MEASURED,
         "basis": f"{cm.AIR_INTERCEPT_W:.1f} W + {cm.AIR_W_PER_MM:.3f} W/mm x height",
         "error": f"leave-one-out RMS {cm.AIR_BAND_W:.0f} W, mean absolute "
                  f"{cm.AIR_LOO_MEAN_ABS_W:.1f} W"},
        {"figure": "AIO heat capacity", "measured": cm.LIQUID_MEASURED,
         "basis": f"{cm.LIQUID_REF_W:.0f} W on a {cm.LIQUID_REF_RADIATOR_MM:.0f} mm radiator, "
                  "scaled by the square root of the radiator length",
         "error": f"leave-one-out RMS {cm.LIQUID_BAND_FRACTION:.0%} of the prediction"},
        {"figure": "tower cooler clearance",
         "measured": sum(row[2] for key, row in cc.CLEARANCE_BANDS.items() if key[1] == "all"),
         "basis": "5th-95th percentile of towers taking the same boards with a similar "
                  f"graphics-card clearance (largest class {towers:,})",
         "error": f"held out: {cc.LEAVE_OUT_ERROR['false_pass_share']:.1%} of passes and "
                  f"{cc.LEAVE_OUT_ERROR['false_fail_share']:.1%} of fails wrong"},
        {"figure": "power supply PCIe 8-pin and 16-pin counts",
         "measured": pc.PUBLISHED_COUNTS,
         "basis": "5th-95th percentile of units of the same wattage class, with or without "
                  "a native 16-pin",
         "error": f"held out: {pc.LEAVE_OUT_ERROR['false_pass_share']:.1%} of passes and "
                  f"{pc.LEAVE_OUT_ERROR['false_fail_share']:.1%} of fails wrong"},
        {"figure": "tower largest radiator",
         "measured": sum(row[2] for row in rm.RADIATOR_GROUPS.values()),
         "basis": "smallest largest-radiator of tower models with a similar graphics-card "
                  "clearance (passes only; never fails)",
         "error": f"held out: {rm.LEAVE_OUT_ERROR['false_pass_share']:.1%} of "
                  f"{rm.LEAVE_OUT_ERROR['passes']} passes wrong"},
        {"figure": "x16 slot spacing (two cards, ATX)", "measured": sm.SPACING_ATX[2],
         "basis": "smallest spacing of the first two x16 slots of ATX boards with 2-4 x16 "
                  "slots whose layout is published (passes only; never fails)",
         "error": f"held out: {sm.LEAVE_OUT_ERROR['false_pass_share']:.1%} of "
                  f"{sm.LEAVE_OUT_ERROR['passes']} passes wrong"},
    ]


def models_text() -> list[str]:
    return ["Estimated where the maker publishes nothing (measured rows, error left out):"] + [
        f"  {m['figure']}: {m['measured']:,} measured; {m['basis']}; {m['error']}"
        for m in estimate_models()]


def coverage_json(rows: list[CategoryCoverage], since_year: int) -> dict[str, object]:
    return {
        "estimate_models": estimate_models(),
        "since_year": since_year,
        "overall_share": overall_share(rows),
        "categories": [{
            "category": r.category.value, "parts_since": r.parts, "complete": r.complete,
            "share": r.share, "inputs": list(r.inputs),
            "missing": [{"field": k, "label": FIELDS_BY_NAME[k].label, "parts": v}
                        for k, v in r.missing.items()],
            "undated_parts": r.undated, "undated_complete": r.undated_complete,
        } for r in rows],
    }


def coverage_text(rows: list[CategoryCoverage], since_year: int) -> str:
    head = (f"{'category':<22} {f'since {since_year}':>10} {'complete':>9} {'share':>8}  "
            "most often missing")
    lines = [f"Parts released since {since_year} with every figure the build checks read",
             head, "-" * len(head)]
    for r in rows:
        if not r.inputs:
            lines.append(f"{r.category.plural:<22} {r.parts:>10,} {'-':>9} {'-':>8}  "
                         "(not checked as part of a machine)")
            continue
        lines.append(f"{r.category.plural:<22} {r.parts:>10,} {r.complete:>9,} "
                     f"{_pct(r.share):>8}  {_top(r)}")
    checked = [r for r in rows if r.inputs]
    lines.append(f"{'all checked':<22} {sum(r.parts for r in checked):>10,} "
                 f"{sum(r.complete for r in checked):>9,} {_pct(overall_share(rows)):>8}")
    undated = [r for r in checked if r.undated]
    if undated:
        lines.append("No release year (not counted above): " + ", ".join(
            f"{r.category.plural} {r.undated:,} ({r.undated_complete:,} complete)"
            for r in undated))
    return "\n".join([*lines, "", *models_text()])


def coverage_markdown(rows: list[CategoryCoverage], since_year: int, catalog_line: str) -> str:
    lines = [
        f"Parts released since {since_year} that carry every figure the build checks read "
        "(the list per category is declared once in `dlhw_desktop/core/check_inputs.py`; "
        "generated by `dlhw catalog info --coverage --markdown` for " + catalog_line + ").",
        "",
        f"| Category | Since {since_year} | Complete | Share | Most often missing | "
        "No release year (complete) |",
        "|---|---:|---:|---:|---|---:|",
    ]
    for r in rows:
        if not r.inputs:
            lines.append(f"| {r.category.plural} | {r.parts:,} | - | - | not checked as "
                         f"part of a machine | {r.undated:,} |")
            continue
        lines.append(f"| {r.category.plural} | {r.parts:,} | {r.complete:,} | "
                     f"{_pct(r.share)} | {_top(r, 4)} | {r.undated:,} "
                     f"({r.undated_complete:,}) |")
    checked = [r for r in rows if r.inputs]
    lines.append(f"| **All checked** | {sum(r.parts for r in checked):,} | "
                 f"{sum(r.complete for r in checked):,} | **{_pct(overall_share(rows))}** | "
                 f"| {sum(r.undated for r in checked):,} |")
    lines += ["", "| Estimated figure | Measured rows | Model | Error on rows left out |",
              "|---|---:|---|---|"]
    lines += [f"| {m['figure']} | {m['measured']:,} | {m['basis']} | {m['error']} |"
              for m in estimate_models()]
    return "\n".join(lines)


def print_coverage(args: argparse.Namespace) -> int:
    catalog = open_catalog(args)
    rows = coverage(catalog, SINCE_YEAR)
    if args.json:
        print_json(coverage_json(rows, SINCE_YEAR))
    elif args.markdown:
        info = catalog.info()
        print(coverage_markdown(rows, SINCE_YEAR, f"catalog {info.catalog_version}, "
                                f"{info.total:,} parts, data as of {info.data_date}"))
    else:
        print(coverage_text(rows, SINCE_YEAR))
    return 0
