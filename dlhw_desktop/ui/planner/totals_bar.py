"""Live totals of the build as tiles: a big figure and a caption that says what it counts.

Figures come from the core's ``BuildSummary``; unknown stays "n/a", and a price with
unpriced parts says how many it leaves out, so a partial sum never reads as the whole.
"""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QResizeEvent
from PySide6.QtWidgets import QFrame, QGridLayout, QLabel, QVBoxLayout, QWidget

from dlhw_desktop.core.checks import BuildSummary, CheckSettings
from dlhw_desktop.core.prices.currency import DisplayCurrency
from dlhw_desktop.ui.common.theme import set_text_style

TILE_WIDTH = 118
"""Below this width per tile the bar wraps into two rows."""

TILES = (
    ("price", "Price"),
    ("sustained", "Sustained power"),
    ("wall", "Wall draw"),
    ("heat", "Heat"),
    ("vram", "Total VRAM"),
    ("tensor", "Tensor throughput"),
    ("energy", "Energy per year"),
)


def _w(value: float | None) -> str:
    return "n/a" if value is None else f"{value:,.0f} W"


def _at_least(value: float | None) -> str:
    """A lower bound; none at all (only parts without a figure) stays "n/a"."""
    return "n/a" if not value else f"at least {value:,.0f} W"


def tile_texts(summary: BuildSummary | None, settings: CheckSettings,
               currency: DisplayCurrency | None = None) -> dict[str, tuple[str, str]]:
    """Tile key -> (value, caption). The price is in ``currency`` when its rate converts
    it, saying the rate and its date; a chosen currency without a rate stays in dollars
    and says why."""
    s = summary
    if s is None or not s.parts:
        return {key: ("—", "") for key, _ in TILES}
    price = "n/a" if s.price_usd is None else f"${s.price_usd:,.0f}"
    if s.price_usd is not None and s.price_high_usd is not None:
        price = f"from ${s.price_usd:,.0f} to ${s.price_high_usd:,.0f}"
    unpriced = s.unknown_price_parts
    price_note = (f"+ {unpriced} part{'s' if unpriced != 1 else ''} without a price"
                  if unpriced else f"{s.parts} part{'s' if s.parts != 1 else ''}")
    if currency is not None and currency.code != "USD" and s.price_usd is not None:
        price = currency.format(s.price_usd)
        if s.price_high_usd is not None:
            price = f"from {price} to {currency.format(s.price_high_usd)}"
        basis = (currency.basis() if currency.converts
                 else f"no {currency.code} rate set: in US dollars")
        price_note = f"{basis} · {price_note}"
    load = "" if s.psu_load is None else f"{s.psu_load * 100:.0f} % of the PSU"
    tflops = s.bf16_tflops if s.bf16_tflops is not None else s.fp16_tflops
    label = "BF16" if s.bf16_tflops is not None else "FP16"
    tensor = "n/a" if tflops is None else f"{tflops:,.0f} TFLOPS"
    gpus = f"{s.accelerators} accelerator{'s' if s.accelerators != 1 else ''}"
    energy = "n/a" if s.yearly_cost_usd is None else f"${s.yearly_cost_usd:,.0f}"
    energy_note = ("" if s.yearly_kwh is None else
                   f"{s.yearly_kwh:,.0f} kWh · {settings.utilisation * 100:.0f} % use · "
                   f"${settings.price_per_kwh_usd:.2f}/kWh")
    sustained = (_w(s.sustained_w), load or "DC load, sustained")
    wall = (_w(s.wall_w), s.wall_basis or "from the socket")
    heat = (_w(s.heat_w), "into the room")
    if s.power_lower_bound:  # totals for the parts that are known, and say the rest
        rest = (f"{s.unpowered_parts:,} part{'s' if s.unpowered_parts != 1 else ''} "
                "without a power figure")
        sustained = (_at_least(s.sustained_at_least_w), rest)
        wall = (_at_least(s.wall_at_least_w), rest)
        heat = (_at_least(s.heat_at_least_w), rest)
        if s.yearly_cost_at_least_usd and s.yearly_kwh_at_least:
            energy = f"at least ${s.yearly_cost_at_least_usd:,.0f}"
            energy_note = f"{s.yearly_kwh_at_least:,.0f}+ kWh · {rest}"
    return {
        "price": (price, price_note),
        "sustained": sustained,
        "wall": wall,
        "heat": heat,
        "vram": ("n/a" if s.vram_gb is None else f"{s.vram_gb:,.0f} GB", gpus),
        "tensor": (tensor, f"{label} dense, summed" if tflops is not None else gpus),
        "energy": (energy, energy_note),
    }


