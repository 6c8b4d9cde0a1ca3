"""GPU parsers on recorded outputs of real tools, including broken and odd ones."""

from __future__ import annotations

from pathlib import Path

import pytest

from dlhw_desktop.core.detect.gpu_tools import (
    pair_dual_die,
    parse_amd_smi,
    parse_nvidia_smi,
    parse_rocm_smi,
)
from dlhw_desktop.core.detect.gpus import detect_gpus
from dlhw_desktop.core.detect.gpus_desktop import parse_macos_displays, parse_windows_video
from dlhw_desktop.core.detect.host import HostInfo, RecordedHost
from dlhw_desktop.core.detect.pci import (
    gpus_from_lspci,
    normalise_bus_id,
    parse_lspci,
    split_alternatives,
)
from dlhw_desktop.core.detect.values import parse_quantity

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "detect"


def fixture(name: str) -> str:
    return (FIXTURES / name).read_bytes().decode("utf-8", errors="replace")


# --- nvidia-smi ------------------------------------------------------------------------


def test_one_rtx_4090() -> None:
    parsed = parse_nvidia_smi(fixture("nvidia-smi/rtx4090.csv"))
    assert not parsed.error
    (gpu,) = parsed.gpus
    assert gpu.name == "NVIDIA GeForce RTX 4090"
    assert gpu.memory_gb == pytest.approx(24.0, abs=0.05)
    assert gpu.power_limit_w == 450
    assert gpu.bus_id == "0000:01:00.0"
    assert gpu.driver_version == "550.54.14"


def test_eight_h100() -> None:
    parsed = parse_nvidia_smi(fixture("nvidia-smi/h100x8.csv"))
    assert len(parsed.gpus) == 8
    assert {g.name for g in parsed.gpus} == {"NVIDIA H100 80GB HBM3"}
    assert len({g.bus_id for g in parsed.gpus}) == 8
    assert all(g.memory_gb == pytest.approx(79.6, abs=0.1) for g in parsed.gpus)


def test_driver_variations_header_units_na_spacing_crlf() -> None:
    parsed = parse_nvidia_smi(fixture("nvidia-smi/variations.csv"))
    by_name = {g.name: g for g in parsed.gpus}
    assert set(by_name) == {"NVIDIA GeForce RTX 3060", "Tesla T4", "NVIDIA RTX A6000"}
    assert by_name["NVIDIA GeForce RTX 3060"].memory_gb == 12
    assert by_name["NVIDIA GeForce RTX 3060"].power_limit_w is None  # [N/A]
    assert by_name["NVIDIA RTX A6000"].power_limit_w is None  # [Not Supported]
    assert by_name["Tesla T4"].power_limit_w == 70 and by_name["Tesla T4"].memory_gb == 15
    assert by_name["Tesla T4"].driver_version == "535.104.05"


@pytest.mark.parametrize(("name", "words"), [
    ("driver-error.txt", "couldn't communicate with the NVIDIA driver"),
    ("nvml-mismatch.txt", "Driver/library version mismatch"),
    ("no-devices.txt", "No devices were found"),
    ("invalid-field.txt", "not a valid field"),
])
def test_tool_errors_come_back_as_the_tools_words(name: str, words: str) -> None:
    parsed = parse_nvidia_smi(fixture(f"nvidia-smi/{name}"))
    assert parsed.gpus == ()
    assert words in parsed.error


def test_one_lost_gpu_does_not_lose_the_others() -> None:
    parsed = parse_nvidia_smi(fixture("nvidia-smi/gpu-lost.csv"))
    assert len(parsed.gpus) == 2
    assert "1 GPU could not be read" in parsed.error


@pytest.mark.parametrize("name", ["empty.txt", "garbage.txt"])
def test_empty_and_garbage_output(name: str) -> None:
    parsed = parse_nvidia_smi(fixture(f"nvidia-smi/{name}"))
    assert parsed.gpus == ()
    assert parsed.error  # says something, never raises


def test_default_table_output_is_understood() -> None:
    parsed = parse_nvidia_smi(fixture("nvidia-smi/table-535.txt"))
    assert [g.name for g in parsed.gpus] == ["NVIDIA GeForce RTX 4090"] * 2
    assert parsed.gpus[0].power_limit_w == 450 and parsed.gpus[1].bus_id == "0000:4c:00.0"
    assert parsed.gpus[0].driver_version == "535.104.05"


