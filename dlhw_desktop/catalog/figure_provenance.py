"""Where each figure of a catalog part comes from, read from the ``figure_sources`` table.

Every figure carries its source (a URL or document, the date it was read, a note). A
figure with a source of its own has a row; a board-partner card's chip-level figures
(``card_fields.INHERITED_FIELDS``) are its chip's, so the build stores their sources once,
on the chip, and ``inherit_sources`` gives them to the card, each saying which chip it
came from. Plain functions over the catalog's read-only connection, for ``catalog.store``.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator, Sequence

from dlhw_desktop.catalog.card_fields import INHERITED_FIELDS, inherited_note
from dlhw_desktop.catalog.source_refs import expand
from dlhw_desktop.core.parts import FigureSource

SourcesById = dict[str, dict[str, FigureSource]]
"""Figure sources by part id, then field name."""


def chunks(items: list[str], size: int) -> Iterator[list[str]]:
    """``items`` a few hundred at a time: the ids of one ``IN (...)`` list."""
    for start in range(0, len(items), size):
        yield items[start:start + size]


def figure_sources(conn: sqlite3.Connection, part_ids: Sequence[str]) -> SourcesById:
    """The stored sources of these parts' figures, by part id and field."""
    result: dict[str, dict[str, FigureSource]] = {}
    for chunk in chunks(list(part_ids), 500):
        marks = ", ".join("?" for _ in chunk)
        for r in conn.execute(
                "SELECT part_id, field, source, source_date, note FROM figure_sources "
                f"WHERE part_id IN ({marks})", chunk):
            result.setdefault(r[0], {})[r[1]] = FigureSource(expand(r[2]), r[3], r[4])
    return result


def inherit_sources(conn: sqlite3.Connection, rows: Sequence[sqlite3.Row],
                    sources: SourcesById) -> SourcesById:
    """A board-partner card's chip-level figures are its chip's: their sources are
    the chip's, each saying so (the build stores them once, on the chip)."""
    cards = {r["id"]: r["chip_id"] for r in rows if r["chip_id"]}
    if not cards:
        return sources
    inherited: dict[str, dict[str, FigureSource]] = {}
    for chunk in chunks(sorted(set(cards.values())), 500):
        marks = ", ".join("?" for _ in chunk)
        chip_sources = figure_sources(conn, chunk)
        for chip_id, source, date in conn.execute(
                f"SELECT id, source, source_date FROM parts WHERE id IN ({marks})", chunk):
            own = chip_sources.get(chip_id, {})
            fallback = FigureSource(expand(source), date, inherited_note(chip_id))
            inherited[chip_id] = {
                name: (FigureSource(own[name].source, own[name].source_date,
                                    inherited_note(chip_id, own[name].note))
                       if name in own else fallback)
                for name in INHERITED_FIELDS}
    for card_id, chip_id in cards.items():
        sources[card_id] = {**inherited.get(chip_id, {}), **sources.get(card_id, {})}
    return sources


def all_figure_sources(conn: sqlite3.Connection) -> SourcesById:
    """Every stored figure source of the catalog, by part id and field."""
    result: dict[str, dict[str, FigureSource]] = {}
    for r in conn.execute(
            "SELECT part_id, field, source, source_date, note FROM figure_sources"):
        result.setdefault(r[0], {})[r[1]] = FigureSource(expand(r[2]), r[3], r[4])
    return result
