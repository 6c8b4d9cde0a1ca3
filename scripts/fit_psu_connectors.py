"""Fit the power supplies' cable-count bands from the catalog and measure them held out.

    python scripts/fit_psu_connectors.py [--catalog catalog.db]

Prints ``CONNECTOR_BANDS`` for ``core/checks/psu_connector_model.py`` and the held-out
error: each unit with a published count is left out, its band recomputed from the others,
and needs of 1-8 cables judged against it (a pass the unit cannot feed, a fail it can).
"""

from __future__ import annotations

import argparse

from dlhw_desktop.catalog.store import Catalog
from dlhw_desktop.core.checks.psu_connector_model import bands, leave_out, rows
from dlhw_desktop.core.fields import Category


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--catalog", default="catalog.db")
    args = parser.parse_args()
    data = rows(Catalog.open(args.catalog).parts(Category.PSU))
    for key, value in bands(data).items():
        print(f"    {key!r}: {value!r},")
    print(f"{len(data)} published counts; held out: {leave_out(data)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