class TotalsBar(QFrame):
    """A row of tiles; ``show_summary`` redraws them."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("totals_bar")
        self.setFrameShape(QFrame.Shape.StyledPanel)
        self.values: dict[str, QLabel] = {}
        self.captions: dict[str, QLabel] = {}
        self.tiles: list[QWidget] = []
        self._columns = 0
        self.grid = grid = QGridLayout(self)
        grid.setContentsMargins(8, 6, 8, 6)
        grid.setHorizontalSpacing(10)
        grid.setVerticalSpacing(6)
        for key, title in TILES:
            tile = QWidget(objectName=f"total_{key}")
            box = QVBoxLayout(tile)
            box.setContentsMargins(0, 0, 0, 0)
            box.setSpacing(0)
            heading = QLabel(title.upper())
            set_text_style(heading, 8, bold=True, muted=True)
            value = QLabel("—", objectName=f"total_{key}_value")
            set_text_style(value, 14, bold=True)
            value.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
            value.setWordWrap(True)  # "at least 2,020 W" wraps in a narrow tile, never cut
            caption = QLabel("", objectName=f"total_{key}_caption")
            set_text_style(caption, 8, muted=True)
            caption.setWordWrap(True)
            box.addWidget(heading)
            box.addWidget(value)
            box.addWidget(caption)
            box.addStretch(1)
            self.tiles.append(tile)
            self.values[key] = value
            self.captions[key] = caption
        self._reflow(len(TILES))

    def _reflow(self, columns: int) -> None:
        """Tiles in one row when there is room, else in rows of ``columns``."""
        if columns == self._columns:
            return
        self._columns = columns
        for tile in self.tiles:
            self.grid.removeWidget(tile)
        for i, tile in enumerate(self.tiles):
            self.grid.addWidget(tile, i // columns, i % columns)
        for column in range(len(TILES)):
            self.grid.setColumnStretch(column, 1 if column < columns else 0)

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        self._reflow(len(TILES) if event.size().width() >= TILE_WIDTH * len(TILES) else 4)

    def show_summary(self, summary: BuildSummary | None, settings: CheckSettings,
                     currency: DisplayCurrency | None = None) -> None:
        for key, (value, caption) in tile_texts(summary, settings, currency).items():
            self.values[key].setText(value)
            self.captions[key].setText(caption)
        usd = summary.price_usd if summary is not None else None
        price_tip = ""
        if currency is not None and currency.code != "USD" and usd is not None:
            price_tip = (f"${usd:,.0f} in US dollars. " + (
                f"Shown in {currency.code} {currency.basis()}." if currency.converts else
                f"Shown in US dollars: {currency.basis()}."))
        self.tiles[0].setToolTip(price_tip)
        names = summary.unpowered_names if summary is not None else ()
        tip = ("Without a power figure (TDP): " + ", ".join(names) +
               ". The total counts the other parts; add the figure for the whole."
               if names else "")
        for key in ("sustained", "wall", "heat", "energy"):
            self.tiles[[k for k, _ in TILES].index(key)].setToolTip(tip)

    def value(self, key: str) -> str:
        return self.values[key].text()
