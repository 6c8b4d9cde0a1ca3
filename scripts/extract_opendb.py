"""Regenerate resources/catalog/opendb/*.csv from a BuildCores OpenDB snapshot.

    python scripts/extract_opendb.py ../shared/datasets/buildcores-open-db-136a77a.tar.gz

The snapshot may be the .tar.gz or its unpacked folder. Then ``make catalog``.
"""

from __future__ import annotations

import argparse
import importlib
import importlib.util
import sys
from pathlib import Path

from dlhw_desktop.catalog.opendb.extract import extract
from dlhw_desktop.resources import catalog_sources_dir

# Modules that register more extractors (``opendb.extract.register``) when imported.
PLUGIN_MODULES = ("dlhw_desktop.catalog.partner_cards",)


def _load_plugins() -> None:
    for name in PLUGIN_MODULES:
        if importlib.util.find_spec(name) is not None:
            importlib.import_module(name)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("snapshot", type=Path, help="the .tar.gz or its unpacked folder")
    parser.add_argument("-o", "--output", type=Path, default=None,
                        help="folder to write (default resources/catalog/opendb)")
    args = parser.parse_args(argv)
    if not args.snapshot.exists():
        print(f"{args.snapshot} does not exist", file=sys.stderr)
        return 2
    _load_plugins()
    output = args.output or catalog_sources_dir() / "opendb"
    report = extract(args.snapshot, output)
    for name in sorted(report.rows):
        print(f"{name:<20} {report.rows[name]:>6} rows {report.bytes_written[name]:>10,} bytes")
    print(f"{'total':<20} {sum(report.rows.values()):>6} rows "
          f"{sum(report.bytes_written.values()):>10,} bytes")
    for line in report.skipped:
        print(f"skipped {line}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
