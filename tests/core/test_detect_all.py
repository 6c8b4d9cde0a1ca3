"""Whole-machine detection: recorded machines, bounded time, no crash, and this machine."""

from __future__ import annotations

import json
import time
from collections.abc import Sequence
from pathlib import Path

import pytest

from dlhw_desktop.core.detect import (
    CommandResult,
    HostInfo,
    LiveHost,
    Outcome,
    RecordedHost,
    detect_all,
)

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "detect"


def _text(ref: str) -> str:
    """A manifest value: ``text:...`` inline, else a fixture path."""
    if ref.startswith("text:"):
        return ref[5:]
    return (FIXTURES / ref).read_text(encoding="utf-8")


def machine(name: str) -> RecordedHost:
    """A recorded machine from ``fixtures/detect/machines/<name>.json``."""
    data = json.loads((FIXTURES / "machines" / f"{name}.json").read_text(encoding="utf-8"))
    return RecordedHost(
        HostInfo.from_dict(data["host"]),
        commands={key: RecordedHost.command(_text(ref), code)
                  for key, (ref, code) in data["commands"].items()},
        files={path: _text(ref) for path, ref in data["files"].items()})


def test_gpu_workstation() -> None:
    report = detect_all(machine("gpu-workstation"))
    assert report.cpu is not None and report.cpu.name.startswith("AMD Ryzen 9 7950X")
    assert (report.cpu.cores, report.cpu.threads) == (16, 32)
    assert report.memory is not None and report.memory.installed_gb == 64
    assert [g.name for g in report.accelerators] == ["NVIDIA GeForce RTX 4090"]
    assert [g.kind for g in report.displays] == ["integrated"]
    assert [d.storage_kind for d in report.disks] == ["sata-ssd", "hdd", "nvme"]
    assert report.board is not None and report.board.name == "ProArt X870E-CREATOR WIFI"
    assert report.os.virtualization is None
    whats = [u.what for u in report.unknowns]
    assert "memory type, speed and modules" in whats  # not root
    assert "power supply, CPU cooler and case" in whats


def test_h100_server_as_root() -> None:
    report = detect_all(machine("h100-server"))
    assert report.cpu is not None and report.cpu.sockets == 2
    assert len(report.accelerators) == 8
    assert report.memory is not None and report.memory.memory_type == "DDR4"
    assert report.memory.installed_gb == 256 and not report.memory.installed_estimated
    assert [g.kind for g in report.displays] == ["bmc"]


def test_broken_driver_still_finds_the_card() -> None:
    report = detect_all(machine("broken-driver"))
    assert [g.name for g in report.accelerators] == ["GeForce RTX 4090"]
    assert any("couldn't communicate" in u.reason for u in report.unknowns)


def test_vm_without_gpu() -> None:
    report = detect_all(machine("vm-no-gpu"))
    assert report.accelerators == []
    assert report.os.virtualization == "kvm"
    assert report.memory is not None and report.memory.installed_gb == 16
    assert report.cpu is not None and report.cpu.name == "AMD EPYC 7B12"


def test_bare_aarch64_with_no_tools() -> None:
    report = detect_all(machine("graviton-no-tools"))
    assert report.cpu is not None and report.cpu.name == "ARM Neoverse-N1"
    assert report.memory is not None and report.memory.installed_gb == 8
    whats = {u.what for u in report.unknowns}
    assert {"GPUs", "drive kinds", "drives"} <= whats


def test_timings_cover_every_source() -> None:
    report = detect_all(machine("gpu-workstation"))
    assert {t.source for t in report.timings} == {"psutil", "system", "cpu", "memory", "gpus",
                                                 "storage"}
    assert all(t.seconds >= 0 for t in report.timings)
    json.dumps(report.to_dict())  # JSON-ready


class _SlowHost(RecordedHost):
    """A machine whose tools hang (as a wedged driver makes nvidia-smi do)."""

    def run(self, key: str, argv: Sequence[str], timeout: float | None = None) -> CommandResult:
        time.sleep(30)
        return super().run(key, argv, timeout)


def test_a_hanging_source_costs_its_answer_not_the_run() -> None:
    base = machine("gpu-workstation")
    host = _SlowHost(base.host_info, base.commands, base.files)
    start = time.monotonic()
    report = detect_all(host, deadline=1.0)
    assert time.monotonic() - start < 5
    assert report.cpu is not None  # reads files only: done in time
    late = {u.what for u in report.unknowns if "not finished" in u.reason}
    assert "GPUs" in late and "drives" in late
    assert any(t.outcome == "timeout" for t in report.timings)


class _BrokenHost(RecordedHost):
    def read(self, path: str):  # type: ignore[override]
        raise RuntimeError("a parser bug")


