"""Print (and with --write, put in the catalog README) how many of the cards and servers
DL buyers price carry a price with its kind and date.

    python scripts/dl_price_coverage.py [--catalog PATH] [--write]
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from dlhw_desktop.catalog.price_coverage import coverage, rewrite, table
from dlhw_desktop.resources import bundled_catalog_path, catalog_sources_dir


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--catalog", type=Path, default=None,
                        help="a built catalog (default: the bundled catalog.db)")
    parser.add_argument("--write", action="store_true",
                        help="rewrite the coverage table in resources/catalog/README.md")
    args = parser.parse_args(argv)
    readme = catalog_sources_dir() / "README.md"
    groups = coverage(args.catalog or bundled_catalog_path(), readme)
    print(table(groups))
    missing = [i for g in groups for i in g.missing]
    if missing:
        print(f"not in the catalog: {', '.join(missing)}", file=sys.stderr)
        return 1
    if args.write:
        print("README updated" if rewrite(readme, groups) else "README already up to date")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
