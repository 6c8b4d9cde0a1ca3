"""The catalog's SQLite schema, derived from the field vocabulary in ``core.fields``."""

from __future__ import annotations

from dlhw_desktop.core.fields import ALL_FIELDS, FieldSpec

# Bump when the layout changes; the app refuses a catalog of another version.
SCHEMA_VERSION = 7  # 2: cpu_sockets, max_sockets; 3: parts_fts.category; 4: redundant;
#                    5: parts.price_kind and the prices table;
#                    6: the server category (GPU server platforms) and its fields;
#                    7: chip_id (board-partner cards), ecc_support, dimm_kinds,
#                       connectors_eps, psu_form_factor, pcie_slot_layout

REQUIRED_TABLES = ("parts", "parts_fts", "figure_sources", "workload_tiers", "prices", "meta")

PRICE_COLUMNS: tuple[tuple[str, str], ...] = (
    ("part_id", "TEXT NOT NULL REFERENCES parts(id)"),
    ("amount", "REAL NOT NULL"),
    ("currency", "TEXT NOT NULL"),
    ("price_kind", "TEXT NOT NULL"),
    ("price_date", "TEXT NOT NULL"),
    ("source", "TEXT NOT NULL"),
    ("source_date", "TEXT NOT NULL"),
    ("note", "TEXT NOT NULL DEFAULT ''"),
)

_SQL_TYPES = {"text": "TEXT", "int": "INTEGER", "float": "REAL", "bool": "INTEGER"}

TIER_COLUMNS: tuple[tuple[str, str], ...] = (
    ("tier", "TEXT NOT NULL"),
    ("component", "TEXT NOT NULL"),
    ("level", "TEXT NOT NULL"),
    ("description", "TEXT NOT NULL"),
    ("cores", "INTEGER"),
    ("threads", "INTEGER"),
    ("memory_gb", "REAL"),
    ("ram_gb", "REAL"),
    ("capacity_gb", "REAL"),
    ("storage_kind", "TEXT"),
    ("wattage_w", "INTEGER"),
    ("efficiency_rating", "TEXT"),
    ("example_part_names", "TEXT"),
    ("source", "TEXT NOT NULL"),
    ("source_date", "TEXT NOT NULL"),
)

# Indexed for the filters and sorts the Catalog tab offers on large catalogs.
INDEXED_COLUMNS = ("category, vendor", "category, price_usd",
                   "category, tdp_w", "category, memory_gb", "category, release_year")
# The default order (name, case-insensitive). A search that matches a large share of the
# catalog walks these in order and stops at the page size instead of sorting every match.
NAME_INDEX = "parts_by_name"
CATEGORY_NAME_INDEX = "parts_by_category_name"


def column_sql(spec: FieldSpec) -> str:
    constraint = ""
    if spec.name == "id":
        constraint = " PRIMARY KEY"
    elif spec.name in ("category", "vendor", "name", "source", "source_date"):
        constraint = " NOT NULL"
    return f"{spec.name} {_SQL_TYPES[spec.kind]}{constraint}"


def create_statements() -> list[str]:
    """DDL for an empty catalog (DELETE journal mode so it opens from read-only folders)."""
    columns = ",\n  ".join(column_sql(spec) for spec in ALL_FIELDS)
    tier_columns = ",\n  ".join(f"{name} {kind}" for name, kind in TIER_COLUMNS)
    statements = [
        f"CREATE TABLE parts (\n  {columns},\n  search_text TEXT NOT NULL\n)",
        "CREATE TABLE figure_sources (\n  part_id TEXT NOT NULL REFERENCES parts(id),\n"
        "  field TEXT NOT NULL,\n  source TEXT NOT NULL,\n  source_date TEXT NOT NULL,\n"
        "  note TEXT NOT NULL DEFAULT '',\n  PRIMARY KEY (part_id, field)\n)",
        f"CREATE TABLE workload_tiers (\n  {tier_columns},\n"
        "  PRIMARY KEY (tier, component, level)\n)",
        "CREATE TABLE prices (\n  " + ",\n  ".join(f"{n} {k}" for n, k in PRICE_COLUMNS)
        + ",\n  PRIMARY KEY (part_id, price_kind, price_date, currency)\n)",
        "CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)",
        # Token-prefix search over names, vendors, families and notes; see catalog.search.
        # ``category`` lets a category's matches be counted in the index alone. The index
        # reads its text from ``parts`` (external content) instead of keeping a second copy:
        # a third of the file at 20,000 parts.
        "CREATE VIRTUAL TABLE parts_fts USING fts5(search_text, category, "
        "content = 'parts', content_rowid = 'rowid', "
        "tokenize = 'unicode61 remove_diacritics 2', prefix = '1 2 3')",
    ]
    for i, cols in enumerate(INDEXED_COLUMNS):
        statements.append(f"CREATE INDEX parts_idx_{i} ON parts ({cols})")
    statements.append(f"CREATE INDEX {NAME_INDEX} ON parts (name COLLATE NOCASE, id)")
    statements.append(
        f"CREATE INDEX {CATEGORY_NAME_INDEX} ON parts (category, name COLLATE NOCASE, id)")
    return statements