def test_a_crashing_source_is_reported_not_raised() -> None:
    base = machine("gpu-workstation")
    report = detect_all(_BrokenHost(base.host_info, base.commands, base.files))
    assert report.cpu is None
    assert any("internal error" in u.reason for u in report.unknowns)
    assert report.accelerators  # GPU detection did not need the broken reads


def test_progress_reports_each_source() -> None:
    seen: list[str] = []
    detect_all(machine("vm-no-gpu"), progress=seen.append)
    assert sorted(seen) == ["cpu", "gpus", "memory", "storage", "system"]


def test_this_machine_for_real() -> None:
    """The machine the tests run on: CPU and memory at least, in seconds, never raising."""
    start = time.monotonic()
    report = detect_all(LiveHost(timeout=5))
    assert time.monotonic() - start < 30
    assert report.cpu is not None
    assert report.cpu.threads and report.cpu.threads >= 1
    assert report.memory is not None and report.memory.usable_bytes
    assert report.memory.installed_gb and report.memory.installed_gb * 2**30 >= \
        report.memory.usable_bytes
    assert report.os.system and report.os.hostname is not None
    for unknown in report.unknowns:
        assert unknown.what and unknown.reason


def test_recorded_command_outcomes_survive_the_manifest() -> None:
    host = machine("broken-driver")
    result = host.run("nvidia-smi", ["nvidia-smi"])
    assert result.outcome is Outcome.FAILED and result.returncode == 9


# --- dlhw detect ------------------------------------------------------------------------------


def _materialise(name: str, folder: Path) -> Path:
    """Write a manifest machine as a recording folder (the ``--replay`` layout)."""
    data = json.loads((FIXTURES / "machines" / f"{name}.json").read_text(encoding="utf-8"))
    (folder / "commands").mkdir(parents=True)
    (folder / "host.json").write_text(json.dumps(data["host"]), encoding="utf-8")
    for key, (ref, code) in data["commands"].items():
        (folder / "commands" / f"{key}.txt").write_text(_text(ref), encoding="utf-8")
        (folder / "commands" / f"{key}.exit").write_text(str(code), encoding="utf-8")
    for path, ref in data["files"].items():
        target = folder / "files" / path.lstrip("/")
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(_text(ref), encoding="utf-8")
    return folder


def _dlhw(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    """Run ``dlhw`` in-process and capture what it prints."""
    import dlhw_desktop.cli as cli

    code = cli.main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def test_cli_detect_this_machine(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = _dlhw(capsys, "detect")
    assert code == 0
    assert "CPU" in out and "Memory" in out and "Could not learn" in out


def test_cli_detect_json(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = _dlhw(capsys, "detect", "--json")
    data = json.loads(out)
    assert code == 0
    assert data["report"]["cpu"]["threads"] >= 1
    assert data["build"]["format"] == "dlhw-build"
    assert {m["category"] for m in data["matches"]} >= {"cpu", "memory"}


def test_cli_replay_a_gpu_server_and_save(tmp_path: Path,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    folder = _materialise("h100-server", tmp_path / "rec")
    target = tmp_path / "hgx.dlhw.json"
    code, out, _ = _dlhw(capsys, "detect", "--replay", str(folder), "-o", str(target))
    assert code == 0
    assert "8 x NVIDIA H100 SXM5 80 GB" in out
    assert "memory-disambiguated" in out
    assert f"Saved to {target}" in out
    saved = json.loads(target.read_text())
    assert saved["name"] == "hgx-07 (Intel Xeon Gold 6230R)"
    ids = {p["id"]: p["quantity"] for p in saved["parts"]}
    assert ids["accelerator/nvidia-h100-sxm5-80-gb"] == 8


def test_cli_record_then_replay(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, live, _ = _dlhw(capsys, "detect", "--json", "--record", str(tmp_path / "rec"))
    assert code == 0 and (tmp_path / "rec" / "host.json").is_file()
    code, replayed, _ = _dlhw(capsys, "detect", "--json", "--replay", str(tmp_path / "rec"))
    assert code == 0
    live_cpu = json.loads(live)["report"]["cpu"]
    assert json.loads(replayed)["report"]["cpu"]["name"] == live_cpu["name"]


def test_cli_bad_arguments_are_one_line_errors(tmp_path: Path,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = _dlhw(capsys, "detect", "--replay", str(tmp_path / "missing"))
    assert code == 2 and err.startswith("dlhw: error: cannot replay")
    code, _, err = _dlhw(capsys, "detect", "--timeout", "0")
    assert code == 2 and "--timeout" in err
    code, _, err = _dlhw(capsys, "detect", "-o", str(tmp_path / "no-such-dir" / "x.dlhw.json"))
    assert code == 2 and "cannot save" in err
