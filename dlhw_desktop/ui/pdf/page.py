"""Paper sizes and the page's geometry, in device pixels of a 300-dpi ``QPdfWriter``.

Everything on the sheet is laid out in those pixels: ``mm()`` and ``pt()`` convert, so
a 10 pt font, a 0.25 mm rule and a 15 mm margin mean what they say on paper.
"""

from __future__ import annotations

from dataclasses import dataclass

from PySide6.QtCore import QRectF
from PySide6.QtGui import QPageSize

DPI = 300
PAPERS: dict[str, QPageSize.PageSizeId] = {
    "a4": QPageSize.PageSizeId.A4,
    "letter": QPageSize.PageSizeId.Letter,
}
PAPER_MM: dict[str, tuple[float, float]] = {"a4": (210.0, 297.0), "letter": (215.9, 279.4)}


def mm(value: float) -> float:
    return value / 25.4 * DPI


def pt(value: float) -> float:
    return value / 72.0 * DPI


def paper_key(paper: str) -> str:
    key = paper.strip().lower()
    if key not in PAPERS:
        raise ValueError(f"unknown paper {paper!r}; expected one of {', '.join(PAPERS)}")
    return key


@dataclass(frozen=True, slots=True)
class PageGeometry:
    """A page: its size, margins and the footer band, all in device pixels."""

    paper: str
    width: float
    height: float
    left: float = mm(15)
    right: float = mm(15)
    top: float = mm(13)
    bottom: float = mm(10)
    footer: float = mm(9)
    """The band above the bottom margin that holds the footer on every page."""

    @classmethod
    def for_paper(cls, paper: str) -> PageGeometry:
        key = paper_key(paper)
        width_mm, height_mm = PAPER_MM[key]
        return cls(key, mm(width_mm), mm(height_mm))

    @property
    def content_width(self) -> float:
        return self.width - self.left - self.right

    @property
    def content_height(self) -> float:
        return self.height - self.top - self.bottom - self.footer

    @property
    def content(self) -> QRectF:
        return QRectF(self.left, self.top, self.content_width, self.content_height)

    @property
    def footer_rect(self) -> QRectF:
        return QRectF(self.left, self.height - self.bottom - self.footer + mm(3),
                      self.content_width, self.footer - mm(3))
