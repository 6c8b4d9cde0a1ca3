"""Running outside commands: a time limit that holds, and a plain reason for each failure."""

from __future__ import annotations

import sys
import time
from pathlib import Path

import pytest

from dlhw_desktop.core.detect.host import LiveHost, RecordedHost, RecordingHost
from dlhw_desktop.core.detect.runner import (
    Outcome,
    classify_exit,
    first_line,
    read_text_file,
    run_command,
)

PY = sys.executable


def test_ok_command_returns_stdout() -> None:
    result = run_command([PY, "-c", "print('hello')"])
    assert result.ok and result.stdout.strip() == "hello" and result.returncode == 0


def test_missing_tool_is_reported_not_raised() -> None:
    result = run_command(["dlhw-no-such-tool-xyz", "--version"])
    assert result.outcome is Outcome.MISSING
    assert result.reason == "dlhw-no-such-tool-xyz is not installed"


def test_empty_argv_is_an_error_not_a_crash() -> None:
    assert run_command([]).outcome is Outcome.ERROR


def test_non_zero_exit_keeps_output_and_quotes_it() -> None:
    code = "import sys; print('NVIDIA-SMI has failed because of a test'); sys.exit(9)"
    result = run_command([PY, "-c", code])
    assert result.outcome is Outcome.FAILED and result.returncode == 9
    assert "NVIDIA-SMI has failed" in result.stdout
    assert result.reason.startswith(f"{Path(PY).name} failed (exit 9): NVIDIA-SMI has failed")


def test_permission_complaint_is_classified() -> None:
    code = "import sys; sys.stderr.write('/dev/mem: Permission denied\\n'); sys.exit(1)"
    result = run_command([PY, "-c", code])
    assert result.outcome is Outcome.PERMISSION
    assert "administrator" in result.reason
    assert classify_exit(1, "", "Operation not permitted") is Outcome.PERMISSION
    assert classify_exit(0, "", "Permission denied") is Outcome.OK


def test_timeout_kills_the_command_quickly() -> None:
    start = time.monotonic()
    result = run_command([PY, "-c", "import time; time.sleep(30)"], timeout=0.5)
    elapsed = time.monotonic() - start
    assert result.outcome is Outcome.TIMEOUT
    assert elapsed < 5
    assert "did not answer within 0.5 s" in result.reason


@pytest.mark.skipif(sys.platform == "win32", reason="process groups are POSIX")
def test_timeout_holds_when_a_grandchild_keeps_the_pipe_open() -> None:
    """A tool that forks a helper which inherits stdout must not hang us."""
    code = ("import subprocess, sys, time; "
            "subprocess.Popen([sys.executable, '-c', 'import time; time.sleep(60)']); "
            "time.sleep(60)")
    start = time.monotonic()
    result = run_command([PY, "-c", code], timeout=0.5)
    assert result.outcome is Outcome.TIMEOUT
    assert time.monotonic() - start < 5


def test_undecodable_output_is_kept_leniently() -> None:
    result = run_command([PY, "-c", "import sys; sys.stdout.buffer.write(b'caf\\xe9 ok\\n')"])
    assert result.ok and "ok" in result.stdout


def test_read_text_file_reasons(tmp_path: Path) -> None:
    present = tmp_path / "cpuinfo"
    present.write_text("processor : 0\n")
    assert read_text_file(str(present)).text == "processor : 0\n"
    missing = read_text_file(str(tmp_path / "absent"))
    assert missing.outcome is Outcome.MISSING and "does not exist" in missing.reason
    folder = read_text_file(str(tmp_path))
    assert folder.outcome in (Outcome.ERROR, Outcome.PERMISSION)


def test_first_line_drops_terminal_noise() -> None:
    assert first_line("\n\x1b[2J\x00  boom \n next") == "boom"
    assert first_line("") == ""
    assert first_line("x" * 500).endswith("...")


def test_recorded_host_answers_like_a_machine(tmp_path: Path) -> None:
    host = RecordedHost(commands={"nvidia-smi": RecordedHost.command("No devices were found\n",
                                                                        6)},
                        files={"/proc/meminfo": "MemTotal: 1024 kB\n"})
    result = host.run("nvidia-smi", ["nvidia-smi", "-L"])
    assert result.outcome is Outcome.FAILED and result.returncode == 6
    assert result.argv == ("nvidia-smi", "-L")
    assert host.run("lspci", ["lspci"]).outcome is Outcome.MISSING
    assert host.read("/proc/meminfo").ok and not host.read("/proc/cpuinfo").ok
    assert RecordedHost.command("", "timeout").outcome is Outcome.TIMEOUT


def test_recording_then_replaying_gives_the_same_answers(tmp_path: Path) -> None:
    live = LiveHost(timeout=5)
    recorder = RecordingHost(live, tmp_path / "rec")
    info = recorder.info()
    ran = recorder.run("py", [PY, "-c", "print('recorded')"])
    failed = recorder.run("py-fail", [PY, "-c", "import sys; sys.exit(3)"])
    recorder.run("absent", ["dlhw-no-such-tool-xyz"])
    own = Path(__file__).resolve()
    recorder.read(str(own))
    facts = recorder.psutil_facts()

    replay = RecordedHost.load(tmp_path / "rec")
    assert replay.info() == info
    assert replay.run("py", ["py"]).stdout == ran.stdout
    assert replay.run("py-fail", ["x"]).returncode == failed.returncode == 3
    assert replay.run("absent", ["x"]).outcome is Outcome.MISSING
    assert replay.read(own.as_posix()).text == own.read_text()
    assert replay.psutil_facts() == facts


def test_loading_a_missing_recording_fails_clearly(tmp_path: Path) -> None:
    with pytest.raises(FileNotFoundError):
        RecordedHost.load(tmp_path / "nothing-here")
