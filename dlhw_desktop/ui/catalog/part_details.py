"""The details pane: every figure of a part with its unit, source link and date."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from html import escape
from urllib.parse import urlsplit

from PySide6.QtCore import QEvent, QUrl, Signal
from PySide6.QtGui import QAction, QContextMenuEvent, QDesktopServices, QGuiApplication, QPalette
from PySide6.QtWidgets import QTextBrowser, QWidget

from dlhw_desktop.catalog.part_query import Filter, PartQuery
from dlhw_desktop.catalog.store import Catalog
from dlhw_desktop.core.fields import Category, detail_fields_for
from dlhw_desktop.core.formatting import price_range_text
from dlhw_desktop.core.limits import plural
from dlhw_desktop.core.parts import YOUR_FIGURE_SOURCE, FigureSource, Part, format_value
from dlhw_desktop.core.prices.kinds import Price, describe_price, is_stale
from dlhw_desktop.core.reader_notes import reader_note
from dlhw_desktop.core.tensor_math import ESTIMATE_MARK, is_computed
from dlhw_desktop.core.user_figures import settable_fields
from dlhw_desktop.ui.common.theme import status_ink

# In-app links of the details pane: a chip's list of cards, a card's chip.
CARDS_SCHEME = "dlhw-cards"
PART_SCHEME = "dlhw-part"
ENTER_SCHEME = "dlhw-enter"  # "Enter it…" / "Change…" a figure of the part shown
FORGET_SCHEME = "dlhw-forget"  # "Remove" a figure the user entered


@dataclass(frozen=True, slots=True)
class ChipLinks:
    """A chip's number of board-partner cards, or a card's chip (its display name)."""

    card_count: int = 0
    chip_name: str = ""
    prices: tuple[Price, ...] = ()
    """Every dated purchase price the catalog holds for the part, newest first."""
    names: Mapping[str, str] = field(default_factory=dict)
    """Display names of the parts a figure names by id (a platform's GPUs, an offer's)."""


PART_ID_FIELDS = ("supported_gpus", "accelerator_id")
"""Figures whose value is part ids (';'-separated): shown by the parts' names."""


def _ids(part: Part, name: str) -> list[str]:
    return [i.strip() for i in part.text(name).split(";") if i.strip()]


def cards_filter(chip_id: str) -> Filter:
    """The catalog filter that keeps one chip's board-partner cards."""
    return Filter("chip_id", "eq", chip_id)


def catalog_chip_links(catalog: Catalog) -> Callable[[Part], ChipLinks | None]:
    """What the details pane says of chips and cards, read from ``catalog``."""

    def links(part: Part) -> ChipLinks | None:
        if part.custom:
            return None
        prices = tuple(catalog.prices_of(part.id))
        names = {i: found.display_name for name in PART_ID_FIELDS for i in _ids(part, name)
                 if (found := catalog.find(i)) is not None}
        if part.category is not Category.ACCELERATOR:
            return ChipLinks(prices=prices, names=names)
        chip_id = part.text("chip_id")
        if chip_id:
            chip = catalog.find(chip_id)
            return ChipLinks(chip_name=chip.display_name if chip else "", prices=prices)
        count = catalog.count(PartQuery(category=Category.ACCELERATOR,
                                        filters=(cards_filter(part.id),)))
        return ChipLinks(card_count=count, prices=prices)

    return links


def chip_html(part: Part, links: ChipLinks | None) -> str:
    """"61 board-partner cards · List them" on a chip; "Built on <chip>" on a card."""
    if links is None or part.category is not Category.ACCELERATOR:
        return ""
    chip_id = part.text("chip_id")
    if chip_id:
        name = escape(links.chip_name or chip_id)
        return (f"<p>Board-partner card built on <a href='{PART_SCHEME}:"
                f"{escape(chip_id, quote=True)}'>{name}</a>: its memory, bandwidth and "
                "compute figures are the chip's; length, width, power connectors, board "
                "power and cooling are its own.</p>")
    if links.card_count:
        plural = "s" if links.card_count != 1 else ""
        return (f"<p>{links.card_count:,} board-partner card{plural} built on this chip · "
                f"<a href='{CARDS_SCHEME}:{escape(part.id, quote=True)}'>List them</a></p>")
    return ""


