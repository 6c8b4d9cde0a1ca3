"""Issue #27, the user's stores: a price book row of the wrong type is named, said and left
out (never a traceback, never the whole book dropped) in ``price list``, ``check``,
``share``, ``export`` and at start-up; a read-only book is one line; twenty writers at
once all land; the catalog is read as a whole file or refused."""

from __future__ import annotations

import multiprocessing
import os
import sqlite3
import stat
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dlhw_desktop.catalog.price_store import PriceBook
from dlhw_desktop.cli import main
from dlhw_desktop.core.prices.book import UserPrice, price_from_row
from dlhw_desktop.core.rows import read_rows

GOOD = UserPrice("switch:qm9700", 20000.0, "USD", "2026-01-05", "quote")


def run(capsys: pytest.CaptureFixture[str], *args: object) -> tuple[int, str, str]:
    code = main([str(a) for a in args])
    out, err = capsys.readouterr()
    return code, out, err


def _damage(book: PriceBook) -> None:
    """Rows a hand edit or another program could leave: text, NULL, blob, inf amounts."""
    conn = sqlite3.connect(book.path)
    with conn:
        for part_id, amount in (("cable:400", "abc"), ("transceiver:400", None),
                                ("switch:q3400", b"\x00\x01"), ("cable:800", float("inf"))):
            conn.execute("INSERT INTO prices (part_id, amount, currency, price_date, note, "
                         "source, entered) VALUES (?, ?, 'USD', '2026-01-05', '', 'x', '')",
                         (part_id, amount))
        conn.execute("INSERT INTO rates VALUES ('EUR', 'lots', '2026-01-05')")
    conn.close()


@pytest.fixture
def damaged_book() -> PriceBook:
    book = PriceBook()
    book.save([GOOD])
    _damage(book)
    return PriceBook()


def test_bad_rows_are_named_and_left_out_the_rest_counts(damaged_book: PriceBook) -> None:
    assert [p.part_id for p in damaged_book.prices()] == [GOOD.part_id]
    problems = "\n".join(damaged_book.problems())
    for name in ("'cable:400'", "'transceiver:400'", "'switch:q3400'", "'cable:800'", "'EUR'"):
        assert name in problems
    assert "binary data" in problems and "NULL" in problems and "not a finite" in problems


def test_price_list_and_export_say_which_rows_were_left_out(
        damaged_book: PriceBook, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "price", "export")
    assert code == 0 and "switch:qm9700" in out and "cable:400" not in out
    assert "'cable:400': amount is 'abc', not a number; left out" in err
    assert "Traceback" not in err


@pytest.mark.parametrize("command", ["check", "share"])
def test_check_and_share_warn_about_a_damaged_book(
        damaged_book: PriceBook, capsys: pytest.CaptureFixture[str], tmp_path: Path,
        catalog_path: Path, command: str) -> None:
    build = tmp_path / "b.dlhw.json"
    build.write_text('{"format": "dlhw-build", "version": 1, "name": "b", "parts": '
                     '[{"id": "accelerator/nvidia-geforce-rtx-4090", "quantity": 1}]}')
    code, _, err = run(capsys, command, build)
    assert code in (0, 1) and "'cable:400'" in err and "left out" in err
    assert "Traceback" not in err


def test_a_book_that_is_not_a_database_is_said_not_ignored(
        capsys: pytest.CaptureFixture[str], tmp_path: Path, catalog_path: Path) -> None:
    PriceBook().path.parent.mkdir(parents=True, exist_ok=True)
    PriceBook().path.write_bytes(b"this is not sqlite" * 100)
    build = tmp_path / "b.dlhw.json"
    build.write_text('{"format": "dlhw-build", "version": 1, "name": "b", "parts": '
                     '[{"id": "accelerator/nvidia-geforce-rtx-4090", "quantity": 1}]}')
    code, _, err = run(capsys, "share", build)
    assert code == 0 and "your own prices are not counted" in err


@pytest.mark.skipif(os.geteuid() == 0, reason="root writes read-only files")
def test_a_read_only_book_is_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    book = PriceBook()
    book.save([GOOD])
    book.path.chmod(stat.S_IRUSR)
    for args in (("price", "remove", GOOD.part_id), ("price", "rate", "EUR", "1.08")):
        code, _, err = run(capsys, *args)
        assert code == 2 and "read-only" in err and err.count("\n") == 1


