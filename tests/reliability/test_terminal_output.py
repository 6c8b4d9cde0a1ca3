"""Issue 15: text from catalog rows, build files and detected devices never reaches the
terminal as escape sequences; JSON keeps every character, escaped."""

from __future__ import annotations

import json
import re
import shutil
import sqlite3
from pathlib import Path

import pytest

from dlhw_desktop.cli import main
from dlhw_desktop.commands.common import json_text, terminal_safe

NASTY = "A\x1b]0;owned\x07B\x1b[2J\x1b[31mC\x9b31mD\x1bP1$r\x1b\\E\r\x08\x00\x7f\x85F"
RAW = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")


def run(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    try:
        code = main(args)
    except SystemExit as exc:
        code = int(exc.code or 0)
    out = capsys.readouterr()
    return code, out.out, out.err


@pytest.mark.parametrize(("text", "shown"), [
    (NASTY, "ABCDEF"),
    ("tab\tand\nnewline stay", "tab\tand\nnewline stay"),
    ("Ünïcødé — 训练机 ✓", "Ünïcødé — 训练机 ✓"),
    ("\x1b", ""), ("\x1b[", ""), ("\x1b]8;;file:///etc\x1b\\link\x1b]8;;\x1b\\", "link"),
])
def test_terminal_safe(text: str, shown: str) -> None:
    assert terminal_safe(text) == shown


def test_json_escapes_what_json_dumps_leaves_raw() -> None:
    text = json_text({"name": NASTY, "ok": "Ünï — 训"})
    assert not RAW.search(text.replace("\n", ""))
    assert json.loads(text) == {"name": NASTY, "ok": "Ünï — 训"}


@pytest.fixture
def nasty_catalog(tmp_path: Path, catalog_path: Path) -> Path:
    path = tmp_path / "nasty.db"
    shutil.copyfile(catalog_path, path)
    with sqlite3.connect(path) as conn:
        conn.execute("UPDATE parts SET name = ?, notes = ? WHERE id = ?",
                     (f"RTX {NASTY}", NASTY, "accelerator/nvidia-geforce-rtx-4090"))
    return path


def test_catalog_text_is_printed_without_escapes(nasty_catalog: Path,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    for args in (["show", "accelerator/nvidia-geforce-rtx-4090"],
                 ["find", "4090", "--limit", "1000"]):
        code, out, err = run(["--catalog", str(nasty_catalog), *args], capsys)
        assert code == 0, err
        assert "ABCDEF" in out and not RAW.search(out.replace("\n", "").replace("\t", ""))
    code, out, _ = run(["--catalog", str(nasty_catalog), "show",
                        "accelerator/nvidia-geforce-rtx-4090", "--json"], capsys)
    assert json.loads(out)["name"] == f"RTX {NASTY}" and not RAW.search(out.replace("\n", ""))


def test_build_file_text_is_printed_without_escapes(tmp_path: Path,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    build = tmp_path / "b.dlhw.json"
    build.write_text(json.dumps({"format": "dlhw-build", "version": 1, "name": NASTY,
                                 "parts": [{"id": f"accelerator/{NASTY}", "quantity": 1}]}),
                     encoding="utf-8")
    for args in (["check", str(build)], ["check", str(build), "--json"]):
        code, out, err = run(args, capsys)
        assert code in (0, 1, 2)
        both = out + err
        assert "\x1b" not in both and "\x9b" not in both and "\x07" not in both
        assert not RAW.search(both.replace("\n", "").replace("\t", ""))


def test_detected_device_names_are_printed_without_escapes(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    replay = tmp_path / "replay"
    (replay / "commands").mkdir(parents=True)
    name = "NVIDIA GeForce RTX 4090 A\x1b]0;owned\x07B\x1b[2JC\x9b31mD\x1b[0mEF"
    (replay / "commands" / "nvidia-smi.txt").write_text(
        f"{name}, 24564, 450.00, 00000000:01:00.0, 550.54\n", encoding="utf-8")
    (replay / "commands" / "nvidia-smi.exit").write_text("0\n")
    code, out, err = run(["detect", "--replay", str(replay)], capsys)
    assert code == 0, err
    assert "ABCDEF" in out
    assert not RAW.search((out + err).replace("\n", "").replace("\t", ""))


def test_no_console_is_no_crash(monkeypatch: pytest.MonkeyPatch) -> None:
    """A windowed app may have no stdout or stderr at all (None)."""
    from dlhw_desktop.commands.common import safe_output

    monkeypatch.setattr("sys.stdout", None)
    monkeypatch.setattr("sys.stderr", None)
    with safe_output():
        import sys

        assert sys.stdout is None and sys.stderr is None
