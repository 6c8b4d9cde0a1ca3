"""Preview of a 10,000-row price list (issue #17: at most 2 s, with progress, nothing
saved): read, map columns, check every row and match it against every catalog part; and
the first import of a session, which also reads the catalog's names (the app keeps them).

The list mixes what vendor quotes hold: catalog names with a euro price, manufacturer
part numbers, names with a suffix, unknown items and rows whose price is not a number;
semicolon-separated, Windows-1252. It is matched against the bundled catalog and against
the same parts twice under other ids (a catalog twice today's ~26,000 parts). The ratio
compares the preview with only reading the CSV.
"""

from __future__ import annotations

import csv
import io
import random
import sys
from dataclasses import replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _common import emit, summarize, time_ms

from dlhw_desktop.catalog.store import Catalog
from dlhw_desktop.core.fields import Category
from dlhw_desktop.core.prices.price_list import PartIndex, preview_import
from dlhw_desktop.resources import bundled_catalog_path

ROWS = 10_000
GOAL_MS = 2000.0


def price_list(parts: list, rows: int = ROWS) -> bytes:
    rnd = random.Random(17)
    lines = ["Mfr. Part #;Description;Unit Price;Currency;Quote date"]
    for i in range(rows):
        part = rnd.choice(parts)
        kind = i % 5
        if kind == 0:
            lines.append(f";{part.display_name};{rnd.randint(50, 5000)},00;EUR;2026-11-20")
        elif kind == 1:
            lines.append(f"XK-{i:06d};Widget {i};{rnd.randint(5, 500)}.50;USD;2026-11-20")
        elif kind == 2:
            lines.append(f";{part.name} (bulk);1.{rnd.randint(100, 999)},00;EUR;2026-11-20")
        elif kind == 3:
            lines.append(f"{part.name.replace(' ', '-')}-{i};;{rnd.randint(50, 5000)};USD;")
        else:
            lines.append(f";Cable {i};n/a;USD;")
    return ("\n".join(lines) + "\n").encode("cp1252", errors="replace")


def main() -> None:
    catalog = Catalog(bundled_catalog_path())
    parts = [p for c in Category for p in catalog.parts(c)]
    bigger = parts + [replace(p, id=f"{p.id}-copy{n}", name=f"{p.name} v{n}")
                      for n in range(1, 2) for p in parts]
    data = price_list(parts)
    calls: list[tuple[int, int]] = []
    preview = preview_import(data, parts, progress=lambda d, t: calls.append((d, t)))
    read_only = time_ms(lambda: list(csv.reader(io.StringIO(data.decode("cp1252")),
                                                delimiter=";")), 5)
    small = time_ms(lambda: preview_import(data, parts), 5)

    def first_import() -> None:  # what File > Import price list does the first time
        index = PartIndex(catalog.part_names(leave_out=[Category.CLOUD]))
        preview_import(data, index)
    first = time_ms(first_import, 3)
    big = time_ms(lambda: preview_import(data, bigger), 3)
    result = {
        "rows": ROWS, "catalog_parts": len(parts), "bigger_catalog_parts": len(bigger),
        "summary": preview.summary(), "progress_calls": len(calls),
        "preview_ms": summarize(small), "preview_bigger_catalog_ms": summarize(big),
        "first_import_with_catalog_read_ms": summarize(first),
        "csv_read_only_ms": summarize(read_only),
        "ratio_to_csv_read": round(summarize(small)["median_ms"]
                                   / summarize(read_only)["median_ms"], 1),
        "goal_ms": GOAL_MS,
        "within_goal": max(summarize(big)["median_ms"],
                           summarize(first)["median_ms"]) <= GOAL_MS,
    }
    emit("price list preview, 10,000 rows", result)


if __name__ == "__main__":
    main()
