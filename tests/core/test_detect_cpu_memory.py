"""CPU and memory on recorded /proc files, firmware tables and platform tools."""

from __future__ import annotations

from pathlib import Path

import pytest

from dlhw_desktop.core.detect.cpu import detect_cpu, parse_cpuinfo, parse_windows_processors
from dlhw_desktop.core.detect.host import HostInfo, PsutilFacts, RecordedHost
from dlhw_desktop.core.detect.memory import (
    detect_memory,
    estimate_installed_gib,
    parse_dmidecode_memory,
    parse_macos_memory,
    parse_meminfo,
    parse_windows_memory,
)

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "detect"


def fixture(name: str) -> str:
    return (FIXTURES / name).read_text(encoding="utf-8")


# --- /proc/cpuinfo ------------------------------------------------------------------------


@pytest.mark.parametrize(("name", "model", "vendor", "sockets", "cores", "threads", "arch"), [
    ("ryzen-7950x.txt", "AMD Ryzen 9 7950X 16-Core Processor", "AMD", 1, 16, 32, "x86_64"),
    ("xeon-6230r-dual.txt", "Intel(R) Xeon(R) Gold 6230R CPU @ 2.10GHz", "Intel", 2, 52, 104,
     "x86_64"),
    ("epyc-vm.txt", "AMD EPYC 7B12", "AMD", 1, 2, 4, "x86_64"),
    ("aarch64-graviton2.txt", "ARM Neoverse-N1", "ARM", None, None, 4, "aarch64"),
    ("aarch64-grace.txt", "ARM Neoverse-V2", "ARM", None, None, 4, "aarch64"),
])
def test_cpuinfo_of_several_machines(name: str, model: str, vendor: str, sockets: int | None,
                                     cores: int | None, threads: int, arch: str) -> None:
    info = parse_cpuinfo(fixture(f"cpuinfo/{name}"))
    assert (info.name, info.vendor, info.sockets, info.cores, info.threads, info.architecture) \
        == (model, vendor, sockets, cores, threads, arch)


def test_hypervisor_flag_marks_a_vm() -> None:
    assert parse_cpuinfo(fixture("cpuinfo/epyc-vm.txt")).hypervisor
    assert not parse_cpuinfo(fixture("cpuinfo/ryzen-7950x.txt")).hypervisor


def test_empty_and_cut_off_cpuinfo_do_not_raise() -> None:
    assert parse_cpuinfo("").name == ""
    cut = parse_cpuinfo(fixture("cpuinfo/truncated.txt"))
    assert cut.name == "AMD Ryzen 9 7950X 16-Core Processor"
    assert parse_cpuinfo("garbage\n\x00\n: :\nprocessor: x").threads is None


def test_psutil_counts_fill_what_cpuinfo_lacks() -> None:
    host = RecordedHost(HostInfo(system="Linux", machine="aarch64"),
                        files={"/proc/cpuinfo": fixture("cpuinfo/aarch64-graviton2.txt")})
    facts = PsutilFacts(logical_cpus=4, physical_cores=4, max_mhz=2500.0)
    cpu, unknowns = detect_cpu(host, facts)
    assert cpu is not None
    assert (cpu.cores, cpu.threads, cpu.max_clock_ghz) == (4, 4, 2.5)
    assert any(u.what == "CPU sockets" for u in unknowns)


def test_no_cpuinfo_and_no_psutil_is_reported() -> None:
    cpu, unknowns = detect_cpu(RecordedHost(HostInfo(system="Linux")), None)
    assert cpu is None and unknowns[0].what == "CPU model"


