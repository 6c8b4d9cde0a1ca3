"""Draw the catalog audit's fixed sample: cells (part, figure) a buyer would read, by seed.

    python scripts/audit_sample.py [--catalog catalog.db] [--seed 20261128] > sample.csv

Cells are drawn per category in the proportions below (what a deep-learning build is made
of), from parts with a value in that figure, so the sample is the same for the same catalog
and seed. Each row names the part, the figure's human label, its value as the app shows it,
and the source the catalog gives for it: the auditor checks it against the maker's datasheet
or a review and writes the verdict beside it (resources/catalog/research/audit_*.csv).
"""

from __future__ import annotations

import argparse
import csv
import random
import sys

from dlhw_desktop.catalog.store import Catalog
from dlhw_desktop.core.fields import Category, field_label, fields_for
from dlhw_desktop.core.parts import format_value
from dlhw_desktop.core.prices.kinds import PriceKind

PER_CATEGORY: dict[Category, int] = {
    Category.ACCELERATOR: 60, Category.CPU: 40, Category.PSU: 25, Category.MOTHERBOARD: 25,
    Category.CASE: 20, Category.COOLER: 20, Category.CLOUD: 20, Category.SERVER: 15,
    Category.MEMORY: 10, Category.STORAGE: 5,
}
"""240 cells: at least 200 verifiable is the audit's bar."""

LEFT_OUT = {"id", "category", "name", "vendor", "notes", "source", "source_date", "family",
            "chip_id"}
"""Identity and provenance: not figures a buyer checks."""


def shown(name: str, value: object) -> str:
    """The value as the app shows it (a price kind by its label, not its code)."""
    if name == "price_kind" and value:
        return PriceKind(str(value)).label
    return format_value(name, value)  # type: ignore[arg-type]


def sample(catalog: Catalog, seed: int) -> list[dict[str, str]]:
    rng = random.Random(seed)
    rows: list[dict[str, str]] = []
    for category, count in PER_CATEGORY.items():
        parts = catalog.parts(category)
        names = [f.name for f in fields_for(category) if f.name not in LEFT_OUT]
        cells = [(p, n) for p in parts for n in names if p.get(n) not in (None, "")]
        cells.sort(key=lambda c: (c[0].id, c[1]))
        for part, name in rng.sample(cells, min(count, len(cells))):
            rows.append({
                "category": category.value, "part_id": part.id, "part": part.display_name,
                "field": name, "label": field_label(name),
                "value": shown(name, part.get(name)),
                "catalog_source": part.source_of(name).source,
            })
    return rows


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--catalog", default="catalog.db")
    parser.add_argument("--seed", type=int, default=20261128)
    args = parser.parse_args()
    rows = sample(Catalog.open(args.catalog), args.seed)
    writer = csv.DictWriter(sys.stdout, fieldnames=list(rows[0]), lineterminator="\n")
    writer.writeheader()
    writer.writerows(rows)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
