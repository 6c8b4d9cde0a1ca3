"""Accelerators: NVIDIA through ``nvidia-smi``, AMD through ``rocm-smi``/``amd-smi``, and
everything else (or a card whose driver is not loaded) through the PCI bus (``lspci``,
parsed in ``pci``).

Vendor tools give memory and power; the PCI bus gives only a name, but it sees a card
even when its driver is broken, which is exactly when a user needs to be told. Parsers
are pure and lenient: real outputs vary with driver versions (``[N/A]``,
``[Not Supported]``, units or none, a header or none, warnings before JSON), and one bad
line must not lose the others.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import replace
from typing import Any

from dlhw_desktop.core.detect.gpu_tools import (
    NVIDIA_BASIC_QUERY,
    NVIDIA_QUERY,
    ToolParse,
    pair_dual_die,
    parse_amd_smi,
    parse_nvidia_csv,
    parse_nvidia_smi,
    parse_rocm_smi,
)
from dlhw_desktop.core.detect.gpus_desktop import parse_macos_displays, parse_windows_video
from dlhw_desktop.core.detect.host import Host, run_powershell
from dlhw_desktop.core.detect.model import DetectedGpu, Unknown
from dlhw_desktop.core.detect.pci import (
    gpus_from_lspci,
)
from dlhw_desktop.core.detect.runner import CommandResult, Outcome

# --- running it all -----------------------------------------------------------------------


def detect_gpus(host: Host) -> tuple[list[DetectedGpu], list[Unknown]]:
    """Every accelerator and display adapter the system shows, deduplicated across tools."""
    system = host.info().system
    unknowns: list[Unknown] = []
    found: dict[str, list[DetectedGpu]] = {}   # by vendor, from vendor tools
    failures: dict[str, tuple[str, str]] = {}  # vendor -> (tool, reason), not "missing"
    missing: list[str] = []

    # The three kinds of tool are independent and each may sit out its time limit (a
    # wedged driver): ask them side by side so the source stays within a few limits.
    nvidia, amd, bus_answer = _side_by_side(
        lambda: _run_nvidia(host),
        lambda: _run_amd(host) if system in ("Linux", "") else None,
        lambda: _run_bus(host, system))
    bus, bus_tool, bus_reason, bus_missing = bus_answer

    if nvidia[0].gpus:
        found["NVIDIA"] = list(nvidia[0].gpus)
        if nvidia[0].error:
            unknowns.append(Unknown("some NVIDIA GPUs", nvidia[0].error, "nvidia-smi"))
    elif nvidia[1].outcome is Outcome.MISSING:
        missing.append("nvidia-smi")
    else:
        failures["NVIDIA"] = ("nvidia-smi", _explain(nvidia[1], nvidia[0].error))
    if amd is not None:
        if amd[0].gpus:
            found["AMD"] = list(amd[0].gpus)
        elif amd[1] is not None:
            failures["AMD"] = amd[1]
        else:
            missing.extend(("rocm-smi", "amd-smi"))

    merged = _merge(found, bus)
    bus_vendors = {g.vendor for g in bus if g.is_accelerator}
    for vendor, (tool, reason) in failures.items():
        seen = vendor in bus_vendors
        what = f"{vendor} GPU memory and power" if seen else f"{vendor} GPUs"
        hint = ("the card is on the PCI bus but its driver does not answer: reinstall or "
                "load the driver" if seen else "")
        unknowns.append(Unknown(what, reason, tool, hint))
    if "nvidia-smi" in missing and "NVIDIA" in bus_vendors:
        unknowns.append(Unknown("NVIDIA GPU memory and power", "nvidia-smi is not installed",
                                "nvidia-smi", "install the NVIDIA driver"))
    if "rocm-smi" in missing and "AMD" in bus_vendors:
        unknowns.append(Unknown("AMD GPU memory", "neither rocm-smi nor amd-smi is installed",
                                "rocm-smi", "install ROCm to read its memory"))
    if bus_reason:
        if not found and not failures:
            if bus_missing:
                tools = [bus_tool, *missing]
                reason = (f"no tool here can list them: {', '.join(tools[:-1])} and "
                          f"{tools[-1]} are not installed" if len(tools) > 1
                          else f"{bus_tool} is not installed")
            else:
                reason = bus_reason
            unknowns.append(Unknown("GPUs", reason, bus_tool,
                                    "a GPU without a working driver would go unseen"
                                    + ("; install pciutils for lspci"
                                       if bus_tool == "lspci" else "")))
        else:
            unknowns.append(Unknown("other display adapters", bus_reason, bus_tool))
    return merged, unknowns


def _side_by_side(*calls: Callable[[], Any]) -> list[Any]:
    """Run calls in daemon threads (so a stuck one never holds up the program's exit)
    and return their results in order; an exception is re-raised in the caller."""
    results: list[Any] = [None] * len(calls)
    errors: list[BaseException] = []

    def work(index: int, call: Callable[[], Any]) -> None:
        try:
            results[index] = call()
        except Exception as exc:  # handed to the caller below
            errors.append(exc)

    threads = [threading.Thread(target=work, args=(i, c), daemon=True,
                                name=f"detect-gpu-{i}") for i, c in enumerate(calls)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    if errors:
        raise errors[0]
    return results


def _run_bus(host: Host, system: str) -> tuple[list[DetectedGpu], str, str, bool]:
    """Display adapters as the system's device list names them: (gpus, tool, problem,
    whether the tool is missing)."""
    if system in ("Linux", ""):
        result = host.run("lspci", ["lspci", "-mm", "-nn"])
        if not result.ok:
            return [], "lspci", result.reason, result.outcome is Outcome.MISSING
        reason = "" if result.stdout.strip() else "lspci printed nothing"
        return gpus_from_lspci(result.stdout), "lspci", reason, False
    if system == "Windows":
        script = ("Get-CimInstance Win32_VideoController | Select-Object Name,AdapterRAM,"
                  "PNPDeviceID,DriverVersion | ConvertTo-Json")
        result = run_powershell(host, "powershell-video", script)
        gpus = parse_windows_video(result.stdout) if result.ok else []
        return gpus, "Win32_VideoController", "" if result.ok else result.reason, False
    if system == "Darwin":
        result = host.run("system_profiler-displays",
                          ["system_profiler", "SPDisplaysDataType", "-json"], timeout=10.0)
        gpus = parse_macos_displays(result.stdout) if result.ok else []
        return gpus, "system_profiler", "" if result.ok else result.reason, False
    return [], "", "", False


def _run_nvidia(host: Host) -> tuple[ToolParse, CommandResult]:
    argv = ["nvidia-smi", f"--query-gpu={NVIDIA_QUERY}", "--format=csv,noheader,nounits"]
    result = host.run("nvidia-smi", argv)
    if result.outcome in (Outcome.MISSING, Outcome.TIMEOUT, Outcome.PERMISSION):
        return ToolParse(), result
    parsed = parse_nvidia_smi(result.stdout + "\n" + result.stderr)
    if not parsed.gpus and "not a valid field" in (result.stdout + result.stderr).lower():
        # An old driver that lacks one of the fields: ask for fewer.
        argv = ["nvidia-smi", f"--query-gpu={NVIDIA_BASIC_QUERY}",
                "--format=csv,noheader,nounits"]
        result = host.run("nvidia-smi-basic", argv)
        if result.ok:
            parsed = parse_nvidia_csv(result.stdout, NVIDIA_BASIC_QUERY)
    return parsed, result


def _run_amd(host: Host) -> tuple[ToolParse, tuple[str, str] | None]:
    """ROCm's older rocm-smi first, then amd-smi; a failure only counts if both fail."""
    failure: tuple[str, str] | None = None
    rocm = host.run("rocm-smi", ["rocm-smi", "--showproductname", "--showmeminfo", "vram",
                                 "--json"])
    if rocm.outcome is not Outcome.MISSING:
        parsed = parse_rocm_smi(rocm.stdout) if rocm.stdout.strip() else ToolParse()
        if parsed.gpus:
            return parsed, None
        failure = ("rocm-smi", _explain(rocm, parsed.error))
    amd = host.run("amd-smi", ["amd-smi", "static", "--json"])
    if amd.outcome is not Outcome.MISSING:
        parsed = parse_amd_smi(amd.stdout) if amd.stdout.strip() else ToolParse()
        if parsed.gpus:
            return parsed, None
        failure = failure or ("amd-smi", _explain(amd, parsed.error))
    return ToolParse(), failure


