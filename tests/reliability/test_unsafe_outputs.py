"""Issue 15: an output is only ever a regular file (or a new name), never the input, never
a device, FIFO, folder or read-only file; the catalog is never rebuilt inside an installed
app nor over ``--catalog``. One line on stderr and exit 2 in the CLI, nothing replaced."""

from __future__ import annotations

import json
import os
import stat
from pathlib import Path

import pytest

from dlhw_desktop.cli import main
from dlhw_desktop.core.build import buildfile
from dlhw_desktop.core.build.build import Build
from dlhw_desktop.core.errors import BuildFileError
from dlhw_desktop.core.files.atomic import UnsafeTargetError, check_target, write_atomic
from dlhw_desktop.resources import source_checkout_catalog

REPO = Path(__file__).resolve().parent.parent.parent


def run(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str]:
    try:
        code = main(args)
    except SystemExit as exc:
        code = int(exc.code or 0)
    return code, capsys.readouterr().err


def one_line(err: str) -> str:
    assert err.count("\n") == 1 and err.startswith("dlhw: error: ") and "Traceback" not in err
    return err


def build_file(folder: Path) -> Path:
    path = folder / "b.dlhw.json"
    path.write_text(json.dumps({"format": "dlhw-build", "version": 1, "name": "b",
                                "parts": [{"id": "accelerator/nvidia-geforce-rtx-4090",
                                           "quantity": 1}]}), encoding="utf-8")
    return path


@pytest.fixture
def targets(tmp_path: Path) -> dict[str, Path]:
    """Every kind of path an output must not replace (safe to try even as root: the
    device is reached through a symbolic link, so a regression replaces only the link)."""
    out = {"folder": tmp_path / "folder", "fifo": tmp_path / "fifo",
           "link_to_device": tmp_path / "null.pdf", "link_to_folder": tmp_path / "dir.pdf",
           "dangling_link": tmp_path / "gone.pdf", "read_only": tmp_path / "ro.pdf"}
    out["folder"].mkdir()
    os.mkfifo(out["fifo"])
    out["link_to_device"].symlink_to(os.devnull)
    out["link_to_folder"].symlink_to(out["folder"])
    out["dangling_link"].symlink_to(tmp_path / "nowhere")
    out["read_only"].write_bytes(b"keep me")
    out["read_only"].chmod(0o444)
    return out


def snapshot(path: Path) -> tuple[int, int, bytes | None]:
    info = os.lstat(path)
    data = path.read_bytes() if stat.S_ISREG(info.st_mode) else None
    return info.st_mode, info.st_ino, data


KINDS = ["folder", "fifo", "link_to_device", "link_to_folder", "dangling_link", "read_only"]
WHY = {"folder": "folder", "fifo": "FIFO", "link_to_device": "device",
       "link_to_folder": "folder", "dangling_link": "symbolic link to nothing",
       "read_only": "read-only"}


@pytest.mark.parametrize("kind", KINDS)
def test_the_atomic_writer_refuses_what_is_not_a_writable_regular_file(
        targets: dict[str, Path], kind: str) -> None:
    target = targets[kind]
    before = snapshot(target)
    with pytest.raises(UnsafeTargetError, match=WHY[kind]):
        write_atomic(target, b"new")
    assert snapshot(target) == before
    with pytest.raises(BuildFileError, match=WHY[kind]):  # a build save: one line
        buildfile.save(Build(name="x"), target)
    assert snapshot(target) == before


def test_device_nodes_are_refused_by_their_own_path() -> None:
    with pytest.raises(UnsafeTargetError, match="device"):
        check_target(os.devnull)  # only checked: nothing is written


def test_a_link_to_a_regular_file_is_written_through_and_kept(tmp_path: Path) -> None:
    real = tmp_path / "real.dlhw.json"
    real.write_bytes(b"old")
    link = tmp_path / "link.dlhw.json"
    link.symlink_to(real)
    write_atomic(link, b"new")
    assert link.is_symlink() and real.read_bytes() == b"new"


def test_the_input_is_protected_by_any_name(tmp_path: Path) -> None:
    source = build_file(tmp_path)
    other_name = tmp_path / "same.json"
    os.link(source, other_name)
    for name in (source, tmp_path / "." / source.name, other_name):
        with pytest.raises(UnsafeTargetError, match="input file"):
            write_atomic(name, b"pdf", protect=[source])


@pytest.mark.parametrize("kind", ["input", *KINDS])
def test_export_refuses_unsafe_outputs_in_one_line(
        tmp_path: Path, targets: dict[str, Path], kind: str,
        capsys: pytest.CaptureFixture[str]) -> None:
    source = build_file(tmp_path)
    original = source.read_bytes()
    target = source if kind == "input" else targets[kind]
    before = snapshot(target)
    code, err = run(["export", str(source), "-o", str(target)], capsys)
    assert code == 2, err
    one_line(err)
    assert ("input file" if kind == "input" else WHY[kind]) in err
    assert snapshot(target) == before and source.read_bytes() == original


def test_detect_output_refuses_a_read_only_file(tmp_path: Path, targets: dict[str, Path],
                                                capsys: pytest.CaptureFixture[str]) -> None:
    empty = tmp_path / "recording"
    empty.mkdir()
    code, err = run(["detect", "--replay", str(empty), "-o", str(targets["read_only"])],
                    capsys)
    assert code == 2 and "read-only" in one_line(err)
    assert targets["read_only"].read_bytes() == b"keep me"


def test_catalog_build_needs_a_named_output_outside_a_source_checkout(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    from dlhw_desktop import resources

    installed = tmp_path / "site-packages"
    (installed / "dlhw_desktop").mkdir(parents=True)
    assert source_checkout_catalog(installed) is None  # no pyproject.toml, no sources
    assert source_checkout_catalog(REPO) == REPO / "catalog.db"
    monkeypatch.setattr(resources, "source_checkout_catalog", lambda root=None: None)
    code, err = run(["catalog", "build"], capsys)
    assert code == 2 and "-o PATH" in one_line(err)
    assert list(installed.iterdir()) == [installed / "dlhw_desktop"]


def test_catalog_build_never_writes_over_the_catalog_it_was_given(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    mine = tmp_path / "mine.db"
    mine.write_bytes(b"my own catalog")
    code, err = run(["--catalog", str(mine), "catalog", "build"], capsys)
    assert code == 2 and "--catalog" in one_line(err)
    assert mine.read_bytes() == b"my own catalog"


def test_catalog_build_to_an_unwritable_output_is_one_line(
        targets: dict[str, Path], capsys: pytest.CaptureFixture[str]) -> None:
    for kind in ("read_only", "link_to_device", "fifo"):
        before = snapshot(targets[kind])
        code, err = run(["catalog", "build", "-o", str(targets[kind])], capsys)
        assert code == 2 and WHY[kind] in one_line(err)
        assert snapshot(targets[kind]) == before