def test_old_table_with_cut_names() -> None:
    parsed = parse_nvidia_smi(fixture("nvidia-smi/table-470-a100.txt"))
    assert len(parsed.gpus) == 2
    assert parsed.gpus[0].name == "NVIDIA A100-SXM..."
    assert parsed.gpus[0].memory_gb == pytest.approx(39.6, abs=0.1)
    assert parsed.gpus[0].power_limit_w == 400


def test_list_output() -> None:
    parsed = parse_nvidia_smi(fixture("nvidia-smi/list.txt"))
    assert [g.name for g in parsed.gpus] == ["NVIDIA GeForce RTX 4090"] * 2


@pytest.mark.parametrize(("text", "expected"), [
    ("81559", (81559.0, "MiB")), (" 81559 MiB ", (81559.0, "MiB")), ("700.00 W", (700.0, "W")),
    ("[N/A]", None), ("N/A", None), ("[Not Supported]", None), ("ERR!", None), ("", None),
    ("[Unknown Error]", None), ("abc", None),
])
def test_quantities(text: str, expected: tuple[float, str] | None) -> None:
    assert parse_quantity(text, "MiB" if expected is None or expected[1] != "W" else "W") \
        == expected


@pytest.mark.parametrize(("text", "expected"), [
    ("00000000:01:00.0", "0000:01:00.0"), ("0000:AB:00.0", "0000:ab:00.0"),
    ("17:00.0", "0000:17:00.0"), ("GPU0000:3B:00.0", "0000:3b:00.0"), ("junk", ""),
])
def test_bus_ids_normalise(text: str, expected: str) -> None:
    assert normalise_bus_id(text) == expected


# --- AMD -----------------------------------------------------------------------------------


def test_rocm_smi_mi250x_lists_dies_with_alternatives() -> None:
    parsed = parse_rocm_smi(fixture("rocm-smi/mi250x-8gcd.json"))
    assert len(parsed.gpus) == 8
    gpu = parsed.gpus[0]
    assert gpu.name == "Instinct MI250X" and gpu.vendor == "AMD"
    assert gpu.alternatives == ("Instinct MI250X", "Instinct MI250")
    assert gpu.memory_gb == pytest.approx(64, abs=0.1)
    # Eight dies are four cards of 128 GB.
    cards = pair_dual_die(list(parsed.gpus))
    assert len(cards) == 4 and all(c.memory_gb == pytest.approx(128, abs=0.1) for c in cards)


def test_rocm_smi_mi300x_after_a_warning_line() -> None:
    parsed = parse_rocm_smi(fixture("rocm-smi/mi300x-warning.txt"))
    assert len(parsed.gpus) == 8
    assert parsed.gpus[0].name == "AMD Instinct MI300X OAM"
    assert parsed.gpus[0].memory_gb == pytest.approx(192, abs=0.1)
    assert parsed.gpus[0].pci_id == "1002:74a1"


def test_rocm_smi_workstation_card_and_driver() -> None:
    (gpu,) = parse_rocm_smi(fixture("rocm-smi/w7900.json")).gpus
    assert gpu.name == "Radeon Pro W7900" and gpu.driver_version == "6.7.0"


@pytest.mark.parametrize(("name", "words"), [
    ("malformed.json", "unreadable output"), ("empty.txt", "printed nothing"),
    ("no-gpus.txt", "No AMD GPUs"),
])
def test_rocm_smi_failures(name: str, words: str) -> None:
    parsed = parse_rocm_smi(fixture(f"rocm-smi/{name}"))
    assert parsed.gpus == () and words in parsed.error


@pytest.mark.parametrize("name", ["mi300x-list.json", "mi300x-gpu-data.json"])
def test_amd_smi_both_layouts(name: str) -> None:
    parsed = parse_amd_smi(fixture(f"amd-smi/{name}"))
    gpu = parsed.gpus[0]
    assert gpu.name == "AMD Instinct MI300X"
    assert gpu.memory_gb == pytest.approx(192, abs=0.1)
    assert gpu.power_limit_w == 750 and gpu.bus_id == "0000:05:00.0"
    assert gpu.driver_version == "6.7.0"


