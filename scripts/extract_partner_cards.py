#!/usr/bin/env python3
"""Regenerate ``resources/catalog/opendb/GPU.csv`` from the BuildCores OpenDB snapshot.

    python scripts/extract_partner_cards.py ../shared/datasets/buildcores-open-db-136a77a.tar.gz

The same snapshot always gives the same bytes (rows sorted by ``opendb_id``). The data is
the BuildCores OpenDB, ODC-By 1.0: keep its attribution wherever it is shown or shipped.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from dlhw_desktop.catalog.partner_card_extract import EXTRACT_FILE, extract_gpu_csv
from dlhw_desktop.core.errors import CatalogSourceError

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_SNAPSHOT = ROOT.parent / "shared" / "datasets" / "buildcores-open-db-136a77a.tar.gz"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("snapshot", nargs="?", type=Path, default=DEFAULT_SNAPSHOT,
                        help="the OpenDB snapshot tarball")
    parser.add_argument("-o", "--output", type=Path,
                        default=ROOT / "resources" / "catalog" / EXTRACT_FILE)
    args = parser.parse_args(argv)
    try:
        report = extract_gpu_csv(args.snapshot, args.output)
    except CatalogSourceError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    skipped = ", ".join(f"{n} {reason}" for reason, n in report.skipped.items()) or "none"
    print(f"wrote {args.output}: {report.rows} cards, {report.size_bytes:,} bytes; "
          f"skipped: {skipped}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
