"""Small value parsers the detectors share: "24576 MiB", "80 GB", "[N/A]"."""

from __future__ import annotations

import json
import re
from typing import Any

NA_TEXT = re.compile(r"^\[?\s*(n/?a|not supported|unknown error|unknown|gpu is lost|err!?|"
                 r"insufficient permissions|requested functionality has been deprecated)\s*\]?$",
                 re.IGNORECASE)



def parse_quantity(text: str | None, default_unit: str = "") -> tuple[float, str] | None:
    """``"81559"``, ``"81559 MiB"``, ``"700.00 W"``, ``"[N/A]"`` -> (value, unit) or None."""
    if text is None:
        return None
    cleaned = text.strip().strip('"')
    if not cleaned or NA_TEXT.match(cleaned):
        return None
    match = re.match(r"^([-+]?\d+(?:[.,]\d+)?)\s*([A-Za-z/]*)", cleaned)
    if not match:
        return None
    value = float(match.group(1).replace(",", "."))
    return value, (match.group(2) or default_unit)


def memory_gb(value: float, unit: str) -> float | None:
    """A memory figure in the catalog's GB (binary, as GPU memory is sold)."""
    factors = {"b": 1 / 2**30, "kb": 1 / 2**20, "kib": 1 / 2**20, "mb": 1 / 1024,
               "mib": 1 / 1024, "gb": 1.0, "gib": 1.0, "tb": 1024.0, "tib": 1024.0}
    factor = factors.get(unit.lower())
    if factor is None or value <= 0:
        return None
    return round(value * factor, 2)


def json_document(text: str) -> Any:
    """The JSON in a tool's output, skipping warnings printed before it."""
    for start, char in enumerate(text):
        if char in "{[":
            try:
                value, _ = json.JSONDecoder().raw_decode(text[start:])
                return value
            except json.JSONDecodeError:
                continue
    return None
