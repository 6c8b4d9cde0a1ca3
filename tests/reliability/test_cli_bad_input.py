"""Every subcommand, on bad arguments and bad files, exits 2 with one line on stderr."""

from __future__ import annotations

from pathlib import Path

import pytest

from dlhw_desktop.cli import main


def run(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str]:
    try:
        code = main(args)
    except SystemExit as exc:  # argparse usage errors
        code = int(exc.code or 0)
    return code, capsys.readouterr().err


@pytest.fixture
def bad_files(tmp_path: Path) -> dict[str, Path]:
    files = {
        "missing": tmp_path / "missing.dlhw.json",
        "binary": tmp_path / "binary.dlhw.json",
        "not_build": tmp_path / "list.dlhw.json",
        "newer": tmp_path / "newer.dlhw.json",
        "folder": tmp_path,
    }
    files["binary"].write_bytes(b"\xff\xfe\x00garbage\x80")
    files["not_build"].write_text("[1, 2, 3]")
    files["newer"].write_text('{"format": "dlhw-build", "version": 99, "parts": []}')
    return files


CASES = [
    ["find", "--category", "toaster"],
    ["find", "--limit", "0", "rtx"],
    ["find", "--limit", "many"],
    ["show"],
    ["show", "accelerator/no-such-part"],
    ["show", ""],
    ["catalog"],
    ["catalog", "frobnicate"],
    ["catalog", "build", "--sources", "/no/such/folder"],
    ["models", "--bogus"],
    ["fit"],
    ["fit", "--model", "no-such-model", "--mode", "inference", "--precision", "bf16"],
    ["fit", "--params", "-5", "--mode", "training", "--precision", "bf16"],
    ["fit", "--model", "llama-3.1-8b", "--mode", "dancing", "--precision", "bf16"],
    ["fit", "--model", "llama-3.1-8b", "--mode", "inference", "--precision", "bf16",
     "--gpus", "accelerator/no-such-gpu"],
    ["fit", "--model", "llama-3.1-8b", "--mode", "inference", "--precision", "bf16",
     "--batch", "-1"],
    ["check"],
    ["export"],
    ["detect", "--nonsense"],
    ["--catalog", "/no/such/catalog.db", "find", "rtx"],
    ["--nope"],
]


@pytest.mark.parametrize("args", CASES, ids=[" ".join(c) or "empty" for c in CASES])
def test_bad_arguments(args: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    code, err = run(args, capsys)
    assert code == 2, err
    assert "Traceback" not in err
    assert err.strip() and err.strip().count("\n") == 0, err


@pytest.mark.parametrize("kind", ["missing", "binary", "not_build", "newer", "folder"])
@pytest.mark.parametrize("command", [["check"], ["export", "-o", "{tmp}/out.pdf"],
                                     ["fit", "--model", "llama-3.1-8b", "--mode", "inference",
                                      "--precision", "bf16", "--build"]])
def test_bad_build_files(command: list[str], kind: str, bad_files: dict[str, Path],
                         tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    args = [a.replace("{tmp}", str(tmp_path)) for a in command] + [str(bad_files[kind])]
    if command[0] == "export":
        args = ["export", str(bad_files[kind]), "-o", str(tmp_path / "out.pdf")]
    code, err = run(args, capsys)
    assert code == 2, err
    assert "Traceback" not in err and err.strip().count("\n") == 0, err
    assert not (tmp_path / "out.pdf").exists()
