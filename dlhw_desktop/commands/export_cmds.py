"""``dlhw export BUILD.dlhw.json -o sheet.pdf``: a build sheet as PDF, without a window."""

from __future__ import annotations

import argparse
import datetime as dt
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from dlhw_desktop.commands.common import (
    add_force,
    checked_output,
    open_catalog,
    warn_user_parts,
)
from dlhw_desktop.core.errors import CatalogError, DlhwError

if TYPE_CHECKING:
    from dlhw_desktop.reports.sheet_model import BuildSheet

SUFFIXES = (".dlhw.json", ".json")


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "export", help="write a saved build's sheet as PDF",
        description="Write a build sheet (parts and prices, totals, every check, the "
        "workload fit, charts and data sources) as a PDF, A4 or Letter. Parts the catalog "
        "lacks are kept with unknown (n/a) figures and a warning.")
    p.add_argument("build", type=Path, metavar="BUILD.dlhw.json", help="a saved build")
    p.add_argument("-o", "--output", type=Path, metavar="PDF",
                   help="the PDF to write (default: beside the build, named like it)")
    add_force(p)
    p.add_argument("--paper", choices=("a4", "letter"), default="a4",
                   help="paper size (default a4)")
    p.add_argument("--date", type=_date, metavar="YYYY-MM-DD",
                   help="date printed on the sheet (default: today)")
    p.set_defaults(func=cmd_export)
    share = sub.add_parser(
        "share", help="print a saved build as Markdown, BBCode or plain text",
        description="Print a build the way people share it: parts, quantities, prices "
        "with their kind and date, the total (naming parts without a price), the verdict "
        "and the checks that did not pass, the workload fit. The same figures as the PDF.")
    share.add_argument("build", type=Path, metavar="BUILD.dlhw.json", help="a saved build")
    share.add_argument("--format", choices=("markdown", "bbcode", "text"), default="markdown",
                       help="default markdown")
    share.add_argument("--date", type=_date, metavar="YYYY-MM-DD",
                       help="date printed under it (default: today)")
    share.set_defaults(func=cmd_share)


def _date(text: str) -> dt.date:
    try:
        return dt.date.fromisoformat(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a date (YYYY-MM-DD): {text!r}") from None


def default_output(build_path: Path) -> Path:
    name = build_path.name
    for suffix in SUFFIXES:
        if name.lower().endswith(suffix):
            name = name[: -len(suffix)]
            break
    return build_path.with_name(f"{name or 'build'}.pdf")


def cmd_export(args: argparse.Namespace) -> int:
    output = args.output or default_output(args.build)
    # before any work: never over the build file, the app's data, a device, a read-only
    # file, or an existing file without --force
    checked_output(args, output, [args.build])
    sheet = sheet_of_build_file(args)

    from dlhw_desktop.ui.pdf import ensure_gui_application, write_build_sheet_pdf

    ensure_gui_application()
    try:
        info = write_build_sheet_pdf(sheet, output, args.paper, protect=[args.build])
    except ValueError as exc:  # an unknown paper name from a caller bypassing argparse
        raise DlhwError(str(exc)) from None
    except OSError as exc:  # e.g. a name longer than the file system takes
        name = output.name if len(output.name) <= 60 else output.name[:57] + "..."
        raise DlhwError(f"cannot write {name}: {exc.strerror or exc}") from None
    if info.missing_glyphs:
        print(f"dlhw: warning: the bundled font lacks {info.missing_glyphs!r}; those "
              "characters may print as boxes", file=sys.stderr)
    pages = f"{info.pages} page{'s' if info.pages != 1 else ''}"
    print(f"wrote {info.path} ({pages}, {info.paper.upper()}, "
          f"{info.size_bytes / 1024:,.0f} KB)")
    return 0


def sheet_of_build_file(args: argparse.Namespace) -> BuildSheet:
    """The build sheet of ``args.build`` (its warnings to stderr): what ``export`` prints
    as PDF and ``share`` as text."""
    from dlhw_desktop.catalog.userparts import PartResolver
    from dlhw_desktop.core.build import buildfile
    from dlhw_desktop.core.build.tiers import tiers_from_rows
    from dlhw_desktop.core.build.workload_fit import workload_check
    from dlhw_desktop.core.checks import check_build
    from dlhw_desktop.reports.build_sheet import sheet_from_catalog

    catalog = open_catalog(args)
    resolver = PartResolver(catalog)
    find = resolver.find
    loaded = buildfile.load(args.build, find)
    warn_user_parts(resolver)
    for warning in loaded.warnings:
        print(f"dlhw: warning: {warning}", file=sys.stderr)
    try:
        tiers = tiers_from_rows(catalog.tier_rows())
    except CatalogError as exc:
        print(f"dlhw: warning: workload tiers unavailable ({exc})", file=sys.stderr)
        tiers = {}
    report = check_build(loaded.build, None, tiers, extra_checks=[workload_check(find)])
    sheet = sheet_from_catalog(loaded.build, report, catalog, warnings=loaded.warnings,
                               date=args.date)
    return sheet


def cmd_share(args: argparse.Namespace) -> int:
    from dlhw_desktop.reports.build_share import share_text

    sys.stdout.write(share_text(sheet_of_build_file(args), args.format))
    return 0
