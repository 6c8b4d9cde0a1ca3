"""The attack run on what was added since issue #27 (``scripts/attack_run.py``: 166 cases
on ``dlhw part``, ``dlhw fit``'s serving flags and ``dlhw price import``'s new options):
one test per class that failed, so each stays fixed."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from dlhw_desktop.catalog.price_store import PriceBook
from dlhw_desktop.catalog.user_figures_store import UserFiguresError, UserFiguresStore
from dlhw_desktop.cli import main
from dlhw_desktop.core.prices.book import PriceBookError, UserPrice
from dlhw_desktop.core.user_figures import UserFigure
from dlhw_desktop.core.workload.errors import InvalidWorkloadError
from dlhw_desktop.core.workload.serving_request import ServingRequest, request_from_dict

GPU = "accelerator/nvidia-geforce-rtx-4090"
COOLER = "cooler/corsair-a115-air-165mm-84-5-cfm-black"
FIT = ["fit", "--model", "llama-3.1-8b", "--gpus", GPU, "--mode", "inference"]


def _immutable(path: Path, on: bool) -> bool:
    if shutil.which("chattr") is None:
        return False
    done = subprocess.run(["chattr", "+i" if on else "-i", str(path)], capture_output=True)
    return done.returncode == 0


@pytest.fixture
def frozen(tmp_path: Path):
    """Makes files and their folder immutable (read-only even for root), and undoes it."""
    made: list[Path] = []

    def freeze(*paths: Path) -> None:
        for path in paths:
            if not _immutable(path, True):
                pytest.skip("chattr +i is not available here (needs root and a filesystem "
                            "that supports it)")
            made.append(path)
    yield freeze
    for path in reversed(made):
        _immutable(path, False)


def test_a_price_book_on_a_read_only_folder_is_read_and_a_write_says_why(
        tmp_path: Path, frozen) -> None:
    folder = tmp_path / "data"
    book = PriceBook(folder / "price_book.db")
    book.save([UserPrice(GPU, 1500.0, "USD", "2026-11-20")])
    assert PriceBook(book.path).prices()  # a reader leaves -wal/-shm files, as the app does
    frozen(*sorted(folder.iterdir()), folder)
    again = PriceBook(book.path)
    assert [p.amount for p in again.prices()] == [1500.0]  # was: "unable to open database"
    with pytest.raises(PriceBookError, match=r"cannot be written|read-only"):
        again.save([UserPrice(GPU, 1400.0, "USD", "2026-11-21")])
    assert [p.amount for p in PriceBook(book.path).prices()] == [1500.0]


def test_your_figures_on_a_read_only_folder_are_read_and_a_write_says_why(
        tmp_path: Path, frozen) -> None:
    folder = tmp_path / "data"
    store = UserFiguresStore(folder / "your_figures.db")
    store.save([UserFigure(COOLER, "cooling_capacity_w", 150.0, "2026-11-20")])
    frozen(*sorted(folder.iterdir()), folder)
    again = UserFiguresStore(store.path)
    assert [f.value for f in again.figures()] == [150.0]
    with pytest.raises(UserFiguresError, match=r"read-only|cannot be written"):
        again.save([UserFigure(COOLER, "cooling_capacity_w", 180.0, "2026-11-21")])


@pytest.mark.parametrize(("flag", "value"), [
    ("--users", "２"), ("--input-tokens", "²"), ("--output-tokens", "٣"),
])
def test_whole_number_flags_take_ascii_digits_only(capsys: pytest.CaptureFixture[str],
                                                   flag: str, value: str) -> None:
    with pytest.raises(SystemExit) as ended:
        main([*FIT, flag, value])
    assert ended.value.code == 2 and "not a whole number" in capsys.readouterr().err


@pytest.mark.parametrize(("key", "value"), [
    ("target_tps", 1e-308), ("target_tps", 0.001), ("target_ttft", 1e-308),
    ("target_ttft", 0.0001),
])
def test_a_serving_target_too_small_to_show_is_refused_everywhere(key: str,
                                                                  value: float) -> None:
    with pytest.raises(InvalidWorkloadError, match="must be from"):
        request_from_dict({key: value})  # a build file's workload
    name = "target_ttft_s" if key == "target_ttft" else key
    with pytest.raises(InvalidWorkloadError):
        ServingRequest(**{name: value})


def test_the_cli_refuses_a_target_ttft_of_1e_308_in_one_line(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
        tmp_path: Path) -> None:
    monkeypatch.setenv("DLHW_DATA_DIR", str(tmp_path))
    assert main([*FIT, "--target-ttft", "1e-308"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "from 0.001 to 86,400 s" in err[0]