def test_amd_smi_malformed() -> None:
    parsed = parse_amd_smi(fixture("amd-smi/malformed.json"))
    assert parsed.gpus == () and parsed.error


# --- lspci ----------------------------------------------------------------------------------


def test_workstation_nvidia_card_and_integrated_graphics() -> None:
    gpus = gpus_from_lspci(fixture("lspci/workstation-rtx4090.txt"))
    accelerators = [g for g in gpus if g.is_accelerator]
    assert [(g.name, g.vendor, g.pci_id) for g in accelerators] == [
        ("GeForce RTX 4090", "NVIDIA", "10de:2684")]
    (igpu,) = [g for g in gpus if not g.is_accelerator]
    assert igpu.kind == "integrated" and igpu.name == "Raphael"


@pytest.mark.parametrize("name", ["vm-virtio-gpu.txt", "vm-qxl.txt", "vm-bochs.txt"])
def test_virtual_machine_displays_are_not_accelerators(name: str) -> None:
    gpus = gpus_from_lspci(fixture(f"lspci/{name}"))
    assert len(gpus) == 1
    assert gpus[0].kind == "virtual" and not gpus[0].is_accelerator


def test_server_bmc_display_and_h100s_without_nvswitches() -> None:
    gpus = gpus_from_lspci(fixture("lspci/server-h100-aspeed.txt"))
    accelerators = [g for g in gpus if g.is_accelerator]
    assert len(accelerators) == 8 and {g.name for g in accelerators} == {"H100 SXM5 80GB"}
    assert [g.kind for g in gpus if not g.is_accelerator] == ["bmc"]


def test_processing_accelerator_class_is_seen() -> None:
    gpus = gpus_from_lspci(fixture("lspci/server-mi300x.txt"))
    assert sum(g.is_accelerator for g in gpus) == 8
    assert {g.name for g in gpus if g.is_accelerator} == {"Instinct MI300X"}


def test_lspci_without_numeric_ids() -> None:
    gpus = gpus_from_lspci(fixture("lspci/no-nn.txt"))
    kinds = {g.name: g.kind for g in gpus}
    assert kinds == {"UHD Graphics 770": "integrated", "GeForce RTX 3090": "accelerator",
                     "Radeon RX 7900 XT": "accelerator"}
    radeon = next(g for g in gpus if g.vendor == "AMD")
    assert "Radeon RX 7900 XTX" in radeon.alternatives


def test_malformed_lspci_lines_are_skipped() -> None:
    devices = parse_lspci(fixture("lspci/malformed.txt"))
    assert [d.slot for d in devices] == ["04:00.0"]
    assert gpus_from_lspci(fixture("lspci/empty.txt")) == []


def test_alternatives_take_the_leading_words() -> None:
    assert split_alternatives("Instinct MI250X/MI250") == ("Instinct MI250X", "Instinct MI250")
    assert split_alternatives("Radeon RX 6800/6800 XT / 6900 XT") == (
        "Radeon RX 6800", "Radeon RX 6800 XT", "Radeon RX 6900 XT")
    assert split_alternatives("GeForce RTX 4090") == ("GeForce RTX 4090",)


# --- Windows and macOS ------------------------------------------------------------------------


def test_windows_video_controllers() -> None:
    text = ('[{"Name":"NVIDIA GeForce RTX 4080","AdapterRAM":4293918720,'
            '"PNPDeviceID":"PCI\\\\VEN_10DE&DEV_2704&SUBSYS_167C10DE&REV_A1\\\\4&1",'
            '"DriverVersion":"31.0.15.5222"},'
            '{"Name":"Microsoft Basic Display Adapter","AdapterRAM":null,'
            '"PNPDeviceID":"ROOT\\\\BASICDISPLAY\\\\0000","DriverVersion":"10.0.22621.1"}]')
    gpus = parse_windows_video(text)
    assert gpus[0].name == "NVIDIA GeForce RTX 4080" and gpus[0].vendor == "NVIDIA"
    assert gpus[0].memory_gb is None  # the 32-bit AdapterRAM field wrapped
    assert gpus[0].is_accelerator and not gpus[1].is_accelerator


