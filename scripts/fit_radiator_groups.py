"""Fit the towers' largest-radiator groups from the catalog and measure them held out.

    python scripts/fit_radiator_groups.py [--catalog catalog.db]

Prints ``RADIATOR_GROUPS`` for ``core/checks/radiator_model.py`` and the held-out error:
each tower model with a published largest radiator is left out, and AIO sizes of 120-480 mm
are judged against the rest of its group (a pass the model does not take).
"""

from __future__ import annotations

import argparse

from dlhw_desktop.catalog.store import Catalog
from dlhw_desktop.core.checks.radiator_model import fit, leave_out, models
from dlhw_desktop.core.fields import Category


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--catalog", default="catalog.db")
    args = parser.parse_args()
    data = models(Catalog.open(args.catalog).parts(Category.CASE))
    for key, value in fit(data).items():
        print(f"    {key!r}: {value!r},")
    print(f"{len(data)} tower models with a published figure; held out: {leave_out(data)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
