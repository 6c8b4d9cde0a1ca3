"""CSV cells that a spreadsheet will not run, and read back exactly: the one place every
CSV this program writes (the price book's export, the Compare table) and reads back (a
price list import) goes through.

A spreadsheet treats a cell that begins with ``=``, ``+``, ``-`` or ``@`` as a formula
(``=HYPERLINK(...)``, ``cmd|' /C calc'!A0``), and some also a cell beginning with a tab
or a carriage return. OWASP's rule ("CSV Injection"): put a single quote in front of such
a cell, which the spreadsheet shows as text. A plain number (``-12.5``, ``1e-3``) is not a
formula and is written as it is, so a column of figures stays a column of numbers.

``restore_cell`` undoes exactly what ``neutralise_cell`` added: a cell that is a quote
followed by one of those characters loses the quote (a cell ``'=x`` we wrote was ``=x``);
nothing else is touched. So ``restore_cell(neutralise_cell(s)) == s`` for every ``s``
(a property the tests check with generated text).
"""

from __future__ import annotations

import re
from collections.abc import Iterable

FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
"""First characters that make a spreadsheet read a cell as a formula (OWASP)."""

_PLAIN_NUMBER = re.compile(r"[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?", re.ASCII)


def neutralise_cell(value: object) -> str:
    """``value`` as text a spreadsheet shows instead of running: a quote before a leading
    ``= + - @``, tab or carriage return (a plain number is left as it is). A cell that
    already begins with a quote followed by one of those gets a second quote, so reading it
    back gives it unchanged."""
    text = "" if value is None else str(value)
    if not text:
        return text
    if text[0] in FORMULA_STARTS and not _PLAIN_NUMBER.fullmatch(text):
        return "'" + text
    if text[0] == "'" and _is_neutralised(text):
        return "'" + text
    return text


def restore_cell(text: str) -> str:
    """A cell as it was before ``neutralise_cell``: the one quote it added is taken off;
    any other cell is returned unchanged."""
    return text[1:] if _is_neutralised(text) else text


def _is_neutralised(text: str) -> bool:
    """A quote, any further quotes, then a formula character: what neutralising writes."""
    stripped = text.lstrip("'")
    return (text.startswith("'") and bool(stripped) and stripped[0] in FORMULA_STARTS
            and not _PLAIN_NUMBER.fullmatch(stripped))


def csv_text(rows: Iterable[Iterable[object]]) -> str:
    """Rows as CSV text (comma separated, ``\\n`` line ends, quoted where needed), every
    cell neutralised: the one CSV writer of the program's exports."""
    lines = []
    for row in rows:
        cells = [_quoted(neutralise_cell(cell)) for cell in row]
        lines.append(",".join(cells) if cells != [""] else '""')  # as csv.writer does
    return "".join(line + "\n" for line in lines)


def _quoted(cell: str) -> str:
    """RFC 4180 quoting, also for a lone carriage return (Python's csv writer leaves a
    ``\r`` bare when its line end is ``\n``, and a reader then splits the row there)."""
    if any(c in cell for c in ',"\r\n') or cell != cell.strip(" "):
        return '"' + cell.replace('"', '""') + '"'
    return cell
