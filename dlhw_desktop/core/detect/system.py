"""The operating system, whether this is a virtual machine or container, and the board.

Being in a VM matters to the verdict: its CPU count, memory and disks are a slice of a
bigger machine and its GPUs (if any) are passed through. The board's maker and model
come from DMI strings that Linux lets anyone read (``/sys/class/dmi/id``).
"""

from __future__ import annotations

import re

from dlhw_desktop.core.detect.host import Host, HostInfo, run_powershell
from dlhw_desktop.core.detect.model import DetectedBoard, DetectedOs, Unknown

_DMI = "/sys/class/dmi/id/"
_VM_PRODUCTS: tuple[tuple[str, str], ...] = (
    ("kvm", "kvm"), ("qemu", "qemu"), ("vmware", "vmware"), ("virtualbox", "virtualbox"),
    ("virtual machine", "hyper-v"), ("hvm domu", "xen"), ("xen", "xen"),
    ("amazon ec2", "amazon"), ("google compute engine", "google"), ("bochs", "bochs"),
    ("parallels", "parallels"), ("openstack", "openstack"), ("cloud hypervisor", "ch"),
    ("firecracker", "firecracker"),
)
_PLACEHOLDERS = {"", "default string", "to be filled by o.e.m.", "not applicable",
                 "system product name", "system manufacturer", "none", "unknown",
                 "not specified", "base board product name", "type2 - board product name1"}


def parse_virt_from_dmi(*strings: str) -> str | None:
    """A hypervisor name from DMI vendor/product strings, else ``None``."""
    text = " ".join(strings).lower()
    for needle, name in _VM_PRODUCTS:
        if needle in text:
            return name
    return None


def parse_systemd_detect_virt(output: str) -> str | None:
    """``systemd-detect-virt`` prints ``kvm``, ``docker``, ... or ``none``."""
    word = output.strip().splitlines()[0].strip().lower() if output.strip() else ""
    return None if word in ("", "none") else word


def clean_dmi(value: str) -> str:
    text = re.sub(r"\s+", " ", value or "").strip()
    return "" if text.lower() in _PLACEHOLDERS else text


_CONTAINERS = {"docker", "podman", "lxc", "lxc-libvirt", "systemd-nspawn", "openvz", "rkt",
               "wsl", "proot", "pouch", "container-other"}


def detect_system(host: Host) -> tuple[DetectedOs, DetectedBoard | None, list[Unknown]]:
    info: HostInfo = host.info()
    unknowns: list[Unknown] = []
    board: DetectedBoard | None = None
    virt: str | None = None
    if info.system in ("Linux", ""):
        dmi = {key: clean_dmi(host.read(_DMI + key).text)
               for key in ("board_vendor", "board_name", "sys_vendor", "product_name")}
        virt = parse_virt_from_dmi(dmi["sys_vendor"], dmi["product_name"])
        cpuinfo = host.read("/proc/cpuinfo")
        hypervisor = bool(cpuinfo.ok and re.search(r"^flags\s*:.*\bhypervisor\b",
                                                   cpuinfo.text, re.MULTILINE))
        result = host.run("systemd-detect-virt", ["systemd-detect-virt"])
        # It exits 1 with "none" on bare metal: the text is the answer either way.
        told = parse_systemd_detect_virt(result.stdout)
        if told in _CONTAINERS:
            inner = virt or ("vm" if hypervisor else None)
            virt = f"{told} in {inner}" if inner else told
        elif told:
            virt = told
        if virt is None and hypervisor:
            virt = "vm"
        if dmi["board_name"] or dmi["product_name"]:
            board = DetectedBoard(vendor=dmi["board_vendor"], name=dmi["board_name"],
                                  system_vendor=dmi["sys_vendor"],
                                  system_product=dmi["product_name"], source=_DMI)
        elif virt is None:
            unknowns.append(Unknown("motherboard", "the firmware does not name the board "
                                    f"({_DMI} is empty or missing)", _DMI))
    elif info.system == "Windows":
        script = ("Get-CimInstance Win32_BaseBoard | Select-Object Manufacturer,Product | "
                  "ConvertTo-Json")
        result = run_powershell(host, "powershell-board", script)
        vendor = _json_field(result.stdout, "Manufacturer") if result.ok else ""
        name = _json_field(result.stdout, "Product") if result.ok else ""
        if name:
            board = DetectedBoard(vendor=vendor, name=name, source="Win32_BaseBoard")
            virt = parse_virt_from_dmi(vendor, name)
        else:
            unknowns.append(Unknown("motherboard", result.reason if not result.ok
                                    else "Windows did not name the board", "Win32_BaseBoard"))
    os_info = DetectedOs(system=info.system, os_name=info.os_name, release=info.release,
                         machine=info.machine, hostname=info.hostname, virtualization=virt,
                         is_admin=info.is_admin)
    return os_info, board, unknowns


def _json_field(text: str, key: str) -> str:
    match = re.search(rf'"{key}"\s*:\s*"([^"]*)"', text)
    return clean_dmi(match.group(1)) if match else ""
