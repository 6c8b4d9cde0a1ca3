"""``dlhw export``: a saved build to a PDF sheet from the command line, end to end."""

from __future__ import annotations

import errno
import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from dlhw_desktop.cli import main

pytestmark = pytest.mark.skipif(shutil.which("pdftotext") is None,
                                reason="needs poppler-utils")

PARTS = [
    {"id": "cpu/amd-ryzen-9-9950x", "quantity": 1},
    {"id": "motherboard/asus-tuf-gaming-b650-plus-wifi", "quantity": 1},
    {"id": "memory/g-skill-trident-z5-rgb-96gb-2x48gb-ddr5-6400-cl32-f5-6400j3239f48gx2-tz5rk",
     "quantity": 1},
    {"id": "accelerator/nvidia-geforce-rtx-4090", "quantity": 1},
    {"id": "storage/samsung-990-pro-2tb-mz-v9p2t0b-am", "quantity": 1},
    {"id": "psu/seasonic-focus-gx-850-atx-3", "quantity": 1},
    {"id": "cooler/be-quiet-dark-rock-pro-5", "quantity": 1},
    {"id": "case/fractal-design-torrent", "quantity": 1},
]


def write_build(folder: Path, parts: list[dict[str, Any]] | None = None,
                name: str = "RTX 4090 desk box") -> Path:
    path = folder / "desk box.dlhw.json"
    path.write_text(json.dumps({
        "format": "dlhw-build", "version": 1, "name": name, "notes": "For the vision team.",
        "parts": PARTS if parts is None else parts,
        "workload": {"tier": "less-demanding", "model": "llama-3.1-8b", "mode": "qlora",
                     "batch": 2, "seq": 2048, "tokens": 1e8},
    }), encoding="utf-8")
    return path


def run(capsys: pytest.CaptureFixture[str], *args: str | Path) -> tuple[int, str, str]:
    code = main([str(a) for a in args])
    out, err = capsys.readouterr()
    return code, out, err


def text_of(pdf: Path) -> str:
    return subprocess.run(["pdftotext", "-raw", str(pdf), "-"], capture_output=True,
                          text=True, check=True).stdout


def pdfinfo(pdf: Path) -> str:
    return subprocess.run(["pdfinfo", str(pdf)], capture_output=True, text=True,
                          check=True).stdout


@pytest.fixture(autouse=True)
def _qt(qapp: Any) -> None:
    """A QApplication made by pytest-qt, so the command reuses it (never a bare
    QGuiApplication that later widget tests could not use)."""


def test_export_writes_a_sheet_that_reads_back(capsys: pytest.CaptureFixture[str],
                                               tmp_path: Path) -> None:
    build = write_build(tmp_path)
    out_pdf = tmp_path / "sheet.pdf"
    code, out, err = run(capsys, "export", build, "-o", out_pdf, "--date", "2026-02-01")
    assert code == 0, err
    assert err == ""
    assert re.fullmatch(rf"wrote {re.escape(str(out_pdf))} \([1-4] pages?, A4, \d+ KB\)\n",
                        out)
    text = text_of(out_pdf)
    flat = re.sub(r"\s+", "", text)
    for name in ("AMD Ryzen 9 9950X", "NVIDIA GeForce RTX 4090", "Seasonic FOCUS GX-850",
                 "Fractal Design Torrent"):
        assert name.replace(" ", "") in flat, name
    assert "RTX 4090 desk box" in text and "exported 2026-02-01" in text
    assert "Llama 3.1 8B: QLoRA fine-tuning" in text
    info = pdfinfo(out_pdf)
    assert re.search(r"Page size:\s+595(\.\d+)? x 842(\.\d+)? pts", info)


def test_letter_and_default_output_name(capsys: pytest.CaptureFixture[str],
                                        tmp_path: Path) -> None:
    build = write_build(tmp_path)
    code, out, _ = run(capsys, "export", build, "--paper", "letter")
    expected = tmp_path / "desk box.pdf"
    assert code == 0 and str(expected) in out and "LETTER" in out
    assert re.search(r"Page size:\s+612(\.\d+)? x 792(\.\d+)? pts", pdfinfo(expected))


def test_bad_build_file_exits_2_in_one_line(capsys: pytest.CaptureFixture[str],
                                            tmp_path: Path) -> None:
    bad = tmp_path / "broken.dlhw.json"
    bad.write_text("{not json", encoding="utf-8")
    out_pdf = tmp_path / "sheet.pdf"
    code, out, err = run(capsys, "export", bad, "-o", out_pdf)
    assert (code, out) == (2, "")
    assert err.count("\n") == 1 and "invalid JSON" in err and "Traceback" not in err
    assert not out_pdf.exists()
    code, _, err = run(capsys, "export", tmp_path / "missing.dlhw.json", "-o", out_pdf)
    assert code == 2 and err.startswith("dlhw: error: cannot open")


