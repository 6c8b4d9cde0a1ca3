"""Drives from lsblk (old and new util-linux), the board, and telling VMs apart."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from dlhw_desktop.core.detect.host import HostInfo, PartitionFact, PsutilFacts, RecordedHost
from dlhw_desktop.core.detect.storage import (
    detect_storage,
    disks_from_partitions,
    parse_lsblk,
    parse_windows_disks,
    storage_vendor,
)
from dlhw_desktop.core.detect.system import (
    detect_system,
    parse_systemd_detect_virt,
    parse_virt_from_dmi,
)

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "detect"


def fixture(name: str) -> str:
    return (FIXTURES / name).read_text(encoding="utf-8")


def test_workstation_drives_and_what_is_left_out() -> None:
    disks = parse_lsblk(fixture("lsblk/workstation.json"))
    # loop, zram, the optical drive and the empty card reader are not storage for a build.
    assert [(d.name, d.storage_kind, d.interface) for d in disks] == [
        ("sda", "sata-ssd", "SATA"), ("sdb", "hdd", "SATA"), ("nvme0n1", "nvme", "NVMe")]
    nvme = disks[2]
    assert nvme.model == "Samsung SSD 990 PRO 2TB" and nvme.capacity_gb == 2000.4


def test_server_drives() -> None:
    disks = parse_lsblk(fixture("lsblk/server.json"))
    kinds = [d.storage_kind for d in disks]
    assert kinds.count("nvme") == 8 and kinds.count("sata-ssd") == 2 and kinds.count("hdd") == 2
    sas = [d for d in disks if d.interface == "SAS"]
    assert len(sas) == 2 and sas[0].capacity_gb == 16000.9


def test_old_util_linux_strings() -> None:
    disks = parse_lsblk(fixture("lsblk/old-strings.json"))
    assert [(d.model, d.storage_kind) for d in disks] == [
        ("CT500MX500SSD1", "sata-ssd"), ("ST2000DM008-2FR102", "hdd"),
        ("WD BLACK SN850X 1000GB", "nvme")]


def test_virtual_disks_keep_an_unknown_kind() -> None:
    disks = parse_lsblk(fixture("lsblk/vm.json"))
    assert [(d.name, d.storage_kind) for d in disks] == [("vda", None), ("sda", None)]
    assert all("virtual" in d.note for d in disks)


@pytest.mark.parametrize("name", ["malformed.json", "not-lsblk.json"])
def test_bad_lsblk_output_raises_value_error(name: str) -> None:
    with pytest.raises(ValueError):
        parse_lsblk(fixture(f"lsblk/{name}"))


def test_empty_lsblk_output_is_no_disks() -> None:
    assert parse_lsblk(fixture("lsblk/empty.txt")) == []


def test_sizes_with_suffixes_and_escapes() -> None:
    text = json.dumps({"blockdevices": [
        {"name": "sda", "size": "931.5G", "rota": "0", "tran": "sata",
         "model": "Samsung\\x20SSD\\x20860", "type": "disk"}]})
    (disk,) = parse_lsblk(text)
    assert disk.model == "Samsung SSD 860" and disk.capacity_gb == pytest.approx(1000.2, abs=0.1)


def test_storage_source_reports_lsblk_problems_and_falls_back() -> None:
    facts = PsutilFacts(partitions=(PartitionFact("/dev/nvme0n1p2", "/", "ext4", 500_000_000_000),
                                    PartitionFact("/dev/nvme0n1p1", "/boot/efi", "vfat",
                                                  1_000_000_000)))
    host = RecordedHost(HostInfo(system="Linux"), commands={
        "lsblk": RecordedHost.command(fixture("lsblk/malformed.json"))})
    disks, unknowns = detect_storage(host, facts)
    assert [(d.name, d.capacity_gb) for d in disks] == [("/dev/nvme0n1", 501.0)]
    assert "unexpected" in unknowns[0].reason
    disks, unknowns = detect_storage(RecordedHost(HostInfo(system="Linux")), None)
    assert disks == [] and [u.what for u in unknowns] == ["drive kinds", "drives"]


def test_partitions_fallback_ignores_pseudo_file_systems() -> None:
    disks = disks_from_partitions([PartitionFact("/dev/loop0", "/snap/x", "squashfs", 10**8),
                                   PartitionFact("/dev/sda1", "/", "ext4", 10**11)])
    assert [d.name for d in disks] == ["/dev/sda"]


def test_windows_physical_disks_names_and_numbers() -> None:
    text = ('[{"FriendlyName":"Samsung SSD 990 PRO 2TB","MediaType":"SSD","BusType":"NVMe",'
            '"Size":2000398934016},{"FriendlyName":"WDC WD40EFPX-68C6CN0","MediaType":3,'
            '"BusType":11,"Size":4000787030016}]')
    disks = parse_windows_disks(text)
    assert [(d.storage_kind, d.interface) for d in disks] == [("nvme", "NVMe"), ("hdd", "SATA")]


@pytest.mark.parametrize(("model", "vendor"), [
    ("Samsung SSD 990 PRO 2TB", "Samsung"), ("SAMSUNG MZQL23T8HCLS-00A07", "Samsung"),
    ("WDC WD40EFPX-68C6CN0", "Western Digital"), ("WD_BLACK SN850X 1000GB", "Western Digital"),
    ("CT500MX500SSD1", "Crucial"), ("ST16000NM004J", "Seagate"), ("Storage Device", ""),
    ("QEMU HARDDISK", ""),
])
def test_storage_vendor(model: str, vendor: str) -> None:
    assert storage_vendor(model) == vendor


# --- system ---------------------------------------------------------------------------------


def test_virtualisation_from_dmi_and_systemd() -> None:
    assert parse_virt_from_dmi("QEMU", "Standard PC (Q35 + ICH9, 2009)") == "qemu"
    assert parse_virt_from_dmi("Microsoft Corporation", "Virtual Machine") == "hyper-v"
    assert parse_virt_from_dmi("Amazon EC2", "c6i.2xlarge") == "amazon"
    assert parse_virt_from_dmi("Micro-Star International Co., Ltd.", "MS-7E12") is None
    assert parse_systemd_detect_virt("kvm\n") == "kvm"
    assert parse_systemd_detect_virt("none\n") is None
    assert parse_systemd_detect_virt("") is None


def test_bare_metal_board_from_dmi() -> None:
    host = RecordedHost(HostInfo(system="Linux", hostname="ws"), files={
        "/sys/class/dmi/id/board_vendor": "ASUSTeK COMPUTER INC.\n",
        "/sys/class/dmi/id/board_name": "ProArt X870E-CREATOR WIFI\n",
        "/sys/class/dmi/id/sys_vendor": "ASUS\n",
        "/sys/class/dmi/id/product_name": "System Product Name\n",
        "/proc/cpuinfo": fixture("cpuinfo/ryzen-7950x.txt"),
    }, commands={"systemd-detect-virt": RecordedHost.command("none\n", 1)})
    os_info, board, unknowns = detect_system(host)
    assert os_info.virtualization is None and os_info.hostname == "ws"
    assert board is not None and board.name == "ProArt X870E-CREATOR WIFI"
    assert board.system_product == ""  # a firmware placeholder is not a name
    assert unknowns == []


def test_container_inside_a_vm() -> None:
    host = RecordedHost(HostInfo(system="Linux"), files={
        "/proc/cpuinfo": fixture("cpuinfo/epyc-vm.txt")},
        commands={"systemd-detect-virt": RecordedHost.command("docker\n")})
    os_info, board, _ = detect_system(host)
    assert os_info.virtualization == "docker in vm" and board is None


def test_hypervisor_flag_alone_marks_a_vm() -> None:
    host = RecordedHost(HostInfo(system="Linux"), files={
        "/proc/cpuinfo": fixture("cpuinfo/epyc-vm.txt")})
    os_info, _, _ = detect_system(host)
    assert os_info.virtualization == "vm"
