"""``dlhw part set/list/remove`` and the store behind it: a figure entered once is used by
``dlhw check``, a bad one is refused in one line, a damaged store never crashes a command
or drops figures silently, and concurrent writers all land."""

from __future__ import annotations

import json
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from dlhw_desktop.catalog.user_figures_store import UserFiguresStore
from dlhw_desktop.cli import main
from dlhw_desktop.core.user_figures import UserFigure

CPU = "cpu/intel-core-i9-13900k"
COOLER = "cooler/noctua-nh-l9i-17xx-air-37mm-33-84-cfm-brown-beige"
PSU = "psu/corsair-hx1500i-cp-9020309-na"


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def _build(tmp_path: Path) -> Path:
    path = tmp_path / "sff.dlhw.json"
    path.write_text(json.dumps({"format": "dlhw-build", "version": 1, "name": "SFF", "parts": [
        {"id": CPU, "quantity": 1}, {"id": COOLER, "quantity": 1},
        {"id": PSU, "quantity": 1},
        {"id": "accelerator/nvidia-geforce-rtx-4090", "quantity": 2}]}))
    return path


def test_set_list_remove_and_the_check_uses_it(capsys: pytest.CaptureFixture[str],
                                               tmp_path: Path) -> None:
    code, out, _ = run(capsys, "part", "set", PSU, "ATX version", "2.x", "--note", "label")
    assert code == 0 and "ATX version 2.x" in out and "your figure of" in out
    code, out, _ = run(capsys, "part", "list", "--json")
    figures = json.loads(out)["figures"]
    assert figures == [{"part_id": PSU, "field": "atx_version", "value": "2.x",
                        "entered": figures[0]["entered"], "note": "label"}]
    build = _build(tmp_path)
    code, out, _ = run(capsys, "check", str(build), "--json")
    used = [u for c in json.loads(out)["checks"] for u in c["basis"]
            if u["part_id"] == PSU and u["field"] == "atx_version"]
    assert used and {u["kind"] for u in used} == {"your figure"}
    assert run(capsys, "part", "remove", PSU, "atx_version")[0] == 0
    code, _, err = run(capsys, "part", "remove", PSU)
    assert code == 2 and "have not entered" in err


@pytest.mark.parametrize(("args", "words"), [
    (("part", "set", COOLER, "height_mm", "5000"), "Height: '5000' is not a whole number"),
    (("part", "set", COOLER, "height_mm", "inf"), "from 10 to 250"),
    (("part", "set", "cooler/no-such-cooler", "height_mm", "50"), "no-such-cooler"),
    (("part", "set", COOLER, "wattage_w", "50"), "not a figure of a cpu cooler"),
])
def test_bad_figures_are_one_line_and_save_nothing(capsys: pytest.CaptureFixture[str],
                                                   args: tuple[str, ...], words: str) -> None:
    code, _, err = run(capsys, *args)
    assert code == 2 and words in err and "Traceback" not in err
    assert UserFiguresStore().figures() == []


def test_a_damaged_store_is_reported_and_never_written_over(
        capsys: pytest.CaptureFixture[str]) -> None:
    store = UserFiguresStore()
    store.path.parent.mkdir(parents=True, exist_ok=True)
    store.path.write_bytes(b"not a database" * 100)
    code, _, err = run(capsys, "part", "list")
    assert code == 0 and "your figures" in err and "damaged" in err
    code, _, err = run(capsys, "part", "set", PSU, "atx_version", "3.1")
    assert code == 2 and "left as it is" in err
    assert store.path.read_bytes() == b"not a database" * 100


def test_bad_rows_are_skipped_by_name_and_the_rest_kept(
        capsys: pytest.CaptureFixture[str]) -> None:
    store = UserFiguresStore()
    store.save([UserFigure(PSU, "atx_version", "3.1", "2026-11-20"),
                UserFigure(COOLER, "cooling_capacity_w", 95, "2026-11-20")])
    with sqlite3.connect(store.path) as conn:
        conn.execute("INSERT INTO figures VALUES (?, ?, ?, ?, ?)",
                     (COOLER, "height_mm", b"\x00blob", "2026-11-20", ""))
        conn.execute("INSERT INTO figures VALUES (?, ?, ?, ?, ?)",
                     (CPU, "tdp_w", "1e999", "2026-11-20", ""))
    code, out, err = run(capsys, "part", "list", "--json")
    document = json.loads(out)
    kept = {(f["part_id"], f["field"]) for f in document["figures"]}
    assert (PSU, "atx_version") in kept and (COOLER, "cooling_capacity_w") in kept
    assert any("height_mm" in p for p in document["problems"])  # reported, by name
    # the out-of-range TDP reads as a row but is refused when applied to the CPU
    code, out, err = run(capsys, "part", "fields", CPU)
    assert code == 0 and "skipped" in err and "TDP" in err
    assert "125 W (vendor)" in out  # the catalog's figure stands


def test_twenty_concurrent_writers_all_land(tmp_path: Path) -> None:
    script = (
        "import sys\n"
        "from pathlib import Path\n"
        "from dlhw_desktop.catalog.user_figures_store import UserFiguresStore\n"
        "from dlhw_desktop.core.user_figures import UserFigure\n"
        "store = UserFiguresStore(Path(sys.argv[1]))\n"
        "store.save([UserFigure(f'psu/unit-{sys.argv[2]}', 'wattage_w', 1000, '2026-11-20')])\n")
    target = tmp_path / "figures.db"
    procs = [subprocess.Popen([sys.executable, "-c", script, str(target), str(i)])
             for i in range(20)]
    assert all(p.wait(timeout=60) == 0 for p in procs)
    assert len(UserFiguresStore(target).figures()) == 20


def test_the_shared_text_says_what_the_verdict_rests_on_and_the_figures_entered(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    assert run(capsys, "part", "set", COOLER, "cooling_capacity_w", "95", "--note",
               "maker's page")[0] == 0
    code, out, _ = run(capsys, "share", str(_build(tmp_path)), "--format", "text")
    assert code == 0
    assert "rests on: Intel Core i9 13900K sustained power 253 W (vendor)" in out
    assert "heat capacity 113–125 W (measured)" in out  # a measurement outranks the box
    assert "its maker rates it 95 W (your figure)" in out
    assert "Figures entered from the box" in out and "rated heat capacity 95 W" in out


def test_a_store_that_is_not_a_file_is_reported_and_never_waited_on(
        capsys: pytest.CaptureFixture[str]) -> None:
    import os

    store = UserFiguresStore()
    store.path.parent.mkdir(parents=True, exist_ok=True)
    os.mkfifo(store.path)  # a read would block forever
    code, _, err = run(capsys, "part", "list")
    assert code == 0 and "not a regular file" in err
    code, _, err = run(capsys, "part", "set", PSU, "atx_version", "3.1")
    assert code == 2 and "left as it is" in err
