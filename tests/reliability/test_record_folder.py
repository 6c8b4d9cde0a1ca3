"""Issue 15: ``detect --record DIR`` writes only regular files it creates; links planted in
the folder are never written through, and the user is told."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from dlhw_desktop.cli import main
from dlhw_desktop.core.detect import HostInfo, RecordedHost
from dlhw_desktop.core.detect.host import RecordingHost


def source() -> RecordedHost:
    return RecordedHost(HostInfo(system="Linux", hostname="box"),
                        commands={"lspci": RecordedHost.command("00:02.0 VGA\n", 0)},
                        files={"/proc/cpuinfo": "model name : Test CPU\n",
                               "/proc/../../../etc/escape": "x"})


def record_all(host: RecordingHost) -> None:
    host.info()
    host.run("lspci", ["lspci"])
    host.read("/proc/cpuinfo")
    host.read("/proc/../../../etc/escape")


@pytest.fixture
def victim(tmp_path: Path) -> Path:
    folder = tmp_path / "victim"
    folder.mkdir()
    (folder / "precious").write_text("keep", encoding="utf-8")
    return folder


def test_planted_file_links_are_not_written_through(tmp_path: Path, victim: Path) -> None:
    record = tmp_path / "rec"
    (record / "commands").mkdir(parents=True)
    (record / "host.json").symlink_to(victim / "precious")
    (record / "commands" / "lspci.txt").symlink_to(victim / "new-file")
    os.mkfifo(record / "commands" / "lspci.exit")
    host = RecordingHost(source(), record)
    record_all(host)
    assert (victim / "precious").read_text(encoding="utf-8") == "keep"
    assert sorted(p.name for p in victim.iterdir()) == ["precious"]
    assert (record / "host.json").is_symlink()  # left as it was, not replaced
    refused = " | ".join(host.refused)
    assert "host.json" in refused and "lspci.txt" in refused and "lspci.exit" in refused
    assert "escape" in refused  # a path leaving the folder
    assert (record / "files" / "proc" / "cpuinfo").read_text().startswith("model name")


def test_planted_folder_links_are_refused(tmp_path: Path, victim: Path) -> None:
    record = tmp_path / "rec"
    (record / "files").mkdir(parents=True)
    (record / "files" / "proc").symlink_to(victim)
    host = RecordingHost(source(), record)
    record_all(host)
    assert sorted(p.name for p in victim.iterdir()) == ["precious"]
    assert any("proc" in r for r in host.refused)
    other = tmp_path / "rec-2"
    other.mkdir()
    (other / "commands").symlink_to(victim)
    with pytest.raises(OSError, match="symbolic link"):
        RecordingHost(source(), other)


def test_recording_again_into_the_same_folder_replaces_its_files(tmp_path: Path) -> None:
    record = tmp_path / "rec"
    record_all(RecordingHost(source(), record))
    again = RecordingHost(source(), record)
    record_all(again)
    assert [r for r in again.refused if "escape" not in r] == []
    assert RecordedHost.load(record).files["/proc/cpuinfo"].startswith("model name")


def test_the_cli_refuses_a_folder_with_a_planted_link(tmp_path: Path, victim: Path,
                                                      capsys: pytest.CaptureFixture[str]
                                                      ) -> None:
    record = tmp_path / "rec"
    record.mkdir()
    (record / "files").symlink_to(victim)
    code = main(["detect", "--record", str(record), "--timeout", "1"])
    err = capsys.readouterr().err
    assert code == 2 and err.startswith("dlhw: error: cannot record into") \
        and err.count("\n") == 1
    assert sorted(p.name for p in victim.iterdir()) == ["precious"]
