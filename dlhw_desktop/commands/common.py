"""Helpers shared by the subcommands: opening the catalog, printing JSON."""

from __future__ import annotations

import argparse
import json
import sys
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    pass


def open_catalog(args: argparse.Namespace):
    """The catalog named by ``--catalog`` (or the bundled one), opened read-only."""
    from dlhw_desktop.catalog.store import Catalog

    return Catalog.open(args.catalog)


def print_json(data: Any) -> None:
    json.dump(data, sys.stdout, indent=2, ensure_ascii=False, sort_keys=False)
    sys.stdout.write("\n")
