"""The words a person reads for the catalog's coded values: ``pcie`` is "PCIe card".

The catalog stores short lower-case codes for the fields whose values come from a fixed
list (``form_factor``, ``storage_kind``, ``cooler_kind``, ...); they sort and filter well
and the checks compare them, but they are never shown. ``value_label(field, value)`` is
the one way a value reaches a user (``core.parts.format_value`` calls it), and
``CODED_VALUES`` lets the text scans know which lower-case words must never appear bare.
A value outside the list (a custom part's own word) is shown as written.
"""

from __future__ import annotations

from types import MappingProxyType

_MODULE_FORMS = {"sxm": "SXM module", "oam": "OAM module",
                 "integrated": "Built into a system chip", "sxm/oam": "SXM or OAM module"}

VALUE_LABELS: MappingProxyType[str, MappingProxyType[str, str]] = MappingProxyType({
    field: MappingProxyType(labels) for field, labels in {
        "accelerator_type": {"gpu": "GPU", "tpu": "TPU", "fpga": "FPGA",
                             "asic": "AI chip (ASIC)"},
        "market_segment": {"consumer": "Consumer", "workstation": "Workstation",
                           "datacenter": "Data centre", "cloud": "Cloud only"},
        "form_factor": {"pcie": "PCIe card", **_MODULE_FORMS, "cloud": "Cloud (rented)"},
        "gpu_form_factor": {"sxm": "SXM", "oam": "OAM", "integrated": "Built-in GPU",
                            "sxm/oam": "SXM or OAM"},
        "cooling": {"active": "Open-air fans", "blower": "Blower",
                    "passive": "Passive (needs server airflow)",
                    "hybrid": "Hybrid (fans and liquid)", "liquid": "Liquid"},
        "system_cooling": {"air": "Air", "liquid": "Liquid"},
        "storage_kind": {"nvme": "NVMe SSD", "sata-ssd": "SATA SSD", "hdd": "Hard drive",
                         "system": "Networked storage system"},
        "cooler_kind": {"air": "Air", "aio": "All-in-one liquid (AIO)",
                        "custom-loop": "Custom liquid loop"},
        "case_kind": {"tower": "Tower", "rackmount": "Rackmount", "open-frame": "Open frame"},
        "offering_kind": {"cloud": "Cloud (hourly)",
                          "dedicated": "Dedicated server (monthly)"},
    }.items()
})
"""Per field, each stored code and the words shown for it."""

CODED_VALUES: frozenset[str] = frozenset(
    code for labels in VALUE_LABELS.values() for code in labels)
"""Every stored code: none may reach a user bare."""

JARGON_CODES: frozenset[str] = frozenset(
    {"gpu", "tpu", "fpga", "asic", "pcie", "sxm", "oam", "nvme", "sata-ssd", "hdd", "aio",
     "custom-loop", "sxm/oam"})
"""Codes that are never an ordinary lower-case English word: a scan flags them anywhere
in running text, where "air" or "tower" are flagged only as a whole value."""


def value_label(field: str, value: str) -> str:
    """The words shown for ``value`` of ``field``; a value outside the field's list (or a
    field without one) as written."""
    labels = VALUE_LABELS.get(field)
    if labels is None:
        return value
    return labels.get(value.strip().lower(), value)


def code_label(value: str) -> str:
    """The words for a coded value whose field is not known (a check's figure "Kind:
    rackmount"): the first field's label that has it; anything else as written."""
    key = value.strip().lower()
    for labels in VALUE_LABELS.values():
        if key in labels:
            return labels[key]
    return value
