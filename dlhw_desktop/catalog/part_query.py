"""What a catalog search asks for, and the SQL it becomes.

``PartQuery`` (category, typed text, field filters, order, the compatible-parts rules)
is what the Catalog tab, the planner's picker and ``dlhw find`` ask ``Catalog.count`` and
``Catalog.search`` for. Here it is turned into a full-text ``MATCH`` expression, a
``WHERE`` clause with its parameters and an ``ORDER BY``; field names are checked against
the vocabulary before they are written into SQL, and typed text is only ever a
parameter. ``catalog.store`` runs the statements.
"""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal

from dlhw_desktop.catalog.part_rows import read_cell
from dlhw_desktop.catalog.schema import RELEVANCE_TERMS
from dlhw_desktop.catalog.search import fts_query
from dlhw_desktop.core.fields import FIELDS_BY_NAME, Category

if TYPE_CHECKING:  # the compatible-parts filter loads the checks (~100 ms): only when used
    from dlhw_desktop.catalog.part_filters import GroupCache
    from dlhw_desktop.core.compat.rules import CompatFilter

FilterOp = Literal["eq", "in", "ge", "le", "like", "null"]

RELEVANCE = "relevance"
"""The default order of a list (not a field): the most recent parts first, those with a
price before those without, then real names before names that open with punctuation or
a part number ("(PH-EC600PSC…", "0A65633 1TB HDD"), then by name. With words typed, the
catalog lists the parts matching them whole first, then by name (``Catalog.search``)."""



@dataclass(frozen=True, slots=True)
class Filter:
    """One condition on a field; field names are checked against the vocabulary.
    ``null`` with ``True`` keeps the rows where the field is unknown (``chip_id`` null:
    chips, not board-partner cards), with ``False`` those where it is known."""

    field: str
    op: FilterOp
    value: Any


@dataclass(frozen=True, slots=True)
class PartQuery:
    """What the Catalog tab (or ``dlhw find``) asks for: filter, search and order."""

    category: Category | None = None
    text: str = ""
    filters: tuple[Filter, ...] = ()
    sort_field: str = "name"
    descending: bool = False
    compat: CompatFilter | None = None
    """Only the parts that fit a build (the picker's default); applies to its category."""


def fts_match(query: PartQuery, prefix: bool = True) -> str | None:
    """The MATCH expression for the query's text, within its category if it has one
    (``prefix=False``: every word whole, see ``search.fts_query``)."""
    words = fts_query(query.text, prefix)
    if words is None:
        return None
    match = f"search_text : ({words})"
    if query.category is not None:
        match += f' AND category : "{query.category.value}"'
    return match


def compat_applies(query: PartQuery) -> bool:
    """Whether the query's compatible-parts rules narrow its category at all."""
    compat = query.compat
    return (compat is not None and query.category is compat.category
            and bool(compat.rules))


def where_clause(query: PartQuery, conn: sqlite3.Connection, groups: GroupCache
                 ) -> tuple[str, list[Any]]:
    """The ``WHERE`` clause of ``query`` (empty when it asks for everything) and its
    parameters; the compatible-parts filter reads its groups through ``conn`` once and
    keeps them in ``groups`` (the catalog's cache)."""
    clauses: list[str] = []
    params: list[Any] = []
    if query.category is not None:
        clauses.append("category = ?")
        params.append(query.category.value)
    match = fts_match(query)
    if match is not None:
        clauses.append("rowid IN (SELECT rowid FROM parts_fts WHERE parts_fts MATCH ?)")
        params.append(match)
    elif query.text.strip():
        # Only symbols typed (e.g. an emoji): search for them literally in names.
        clauses.append("name LIKE ? ESCAPE '\\'")
        params.append(f"%{escape_like(query.text.strip()[:200])}%")
    if compat_applies(query):
        assert query.compat is not None
        from dlhw_desktop.catalog.part_filters import compat_where

        more, values = compat_where(conn, groups, query.compat, read_cell)
        clauses += more
        params += values
    for flt in query.filters:
        column = checked_field(flt.field)
        if flt.op == "eq":
            clauses.append(f"{column} = ?")
            params.append(flt.value)
        elif flt.op == "in":
            values = list(flt.value)
            if not values:
                clauses.append("0")
                continue
            clauses.append(f"{column} IN ({', '.join('?' for _ in values)})")
            params.extend(values)
        elif flt.op == "ge":
            clauses.append(f"{column} >= ?")
            params.append(flt.value)
        elif flt.op == "le":
            clauses.append(f"{column} <= ?")
            params.append(flt.value)
        elif flt.op == "null":
            clauses.append(f"{column} IS {'' if flt.value else 'NOT '}NULL")
        elif flt.op == "like":
            clauses.append(f"{column} LIKE ? ESCAPE '\\'")
            params.append(f"%{escape_like(str(flt.value))}%")
        else:
            raise ValueError(f"unknown filter operation {flt.op!r}")
    return (" WHERE " + " AND ".join(clauses)) if clauses else "", params


def whole_words_first(query: PartQuery) -> tuple[str, list[Any]]:
    """The ``ORDER BY`` term (and its parameter) that lists the parts matching every typed
    word whole before those matching only by prefix; empty without typed words. Used with
    the name order (the default), never with a column the user sorts by."""
    exact = fts_match(query, prefix=False)
    if exact is None or query.sort_field != "name":
        return "", []
    return "rowid IN (SELECT rowid FROM parts_fts WHERE parts_fts MATCH ?) DESC, ", [exact]


def order_clause(query: PartQuery) -> str:
    """The ``ORDER BY`` terms of ``query``: unknown values last, ties by name, then rowid."""
    if query.sort_field == RELEVANCE:
        return f"{RELEVANCE_TERMS}, rowid"
    column = checked_field(query.sort_field)
    direction = "DESC" if query.descending else "ASC"
    spec = FIELDS_BY_NAME[column]
    collate = " COLLATE NOCASE" if spec.kind == "text" else ""
    # Ties go by rowid: the build numbers parts in id order, and the name indexes
    # carry the rowid, not the id (the id in them was 3 MB of a 26,000-part file).
    if column == "name":  # never NULL; this form matches the name indexes
        return f"name COLLATE NOCASE {direction}, rowid {direction}"
    return f"{column} IS NULL, {column}{collate} {direction}, name COLLATE NOCASE, rowid"


def checked_field(name: str) -> str:
    """``name`` if it is a field of the vocabulary (so it may be written into SQL)."""
    if name not in FIELDS_BY_NAME:
        raise ValueError(f"unknown field {name!r}")
    return name


def escape_like(text: str) -> str:
    """``text`` matched literally by ``LIKE ... ESCAPE '\\'``."""
    return text.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
