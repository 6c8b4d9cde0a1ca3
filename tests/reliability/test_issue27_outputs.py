"""Issue #27, files overwritten unasked: no output is ever one of the command's inputs or
the app's own data, whatever the path or link says, and an existing file is replaced only
with ``--force`` (one line on stderr, exit 2, the file untouched)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from dlhw_desktop.cli import main
from dlhw_desktop.core.files.output_guard import (
    OutputRefusedError,
    Protected,
    check_output,
    same_file,
)

BUILD = ('{"format": "dlhw-build", "version": 1, "name": "b", "parts": '
         '[{"id": "accelerator/nvidia-geforce-rtx-4090", "quantity": 1}]}')


def run(capsys: pytest.CaptureFixture[str], *args: object) -> tuple[int, str]:
    code = main([str(a) for a in args])
    return code, capsys.readouterr().err


def _ways_to(path: Path, tmp: Path) -> list[Path]:
    """Other names of ``path``: a symbolic link, a hard link, ``..`` detours."""
    link = tmp / "link"
    link.symlink_to(path)
    hard = tmp / "hard"
    os.link(path, hard)
    return [path, link, hard, path.parent / ".." / path.parent.name / path.name]


def test_every_name_of_an_input_is_refused(tmp_path: Path) -> None:
    source = tmp_path / "b.dlhw.json"
    source.write_text(BUILD)
    for name in _ways_to(source, tmp_path):
        with pytest.raises(OutputRefusedError, match=r"input file b\.dlhw\.json"):
            check_output(name, [source], force=True)
    assert source.read_text() == BUILD


@settings(max_examples=60, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(st.sampled_from(["a", "b", ".", ".."]), min_size=0, max_size=4),
       st.booleans())
def test_property_a_path_leading_to_the_price_book_is_refused(
        tmp_path: Path, detour: list[str], link: bool) -> None:
    root = tmp_path / "x"
    (root / "a" / "b").mkdir(parents=True, exist_ok=True)
    book = root / "price_book.db"
    book.write_bytes(b"SQLite format 3\x00")
    name = root.joinpath(*detour) / ".." / "x" / "price_book.db" if detour else book
    if link:
        alias = root / "a" / "alias"
        if not alias.is_symlink():
            alias.symlink_to(book)
        name = alias
    if not os.path.exists(name):
        return  # a detour through a missing folder
    with pytest.raises(OutputRefusedError, match="your price book"):
        check_output(name, [Protected(book, "your price book", side_files=True)],
                     force=True)
    assert same_file(name, book)


def test_the_price_book_journal_and_a_link_to_the_book_not_yet_made(tmp_path: Path) -> None:
    book = tmp_path / "price_book.db"
    kept = [Protected(book, "your price book", side_files=True)]
    with pytest.raises(OutputRefusedError, match="price book's journal"):
        check_output(tmp_path / "price_book.db-journal", kept)
    (tmp_path / "later").symlink_to(book)
    with pytest.raises(OutputRefusedError, match="your price book"):
        check_output(tmp_path / "later", kept)


def test_cluster_never_writes_over_its_build(tmp_path: Path,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    build = tmp_path / "b.dlhw.json"
    build.write_text(BUILD)
    for option in ("-o", "--markdown"):
        code, err = run(capsys, "cluster", build, option, build, "--force")
        assert code == 2 and "it is the input file b.dlhw.json" in err
        assert "Traceback" not in err and err.count("\n") == 1
    assert build.read_text() == BUILD


def test_an_existing_file_needs_force(tmp_path: Path,
                                      capsys: pytest.CaptureFixture[str]) -> None:
    build = tmp_path / "b.dlhw.json"
    build.write_text(BUILD)
    kept = tmp_path / "notes.md"
    kept.write_text("mine")
    for args in (["cluster", build, "--markdown", kept],
                 ["cluster", build, "-o", kept],
                 ["export", build, "-o", kept],
                 ["price", "export", "-o", kept]):
        code, err = run(capsys, *args)
        assert code == 2 and "exists" in err and "--force" in err, args
    assert kept.read_text() == "mine"


def test_price_export_never_over_the_price_book(tmp_path: Path,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    from dlhw_desktop.catalog.price_store import PriceBook
    from dlhw_desktop.core.prices.book import UserPrice

    book = PriceBook()
    book.save([UserPrice("switch:qm9700", 20000.0)])
    before = book.path.read_bytes()
    alias = tmp_path / "prices.csv"
    alias.symlink_to(book.path)
    for target in (book.path, alias):
        code, err = run(capsys, "price", "export", "-o", target, "--force")
        assert code == 2 and "your price book" in err
    assert book.path.read_bytes() == before
