"""Screenshots of the checks panel judging CPU cooling: an estimated cooler (a Core
i9-13900K at its 253 W under a Thermalright Peerless Assassin 120 SE) and a measured one
(the same CPU under the 37 mm NH-L9i-17xx), at 1600x1000 and 1280x720, light and dark; the
cooler's height judged in a tower whose clearance is estimated from towers like it; two
cards' cables judged on a supply whose count is estimated from units like it; a 360 mm
AIO in a tower whose largest radiator is estimated from towers like it; and a cooler whose
capacity the user entered from the box ("your figure").

Usage: .venv/bin/python scripts/shoot_verdicts.py [OUT_DIR [KIND ...]]
(default docs/screenshots, every kind; two RTX 3090s on an ATX board whose x16 spacing is
estimated from boards like it is the kind "spacing")
Run under Xvfb (scripts/xvfb-session.sh) or with QT_QPA_PLATFORM=offscreen.
"""

from __future__ import annotations

import sys
from pathlib import Path

from _shots import build_windows, sandbox

REPO = Path(__file__).resolve().parent.parent
CPU = "cpu/intel-core-i9-13900k"
BOARD = "motherboard/asus-rog-strix-z790-e-gaming-wifi-lga1700-ddr5-atx"
COOLERS = {"estimated": "cooler/thermalright-peerless-assassin-120-se",
           "measured": "cooler/noctua-nh-l9i-17xx-air-37mm-33-84-cfm-brown-beige",
           "entered": "cooler/deepcool-ak620-zero-dark",
           "missing": "cooler/thermaltake-ux200-argb-lighting-cpu-cooler",
           "clearance": "cooler/noctua-nh-d15",
           "connectors": "cooler/noctua-nh-d15",
           "radiator": "cooler/arctic-liquid-freezer-iii-pro-360mm-black",
           "spacing": "cooler/noctua-nh-d15"}
CASE = "case/be-quiet-silent-base-600-atx-mid-tower-black"
"""A tower whose cooler clearance the open data lacks: judged against towers like it."""
SELECTED = {"clearance": "compat.cooler_height", "connectors": "power.connectors",
            "radiator": "compat.radiator", "spacing": "compat.x16_slots"}
BIG_TOWER = "case/fractal-design-meshify-2-atx-mid-tower-black"
"""A tower whose largest radiator the open data lacks: judged against towers like it."""
CARDS_AND_PSU = ("accelerator/asus-tuf-gaming-oc-geforce-rtx-3090-24-gb",
                 "accelerator/gigabyte-eagle-geforce-rtx-3090-24gb-gddr6x-black",
                 "psu/corsair-hx1000i-1000w-80-platinum-certified-fully-modular")
"""Two RTX 3090s on a supply that lists no PCIe 8-pin count: judged from units like it."""
SPACING_BOARD = "motherboard/asus-z690-rog-maximus-hero-lga1700-ddr5-atx"
"""An ATX board with two x16 slots whose positions the catalog lacks."""
ENTERED = ("cooling_capacity_w", 260, "DeepCool's product page")
"""The AK620 Zero Dark has no height, radiator or rating in the open data: its capacity is
entered from the box, as a user would with "Enter it…"."""


NAMES = {"estimated": "Core i9-13900K under an estimated cooler",
         "measured": "Core i9-13900K under a measured cooler",
         "entered": "Core i9-13900K, cooler capacity entered from the box",
         "missing": "Core i9-13900K under a cooler with no figures: enter it",
         "clearance": "NH-D15 in a tower whose clearance is not published",
         "connectors": "Two RTX 3090s on an HX1000i that lists no PCIe 8-pin count",
         "radiator": "A 360 mm AIO in a tower whose largest radiator is not published",
         "spacing": "Two RTX 3090s on an ATX board whose x16 spacing is not published"}


def main() -> int:
    out = Path(sys.argv[1]) if len(sys.argv) > 1 else REPO / "docs" / "screenshots"
    out.mkdir(parents=True, exist_ok=True)
    folder = sandbox()
    from PySide6.QtTest import QTest

    from dlhw_desktop.catalog.store import Catalog
    from dlhw_desktop.catalog.user_figures_store import UserFiguresStore
    from dlhw_desktop.core.user_figures import make_figure

    catalog = Catalog.open()
    entered = catalog.find(COOLERS["entered"])
    if entered is not None:
        field, value, note = ENTERED
        UserFiguresStore().save([make_figure(entered, field, value, note)])
    kinds = tuple(sys.argv[2:]) or tuple(COOLERS)
    for window, theme, width, height, kind in build_windows(catalog, folder, kinds):
        tab = window.build_tab
        board = SPACING_BOARD if kind == "spacing" else BOARD
        chosen = (CPU, board, COOLERS[kind], *((CASE,) if kind == "clearance" else ()),
                  *((BIG_TOWER,) if kind == "radiator" else ()),
                  *(CARDS_AND_PSU if kind in ("connectors", "spacing") else ()))
        tab.add_parts([p for p in chosen if catalog.find(p)])
        tab.set_name(NAMES[kind])
        tab.undo_stack.setClean()
        QTest.qWait(250)
        tab.checks.select_check(SELECTED.get(kind, "cooling.cpu"))
        QTest.qWait(250)
        path = out / f"cooling-{kind}-{width}x{height}-{theme}.png"
        window.grab().save(str(path))
        print("wrote", path)
        window.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
