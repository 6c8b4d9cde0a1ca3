"""A save that fails or is killed half-way leaves the previous file as it was."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from dlhw_desktop.catalog.store import Catalog
from dlhw_desktop.core.build import buildfile
from dlhw_desktop.core.build.build import Build
from dlhw_desktop.core.errors import BuildFileError

RTX_4090 = "accelerator/nvidia-geforce-rtx-4090"


def _saved(tmp_path: Path, catalog: Catalog) -> tuple[Path, bytes]:
    build = Build(name="Original")
    build.add(catalog.get(RTX_4090), 2)
    path = buildfile.save(build, tmp_path / "mine.dlhw.json")
    return path, path.read_bytes()


@pytest.mark.parametrize("broken", ["os.replace", "os.fsync", "json.dumps"])
def test_exception_during_save_keeps_the_old_file(tmp_path: Path, catalog: Catalog,
                                                  monkeypatch: pytest.MonkeyPatch,
                                                  broken: str) -> None:
    path, before = _saved(tmp_path, catalog)
    changed = Build(name="Changed")

    def boom(*_a: object, **_k: object) -> None:
        raise OSError(28, "No space left on device")

    module, name = broken.split(".")
    target = {"os": os, "json": __import__("json")}[module]
    monkeypatch.setattr(target, name, boom)
    with pytest.raises((BuildFileError, OSError)):
        buildfile.save(changed, path)
    monkeypatch.undo()
    assert path.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["mine.dlhw.json"]  # no leftovers


def test_unwritable_folder_is_a_clear_error(tmp_path: Path, catalog: Catalog) -> None:
    blocker = tmp_path / "file-not-folder"
    blocker.write_text("x")
    with pytest.raises(BuildFileError):
        buildfile.save(Build(name="x"), blocker / "b.dlhw.json")


KILLED_SAVE = r"""
import os, sys, time
from dlhw_desktop.core.build import buildfile
from dlhw_desktop.core.build.build import Build
real_fsync = os.fsync
def slow_fsync(fd):
    print("writing", flush=True)
    time.sleep(30)
os.fsync = slow_fsync
buildfile.save(Build(name="Half-written " + "x" * 100000), sys.argv[1])
"""


def test_kill_during_save_keeps_the_old_file(tmp_path: Path, catalog: Catalog) -> None:
    path, before = _saved(tmp_path, catalog)
    proc = subprocess.Popen([sys.executable, "-c", KILLED_SAVE, str(path)],
                            stdout=subprocess.PIPE, text=True)
    assert proc.stdout is not None
    assert proc.stdout.readline().strip() == "writing"
    time.sleep(0.1)
    proc.send_signal(signal.SIGKILL)
    proc.wait(timeout=10)
    assert path.read_bytes() == before
    loaded = buildfile.load(path, catalog.find)
    assert loaded.build.name == "Original"
