"""Matching detected names to catalog parts, and a detected machine as a build."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from dlhw_desktop.catalog.matching import DETECTED_NOTE, detect_build, match_disks, match_memory
from dlhw_desktop.catalog.name_matching import Matcher, MatchMethod
from dlhw_desktop.catalog.store import Catalog
from dlhw_desktop.core.build import buildfile
from dlhw_desktop.core.build.build import Slot
from dlhw_desktop.core.checks import run_checks
from dlhw_desktop.core.detect import (
    DetectedDisk,
    DetectedMemory,
    HostInfo,
    MemoryModule,
    RecordedHost,
)
from dlhw_desktop.core.fields import Category
from dlhw_desktop.core.name_keys import clean_name, name_key
from dlhw_desktop.core.parts import Part

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "detect"
A = Category.ACCELERATOR


def _text(ref: str) -> str:
    return ref[5:] if ref.startswith("text:") else (FIXTURES / ref).read_text(encoding="utf-8")


def machine(name: str) -> RecordedHost:
    data = json.loads((FIXTURES / "machines" / f"{name}.json").read_text(encoding="utf-8"))
    return RecordedHost(HostInfo.from_dict(data["host"]),
                        commands={k: RecordedHost.command(_text(r), c)
                                  for k, (r, c) in data["commands"].items()},
                        files={p: _text(r) for p, r in data["files"].items()})


@pytest.fixture(scope="module")
def matcher(catalog: Catalog) -> Matcher:
    return Matcher(catalog)


# --- names ---------------------------------------------------------------------------------


@pytest.mark.parametrize("name", ["NVIDIA GeForce RTX 4090", "GeForce RTX 4090", "RTX 4090",
                                  "AD102 [GeForce RTX 4090]"[7:-1]])
def test_rtx_4090_however_it_is_spelled(matcher: Matcher, name: str) -> None:
    found = matcher.match(A, name, memory_gb=23.99)
    assert found.part is not None and found.part.id == "accelerator/nvidia-geforce-rtx-4090"
    assert found.method in (MatchMethod.EXACT, MatchMethod.NORMALISED)


def test_exact_and_normalised_are_told_apart(matcher: Matcher) -> None:
    exact = matcher.match(A, "NVIDIA GeForce RTX 4090", vendor="NVIDIA")
    loose = matcher.match(A, "RTX 4090")
    assert exact.method is MatchMethod.EXACT and exact.confidence == 1.0
    assert loose.method is MatchMethod.NORMALISED and 0.5 < loose.confidence < 1.0


def test_4090_d_and_laptop_are_not_the_4090(matcher: Matcher) -> None:
    assert matcher.match(A, "NVIDIA GeForce RTX 4090 D").part.id == \
        "accelerator/nvidia-geforce-rtx-4090-d"  # type: ignore[union-attr]
    laptop = matcher.match(A, "NVIDIA GeForce RTX 4090 Laptop GPU", memory_gb=16)
    assert laptop.part is None and laptop.method is MatchMethod.NONE


@pytest.mark.parametrize(("name", "memory", "power", "expected"), [
    ("NVIDIA A100-SXM4-40GB", 40.0, 400, "accelerator/nvidia-a100-sxm4-40-gb"),
    ("NVIDIA A100-SXM4-80GB", 80.0, 400, "accelerator/nvidia-a100-sxm4-80-gb"),
    ("NVIDIA A100-PCIE-40GB", 39.59, 250, "accelerator/nvidia-a100-pcie-40-gb"),
    ("NVIDIA A100 80GB PCIe", 79.65, 300, "accelerator/nvidia-a100-pcie-80-gb"),
    ("NVIDIA A100-SXM...", 39.59, 400, "accelerator/nvidia-a100-sxm4-40-gb"),  # cut by the table
    ("A100 SXM4 80GB", None, None, "accelerator/nvidia-a100-sxm4-80-gb"),  # lspci, no memory
])
def test_a100_memory_and_form_factor(matcher: Matcher, name: str, memory: float | None,
                                     power: float | None, expected: str) -> None:
    found = matcher.match(A, name, vendor="NVIDIA", memory_gb=memory, power_w=power)
    assert found.part is not None and found.part.id == expected
    assert found.method is MatchMethod.MEMORY  # the 40/80 GB sibling was ruled out by memory
    assert "GB" in found.reason


def test_h100_sxm_from_power_limit_and_pcie_from_its_name(matcher: Matcher) -> None:
    sxm = matcher.match(A, "NVIDIA H100 80GB HBM3", vendor="NVIDIA", memory_gb=79.65,
                        power_w=700)
    assert sxm.part is not None and sxm.part.id == "accelerator/nvidia-h100-sxm5-80-gb"
    assert "700 W" in sxm.reason
    unknown_power = matcher.match(A, "NVIDIA H100 80GB HBM3", vendor="NVIDIA", memory_gb=79.65)
    assert unknown_power.part is not None
    assert unknown_power.part.id == "accelerator/nvidia-h100-sxm5-80-gb"
    assert unknown_power.confidence < sxm.confidence
    pcie = matcher.match(A, "NVIDIA H100 PCIe", vendor="NVIDIA", memory_gb=79.65, power_w=350)
    assert pcie.part is not None and pcie.part.id == "accelerator/nvidia-h100-pcie-80-gb"
    nvl = matcher.match(A, "NVIDIA H100 NVL", vendor="NVIDIA", memory_gb=93.6)
    assert nvl.part is not None and nvl.part.id == "accelerator/nvidia-h100-nvl"


@pytest.mark.parametrize(("name", "memory", "expected"), [
    ("NVIDIA GeForce RTX 3060", 12.0, "accelerator/nvidia-geforce-rtx-3060-12-gb"),
    ("NVIDIA GeForce RTX 3060", 8.0, "accelerator/nvidia-geforce-rtx-3060-8-gb"),
    ("NVIDIA GeForce RTX 2060", 12.0, "accelerator/nvidia-geforce-rtx-2060-12-gb"),
    ("Tesla V100-SXM2-16GB", 16.0, "accelerator/nvidia-v100-sxm2-16-gb"),
    ("Tesla V100-PCIE-32GB", 32.0, "accelerator/nvidia-v100-pcie-32-gb"),
    ("Tesla T4", 15.0, "accelerator/nvidia-t4"),
    ("NVIDIA RTX 6000 Ada Generation", 47.99, "accelerator/nvidia-rtx-6000-ada-generation"),
    ("Quadro RTX 6000", 24.0, "accelerator/nvidia-quadro-rtx-6000"),
    ("NVIDIA RTX A6000", 47.99, "accelerator/nvidia-rtx-a6000"),
    ("NVIDIA L40S", 44.99, "accelerator/nvidia-l40s"),
    ("AMD Instinct MI300X OAM", 191.98, "accelerator/amd-instinct-mi300x"),
    ("AMD Instinct MI300X", 191.98, "accelerator/amd-instinct-mi300x"),
    ("Radeon Pro W7900", 47.98, "accelerator/amd-radeon-pro-w7900"),
])
def test_more_real_names(matcher: Matcher, name: str, memory: float, expected: str) -> None:
    found = matcher.match(A, name, memory_gb=memory)
    assert found.part is not None and found.part.id == expected, found.reason


def test_same_memory_different_form_factor_is_never_confused(matcher: Matcher) -> None:
    sxm = matcher.match(A, "NVIDIA A100-SXM4-80GB", memory_gb=80)
    pcie = matcher.match(A, "NVIDIA A100 80GB PCIe", memory_gb=80)
    assert sxm.part is not None and pcie.part is not None
    assert sxm.part.text("form_factor") == "sxm" and pcie.part.text("form_factor") == "pcie"


def test_an_x_or_y_name_is_matched_with_low_confidence(matcher: Matcher) -> None:
    found = matcher.match(A, "Instinct MI250X", vendor="AMD", memory_gb=128,
                          alternatives=("Instinct MI250X", "Instinct MI250"))
    assert found.part is not None and found.part.id == "accelerator/amd-instinct-mi250x"
    assert found.confidence <= 0.5
    assert "accelerator/amd-instinct-mi250" in found.alternatives


def test_vendor_conflict_is_not_a_match(matcher: Matcher) -> None:
    assert matcher.match(A, "GeForce RTX 4090", vendor="AMD").part is None


@pytest.mark.parametrize(("name", "expected"), [
    ("AMD Ryzen 9 7950X 16-Core Processor", "cpu/amd-ryzen-9-7950x"),
    ("Intel(R) Core(TM) i7-14700K", "cpu/intel-core-i7-14700k"),
    ("Intel(R) Xeon(R) Gold 6230R CPU @ 2.10GHz", "cpu/intel-xeon-gold-6230r"),
    ("AMD EPYC 9654 96-Core Processor", "cpu/amd-epyc-9654"),
    ("AMD Ryzen Threadripper PRO 7995WX 96-Cores", "cpu/amd-ryzen-threadripper-pro-7995wx"),
    ("Intel(R) Xeon(R) w9-3495X", "cpu/intel-xeon-w9-3495x"),
    ("Intel(R) Core(TM) Ultra 9 285K", "cpu/intel-core-ultra-9-285k"),
])
def test_cpu_names(matcher: Matcher, name: str, expected: str) -> None:
    found = matcher.match(Category.CPU, name)
    assert found.part is not None and found.part.id == expected


@pytest.mark.parametrize("name", ["Intel(R) Xeon(R) Processor", "AMD EPYC 7B12",
                                  "AMD EPYC-Milan Processor", "ARM Neoverse-N1",
                                  "AMD Ryzen AI 9 HX 370 w/ Radeon 890M", ""])
def test_cpus_not_in_the_catalog(matcher: Matcher, name: str) -> None:
    found = matcher.match(Category.CPU, name)
    assert found.part is None and found.method is MatchMethod.NONE and found.reason


def test_name_keys() -> None:
    key = name_key("NVIDIA A100-SXM4-80GB")
    assert key.models == {"a100"} and key.memory_gb == 80 and key.form == "sxm"
    assert name_key("A100 PCIe 80 GB").form == "pcie"
    assert name_key("GeForce RTX 4090 D").words == {"rtx", "d"}
    assert not name_key("Intel(R) Xeon(R) Processor").usable


def test_clean_names() -> None:
    assert clean_name("AMD Ryzen 9 7950X 16-Core Processor") == "AMD Ryzen 9 7950X"
    assert clean_name("Intel(R) Xeon(R) Gold 6230R CPU @ 2.10GHz") == "Intel Xeon Gold 6230R"
    assert clean_name("Intel(R) Xeon(R) Processor") == "Intel Xeon Processor"


# --- memory and drives ----------------------------------------------------------------------


def test_memory_total_becomes_a_custom_part(matcher: Matcher) -> None:
    record = match_memory(matcher, DetectedMemory(usable_bytes=25_276_063_744, installed_gb=24.0,
                                                  source="psutil"))
    part = record.part
    assert record.method is MatchMethod.NONE and part.custom
    assert part.id == "custom/memory/detected-24-gb"
    assert part.number("capacity_gb") == 24 and part.get("memory_type") is None
    assert part.notes is not None and part.notes.startswith(DETECTED_NOTE)
    assert "estimated" in part.notes


def test_memory_modules_that_are_a_catalog_kit(matcher: Matcher) -> None:
    modules = tuple(MemoryModule(32, "DDR4", 3200, 2933, "Samsung", "M393A4K40DB3-CWE", True,
                                 True) for _ in range(8))
    record = match_memory(matcher, DetectedMemory(installed_gb=256, installed_estimated=False,
                                                  modules=modules, ecc=True))
    assert record.method is MatchMethod.EXACT
    assert record.part.id == \
        "memory/samsung-m393a4k40db3-cwe-32gb-ddr4-3200-ecc-rdimm-8-module-set"


def test_memory_modules_without_a_kit_keep_their_figures(matcher: Matcher) -> None:
    modules = tuple(MemoryModule(16, "DDR5", 4800, 5600, "Micron", None, False, False)
                    for _ in range(3))  # no catalog kit has three modules
    record = match_memory(matcher, DetectedMemory(installed_gb=48, installed_estimated=False,
                                                  modules=modules, ecc=False))
    part = record.part
    assert not record.matched and part.custom
    assert (part.number("capacity_gb"), part.text("memory_type"), part.number("speed_mt_s"),
            part.number("modules"), part.number("module_size_gb")) == (48, "DDR5", 5600, 3, 16)
    assert part.vendor == "Micron" and "3 x 16 GB" in part.name


def test_drives_become_custom_parts_grouped() -> None:
    disks = [DetectedDisk(f"nvme{i}n1", "SAMSUNG MZQL23T8HCLS-00A07", 3840.8, "nvme", "NVMe")
             for i in range(8)] + [DetectedDisk("sda", "WDC WD40EFPX-68C6CN0", 4000.8, "hdd",
                                                "SATA")]
    records = match_disks(disks)
    assert [(r.quantity, r.part.text("storage_kind"), r.part.vendor) for r in records] == [
        (8, "nvme", "Samsung"), (1, "hdd", "Western Digital")]
    assert all(r.part.custom and r.part.id.startswith("custom/storage/detected-")
               for r in records)
    assert records[0].part.number("capacity_gb") == 3840.8


# --- whole machines -------------------------------------------------------------------------


def test_gpu_workstation_build(catalog: Catalog) -> None:
    build, _, matches = detect_build(catalog, host=machine("gpu-workstation"))
    assert build.name == "ws-4090 (AMD Ryzen 9 7950X)"
    assert build.cpu is not None and build.cpu.id == "cpu/amd-ryzen-9-7950x"
    assert build.motherboard is not None
    assert build.motherboard.id == "motherboard/asus-proart-x870e-creator-wifi"
    (gpu,) = build.accelerators
    assert gpu.part.id == "accelerator/nvidia-geforce-rtx-4090" and gpu.quantity == 1
    (memory,) = build.memory
    assert memory.part.custom and memory.part.number("capacity_gb") == 64
    assert len(build.storage) == 3
    assert "Not detected: power supply, CPU cooler and case" in build.notes
    assert {m.category for m in matches} == {Category.CPU, Category.MOTHERBOARD,
                                             Category.MEMORY, Category.ACCELERATOR,
                                             Category.STORAGE}


def test_h100_server_build(catalog: Catalog) -> None:
    build, _, matches = detect_build(catalog, host=machine("h100-server"))
    (gpus,) = build.accelerators
    assert gpus.part.id == "accelerator/nvidia-h100-sxm5-80-gb" and gpus.quantity == 8
    record = next(m for m in matches if m.category is A)
    assert record.method is MatchMethod.MEMORY and record.quantity == 8
    assert build.cpu is not None and build.cpu.id == "cpu/intel-xeon-gold-6230r"
    cpu_record = next(m for m in matches if m.category is Category.CPU)
    assert cpu_record.quantity == 2  # two sockets: both CPUs are in the build
    assert [i.quantity for i in build.items(Slot.CPU)] == [2]
    assert build.motherboard is not None and build.motherboard.id.endswith("x11dpi-n")
    checks = {r.id: r for r in run_checks(build)}
    assert checks["compat.cpu_sockets"].status == "pass"
    (memory,) = build.memory
    assert not memory.part.custom  # 8 x 32 GB DDR4-3200 RDIMM is a catalog kit
    storage = {i.part.text("storage_kind"): i.quantity for i in build.storage}
    assert storage == {"sata-ssd": 2, "nvme": 8, "hdd": 2}


def test_mi300x_server_build(catalog: Catalog) -> None:
    build, _, _ = detect_build(catalog, host=machine("mi300x-server"))
    (gpus,) = build.accelerators
    assert gpus.part.id == "accelerator/amd-instinct-mi300x" and gpus.quantity == 8


def test_broken_driver_build_still_has_the_card(catalog: Catalog) -> None:
    build, report, _ = detect_build(catalog, host=machine("broken-driver"))
    (gpu,) = build.accelerators
    assert gpu.part.id == "accelerator/nvidia-geforce-rtx-4090"
    assert any(u.source == "nvidia-smi" for u in report.unknowns)


def test_vm_without_gpu_build(catalog: Catalog) -> None:
    build, _, matches = detect_build(catalog, host=machine("vm-no-gpu"))
    assert build.accelerators == ()
    assert build.motherboard is None  # a VM's board is the hypervisor's
    cpu = build.cpu
    assert cpu is not None and cpu.custom and cpu.id == "custom/cpu/detected-amd-epyc-7b12"
    assert cpu.number("cores") == 2 and cpu.number("threads") == 4
    assert cpu.notes is not None and cpu.notes.startswith(DETECTED_NOTE)
    assert all(item.part.custom for item in build.storage)
    assert "kvm" in build.notes
    unmatched = [m for m in matches if not m.matched]
    assert all(m.confidence == 0 and m.reason for m in unmatched)


def test_nothing_detected_is_silently_dropped(catalog: Catalog) -> None:
    _, report, matches = detect_build(catalog, host=machine("h100-server"))
    counted = sum(m.quantity for m in matches if m.category is A)
    assert counted == len(report.accelerators)
    drives = sum(m.quantity for m in matches if m.category is Category.STORAGE)
    assert drives == len(report.disks)


def test_saved_build_reopens_with_its_detected_parts(catalog: Catalog, tmp_path: Path) -> None:
    build, _, _ = detect_build(catalog, host=machine("vm-no-gpu"))
    path = buildfile.save(build, tmp_path / "vm.dlhw.json")

    def resolve(part_id: str) -> Part | None:
        return catalog.find(part_id)

    loaded = buildfile.load(path, resolve)
    assert loaded.missing_ids == ()
    reopened = loaded.build
    assert reopened.name == build.name
    assert [(i.part.id, i.quantity) for i in reopened] == [(i.part.id, i.quantity) for i in build]
    cpu = reopened.part(Slot.CPU)
    assert cpu is not None and cpu.custom and cpu.number("threads") == 4
    assert reopened.memory[0].part.number("capacity_gb") == 16


def test_detecting_twice_gives_the_same_ids(catalog: Catalog) -> None:
    first = detect_build(catalog, host=machine("gpu-workstation")).build
    second = detect_build(catalog, host=machine("gpu-workstation")).build
    assert [i.part.id for i in first] == [i.part.id for i in second]


def test_this_machine_becomes_a_build(catalog: Catalog) -> None:
    build, report, matches = detect_build(catalog)
    assert build.cpu is not None
    assert build.memory and build.memory[0].part.number("capacity_gb")
    assert all(m.part.custom or not m.part.id.startswith("custom/") for m in matches)
    assert report.cpu is not None


def test_more_sockets_than_a_build_holds_are_noted(catalog: Catalog) -> None:
    """A four-socket machine: the build takes two CPUs and says what it left out."""
    from dlhw_desktop.catalog.matching import match_cpu
    from dlhw_desktop.catalog.name_matching import Matcher
    from dlhw_desktop.core.detect.cpu import DetectedCpu

    cpu = DetectedCpu(name="Intel(R) Xeon(R) Gold 6230R CPU @ 2.10GHz", vendor="Intel",
                      sockets=4, cores=104, threads=208)
    record = match_cpu(Matcher(catalog), cpu)
    assert record.quantity == 2
    assert "4 sockets" in record.reason and "other 2" in record.reason
