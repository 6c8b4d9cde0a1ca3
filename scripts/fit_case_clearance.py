"""Fit the tower cooler-clearance bands from the catalog and measure them held out.

    python scripts/fit_case_clearance.py [--catalog catalog.db]

Prints ``CLEARANCE_BANDS`` for ``core/checks/case_clearance_model.py`` and the held-out
error: each case with a published clearance is left out, its band recomputed from the
others, and coolers of 120-200 mm judged against it (a pass the case does not take, a
fail it does take).
"""

from __future__ import annotations

import argparse

from dlhw_desktop.catalog.store import Catalog
from dlhw_desktop.core.checks.case_clearance_model import (
    Row,
    bands,
    board_class,
    gpu_bin,
    leave_out,
)
from dlhw_desktop.core.fields import Category


def rows(catalog: Catalog) -> list[Row]:
    """Every tower with a published clearance, as the bands are keyed."""
    found: list[Row] = []
    for case in catalog.parts(Category.CASE):
        clearance = case.number("max_cooler_height_mm")
        board = board_class(case)
        if case.text("case_kind").lower() != "tower" or clearance is None or board is None:
            continue
        found.append((board, gpu_bin(case.number("max_gpu_length_mm")), clearance))
    return found


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--catalog", default="catalog.db")
    args = parser.parse_args()
    data = rows(Catalog.open(args.catalog))
    for key, value in bands(data).items():
        print(f"    {key!r}: {value!r},")
    print(f"{len(data)} towers with a clearance; held out: {leave_out(data)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