def test_macos_apple_silicon_is_integrated() -> None:
    text = ('{"SPDisplaysDataType":[{"_name":"Apple M2 Pro","sppci_model":"Apple M2 Pro",'
            '"sppci_cores":"19","spdisplays_vendor":"sppci_vendor_Apple"}]}')
    (gpu,) = parse_macos_displays(text)
    assert gpu.kind == "integrated" and "19 cores" in gpu.note


# --- the whole GPU source -----------------------------------------------------------------


def _host(**commands: tuple[str, int | str]) -> RecordedHost:
    return RecordedHost(HostInfo(system="Linux", hostname="t"), commands={
        key.replace("_", "-"): RecordedHost.command(fixture(name) if name else "", code)
        for key, (name, code) in commands.items()})


def test_vendor_tool_and_lspci_are_not_counted_twice() -> None:
    host = _host(nvidia_smi=("nvidia-smi/h100x8.csv", 0),
                 lspci=("lspci/server-h100-aspeed.txt", 0))
    gpus, unknowns = detect_gpus(host)
    assert sum(g.is_accelerator for g in gpus) == 8
    assert all(g.source == "nvidia-smi" for g in gpus if g.is_accelerator)
    assert not [u for u in unknowns if "GPU" in u.what]


def test_broken_driver_falls_back_to_the_pci_bus_and_says_so() -> None:
    host = _host(nvidia_smi=("nvidia-smi/driver-error.txt", 9),
                 lspci=("lspci/workstation-rtx4090.txt", 0))
    gpus, unknowns = detect_gpus(host)
    accelerators = [g for g in gpus if g.is_accelerator]
    assert [g.name for g in accelerators] == ["GeForce RTX 4090"]
    assert accelerators[0].memory_gb is None
    (problem,) = [u for u in unknowns if u.source == "nvidia-smi"]
    assert "couldn't communicate" in problem.reason and "driver" in problem.hint


def test_no_tools_at_all_says_what_is_missing() -> None:
    gpus, unknowns = detect_gpus(_host())
    assert gpus == []
    (unknown,) = unknowns
    assert unknown.what == "GPUs" and "lspci" in unknown.reason and "nvidia-smi" in unknown.reason


def test_vm_with_only_a_virtual_display() -> None:
    gpus, unknowns = detect_gpus(_host(lspci=("lspci/vm-virtio-gpu.txt", 0)))
    assert [g.kind for g in gpus] == ["virtual"] and unknowns == []


def test_amd_falls_back_to_amd_smi() -> None:
    host = _host(rocm_smi=("rocm-smi/malformed.json", 0), amd_smi=("amd-smi/mi300x-list.json", 0))
    gpus, unknowns = detect_gpus(host)
    assert [g.source for g in gpus] == ["amd-smi", "amd-smi"]
    assert [u.what for u in unknowns] == ["other display adapters"]  # no lspci here


def test_mi250x_dies_are_counted_as_cards() -> None:
    host = _host(rocm_smi=("rocm-smi/mi250x-8gcd.json", 0),
                 lspci=("lspci/server-mi250x.txt", 0))
    gpus, _ = detect_gpus(host)
    accelerators = [g for g in gpus if g.is_accelerator]
    assert len(accelerators) == 4
    assert "two dies" in accelerators[0].note


def test_timeout_of_nvidia_smi_is_reported() -> None:
    host = _host(nvidia_smi=("nvidia-smi/empty.txt", "timeout"))
    _, unknowns = detect_gpus(host)
    assert any("did not answer" in u.reason for u in unknowns)


def test_old_driver_gets_a_second_smaller_query() -> None:
    host = _host(nvidia_smi=("nvidia-smi/invalid-field.txt", 2))
    host.commands["nvidia-smi-basic"] = RecordedHost.command(
        "GeForce GTX 1080 Ti, 11178, 00000000:01:00.0, 390.116\n")
    gpus, unknowns = detect_gpus(host)
    assert [(g.name, g.driver_version) for g in gpus] == [("GeForce GTX 1080 Ti", "390.116")]
    assert gpus[0].power_limit_w is None
    assert all(u.source == "lspci" for u in unknowns)