def test_unknown_part_warns_and_still_writes_na(capsys: pytest.CaptureFixture[str],
                                                tmp_path: Path) -> None:
    parts = [*PARTS, {"id": "accelerator/acme-ghost-9000", "quantity": 2,
                      "category": "accelerator", "name": "Acme Ghost 9000"}]
    build = write_build(tmp_path, parts)
    out_pdf = tmp_path / "sheet.pdf"
    code, _, err = run(capsys, "export", build, "-o", out_pdf)
    assert code == 0
    assert err.startswith("dlhw: warning: Acme Ghost 9000 (accelerator/acme-ghost-9000) is "
                          "not in the catalog")
    text = text_of(out_pdf)
    assert "Acme Ghost 9000" in text and "not in the catalog" in text
    assert "n/a" in text and "Read with care" in text


def test_unwritable_target_exits_2_and_writes_nothing(capsys: pytest.CaptureFixture[str],
                                                     tmp_path: Path) -> None:
    build = write_build(tmp_path)
    blocker = tmp_path / "report.txt"
    blocker.write_text("a file, not a folder")
    code, out, err = run(capsys, "export", build, "-o", blocker / "sheet.pdf")
    assert (code, out) == (2, "")
    assert err.count("\n") == 1 and "is a file, not a folder" in err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["desk box.dlhw.json", "report.txt"]


def test_failed_export_keeps_the_existing_sheet(capsys: pytest.CaptureFixture[str],
                                               tmp_path: Path,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    build = write_build(tmp_path)
    out_pdf = tmp_path / "sheet.pdf"
    assert run(capsys, "export", build, "-o", out_pdf)[0] == 0
    good = out_pdf.read_bytes()

    def full(fd: int) -> None:
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(os, "fsync", full)
    code, _, err = run(capsys, "export", build, "-o", out_pdf, "--paper", "letter", "--force")
    assert code == 2 and "the disk is full" in err
    assert out_pdf.read_bytes() == good
    assert sorted(p.name for p in tmp_path.iterdir()) == ["desk box.dlhw.json", "sheet.pdf"]


@pytest.mark.slow
def test_headless_without_display_or_system_fonts(tmp_path: Path) -> None:
    """A fresh process with no DISPLAY and no fonts fontconfig can find: offscreen Qt, the
    bundled DejaVu Sans embedded, the text extractable (not boxes)."""
    build = write_build(tmp_path)
    out_pdf = tmp_path / "sheet.pdf"
    conf = tmp_path / "fonts.conf"
    conf.write_text('<?xml version="1.0"?><!DOCTYPE fontconfig SYSTEM "fonts.dtd">'
                    f"<fontconfig><dir>{tmp_path / 'no-fonts'}</dir>"
                    f"<cachedir>{tmp_path / 'fc-cache'}</cachedir></fontconfig>")
    env = {k: v for k, v in os.environ.items()
           if k not in ("DISPLAY", "WAYLAND_DISPLAY", "QT_QPA_PLATFORM")}
    env.update(FONTCONFIG_FILE=str(conf), QT_QPA_FONTDIR=str(tmp_path / "no-fonts"))
    done = subprocess.run([sys.executable, "-m", "dlhw_desktop", "export", str(build), "-o",
                           str(out_pdf)], capture_output=True, text=True, env=env,
                          timeout=120, check=False)
    assert done.returncode == 0, done.stderr
    fonts = subprocess.run(["pdffonts", str(out_pdf)], capture_output=True, text=True,
                           check=True).stdout.splitlines()[2:]
    assert fonts and all("DejaVuSans" in f and re.search(r"\byes\s+\w+\s+yes\b", f)
                         for f in fonts)
    assert "NVIDIA GeForce RTX 4090" in text_of(out_pdf)


@pytest.mark.parametrize("fmt", ["markdown", "bbcode", "text"])
def test_share_prints_the_build_as_people_post_it(capsys: pytest.CaptureFixture[str],
                                                  tmp_path: Path, fmt: str) -> None:
    build = write_build(tmp_path)
    code, out, err = run(capsys, "share", build, "--format", fmt, "--date", "2026-01-15")
    assert code == 0, err
    assert "NVIDIA GeForce RTX 4090" in out and "2026-01-15" in out
    if fmt == "markdown":
        assert "| Part | Qty | Price | Subtotal |" in out
    if fmt == "bbcode":
        assert "[list]" in out and "[/list]" in out
    code, _, err = run(capsys, "share", tmp_path / "missing.dlhw.json")
    assert code == 2 and err.count("\n") == 1
