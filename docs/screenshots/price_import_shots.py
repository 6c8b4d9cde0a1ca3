"""Screenshots of File > Import price list… on a vendor's quote (docs/screenshots).

Run from the repository under a real X server, e.g.
``QT_QPA_PLATFORM=xcb xvfb-run -a -s "-screen 0 1600x1000x24" .venv/bin/python
docs/screenshots/price_import_shots.py docs/screenshots``.
"""

from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path

from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QApplication

QUOTE = """Pos.;Hersteller-Artikelnummer;Bezeichnung;Einzelpreis;Währung;Datum;Lieferant
1;;GeForce RTX 4090;1.649,00;EUR;2026-11-20;ACME GmbH
2;;RTX 4090;1.600,00;EUR;2026-11-20;ACME GmbH
3;100-100000910WOF;AMD Ryzen 9 9950X;589,00;EUR;2026-11-20;ACME GmbH
4;;Corsair RM1000x;179,90;EUR;2026-11-20;ACME GmbH
5;;Montage und Test;120,00;EUR;2026-11-20;ACME GmbH
6;;GeForce RTX 4080;auf Anfrage;EUR;2026-11-20;ACME GmbH
7;;Samsung 990 PRO 2TB;169,00;EUR;2026-11-20;ACME GmbH
"""


def main(out: Path) -> None:
    os.environ["DLHW_DATA_DIR"] = tempfile.mkdtemp()
    app = QApplication(sys.argv)
    from dlhw_desktop.catalog.pricebook import PriceBook

    from dlhw_desktop.catalog.store import Catalog
    from dlhw_desktop.ui.common.theme import apply_theme
    from dlhw_desktop.ui.prices.import_dialog import PriceImportDialog

    def settle(ms: int = 250) -> None:
        done = [False]
        QTimer.singleShot(ms, lambda: done.__setitem__(0, True))
        while not done[0]:
            app.processEvents()

    quote = Path(tempfile.mkdtemp()) / "angebot-acme.csv"
    quote.write_bytes(QUOTE.encode("cp1252"))
    catalog = Catalog.open("catalog.db")
    for w, h in ((1600, 1000), (1280, 720)):
        for theme in ("light", "dark"):
            apply_theme(app, theme)
            book = PriceBook(Path(tempfile.mkdtemp()) / "book.db")
            dialog = PriceImportDialog(quote, catalog, book)
            dialog.resize(min(1200, w - 80), min(700, h - 80))
            dialog.show()
            while dialog.preview is None and not dialog.message.text():
                settle(100)
            dialog.table.selectRow(1)
            settle()
            dialog.grab().save(str(out / f"price-import-{w}x{h}-{theme}.png"), "PNG", 0)
            dialog.close()


if __name__ == "__main__":
    main(Path(sys.argv[1]))
