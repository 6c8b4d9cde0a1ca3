"""Helpers shared by the subcommands: opening the catalog, printing JSON."""

from __future__ import annotations

import argparse
import json
import math
import sys
from collections.abc import Callable
from typing import Any

MAX_CLI_INT = 10**12
"""Whole-number options (batch, sequence length, layers, ...) above this are typos: a
trillion is past every real batch, context or layer count."""


def open_catalog(args: argparse.Namespace):
    """The catalog named by ``--catalog`` (or the bundled one), opened read-only."""
    from dlhw_desktop.catalog.store import Catalog

    return Catalog.open(args.catalog)


def print_json(data: Any) -> None:
    """Strict JSON: NaN or infinity anywhere (which ``json`` would print as the non-JSON
    ``NaN``) becomes ``null`` (unknown), never a token a JSON reader refuses."""
    json.dump(json_safe(data), sys.stdout, indent=2, ensure_ascii=False, sort_keys=False,
              allow_nan=False)
    sys.stdout.write("\n")


def json_safe(value: Any) -> Any:
    """``value`` with every non-finite float replaced by ``None``."""
    if isinstance(value, float):
        return value if math.isfinite(value) else None
    if isinstance(value, dict):
        return {k: json_safe(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [json_safe(v) for v in value]
    return value


def finite_float(text: str) -> float:
    """argparse type: a finite number (``nan``, ``inf`` and ``1e999`` are refused)."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number: {text!r}") from None
    if not math.isfinite(value):
        raise argparse.ArgumentTypeError(f"not a finite number: {text!r}")
    return value


def bounded_int(low: int = 1, high: int = MAX_CLI_INT) -> Callable[[str], int]:
    """argparse type: a whole number from ``low`` to ``high``, said so when outside."""
    def parse(text: str) -> int:
        digits = text.strip().lstrip("+-")
        if not digits.isdigit() or len(digits) > 30:
            raise argparse.ArgumentTypeError(f"not a whole number (or far too large): "
                                             f"{text[:40]!r}")
        value = int(text)
        if not low <= value <= high:
            raise argparse.ArgumentTypeError(f"{value:,} is outside {low:,} to {high:,}")
        return value

    parse.__name__ = "whole number"
    return parse


def warn_user_parts(resolver: Any) -> None:
    """Say once, on stderr, that the user's parts database could not be read (a lookup
    found out), instead of letting custom parts read as "not in the catalog"."""
    problem = getattr(resolver, "problem", None)
    if problem:
        print(f"dlhw: warning: {problem}", file=sys.stderr)
