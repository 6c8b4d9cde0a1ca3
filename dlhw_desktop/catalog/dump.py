"""A canonical text dump of a catalog's content, to compare two builds independent of bytes."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterator
from pathlib import Path

_ORDER = {"parts": "id", "figure_sources": "part_id, field",
          "workload_tiers": "tier, component, level", "meta": "key"}


def canonical_lines(path: Path) -> Iterator[str]:
    """Every row of every content table as sorted JSON lines (the FTS index is derived)."""
    conn = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro&immutable=1", uri=True)
    try:
        for table, order in _ORDER.items():
            cursor = conn.execute(f"SELECT * FROM {table} ORDER BY {order}")
            names = [d[0] for d in cursor.description]
            yield f"# {table}: {json.dumps(names)}"
            for row in cursor:
                yield json.dumps(row, ensure_ascii=False)
    finally:
        conn.close()