def part_html(part: Part, links: ChipLinks | None = None, enterable: bool = False) -> str:
    """HTML for one part; unknown figures read "n/a", each figure's source is a link.
    ``enterable``: a missing figure offers "Enter it…", one the user entered "Change…"
    and "Remove"."""
    settable = ({s.name for s in settable_fields(part.category)}
                if enterable and not part.custom and part.category is not Category.CLOUD
                else set())
    rows: list[str] = []
    rows.append(_row(part, "Price", _price_text(part), "price_usd", html=True))
    if links is not None and len({p.price_date for p in links.prices}) > 1:
        rows.append("<tr><td style='color:gray'>Price history</td><td>"
                    + history_html(links.prices) + "</td></tr>")
    head = [("Released", format_value("release_year", part.release_year), "release_year"),
            ("Family", format_value("family", part.family), "family")]
    for label, text, name in head:
        rows.append(_row(part, label, text, name))
    for spec in detail_fields_for(part.category):
        text = format_value(spec.name, part.get(spec.name))
        if spec.name == "chip_id" and links is not None and links.chip_name:
            text = links.chip_name
        elif spec.name in PART_ID_FIELDS and text != "n/a":
            ids = _ids(part, spec.name)
            text = ("; ".join(links.names.get(i, "a part not in the catalog") for i in ids)
                    if links is not None else plural(len(ids), "accelerator"))
        rows.append(_row(part, spec.header, text, spec.name,
                         enterable=spec.name in settable))
    notes = f"<p>{escape(reader_note(part.notes))}</p>" if part.notes else ""
    dl_note = reader_note(part.text("dl_note"))
    flag = (f"<p style='color:#b26a00'><b>Note:</b> {escape(dl_note)}</p>"
            if dl_note else "")
    custom = "<p><i>Custom part (yours, not from the catalog)</i></p>" if part.custom else ""
    return (
        f"<h3 style='margin-bottom:2px'>{escape(part.display_name)}</h3>"
        f"<div style='color:gray'>{escape(part.category.label)} · id <code>{escape(part.id)}"
        f"</code></div>{custom}{chip_html(part, links)}{flag}"
        "<table cellspacing='0' cellpadding='3' width='100%'>" + "".join(rows) + "</table>"
        f"{notes}<p style='color:gray'>Source: {_link(part.source)} (read "
        f"{escape(part.source_date)})</p>"
    )


def _price_text(part: Part) -> str:
    """The price with its kind and the date it held; a price over 12 months old says so."""
    hourly = part.get("price_per_hour_usd")
    if part.price_usd is None and hourly is None:
        if part.price_kind == "user_quote":  # a quote in a currency without a rate
            note = part.source_of("price_usd").note
            return (f"n/a in US dollars <span style='color:gray'>— "
                    f"{escape(note or describe_price(part.price_kind, part.price_date))}"
                    "</span>")
        return "n/a"
    amount = (price_range_text(part.price_usd, part.price_high_usd)
              if part.price_usd is not None else format_value("price_per_hour_usd", hourly))
    described = escape(describe_price(part.price_kind, part.price_date))
    if is_stale(part.price_date):
        described = f"<span style='color:#b26a00'>{described}</span>"
    return f"{escape(amount)} <span style='color:gray'>— {described}</span>"


def history_html(prices: tuple[Price, ...]) -> str:
    """Each dated price, newest first: "2023-08-01: $25,000–30,000, reported figure (not a
    list price) · source" (a price rises and falls; a buyer sees when it held)."""
    lines = []
    for price in prices:
        amount = (price_range_text(price.amount, price.amount_high) if price.currency == "USD"
                  else f"{price.amount:,.0f} {price.currency}")
        link = (f" · <a href='{escape(price.source, quote=True)}'>source</a>"
                if web_address(price.source) else "")
        lines.append(f"{escape(price.price_date)}: {escape(amount)} <span "
                     f"style='color:gray'>{escape(price.kind.label)}</span>{link}")
    return "<br>".join(lines)


def _row(part: Part, label: str, text: str, name: str, *, html: bool = False,
         enterable: bool = False) -> str:
    """One figure; ``html`` says ``text`` is already markup (the price with its kind)."""
    src = part.source_of(name)
    muted = " style='color:gray'" if text == "n/a" else ""
    own = ""
    if enterable and text == "n/a":
        own = f" <a href='{ENTER_SCHEME}:{name}'>Enter it…</a>"
    elif enterable and src.source == YOUR_FIGURE_SOURCE:
        return (f"<tr><td style='color:gray'>{escape(label)}</td><td>{escape(text)} "
                f"<span style='color:#2e7d32'>(your figure, entered "
                f"{escape(src.source_date)})</span> <a href='{ENTER_SCHEME}:{name}'>Change…"
                f"</a> · <a href='{FORGET_SCHEME}:{name}'>Remove</a></td></tr>")
    if src.source != part.source and text != "n/a" and not own:
        src = FigureSource(src.source, src.source_date, reader_note(src.note))
        title = escape(f"{src.source} (read {src.source_date})" + (
            f" — {src.note}" if src.note else ""), quote=True)
        own = (f" <a href='{escape(src.source, quote=True)}' title='{title}'>source</a>"
               if web_address(src.source) else f" <span title='{title}'>(source: "
               f"{escape(src.source)})</span>")
        note = src.note
        if is_computed(note):
            text = ESTIMATE_MARK + text
        if note:
            own += f" <span style='color:gray'>({escape(note)})</span>"
    return (f"<tr><td style='color:gray'>{escape(label)}</td>"
            f"<td{muted}>{text if html else escape(text)}{own}</td></tr>")