def test_windows_processor_json_and_wmic_list() -> None:
    one = parse_windows_processors('{"Name":"AMD Ryzen 9 7950X 16-Core Processor  ",'
                                   '"NumberOfCores":16,"NumberOfLogicalProcessors":32,'
                                   '"MaxClockSpeed":4501}')
    assert one[0]["NumberOfCores"] == 16
    two = parse_windows_processors("\r\n\r\nMaxClockSpeed=2101\r\nName=Intel(R) Xeon(R) Gold "
                                   "6230R CPU @ 2.10GHz\r\nNumberOfCores=26\r\n"
                                   "NumberOfLogicalProcessors=52\r\n\r\n\r\nMaxClockSpeed=2101\r\n"
                                   "Name=Intel(R) Xeon(R) Gold 6230R CPU @ 2.10GHz\r\n"
                                   "NumberOfCores=26\r\nNumberOfLogicalProcessors=52\r\n")
    assert len(two) == 2
    host = RecordedHost(HostInfo(system="Windows"), commands={
        "wmic-cpu": RecordedHost.command("\r\n".join(
            f"{k}={v}" for k, v in (("MaxClockSpeed", 2101),
                                    ("Name", "Intel(R) Xeon(R) Gold 6230R CPU @ 2.10GHz"),
                                    ("NumberOfCores", 26), ("NumberOfLogicalProcessors", 52)))
            * 1 + "\r\n\r\n" + "Name=Intel(R) Xeon(R) Gold 6230R CPU @ 2.10GHz\r\n"
            "NumberOfCores=26\r\nNumberOfLogicalProcessors=52\r\nMaxClockSpeed=2101\r\n")})
    cpu, _ = detect_cpu(host, None)
    assert cpu is not None and (cpu.sockets, cpu.cores, cpu.threads) == (2, 52, 104)
    assert cpu.source == "wmic"


def test_macos_brand_string() -> None:
    host = RecordedHost(HostInfo(system="Darwin", machine="arm64"), commands={
        "sysctl-cpu": RecordedHost.command("Apple M2 Pro\n"),
        "sysctl-packages": RecordedHost.command("1\n")})
    cpu, _ = detect_cpu(host, PsutilFacts(logical_cpus=12, physical_cores=12))
    assert cpu is not None and cpu.name == "Apple M2 Pro" and cpu.vendor == "Apple"


# --- memory --------------------------------------------------------------------------------


@pytest.mark.parametrize(("name", "installed"), [
    ("ryzen-64g.txt", 64), ("xeon-256g.txt", 256), ("epyc-vm-16g.txt", 16),
    ("graviton2-8g.txt", 8),
])
def test_meminfo_total_and_installed_estimate(name: str, installed: int) -> None:
    total = parse_meminfo(fixture(f"meminfo/{name}"))
    assert total is not None and total < installed * 2**30
    assert estimate_installed_gib(total) == installed


@pytest.mark.parametrize("name", ["malformed.txt", "empty.txt"])
def test_meminfo_without_a_total(name: str) -> None:
    assert parse_meminfo(fixture(f"meminfo/{name}")) is None


@pytest.mark.parametrize(("gib", "expected"), [
    (23.54, 24), (15.6, 16), (61.9, 64), (125.4, 128), (1007.5, 1024), (10.2, 11), (0.4, 1),
])
def test_installed_estimate(gib: float, expected: int) -> None:
    assert estimate_installed_gib(int(gib * 2**30)) == expected


def test_dmidecode_desktop_ddr5_expo() -> None:
    modules, ecc = parse_dmidecode_memory(fixture("dmidecode/desktop-ddr5-2x32.txt"))
    assert len(modules) == 2 and ecc is False
    module = modules[0]
    assert (module.size_gb, module.memory_type, module.speed_mt_s, module.configured_mt_s) == \
        (32, "DDR5", 4800, 6000)
    assert module.registered is False  # "Unbuffered (Unregistered)"
    assert module.part_number == "KF560C30-32" and module.manufacturer == "Kingston"


def test_dmidecode_server_rdimm_with_old_spellings() -> None:
    modules, ecc = parse_dmidecode_memory(fixture("dmidecode/server-rdimm-8x32.txt"))
    assert len(modules) == 8 and ecc is True
    assert {(m.size_gb, m.memory_type, m.speed_mt_s, m.configured_mt_s, m.registered, m.ecc)
            for m in modules} == {(32, "DDR4", 3200, 2933, True, True)}


