"""What the GPU vendors' tools print, parsed: nvidia-smi (CSV, table, list), rocm-smi and
amd-smi (JSON), and MI250-class cards that show as two dies.

Parsers are pure and lenient: real outputs vary with driver versions (``[N/A]``,
``[Not Supported]``, units or none, a header or none, warnings before JSON), and one bad
line must not lose the others.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from typing import Any

from dlhw_desktop.core.detect.model import DetectedGpu
from dlhw_desktop.core.detect.pci import (
    bracketed_name,
    normalise_bus_id,
    split_alternatives,
)
from dlhw_desktop.core.detect.runner import first_line
from dlhw_desktop.core.detect.values import NA_TEXT, json_document, memory_gb, parse_quantity
from dlhw_desktop.core.limits import plural

NVIDIA_QUERY = "name,memory.total,power.limit,pci.bus_id,driver_version"
NVIDIA_BASIC_QUERY = "name,memory.total,pci.bus_id,driver_version"

_NVIDIA_ERRORS = ("nvidia-smi has failed", "failed to initialize nvml", "no devices were found",
                  "couldn't communicate with the nvidia driver", "driver/library version",
                  "unable to determine the device handle", "gpu is lost",
                  "is not a valid field to query", "unknown error", "insufficient permissions")


@dataclass(frozen=True, slots=True)
class ToolParse:
    """GPUs a tool's output describes, plus the tool's own complaint (if any)."""

    gpus: tuple[DetectedGpu, ...] = ()
    error: str = ""
    skipped_lines: int = 0


# --- small value parsers ------------------------------------------------------------


def _power_w(text: str | None) -> float | None:
    parsed = parse_quantity(text, "W")
    if parsed is None or parsed[0] <= 0:
        return None
    value, unit = parsed
    return value / 1000 if unit.lower() == "mw" else value


def _nvidia_error(text: str) -> str:
    for line in text.splitlines():
        lowered = line.lower()
        if any(e in lowered for e in _NVIDIA_ERRORS):
            return line.strip()
    return ""


# --- nvidia-smi -------------------------------------------------------------------------


def parse_nvidia_smi(text: str) -> ToolParse:
    """Parse ``nvidia-smi --query-gpu=...`` CSV (with or without header and units), and,
    failing that, the default table or ``nvidia-smi -L``, so older or wrapped outputs
    still give names. An error message the tool printed comes back in ``error``."""
    csv = parse_nvidia_csv(text)
    if csv.gpus:
        return csv
    for fallback in (parse_nvidia_table, parse_nvidia_list):
        parsed = fallback(text)
        if parsed.gpus:
            return parsed
    return ToolParse((), csv.error or _nvidia_error(text) or _garbled(text), csv.skipped_lines)


def parse_nvidia_csv(text: str, fields: str = NVIDIA_QUERY) -> ToolParse:
    names = [f.strip() for f in fields.split(",")]
    gpus: list[DetectedGpu] = []
    skipped = 0
    errors: list[str] = []
    for raw in text.splitlines():
        line = raw.strip().strip("\ufeff")
        if not line:
            continue
        lowered = line.lower()
        if lowered.startswith(("name,", "name ,")) or lowered.startswith("index,"):
            continue  # a header row (--format=csv without noheader)
        if any(e in lowered for e in _NVIDIA_ERRORS):
            errors.append(line)
            continue
        parts = [p.strip() for p in line.split(",")]
        if len(parts) > len(names):  # a name with a comma: the extra pieces are its own
            extra = len(parts) - len(names) + 1
            parts = [", ".join(parts[:extra]), *parts[extra:]]
        if len(parts) < min(2, len(names)):
            skipped += 1
            continue
        row = dict(zip(names, parts, strict=False))
        name = re.sub(r"\s+", " ", row.get("name", "")).strip()
        raw_memory = row.get("memory.total")
        mem = parse_quantity(raw_memory, "MiB")
        memory_ok = raw_memory is None or mem is not None or bool(NA_TEXT.match(raw_memory.strip()))
        if not re.search(r"[A-Za-z]{2}", name) or NA_TEXT.match(name) or not memory_ok:
            skipped += 1  # not a GPU row: noise, a cut-off line, a message
            continue
        gpus.append(DetectedGpu(
            name=name,
            vendor="NVIDIA",
            memory_gb=memory_gb(*mem) if mem else None,
            power_limit_w=_power_w(row.get("power.limit")),
            bus_id=normalise_bus_id(row.get("pci.bus_id", "")),
            driver_version=_text(row.get("driver_version")),
            source="nvidia-smi",
        ))
    error = errors[0] if errors else ""
    if gpus and errors:
        error = f"{plural(len(errors), 'GPU')} could not be read: {errors[0]}"
    return ToolParse(tuple(gpus), error, skipped)


_TABLE_ROW = re.compile(
    r"^\|\s*(\d+)\s+(.+?)\s+(?:On|Off|N/A)\s*\|\s*([0-9A-Fa-f]{4,8}:[0-9A-Fa-f]{2}:"
    r"[0-9A-Fa-f]{2}\.[0-7])")
_TABLE_MEMORY = re.compile(r"(\d+)\s*MiB\s*/\s*(\d+)\s*MiB")
_TABLE_POWER = re.compile(r"(?:\d+|N/A)\s*W?\s*/\s*(\d+)\s*W")


def parse_nvidia_table(text: str) -> ToolParse:
    """The default ``nvidia-smi`` table (names may be cut short, e.g. ``A100-SXM...``)."""
    driver = ""
    match = re.search(r"Driver Version:\s*([0-9.]+)", text)
    if match:
        driver = match.group(1)
    lines = text.splitlines()
    gpus: list[DetectedGpu] = []
    for i, line in enumerate(lines):
        row = _TABLE_ROW.match(line.strip())
        if not row:
            continue
        name = row.group(2).strip()
        following = lines[i + 1] if i + 1 < len(lines) else ""
        mem = _TABLE_MEMORY.search(following)
        power = _TABLE_POWER.search(following)
        gpus.append(DetectedGpu(
            name=name, vendor="NVIDIA",
            memory_gb=memory_gb(float(mem.group(2)), "MiB") if mem else None,
            power_limit_w=float(power.group(1)) if power else None,
            bus_id=normalise_bus_id(row.group(3)), driver_version=driver,
            source="nvidia-smi (table)",
            note="name may be shortened by nvidia-smi" if name.endswith("...") else ""))
    return ToolParse(tuple(gpus), "" if gpus else _nvidia_error(text))


def parse_nvidia_list(text: str) -> ToolParse:
    """``nvidia-smi -L``: ``GPU 0: NVIDIA GeForce RTX 4090 (UUID: GPU-...)``."""
    gpus = [DetectedGpu(name=m.group(1).strip(), vendor="NVIDIA", source="nvidia-smi -L")
            for m in re.finditer(r"^GPU \d+:\s*(.+?)\s*(?:\(UUID:.*)?$", text, re.MULTILINE)]
    return ToolParse(tuple(gpus))


# --- AMD: rocm-smi and amd-smi ------------------------------------------------------------




def _get(mapping: dict[str, Any], *keys: str) -> Any:
    """A value by any of several spellings, case-insensitively ("Card series"/"Card Series")."""
    lowered = {k.lower(): v for k, v in mapping.items()}
    for key in keys:
        value = lowered.get(key.lower())
        if value not in (None, "", "N/A", "n/a"):
            return value
    return None


def complaint(text: str) -> str:
    """The line of a tool's output most likely to say what went wrong: a warning or
    error if there is one, else the first line with words (not banner rules), and
    "unreadable output" for broken JSON."""
    lines = [ln.strip().strip("=-* ").strip() for ln in text.splitlines()]
    lines = [ln for ln in lines if re.search(r"[A-Za-z]{3}", ln)]
    for line in lines:
        if re.search(r"warning|error|fail|not found|no amd|denied", line, re.IGNORECASE):
            return first_line(line)
    if text.lstrip().startswith(("{", "[")):
        return "unreadable output (cut-off or malformed JSON)"
    return first_line(lines[0]) if lines else ""


def parse_rocm_smi(text: str) -> ToolParse:
    """``rocm-smi --showproductname --showmeminfo vram --json``: one entry per card
    (per GCD on dual-die MI250/MI250X), keyed ``card0``, ``card1``, ..."""
    data = json_document(text)
    if not isinstance(data, dict):
        return ToolParse((), complaint(text) or "rocm-smi printed nothing")
    gpus: list[DetectedGpu] = []
    driver = ""
    system = data.get("system")
    if isinstance(system, dict):
        driver = str(_get(system, "Driver version") or "")
    for key in sorted((k for k in data if k.lower().startswith("card")), key=_card_order):
        entry = data[key]
        if not isinstance(entry, dict):
            continue
        name = _text(_get(entry, "Card Series", "Card series", "Device Name",
                          "Market Name", "Card SKU")) or ""
        model = _text(_get(entry, "Card Model", "Card model", "Device ID"))
        vram = _get(entry, "VRAM Total Memory (B)")
        mem = parse_quantity(str(vram), "B") if vram is not None else None
        pci = _text(_get(entry, "PCI Bus", "PCI Bus ID"))
        gpu = _amd_gpu(name, mem, source="rocm-smi", driver=driver, bus=pci,
                       device_id=model)
        if gpu is not None:
            gpus.append(gpu)
    if not gpus:
        return ToolParse((), "rocm-smi listed no GPUs")
    return ToolParse(tuple(gpus))


def parse_amd_smi(text: str) -> ToolParse:
    """``amd-smi static --json``: a list of GPUs (ROCm 6.0-6.2) or ``{"gpu_data": [...]}``
    (later); sizes as ``"196592 MB"`` or ``{"value": 196592, "unit": "MB"}``."""
    data = json_document(text)
    if isinstance(data, dict):
        data = data.get("gpu_data") or data.get("gpus") or [data]
    if not isinstance(data, list):
        return ToolParse((), complaint(text) or "amd-smi printed nothing")
    gpus: list[DetectedGpu] = []
    for entry in data:
        if not isinstance(entry, dict):
            continue
        asic = entry.get("asic") if isinstance(entry.get("asic"), dict) else {}
        board = entry.get("board") if isinstance(entry.get("board"), dict) else {}
        vram = entry.get("vram") if isinstance(entry.get("vram"), dict) else {}
        bus = entry.get("bus") if isinstance(entry.get("bus"), dict) else {}
        driver = entry.get("driver") if isinstance(entry.get("driver"), dict) else {}
        limit = entry.get("limit") if isinstance(entry.get("limit"), dict) else {}
        name = _text(_get(asic, "market_name") or _get(board, "product_name")) or ""
        size = vram.get("size")
        mem = _unit_value(size, "MB")
        power = _unit_value(_get(limit, "max_power", "power_cap", "socket_power"), "W")
        gpu = _amd_gpu(name, mem, source="amd-smi",
                       driver=_text(_get(driver, "version")),
                       bus=_text(_get(bus, "bdf")), device_id=_text(_get(asic, "device_id")))
        if gpu is not None:
            if power and power[0] > 0:
                gpu = replace(gpu, power_limit_w=power[0])
            gpus.append(gpu)
    if not gpus:
        return ToolParse((), "amd-smi listed no GPUs")
    return ToolParse(tuple(gpus))


def _amd_gpu(name: str, mem: tuple[float, str] | None, source: str, driver: str = "",
             bus: str = "", device_id: str = "") -> DetectedGpu | None:
    cleaned = re.sub(r"\s+", " ", name).strip()
    if not cleaned and not device_id:
        return None
    alternatives: tuple[str, ...] = ()
    marketing = bracketed_name(cleaned)  # older rocm-smi: "Aldebaran/MI200 [Instinct MI250X/MI250]"
    if marketing:
        alternatives = split_alternatives(marketing)
        cleaned = alternatives[0]
    pci_id = ""
    if device_id:
        code = device_id.lower().removeprefix("0x")
        pci_id = f"1002:{code}" if re.fullmatch(r"[0-9a-f]{4}", code) else ""
    return DetectedGpu(
        name=cleaned or f"AMD GPU (device {device_id})", vendor="AMD",
        memory_gb=memory_gb(*mem) if mem else None, bus_id=normalise_bus_id(bus),
        driver_version=driver, pci_id=pci_id, source=source,
        alternatives=alternatives if len(alternatives) > 1 else ())


def _unit_value(value: Any, default_unit: str) -> tuple[float, str] | None:
    if isinstance(value, dict):
        number = value.get("value")
        unit = str(value.get("unit") or default_unit)
        if isinstance(number, int | float) and not isinstance(number, bool):
            return float(number), unit
        return parse_quantity(str(number), unit) if number is not None else None
    if isinstance(value, int | float) and not isinstance(value, bool):
        return float(value), default_unit
    if isinstance(value, str):
        return parse_quantity(value, default_unit)
    return None


def _card_order(key: str) -> tuple[int, str]:
    digits = re.sub(r"\D", "", key)
    return (int(digits) if digits else 0, key)


# --- grouping dual-die cards -----------------------------------------------------------


_DUAL_DIE = re.compile(r"\bMI250X?\b", re.IGNORECASE)


def pair_dual_die(gpus: list[DetectedGpu]) -> list[DetectedGpu]:
    """MI250/MI250X cards show up as two GPUs (one per die); count cards, not dies."""
    singles: list[DetectedGpu] = []
    dies: dict[str, list[DetectedGpu]] = {}
    for gpu in gpus:
        if gpu.is_accelerator and _DUAL_DIE.search(gpu.name):
            dies.setdefault(gpu.name, []).append(gpu)
        else:
            singles.append(gpu)
    for group in dies.values():
        for i in range(0, len(group), 2):
            pair = group[i:i + 2]
            first = pair[0]
            memory = (sum(g.memory_gb or 0 for g in pair) if all(g.memory_gb for g in pair)
                      else None)
            if len(pair) == 1 and first.memory_gb:
                memory = first.memory_gb * 2
            singles.append(replace(
                first, memory_gb=memory,
                note="one card of two dies; the system lists each die as a GPU"))
    return singles


def _text(value: Any) -> str:
    if value is None:
        return ""
    text = str(value).strip()
    return "" if NA_TEXT.match(text) else text


def _garbled(text: str) -> str:
    line = first_line(text)
    return f"unexpected output: {line}" if line else "printed nothing"
