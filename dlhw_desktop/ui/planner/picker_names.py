"""The picker's part names on two lines: whole where they fit, otherwise cut in the middle.

Catalog names run long ("ROG STRIX GAMING GeForce RTX 4080 SUPER 16GB GDDR6X White",
"Enthoo Pro 2 ATX Full Tower Black (PH-ES620PTG_BK02)"), and look-alikes differ at the
end (colour, the maker's model number in brackets) as often as at the start. A name is
wrapped at word boundaries onto two lines; one too long for two keeps its start on the
first line and its end on the second, the middle elided ("…"), so the series and the
model number both stay in view. ``two_lines`` is the pure layout; ``NameDelegate`` paints
it, and ``visible_text`` says what a row shows (the test reads it).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping

from PySide6.QtCore import QModelIndex, QPersistentModelIndex, QRect, QSize, Qt
from PySide6.QtGui import QFontMetrics, QPainter, QPalette
from PySide6.QtWidgets import QApplication, QStyle, QStyledItemDelegate, QStyleOptionViewItem

Index = QModelIndex | QPersistentModelIndex
ELLIPSIS = "…"
PADDING = 4
"""Pixels left and right of the text inside a cell."""
NEAR = 4
"""Rows either side of a row whose words count as "shared" when its name is cut."""


def _fit_prefix(words: list[str], width: int, advance: Callable[[str], int]) -> int:
    """How many leading words fit on one line of ``width`` (at least one)."""
    count = 1
    while count < len(words) and advance(" ".join(words[:count + 1])) <= width:
        count += 1
    return count


def _suffix(text: str, width: int, advance: Callable[[str], int]) -> str:
    """The longest end of ``text`` that fits with a leading "…", cut at a word start
    when one is close enough (else mid-word, so the tail is never lost)."""
    if advance(ELLIPSIS + text) <= width:
        return ELLIPSIS + text
    low, high = 0, len(text)  # the smallest start index whose tail fits
    while low < high:
        mid = (low + high) // 2
        if advance(ELLIPSIS + text[mid:]) <= width:
            high = mid
        else:
            low = mid + 1
    start = low
    space = text.find(" ", start)
    if 0 <= space < start + 6 and space + 1 < len(text):
        start = space + 1  # "…Black (PH-ES620PTG_BK02)" rather than "…ck (PH-…"
    return ELLIPSIS + text[start:].lstrip()


def _wrap(text: str, width: int, advance: Callable[[str], int]) -> tuple[str, str] | None:
    """``text`` wrapped at words onto two lines of ``width``, or None when it needs more."""
    words = text.split(" ")
    count = _fit_prefix(words, width, advance)
    first, rest = " ".join(words[:count]), " ".join(words[count:])
    if advance(first) <= width and advance(rest) <= width:
        return first, rest
    return None


def _without(words: list[str], dropped: set[int]) -> str:
    """The words left, each run of dropped ones shown as one "…"."""
    out: list[str] = []
    for n, word in enumerate(words):
        if n not in dropped:
            out.append(word)
        elif not out or out[-1] != ELLIPSIS:
            out.append(ELLIPSIS)
    return " ".join(out)


def two_lines(text: str, width: int, advance: Callable[[str], int],
              common: Mapping[str, int] | None = None) -> tuple[str, str]:
    """``text`` as at most two lines of ``width`` pixels (``advance`` measures a string):
    one line when it fits, wrapped at words when two hold it; else words from the middle
    give way, those that many rows share first (``common``: how many rows of the list
    hold each word, lower case), so that what tells look-alike rows apart stays ("ROG
    STRIX GAMING … White · ASUS"). Last, the start and the end with "…" between."""
    text = " ".join(text.split())
    if width <= 0 or advance(text) <= width:
        return text, ""
    wrapped = _wrap(text, width, advance)
    if wrapped is not None:
        return wrapped
    words = text.split(" ")
    middle = (len(words) - 1) / 2
    counts = common or {}
    # the first word names the series and stays; the others go most shared first, then
    # nearest the middle
    order = sorted(range(1, len(words)),
                   key=lambda n: (-counts.get(words[n].lower(), 0), abs(n - middle)))
    dropped: set[int] = set()
    for n in order[:-1]:  # keep at least one word after the first
        dropped.add(n)
        wrapped = _wrap(_without(words, dropped), width, advance)
        if wrapped is not None:
            return wrapped
    text = _without(words, dropped)
    words = text.split(" ")
    first_count = _fit_prefix(words, width, advance)
    first = " ".join(words[:first_count])
    if advance(first) > width:  # one word wider than the line: cut it
        first = _cut(first, width - advance(ELLIPSIS), advance) + ELLIPSIS
        rest = " ".join(words[1:]) or text
    else:
        rest = " ".join(words[first_count:])
    if not rest or advance(rest) <= width:
        return first, rest
    return first, _suffix(rest.removeprefix(ELLIPSIS + " "), width, advance)


def _cut(word: str, width: int, advance: Callable[[str], int]) -> str:
    """The start of one over-long word that fits ``width``."""
    end = len(word)
    while end > 1 and advance(word[:end]) > width:
        end -= 1
    return word[:end]


class NameDelegate(QStyledItemDelegate):
    """Paints a part's name on up to two lines (see ``two_lines``); greyed and decorated
    rows keep their model colours and icons. ``set_common`` gives the words the list's
    rows share (counted once per page of rows; the lines are cached per width)."""

    def __init__(self, parent=None) -> None:  # type: ignore[no-untyped-def]
        super().__init__(parent)
        self._rows: list[str] = []
        self._where: dict[str, int] = {}
        self._words: dict[int, set[str]] = {}
        self._common: dict[str, dict[str, int]] = {}  # a row's text -> its words' counts
        self._cache: dict[tuple[str, int, str], tuple[str, str]] = {}

    def set_common(self, names: Iterable[str]) -> None:
        """The list's names in order: a row's words are weighed against its neighbours'
        (``NEAR`` rows either side) when its name is cut; see ``_shared``."""
        self._rows = list(names)
        self._where = {name: n for n, name in enumerate(self._rows)}
        self._words: dict[int, set[str]] = {}
        self._common = {}
        self._cache.clear()

    def _words_of(self, row: int) -> set[str]:
        found = self._words.get(row)
        if found is None:
            found = self._words[row] = set(self._rows[row].lower().split())
        return found

    def _shared(self, text: str) -> dict[str, int] | None:
        """How many of the row's neighbours hold each of its words: look-alikes sit
        together in a sorted list, and are told apart by what they do not share with
        each other. The words the closest look-alike lacks ("OC") count as not shared.
        Worked out for the rows painted only (a change of the list stays cheap)."""
        found = self._common.get(text)
        if found is not None or text not in self._where:
            return found
        n = self._where[text]
        mine = self._words_of(n)
        near = [self._words_of(m)
                for m in range(max(0, n - NEAR), min(len(self._rows), n + NEAR + 1)) if m != n]
        twin = max(near, key=lambda other: len(mine & other) / len(mine | other or {""}),
                   default=set())
        found = self._common[text] = {
            w: c for w in mine & twin if (c := 1 + sum(w in other for other in near)) > 1}
        return found

    def text_width(self, option: QStyleOptionViewItem, index: Index) -> int:
        opt = QStyleOptionViewItem(option)
        self.initStyleOption(opt, index)
        style = opt.widget.style() if opt.widget is not None else QApplication.style()
        rect = style.subElementRect(QStyle.SubElement.SE_ItemViewItemText, opt, opt.widget)
        return rect.width() - 2 * PADDING

    def lines(self, option: QStyleOptionViewItem, index: Index) -> tuple[str, str]:
        text = str(index.data(Qt.ItemDataRole.DisplayRole) or "")
        width = self.text_width(option, index)
        key = (text, width, option.font.key())
        found = self._cache.get(key)
        if found is None:
            if len(self._cache) > 4_000:
                self._cache.clear()
            metrics = QFontMetrics(option.font)
            found = self._cache[key] = two_lines(text, width, metrics.horizontalAdvance,
                                                 self._shared(text))
        return found

    def sizeHint(self, option: QStyleOptionViewItem, index: Index) -> QSize:
        size = super().sizeHint(option, index)
        return QSize(size.width(), 2 * QFontMetrics(option.font).height() + 6)

    def paint(self, painter: QPainter, option: QStyleOptionViewItem, index: Index) -> None:
        opt = QStyleOptionViewItem(option)
        self.initStyleOption(opt, index)
        first, second = self.lines(option, index)
        opt.text = ""
        widget = opt.widget
        style = widget.style() if widget is not None else QApplication.style()
        style.drawControl(QStyle.ControlElement.CE_ItemViewItem, opt, painter, widget)
        rect = style.subElementRect(QStyle.SubElement.SE_ItemViewItemText, opt, widget)
        rect = rect.adjusted(PADDING, 0, -PADDING, 0)
        selected = bool(opt.state & QStyle.StateFlag.State_Selected)
        colour = opt.palette.color(QPalette.ColorGroup.Normal,
                                   QPalette.ColorRole.HighlightedText if selected
                                   else QPalette.ColorRole.Text)
        brush = index.data(Qt.ItemDataRole.ForegroundRole)
        if brush is not None and not selected:
            colour = brush.color() if hasattr(brush, "color") else brush
        metrics = QFontMetrics(opt.font)
        line = metrics.height()
        lines = [first] + ([second] if second else [])
        top = rect.top() + (rect.height() - line * len(lines)) // 2
        painter.save()
        painter.setFont(opt.font)
        painter.setPen(colour)
        flags = int(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter)
        for n, text in enumerate(lines):
            painter.drawText(QRect(rect.left(), top + n * line, rect.width(), line), flags,
                             text)
        painter.restore()


def visible_text(view, index: Index) -> str:  # type: ignore[no-untyped-def]
    """What ``view`` shows of ``index``'s name right now (both lines, as one string)."""
    delegate = view.itemDelegateForColumn(index.column()) or view.itemDelegate()
    option = QStyleOptionViewItem()
    option.initFrom(view.viewport())
    option.rect = view.visualRect(index)
    option.font = view.font()
    option.widget = view
    if isinstance(delegate, NameDelegate):
        first, second = delegate.lines(option, index)
        return f"{first} {second}".strip()
    text = str(index.data(Qt.ItemDataRole.DisplayRole) or "")
    return QFontMetrics(option.font).elidedText(text, view.textElideMode(),
                                                option.rect.width() - 2 * PADDING)