def test_a_fifo_as_the_price_book_is_refused_not_waited_on() -> None:
    book = PriceBook()
    book.path.parent.mkdir(parents=True, exist_ok=True)
    os.mkfifo(book.path)
    from dlhw_desktop.core.prices.book import PriceBookError

    with pytest.raises(PriceBookError, match="pipe"):
        book.prices()
    with pytest.raises(PriceBookError, match="pipe"):
        book.save([GOOD])
    assert not Path(f"{book.path}-journal").exists()


def _write_one(path: str, index: int) -> None:
    book = PriceBook(Path(path))
    book.save([UserPrice(f"part/{index}", 100.0 + index)])
    if index % 4 == 0:
        book.set_rate("EUR", 1.0 + index / 100)
    if index % 5 == 0:
        book.set_display_currency("EUR")


def test_twenty_concurrent_writers_all_land(tmp_path: Path) -> None:
    """20 processes write to one new book at once: every price is there afterwards."""
    path = tmp_path / "book.db"
    context = multiprocessing.get_context("fork")
    workers = [context.Process(target=_write_one, args=(str(path), i)) for i in range(20)]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join(60)
    assert [w.exitcode for w in workers] == [0] * 20
    book = PriceBook(path)
    assert {p.part_id for p in book.prices()} == {f"part/{i}" for i in range(20)}
    assert book.problems() == [] and "EUR" in book.rates()


_values = st.one_of(st.none(), st.text(max_size=10), st.binary(max_size=5),
                    st.integers(min_value=-2**70, max_value=2**70),
                    st.floats(allow_nan=True, allow_infinity=True), st.booleans())


@settings(max_examples=100, deadline=None)
@given(st.lists(st.fixed_dictionaries({
    "part_id": _values, "amount": _values, "currency": st.sampled_from(
        ["USD", "EUR", "ZZZ", "", None, 3]), "price_date": _values, "note": _values,
    "source": _values}), max_size=6))
def test_property_every_row_is_read_or_named(rows: list[dict[str, object]]) -> None:
    """Whatever a row holds, it is read or reported, never raised."""
    good, problems = read_rows(rows, price_from_row, "your price book", "part_id")
    assert len(good) + len(problems) == len(rows)
    for price in good:
        assert 0 < price.amount <= 1e9


def test_a_catalog_whose_parts_is_a_view_is_refused(tmp_path: Path, catalog_path: Path
                                                    ) -> None:
    from dlhw_desktop.catalog.store import Catalog
    from dlhw_desktop.core.errors import CatalogError

    copy = tmp_path / "catalog.db"
    copy.write_bytes(catalog_path.read_bytes())
    conn = sqlite3.connect(copy)
    conn.execute("ALTER TABLE parts RENAME TO parts_real")
    conn.execute("CREATE VIEW parts AS WITH RECURSIVE r(x) AS (SELECT 1 UNION ALL "
                 "SELECT x + 1 FROM r) SELECT * FROM parts_real, r")
    conn.commit()
    conn.close()
    with pytest.raises(CatalogError, match="view"):
        Catalog.open(copy)


def test_a_catalog_with_a_crashed_writers_journal_is_refused(tmp_path: Path,
                                                             catalog_path: Path) -> None:
    from dlhw_desktop.catalog.store import Catalog
    from dlhw_desktop.core.errors import CatalogError

    copy = tmp_path / "catalog.db"
    copy.write_bytes(catalog_path.read_bytes())
    Path(f"{copy}-journal").write_bytes(b"\xd9\xd5\x05\xf9\x20\xa1\x63\xd7" + b"\0" * 600)
    with pytest.raises(CatalogError, match="unfinished write"):
        Catalog.open(copy)


def test_a_book_sqlite_opens_read_only_is_one_line(capsys: pytest.CaptureFixture[str],
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    """As root a file's mode does not stop writes: a read-only open stands in for it."""
    book = PriceBook()
    book.save([GOOD])
    real = PriceBook._connect

    def read_only(self: PriceBook, *, write: bool) -> sqlite3.Connection:
        return real(self, write=False)

    monkeypatch.setattr(PriceBook, "_connect", read_only)
    for args in (("price", "remove", GOOD.part_id), ("price", "rate", "EUR", "1.08"),
                 ("price", "set", "switch:qm9700", "5")):
        code, _, err = run(capsys, *args)
        assert code == 2 and "read-only" in err and err.count("\n") == 1, err
    assert PriceBook().get(GOOD.part_id) == GOOD