@pytest.mark.parametrize("name", ["empty.txt", "permission-denied.txt"])
def test_dmidecode_nothing_useful(name: str) -> None:
    assert parse_dmidecode_memory(fixture(f"dmidecode/{name}")) == ([], None)


def _linux(admin: bool, **files_and_commands: str) -> RecordedHost:
    host = RecordedHost(HostInfo(system="Linux", is_admin=admin))
    for key, name in files_and_commands.items():
        if key == "meminfo":
            host.files["/proc/meminfo"] = fixture(name)
        else:
            text = fixture(name)
            host.commands[key.replace("_", "-")] = RecordedHost.command(
                text, 1 if "denied" in text else 0)
    return host


def test_memory_without_root_says_why_type_is_unknown() -> None:
    memory, unknowns = detect_memory(_linux(False, meminfo="meminfo/ryzen-64g.txt"), None)
    assert memory is not None
    assert memory.installed_gb == 64 and memory.installed_estimated
    assert memory.memory_type is None
    assert "administrator" in unknowns[0].reason and "sudo" in unknowns[0].hint


def test_memory_with_root_reads_modules() -> None:
    host = _linux(True, meminfo="meminfo/ryzen-64g.txt",
                  dmidecode_memory="dmidecode/desktop-ddr5-2x32.txt")
    memory, unknowns = detect_memory(host, PsutilFacts(memory_total_bytes=66497245184))
    assert memory is not None and unknowns == []
    assert (memory.installed_gb, memory.installed_estimated, memory.memory_type,
            memory.speed_mt_s, memory.ecc, memory.registered) == (64, False, "DDR5", 6000,
                                                                 False, False)


def test_memory_in_a_vm_ignores_its_fake_modules() -> None:
    host = _linux(True, meminfo="meminfo/epyc-vm-16g.txt", dmidecode_memory="dmidecode/vm-qemu.txt")
    memory, unknowns = detect_memory(host, None)
    assert memory is not None
    assert memory.modules == () and memory.ecc is None and memory.installed_gb == 16
    assert any("virtual machine" in u.reason for u in unknowns)


def test_memory_dmidecode_refused() -> None:
    host = _linux(True, meminfo="meminfo/ryzen-64g.txt",
                  dmidecode_memory="dmidecode/permission-denied.txt")
    memory, unknowns = detect_memory(host, None)
    assert memory is not None and memory.installed_gb == 64
    assert "administrator" in unknowns[0].reason


def test_memory_nothing_at_all() -> None:
    memory, unknowns = detect_memory(RecordedHost(HostInfo(system="Linux")), None)
    assert memory is None and unknowns


def test_windows_and_macos_modules() -> None:
    modules = parse_windows_memory('[{"Capacity":34359738368,"Speed":6000,'
                                   '"ConfiguredClockSpeed":6000,"SMBIOSMemoryType":34,'
                                   '"Manufacturer":"Kingston","PartNumber":"KF560C30-32   "},'
                                   '{"Capacity":34359738368,"Speed":6000,"SMBIOSMemoryType":34}]')
    assert [(m.size_gb, m.memory_type, m.speed_mt_s) for m in modules] == [(32, "DDR5", 6000)] * 2
    apple = parse_macos_memory('{"SPMemoryDataType":[{"SPMemoryDataType":"32 GB",'
                               '"dimm_manufacturer":"Micron","dimm_type":"LPDDR5"}]}')
    assert [(m.size_gb, m.memory_type) for m in apple] == [(32, "LPDDR5")]
    intel_mac = parse_macos_memory('{"SPMemoryDataType":[{"_items":[{"_name":"BANK 0/DIMM0",'
                                   '"dimm_size":"8 GB","dimm_speed":"2667 MHz",'
                                   '"dimm_type":"DDR4"},{"_name":"BANK 1/DIMM0",'
                                   '"dimm_size":"8 GB","dimm_speed":"2667 MHz",'
                                   '"dimm_type":"DDR4"}]}]}')
    assert [(m.size_gb, m.speed_mt_s) for m in intel_mac] == [(8, 2667)] * 2
    assert parse_macos_memory("not json") == []