def web_address(text: str) -> bool:
    """Only http(s) addresses become links: a catalog row or a custom part could carry
    ``javascript:``, ``file:`` or any other scheme, which are shown as plain text."""
    if any(ord(c) < 0x21 or c == "\x7f" for c in text):
        return False
    try:
        parts = urlsplit(text)
    except ValueError:
        return False
    return parts.scheme.lower() in ("http", "https") and bool(parts.netloc)


def _link(source: str) -> str:
    if web_address(source):
        return f"<a href='{escape(source, quote=True)}'>{escape(source)}</a>"
    return escape(source)


class PartDetails(QTextBrowser):
    """Read-only HTML view of one part; http(s) links open in the browser, nothing else."""

    status_message = Signal(str)
    chip_cards_requested = Signal(str)  # a chip's id: list its board-partner cards
    part_requested = Signal(str)  # a part's id: show it (a card's chip)
    figure_requested = Signal(str, str)  # part id, field: enter or change a figure
    figure_removal_requested = Signal(str, str)  # part id, field: forget your figure

    def __init__(self, parent: QWidget | None = None,
                 chip_links: Callable[[Part], ChipLinks | None] | None = None,
                 enterable: bool = False) -> None:
        super().__init__(parent)
        self._chip_links = chip_links
        self._enterable = enterable
        self.setObjectName("part_details")
        self.setOpenLinks(False)  # never navigate inside the pane, never open other schemes
        self.setOpenExternalLinks(False)
        self.anchorClicked.connect(self.open_link)
        self._part: Part | None = None
        self.show_part(None)

    def open_link(self, url: QUrl) -> bool:
        """Open an http(s) address in the browser (tests replace ``QDesktopServices``).

        Where no browser opens it (a locked-down or headless machine), the address is
        copied instead and the status bar says so: a click never fails silently."""
        text = url.toString()
        if url.scheme() == CARDS_SCHEME:
            self.chip_cards_requested.emit(url.path())
            return True
        if url.scheme() == PART_SCHEME:
            self.part_requested.emit(url.path())
            return True
        if url.scheme() in (ENTER_SCHEME, FORGET_SCHEME) and self._part is not None:
            signal = (self.figure_requested if url.scheme() == ENTER_SCHEME
                      else self.figure_removal_requested)
            signal.emit(self._part.id, url.path())
            return True
        if not web_address(text):
            return False
        if QDesktopServices.openUrl(QUrl(text)):
            return True
        self.copy_link(text)
        self.status_message.emit(f"No browser opened the source; its address is copied: "
                                 f"{text}")
        return False

    def copy_link(self, text: str) -> None:
        QGuiApplication.clipboard().setText(text)

    def contextMenuEvent(self, event: QContextMenuEvent) -> None:
        """A source link's menu offers "Copy link address" besides the usual copy."""
        menu = self.createStandardContextMenu(event.pos())
        anchor = self.anchorAt(event.pos())
        if anchor and web_address(anchor):
            action = QAction("Copy link address", menu)
            action.setObjectName("action_copy_link")
            action.triggered.connect(lambda: self._copied(anchor))
            first = menu.actions()[0] if menu.actions() else None
            menu.insertAction(first, action)
        menu.exec(event.globalPos())

    def _copied(self, text: str) -> None:
        self.copy_link(text)
        self.status_message.emit(f"Copied {text}")

    @property
    def part(self) -> Part | None:
        return self._part

    def show_part(self, part: Part | None) -> None:
        self._part = part
        if part is None:
            self.setHtml("<p style='color:gray'>Select a part to see every figure and "
                         "where it comes from.</p>")
        else:
            links = self._chip_links(part) if self._chip_links is not None else None
            self.setHtml(self._inked(part_html(part, links, self._enterable)))

    def _inked(self, html: str) -> str:
        """The pane's muted and status colours at 4.5:1 on the current theme's paper."""
        paper = self.palette().color(QPalette.ColorRole.Base)
        muted = self.palette().color(QPalette.ColorRole.PlaceholderText).name()
        return (html.replace("color:gray", f"color:{muted}")
                .replace("color:#b26a00", f"color:{status_ink('warn', paper)}")
                .replace("color:#2e7d32", f"color:{status_ink('pass', paper)}"))

    def changeEvent(self, event: QEvent) -> None:
        super().changeEvent(event)
        if event.type() == QEvent.Type.PaletteChange:
            self.show_part(self._part)