def _explain(result: CommandResult, parse_error: str) -> str:
    if result.outcome in (Outcome.TIMEOUT, Outcome.PERMISSION, Outcome.MISSING):
        return result.reason
    if parse_error:
        return f"{result.tool}: {parse_error}"
    if not result.ok:
        return result.reason
    return f"{result.tool} printed nothing this program understands"


def _merge(found: dict[str, list[DetectedGpu]], bus: list[DetectedGpu]) -> list[DetectedGpu]:
    """Vendor-tool GPUs first; a PCI device is added only if no tool already reported it
    (same bus address, or the vendor's tool answered without addresses)."""
    merged: list[DetectedGpu] = []
    for gpus in found.values():
        merged.extend(gpus)
    seen_bus = {g.bus_id for g in merged if g.bus_id}
    vendors_without_bus = {v for v, gpus in found.items() if not any(g.bus_id for g in gpus)}
    for gpu in bus:
        if gpu.bus_id and gpu.bus_id in seen_bus:
            continue
        if gpu.is_accelerator and gpu.vendor in vendors_without_bus:
            continue
        if gpu.is_accelerator and gpu.vendor in found:
            gpu = replace(gpu, note="seen on the PCI bus but not by the vendor's tool")
        merged.append(gpu)
    return pair_dual_die(merged)
