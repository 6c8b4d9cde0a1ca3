"""The details pane: every figure of a part with its unit, source link and date."""

from __future__ import annotations

from html import escape
from urllib.parse import urlsplit

from PySide6.QtCore import QUrl, Signal
from PySide6.QtGui import QAction, QContextMenuEvent, QDesktopServices, QGuiApplication
from PySide6.QtWidgets import QTextBrowser, QWidget

from dlhw_desktop.core.fields import detail_fields_for
from dlhw_desktop.core.parts import Part, format_value
from dlhw_desktop.core.prices import describe_price, is_stale


def part_html(part: Part) -> str:
    """HTML for one part; unknown figures read "n/a", each figure's source is a link."""
    rows: list[str] = []
    rows.append(_row(part, "Price", _price_text(part), "price_usd", html=True))
    head = [("Released", format_value("release_year", part.release_year), "release_year"),
            ("Family", format_value("family", part.family), "family")]
    for label, text, name in head:
        rows.append(_row(part, label, text, name))
    for spec in detail_fields_for(part.category):
        rows.append(_row(part, spec.header, format_value(spec.name, part.get(spec.name)),
                         spec.name))
    notes = f"<p>{escape(part.notes)}</p>" if part.notes else ""
    dl_note = part.get("dl_note")
    flag = (f"<p style='color:#b26a00'><b>Note:</b> {escape(str(dl_note))}</p>"
            if dl_note else "")
    custom = "<p><i>Custom part (yours, not from the catalog)</i></p>" if part.custom else ""
    return (
        f"<h3 style='margin-bottom:2px'>{escape(part.display_name)}</h3>"
        f"<div style='color:gray'>{escape(part.category.label)} · <code>{escape(part.id)}"
        f"</code></div>{custom}{flag}"
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
    amount = (format_value("price_usd", part.price_usd) if part.price_usd is not None
              else format_value("price_per_hour_usd", hourly))
    described = escape(describe_price(part.price_kind, part.price_date))
    if is_stale(part.price_date):
        described = f"<span style='color:#b26a00'>{described}</span>"
    return f"{amount} <span style='color:gray'>— {described}</span>"


def _row(part: Part, label: str, text: str, name: str, *, html: bool = False) -> str:
    """One figure; ``html`` says ``text`` is already markup (the price with its kind)."""
    src = part.source_of(name)
    muted = " style='color:gray'" if text == "n/a" else ""
    own = ""
    if src.source != part.source and text != "n/a":
        title = escape(f"{src.source} (read {src.source_date})" + (
            f" — {src.note}" if src.note else ""), quote=True)
        own = (f" <a href='{escape(src.source, quote=True)}' title='{title}'>source</a>"
               if web_address(src.source) else f" <span title='{title}'>(source: "
               f"{escape(src.source)})</span>")
        if src.note:
            own += f" <span style='color:gray'>({escape(src.note)})</span>"
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

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
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
            self.setHtml(part_html(part))
