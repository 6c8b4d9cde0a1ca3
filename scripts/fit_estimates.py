"""Refit the models behind the checks' estimated figures from the catalog, and measure
each held out (run after rebuilding the catalog; a test fails when a model drifts).

    python scripts/fit_estimates.py [--catalog catalog.db] [MODEL ...]  (clearance, connectors,
                                                                      radiators, spacing)

For each model it prints the constants to paste into its module and its error on rows left
out of the fit:
- clearance: ``CLEARANCE_BANDS`` (core/checks/case_clearance_model.py), towers' cooler
  clearance; each case left out, coolers of 120-200 mm judged against the others' band;
- connectors: ``CONNECTOR_BANDS`` (core/checks/psu_connector_model.py), supplies' PCIe 8-pin
  and 16-pin counts; each unit left out, needs of 1-8 cables judged;
- radiators: ``RADIATOR_GROUPS`` (core/checks/radiator_model.py), towers' largest radiator;
  each model left out, AIOs of 120-480 mm judged;
- spacing: ``SPACING_ATX`` (core/checks/slot_spacing_model.py), ATX boards' x16 spacing;
  each model left out, first cards of 1-4 slots judged.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable, Iterable
from typing import Any

from dlhw_desktop.catalog.store import Catalog
from dlhw_desktop.core.checks import (
    case_clearance_model,
    psu_connector_model,
    radiator_model,
    slot_spacing_model,
)
from dlhw_desktop.core.fields import Category
from dlhw_desktop.core.parts import Part

Model = tuple[Category, Callable[[Iterable[Part]], list[Any]],
              Callable[[list[Any]], dict[Any, Any]], Callable[[list[Any]], dict[str, float]], str]

MODELS: dict[str, Model] = {
    "clearance": (Category.CASE, case_clearance_model.rows, case_clearance_model.bands,
                  case_clearance_model.leave_out, "towers with a published clearance"),
    "connectors": (Category.PSU, psu_connector_model.rows, psu_connector_model.bands,
                   psu_connector_model.leave_out, "published cable counts"),
    "radiators": (Category.CASE, radiator_model.models, radiator_model.fit,
                  radiator_model.leave_out, "tower models with a published largest radiator"),
    "spacing": (Category.MOTHERBOARD, slot_spacing_model.models,
                lambda data: {"SPACING_ATX": slot_spacing_model.fit(data)},
                slot_spacing_model.leave_out, "ATX board models with a published x16 spacing"),
}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--catalog", default="catalog.db")
    parser.add_argument("models", nargs="*", metavar="MODEL",
                        help=f"one or more of {', '.join(MODELS)} (default: all)")
    args = parser.parse_args()
    unknown = [m for m in args.models if m not in MODELS]
    if unknown:
        parser.error(f"unknown model {', '.join(unknown)}: choose from {', '.join(MODELS)}")
    catalog = Catalog.open(args.catalog)
    for name in args.models or MODELS:
        category, rows, fit, leave_out, what = MODELS[name]
        data = rows(catalog.parts(category))
        print(f"{name}:")
        for key, value in fit(data).items():
            print(f"    {key!r}: {value!r},")
        print(f"  {len(data)} {what}; held out: {leave_out(data)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
