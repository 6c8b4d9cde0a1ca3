"""Drives: model, capacity and kind (NVMe, SATA SSD, hard disk).

Linux: ``lsblk -J -b`` lists whole disks with their transport (``TRAN``) and whether they
spin (``ROTA``). Windows: ``Get-PhysicalDisk``. Elsewhere (and as a fallback) psutil's
mounted partitions give capacities without kinds. A virtual machine's disks hide what
lies beneath them, so their kind stays unknown rather than guessed from ``ROTA``
(virtio disks claim to spin).
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from typing import Any

from dlhw_desktop.core.detect.host import (
    Host,
    PartitionFact,
    PsutilFacts,
    powershell_objects,
    run_powershell,
)
from dlhw_desktop.core.detect.model import DetectedDisk, Unknown

_SKIP_PREFIXES = ("loop", "zram", "ram", "fd", "sr", "nbd", "md", "dm-")
_VIRTUAL_MODELS = ("qemu", "vbox", "virtual", "vmware", "amazon elastic block store",
                   "persistentdisk", "google persistent", "msft virtual", "xen")
_SIZE_SUFFIX = {"": 1, "B": 1, "K": 1024, "M": 1024**2, "G": 1024**3, "T": 1024**4,
                "P": 1024**5}
_VENDOR_PREFIXES: tuple[tuple[str, str], ...] = (
    ("samsung", "Samsung"), ("mz", "Samsung"), ("wdc", "Western Digital"),
    ("wd", "Western Digital"), ("western digital", "Western Digital"),
    ("ct", "Crucial"), ("crucial", "Crucial"), ("st", "Seagate"), ("seagate", "Seagate"),
    ("kingston", "Kingston"), ("micron", "Micron"), ("intel", "Intel"), ("ssdpe", "Intel"),
    ("sk hynix", "SK hynix"), ("skhynix", "SK hynix"), ("hfs", "SK hynix"),
    ("kioxia", "KIOXIA"), ("toshiba", "Toshiba"), ("hgst", "HGST"), ("sabrent", "Sabrent"),
    ("corsair", "Corsair"), ("solidigm", "Solidigm"), ("sandisk", "SanDisk"),
    ("adata", "ADATA"), ("teamgroup", "TEAMGROUP"), ("lexar", "Lexar"), ("apple", "Apple"),
)


def parse_lsblk(text: str) -> list[DetectedDisk]:
    """Whole disks from ``lsblk -J -b -o NAME,SIZE,ROTA,TRAN,MODEL,TYPE``.

    Copes with older util-linux (every value a string, ``"1"``/``"0"`` for ROTA), sizes
    with suffixes (run without ``-b``) and ``\\x20`` escapes in models. Raises
    ``ValueError`` when the text is not lsblk JSON at all.
    """
    data = json.loads(text) if text.strip() else {"blockdevices": []}
    if not isinstance(data, dict) or not isinstance(data.get("blockdevices"), list):
        raise ValueError("no \"blockdevices\" list")
    disks: list[DetectedDisk] = []
    for entry in data["blockdevices"]:
        if not isinstance(entry, dict):
            continue
        name = str(entry.get("name") or "").strip()
        kind = str(entry.get("type") or "").strip().lower()
        if not name or kind != "disk" or name.startswith(_SKIP_PREFIXES):
            continue
        size = _size_bytes(entry.get("size"))
        if not size:
            continue
        disks.append(classify_disk(
            name=name, size_bytes=size, rotational=_bool(entry.get("rota")),
            transport=str(entry.get("tran") or "").strip().lower(),
            model=clean_model(entry.get("model")),
            removable=bool(_bool(entry.get("rm"))), source="lsblk"))
    return disks


def classify_disk(name: str, size_bytes: int, rotational: bool | None, transport: str,
                  model: str, removable: bool = False, source: str = "") -> DetectedDisk:
    """Decide kind and interface from transport, rotation, device name and model."""
    lowered = model.lower()
    kind: str | None = None
    interface = ""
    note = ""
    virtual = any(w in lowered for w in _VIRTUAL_MODELS) or name.startswith(("vd", "xvd"))
    if virtual:
        interface = ("virtio" if name.startswith("vd") else "Xen" if name.startswith("xvd")
                     else transport.upper() or "virtual")
        note = "virtual disk: the kind of drive beneath it is hidden from this machine"
    elif transport == "nvme" or name.startswith("nvme"):
        kind, interface = "nvme", "NVMe"
    elif transport in ("sata", "ata", "sas", "usb", "scsi", "spi", "fc", "iscsi"):
        interface = {"sata": "SATA", "ata": "SATA", "sas": "SAS", "usb": "USB"}.get(
            transport, transport.upper())
        if rotational is True:
            kind = "hdd"
        elif rotational is False and transport in ("sata", "ata", "sas"):
            kind = "sata-ssd"
        if transport == "usb":
            note = "external (USB)"
        if transport in ("fc", "iscsi"):
            note = "network storage"
    elif name.startswith("mmcblk"):
        interface, note = "MMC", "eMMC or SD card"
    elif rotational is True:
        kind = "hdd"
    return DetectedDisk(
        name=name, model=model, capacity_gb=round(size_bytes / 1e9, 1), storage_kind=kind,
        interface=interface, rotational=rotational, removable=removable or transport == "usb",
        source=source, note=note)


def parse_windows_disks(text: str) -> list[DetectedDisk]:
    """``Get-PhysicalDisk | Select FriendlyName,MediaType,BusType,Size | ConvertTo-Json``;
    enums arrive as names or, on older PowerShell, as numbers."""
    items = powershell_objects(text)
    bus_names = {17: "nvme", 11: "sata", 10: "sas", 7: "usb", 8: "raid", 3: "ata", 1: "scsi"}
    media_names = {3: "hdd", 4: "ssd", 5: "scm"}
    disks: list[DetectedDisk] = []
    for index, item in enumerate(items):
        if not isinstance(item, dict):
            continue
        size = _size_bytes(item.get("Size"))
        if not size:
            continue
        bus = item.get("BusType")
        media = item.get("MediaType")
        transport = (bus_names.get(bus, "") if isinstance(bus, int) else str(bus or "")).lower()
        media_kind = (media_names.get(media, "") if isinstance(media, int)
                      else str(media or "")).lower()
        rotational = True if media_kind == "hdd" else False if media_kind == "ssd" else None
        disks.append(classify_disk(f"PhysicalDisk{index}", size, rotational, transport,
                                   clean_model(item.get("FriendlyName")),
                                   source="Get-PhysicalDisk"))
    return disks


def disks_from_partitions(partitions: Iterable[PartitionFact]) -> list[DetectedDisk]:
    """Fallback: one entry per mounted device, sized by its file systems, kind unknown."""
    totals: dict[str, int] = {}
    for part in partitions:
        if not part.total_bytes or part.fstype.lower() in ("squashfs", "tmpfs", "overlay"):
            continue
        device = re.sub(r"(p?\d+|s\d+)$", "", part.device) or part.device
        totals[device] = totals.get(device, 0) + part.total_bytes
    return [DetectedDisk(name=device, capacity_gb=round(total / 1e9, 1), source="psutil",
                         note="size of its mounted file systems; the drive may be larger")
            for device, total in sorted(totals.items())]


def storage_vendor(model: str) -> str:
    """The maker a drive model names, e.g. ``WDC WD40EFPX-68C6CN0`` -> Western Digital."""
    lowered = model.lower().replace("_", " ")
    for prefix, vendor in _VENDOR_PREFIXES:
        if not lowered.startswith(prefix):
            continue
        rest = lowered[len(prefix):len(prefix) + 1]
        # Short prefixes are part-number stems (ST4000..., CT2000..., MZ-...): a digit,
        # dash or space must follow, so "Storage" is not Seagate.
        if len(prefix) <= 3 and rest and not (rest.isdigit() or rest in "- "):
            continue
        return vendor
    return ""


def clean_model(value: Any) -> str:
    text = str(value or "").replace("\\x20", " ").replace("_", " ")
    return re.sub(r"\s+", " ", text).strip()


def detect_storage(host: Host, facts: PsutilFacts | None) -> tuple[list[DetectedDisk],
                                                                  list[Unknown]]:
    system = host.info().system
    unknowns: list[Unknown] = []
    if system in ("Linux", ""):
        result = host.run("lsblk", ["lsblk", "-J", "-b", "-o", "NAME,SIZE,ROTA,TRAN,MODEL,TYPE"])
        if result.ok:
            try:
                disks = parse_lsblk(result.stdout)
            except ValueError as exc:
                unknowns.append(Unknown("drive kinds", f"lsblk printed something unexpected "
                                        f"({exc})", "lsblk"))
            else:
                if disks:
                    return disks, unknowns
                unknowns.append(Unknown("drives", "lsblk listed no disks", "lsblk"))
        else:
            unknowns.append(Unknown("drive kinds", result.reason, "lsblk",
                                    "install util-linux for lsblk"
                                    if result.outcome.value == "missing" else ""))
    elif system == "Windows":
        script = ("Get-PhysicalDisk | Select-Object FriendlyName,MediaType,BusType,Size | "
                  "ConvertTo-Json")
        result = run_powershell(host, "powershell-disks", script)
        disks = parse_windows_disks(result.stdout) if result.ok else []
        if disks:
            return disks, unknowns
        unknowns.append(Unknown("drive kinds", result.reason if not result.ok
                                else "Windows listed no physical disks", "Get-PhysicalDisk"))
    else:
        unknowns.append(Unknown("drive kinds", f"not read on {system or 'this system'}; "
                                "sizes come from mounted file systems", "psutil"))
    disks = disks_from_partitions(facts.partitions) if facts else []
    if not disks:
        unknowns.append(Unknown("drives", "no drive could be listed", "psutil"))
    return disks, unknowns


def _size_bytes(value: Any) -> int | None:
    if isinstance(value, bool) or value is None:
        return None
    if isinstance(value, int | float):
        return int(value) if value > 0 else None
    match = re.fullmatch(r"\s*(\d+(?:[.,]\d+)?)\s*([BKMGTP]?)i?B?\s*", str(value),
                         re.IGNORECASE)
    if not match:
        return None
    number = float(match.group(1).replace(",", "."))
    return int(number * _SIZE_SUFFIX[match.group(2).upper()]) or None


def _bool(value: Any) -> bool | None:
    if isinstance(value, bool):
        return value
    if isinstance(value, int):
        return bool(value)
    text = str(value or "").strip().lower()
    if text in ("1", "true", "yes"):
        return True
    if text in ("0", "false", "no"):
        return False
    return None
