"""``dlhw check BUILD.dlhw.json``: the planner's checks, headless.

Exit status: 0 when no check fails, 1 when any fails, 2 on bad input (a file that is not
a build, a newer version, ...: ``cli.main`` prints the ``DlhwError`` in one line). Parts
the catalog and the user's own parts do not know become placeholders with a warning on
stderr; the checks then say "unknown" about them.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from dlhw_desktop.commands.common import (
    finite_float,
    open_catalog,
    print_json,
    warn_user_parts,
)
from dlhw_desktop.core.checks.settings import MAINS

EXIT_OK, EXIT_FAILED = 0, 1
_MARK = {"pass": "PASS", "warn": "WARN", "fail": "FAIL", "unknown": " ?? "}


def register(sub: argparse._SubParsersAction) -> None:
    check = sub.add_parser(
        "check", help="run the build checks on a saved build (exit 1 if any fails)",
        description="Run the planner's checks (power, cooling, memory, fit, workload tier) on "
                    "a .dlhw.json build. Exit 0: nothing fails; 1: a check fails; 2: bad input.")
    check.add_argument("build", type=Path, help="a saved build (.dlhw.json)")
    check.add_argument("--json", action="store_true", help="print JSON")
    check.add_argument("--mains", choices=list(MAINS), default=None,
                       help="household circuit (default 120V-15A)")
    check.add_argument("--price-per-kwh", type=finite_float, default=None, metavar="USD",
                       help="electricity price in USD per kWh (default 0.17)")
    check.add_argument("--utilisation", type=finite_float, default=None, metavar="FRACTION",
                       help="share of the year at full load, 0 to 1 (default 0.5)")
    check.set_defaults(func=cmd_check)


def _settings(args: argparse.Namespace):
    from dlhw_desktop.core.checks import CheckSettings
    from dlhw_desktop.core.errors import DlhwError

    defaults = CheckSettings()
    try:
        return CheckSettings(
            price_per_kwh_usd=defaults.price_per_kwh_usd if args.price_per_kwh is None
            else args.price_per_kwh,
            utilisation=defaults.utilisation if args.utilisation is None else args.utilisation,
            mains=args.mains or defaults.mains)
    except ValueError as exc:
        raise DlhwError(str(exc)) from None


def cmd_check(args: argparse.Namespace) -> int:
    from dlhw_desktop.catalog.userparts import PartResolver, UserParts
    from dlhw_desktop.core.build import buildfile
    from dlhw_desktop.core.build.tiers import tiers_from_rows
    from dlhw_desktop.core.checks import check_build

    settings = _settings(args)
    catalog = open_catalog(args)
    resolver = PartResolver(catalog, UserParts())
    loaded = buildfile.load(args.build, resolver)
    warn_user_parts(resolver)
    for warning in loaded.warnings:
        print(f"dlhw: warning: {warning}", file=sys.stderr)
    report = check_build(loaded.build, settings, tiers_from_rows(catalog.tier_rows()))
    if args.json:
        print_json(_to_json(args.build, loaded, report))
    else:
        _print_text(loaded.build, report)
    return EXIT_FAILED if any(r.status == "fail" for r in report.results) else EXIT_OK


def _to_json(path: Path, loaded: Any, report: Any) -> dict[str, Any]:
    from dlhw_desktop.core.fields import field_label

    build, s = loaded.build, report.summary
    return {
        "file": str(path),
        "name": build.name,
        "tier": build.tier,
        "parts": [{"id": i.part_id, "name": i.part.display_name, "slot": i.slot.value,
                   "quantity": i.quantity, "known": i.part_id not in loaded.missing_ids}
                  for i in build.items()],
        "checks": [{"id": r.id, "kind": r.kind, "status": r.status, "message": r.message,
                    "figures": dict(r.figures), "part_ids": list(r.part_ids),
                    "suggestion": r.suggestion,
                    "basis": [u.to_dict() for u in r.basis],
                    "needs": [{"part_id": p, "field": f, "label": field_label(f)}
                              for p, f in r.needs]} for r in report.results],
        "summary": {
            "status": report.verdict, "complete": not report.incomplete,
            "incomplete": report.incomplete or None, "price_usd": s.price_usd,
            "unknown_price_parts": s.unknown_price_parts, "sustained_w": s.sustained_w,
            "wall_w": s.wall_w, "heat_w": s.heat_w, "psu_load": s.psu_load,
            "vram_gb": s.vram_gb, "ram_gb": s.ram_gb, "bf16_tflops": s.bf16_tflops,
            "fp16_tflops": s.fp16_tflops, "yearly_kwh": s.yearly_kwh,
            "yearly_cost_usd": s.yearly_cost_usd, "accelerators": s.accelerators,
            "parts": s.parts,
        },
        "warnings": list(loaded.warnings),
    }


def _n(value: float | None, unit: str = "", money: bool = False) -> str:
    if value is None:
        return "n/a"
    return f"${value:,.0f}" if money else f"{value:,.0f}{unit}"


def _print_text(build: Any, report: Any) -> None:
    from dlhw_desktop.core.checks.basis import basis_text

    s = report.summary
    counts = {k: sum(r.status == k for r in report.results) for k in _MARK}
    incomplete = f"; INCOMPLETE: {report.incomplete}" if report.incomplete else ""
    print(f"{build.name}: {report.verdict.upper()} ({counts['fail']} fail, {counts['warn']} "
          f"warn, {counts['unknown']} unknown, {counts['pass']} pass){incomplete}")
    for result in sorted(report.results, key=lambda r: ("fail", "warn", "unknown",
                                                        "pass").index(r.status)):
        print(f"  [{_MARK[result.status]}] {result.id}: {result.message}")
        if result.suggestion and result.status != "pass":
            print(f"         -> {result.suggestion}")
        rests = basis_text(result)
        if rests:
            print(f"         rests on: {rests}")
        for part_id, field in result.needs:
            print(f"         enter it: dlhw part set {part_id} {field} VALUE")
    unpriced = f" (+{s.unknown_price_parts} unpriced)" if s.unknown_price_parts else ""
    print(f"  price {_n(s.price_usd, money=True)}{unpriced} · sustained "
          f"{_n(s.sustained_w, ' W')} · wall {_n(s.wall_w, ' W')} · VRAM {_n(s.vram_gb, ' GB')}"
          f" · BF16 {_n(s.bf16_tflops, ' TFLOPS')} · energy "
          f"{_n(s.yearly_cost_usd, money=True)}/year")
