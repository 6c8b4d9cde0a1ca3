"""A large synthetic catalog (e.g. 100,000 parts) for tests and benchmarks of the UI's scale.

It copies the real catalog and adds variants of its parts with perturbed figures, so the
search, filters and sorting face realistic text and value distributions.
"""

from __future__ import annotations

import random
import shutil
import sqlite3
from pathlib import Path

from dlhw_desktop.catalog.search import search_text

_SUFFIXES = ("OC", "Gaming", "Pro", "Turbo", "Blower", "Eagle", "Windforce", "TUF", "Strix",
             "Ventus", "Founders", "Aero", "Xtreme", "Lite", "Max", "Ultra")


def make_synthetic_catalog(source: Path, output: Path, total_parts: int = 100_000,
                           seed: int = 7) -> Path:
    """Copy ``source`` to ``output`` and grow it to ``total_parts`` parts."""
    shutil.copyfile(source, output)
    rng = random.Random(seed)
    conn = sqlite3.connect(output)
    try:
        columns = [r[1] for r in conn.execute("PRAGMA table_info(parts)")]
        rows = conn.execute(f"SELECT {', '.join(columns)} FROM parts").fetchall()
        have = len(rows)
        idx = {c: i for i, c in enumerate(columns)}
        next_rowid = int(conn.execute("SELECT max(rowid) FROM parts").fetchone()[0]) + 1
        batch: list[list[object]] = []
        fts: list[tuple[int, str, str]] = []
        for n in range(max(0, total_parts - have)):
            base = list(rows[rng.randrange(have)])
            suffix = f"{rng.choice(_SUFFIXES)} {n:06d}"
            base[idx["id"]] = f"{base[idx['id']]}-syn-{n:06d}"
            base[idx["name"]] = f"{base[idx['name']]} {suffix}"
            for numeric in ("price_usd", "tdp_w", "memory_gb", "capacity_gb", "wattage_w"):
                value = base[idx[numeric]]
                if isinstance(value, int | float):
                    scaled = value * rng.uniform(0.8, 1.25)
                    base[idx[numeric]] = round(scaled) if isinstance(value, int) else round(
                        scaled, 2)
            text = search_text(base[idx["vendor"]], base[idx["name"]], base[idx["family"]])
            batch.append([next_rowid, *base])
            fts.append((next_rowid, text, base[idx["category"]]))
            next_rowid += 1
        marks = ", ".join("?" for _ in range(len(columns) + 1))
        conn.executemany(f"INSERT INTO parts (rowid, {', '.join(columns)}) VALUES ({marks})",
                         batch)
        conn.executemany("INSERT INTO parts_fts (rowid, search_text, category) "
                         "VALUES (?, ?, ?)", fts)
        conn.commit()
    finally:
        conn.close()
    return output
