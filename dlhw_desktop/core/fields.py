"""The catalog's vocabulary: every field a part can carry, with its unit and label.

One declaration serves the SQL schema (``catalog/schema.py``), the curated source
files (``resources/catalog/*.csv``), the table columns and the details pane. Names
carry their unit (``tdp_w``, ``memory_bandwidth_gb_s``) so a reader never guesses.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from functools import cache
from typing import Literal

FieldKind = Literal["text", "int", "float", "bool"]


class Category(StrEnum):
    """Kinds of part in the catalog, in the order the app shows them."""

    ACCELERATOR = "accelerator"
    CPU = "cpu"
    MEMORY = "memory"
    STORAGE = "storage"
    PSU = "psu"
    COOLER = "cooler"
    MOTHERBOARD = "motherboard"
    CASE = "case"
    CLOUD = "cloud"
    SERVER = "server"

    @property
    def label(self) -> str:
        return CATEGORY_LABELS[self]

    @property
    def plural(self) -> str:
        return CATEGORY_PLURALS[self]


CATEGORY_LABELS: dict[Category, str] = {
    Category.ACCELERATOR: "Accelerator",
    Category.CPU: "CPU",
    Category.MEMORY: "Memory kit",
    Category.STORAGE: "Storage",
    Category.PSU: "Power supply",
    Category.COOLER: "CPU cooler",
    Category.MOTHERBOARD: "Motherboard",
    Category.CASE: "Case",
    Category.CLOUD: "Cloud / hosted server",
    Category.SERVER: "GPU server platform",
}

CATEGORY_PLURALS: dict[Category, str] = {
    Category.ACCELERATOR: "Accelerators",
    Category.CPU: "CPUs",
    Category.MEMORY: "Memory kits",
    Category.STORAGE: "Storage",
    Category.PSU: "Power supplies",
    Category.COOLER: "CPU coolers",
    Category.MOTHERBOARD: "Motherboards",
    Category.CASE: "Cases",
    Category.CLOUD: "Cloud / hosted",
    Category.SERVER: "GPU server platforms",
}


@dataclass(frozen=True, slots=True)
class FieldSpec:
    """One column of the catalog: its name, type, unit and where it applies."""

    name: str
    label: str
    kind: FieldKind
    unit: str = ""
    categories: tuple[Category, ...] = ()
    description: str = ""
    searchable: bool = False

    @property
    def numeric(self) -> bool:
        return self.kind in ("int", "float")

    @property
    def header(self) -> str:
        """Column header with its unit, e.g. ``TDP (W)``."""
        return f"{self.label} ({self.unit})" if self.unit else self.label


_A = (Category.ACCELERATOR,)
_S = (Category.SERVER,)
_ALL = tuple(Category)

# Fields shared by every part. ``source``/``source_date`` are the row's default
# provenance; a figure taken elsewhere carries its own (``figure_sources``).
COMMON_FIELDS: tuple[FieldSpec, ...] = (
    FieldSpec("id", "Id", "text", categories=_ALL),
    FieldSpec("category", "Category", "text", categories=_ALL),
    FieldSpec("vendor", "Vendor", "text", categories=_ALL, searchable=True),
    FieldSpec("name", "Name", "text", categories=_ALL, searchable=True),
    FieldSpec("family", "Family", "text", categories=_ALL, searchable=True,
              description="Product line or architecture, e.g. Ada Lovelace, Zen 4"),
    FieldSpec("price_usd", "Price", "float", "USD", _ALL,
              "Purchase price in US dollars, of the kind its price kind says; empty when "
              "unknown"),
    FieldSpec("price_high_usd", "Price (top of range)", "float", "USD", _ALL,
              "The top of a price range a source reports (the price is its bottom); empty "
              "for a single figure"),
    FieldSpec("price_date", "Price date", "text", categories=_ALL,
              description="The date the price held (not the date it was read)"),
    FieldSpec("price_kind", "Price kind", "text", categories=_ALL,
              description="Launch list price (MSRP), list price in 1,000-unit trays, street "
                          "price, reported figure, cloud on-demand, reserved or spot rate, "
                          "dedicated server monthly rate, or your quote"),
    FieldSpec("release_year", "Released", "int", categories=_ALL),
    FieldSpec("source", "Source", "text", categories=_ALL),
    FieldSpec("source_date", "Source read", "text", categories=_ALL),
    FieldSpec("notes", "Notes", "text", categories=_ALL, searchable=True),
)

CATEGORY_FIELDS: tuple[FieldSpec, ...] = (
    # --- accelerators -------------------------------------------------------
    FieldSpec("accelerator_type", "Type", "text", categories=_A, searchable=True,
              description="GPU, TPU, FPGA or AI chip (ASIC)"),
    FieldSpec("market_segment", "Segment", "text", categories=_A,
              description="Consumer, workstation, data centre or cloud only"),
    FieldSpec("memory_gb", "Memory", "float", "GB", _A),
    FieldSpec("memory_type", "Memory type", "text",
              categories=(Category.ACCELERATOR, Category.CPU, Category.MEMORY,
                          Category.MOTHERBOARD, Category.SERVER)),
    FieldSpec("memory_bandwidth_gb_s", "Bandwidth", "float", "GB/s", _A),
    FieldSpec("fp32_tflops", "FP32", "float", "TFLOPS", _A,
              "Non-tensor single-precision throughput"),
    FieldSpec("tf32_tensor_tflops", "TF32 tensor", "float", "TFLOPS", _A, "Dense"),
    FieldSpec("bf16_tensor_tflops", "BF16 tensor", "float", "TFLOPS", _A, "Dense"),
    FieldSpec("fp16_tensor_tflops", "FP16 tensor", "float", "TFLOPS", _A,
              "Dense, FP32 accumulate where the vendor states both"),
    FieldSpec("fp8_tensor_tflops", "FP8 tensor", "float", "TFLOPS", _A, "Dense"),
    FieldSpec("int8_tops", "INT8", "float", "TOPS", _A, "Dense"),
    FieldSpec("fp4_tensor_tflops", "FP4 tensor", "float", "TFLOPS", _A, "Dense"),
    FieldSpec("fp16_tensor_tflops_sparse", "FP16 tensor (sparse)", "float", "TFLOPS", _A,
              "With 2:4 structured sparsity, as vendors headline it"),
    FieldSpec("fp8_tensor_tflops_sparse", "FP8 tensor (sparse)", "float", "TFLOPS", _A,
              "With 2:4 structured sparsity"),
    FieldSpec("int8_tops_sparse", "INT8 (sparse)", "float", "TOPS", _A,
              "With 2:4 structured sparsity"),
    FieldSpec("tdp_w", "TDP", "int", "W", (Category.ACCELERATOR, Category.CPU),
              "Board power (accelerators) or processor base power (CPUs)"),
    FieldSpec("sustained_power_w", "Sustained power", "int", "W", (Category.CPU,),
              "What the CPU draws under all-core load at its stock limits: Intel's Maximum "
              "Turbo Power (PL2), AMD's PPT"),
    FieldSpec("form_factor", "Form factor", "text", categories=_A,
              description="PCIe card, SXM or OAM module, built into a system chip (the GPU "
                          "of a complete system) or cloud (rented)"),
    FieldSpec("slot_width", "Slot width", "float", "slots", _A),
    FieldSpec("board_length_mm", "Length", "int", "mm", _A),
    FieldSpec("cooling", "Cooling", "text", categories=_A,
              description="Open-air fans, blower, passive (needs server airflow), hybrid "
                          "or liquid"),
    FieldSpec("power_connectors", "Power connectors", "text", categories=_A),
    FieldSpec("suggested_psu_w", "Suggested PSU", "int", "W", _A),
    FieldSpec("interconnect", "Interconnect", "text", categories=_A),
    FieldSpec("interconnect_bandwidth_gb_s", "Interconnect bandwidth", "float", "GB/s", _A),
    FieldSpec("ecc", "ECC", "bool", categories=(Category.ACCELERATOR, Category.MEMORY)),
    FieldSpec("software", "Software", "text", categories=_A, searchable=True,
              description="CUDA, ROCm, XLA, oneAPI, ..."),
    FieldSpec("architecture", "Architecture", "text", categories=_A, searchable=True),
    FieldSpec("dl_note", "Deep-learning note", "text", categories=_A,
              description="Why a part is flagged, e.g. too little memory to train on"),
    FieldSpec("board_gpus", "GPUs on the board", "int", categories=_A,
              description="A board carrying several GPUs (A16: 4): its memory, bandwidth "
                          "and throughput are per GPU, its TDP the whole board's"),
    FieldSpec("chip_id", "GPU chip", "text", categories=_A,
              description="The chip row a board-partner card is built on: the card inherits "
                          "its tensor figures, memory and bandwidth, and keeps its own "
                          "length, width, connectors, board power and cooling"),
    # --- CPUs ---------------------------------------------------------------
    FieldSpec("cores", "Cores", "int", categories=(Category.CPU,)),
    FieldSpec("threads", "Threads", "int", categories=(Category.CPU,)),
    FieldSpec("base_clock_ghz", "Base clock", "float", "GHz", (Category.CPU,)),
    FieldSpec("boost_clock_ghz", "Boost clock", "float", "GHz", (Category.CPU,)),
    FieldSpec("socket", "Socket", "text",
              categories=(Category.CPU, Category.MOTHERBOARD, Category.SERVER),
              searchable=True),
    FieldSpec("memory_channels", "Memory channels", "int",
              categories=(Category.CPU, Category.MOTHERBOARD)),
    FieldSpec("max_memory_gb", "Max memory", "int", "GB",
              (Category.CPU, Category.MOTHERBOARD, Category.SERVER)),
    FieldSpec("pcie_lanes", "PCIe lanes", "int", categories=(Category.CPU,),
              description="PCIe lanes of one CPU (one socket)"),
    FieldSpec("max_sockets", "Max sockets", "int", categories=(Category.CPU,),
              description="Most CPUs of this model one system takes: 1 = single-socket "
                          "only (e.g. EPYC 'P' parts), 2 = dual-socket capable"),
    FieldSpec("pcie_generation", "PCIe gen", "int",
              categories=(Category.ACCELERATOR, Category.CPU, Category.STORAGE,
                          Category.MOTHERBOARD)),
    FieldSpec("ecc_support", "ECC support", "bool",
              categories=(Category.CPU, Category.MOTHERBOARD)),
    FieldSpec("dimm_kinds", "Memory modules", "text",
              categories=(Category.CPU, Category.MOTHERBOARD),
              description="The DIMM kinds it takes: UDIMM, RDIMM, LRDIMM, SODIMM"),
    # --- memory kits --------------------------------------------------------
    FieldSpec("speed_mt_s", "Speed", "int", "MT/s", (Category.MEMORY,)),
    FieldSpec("modules", "Modules", "int", categories=(Category.MEMORY,)),
    FieldSpec("module_size_gb", "Module size", "int", "GB", (Category.MEMORY,)),
    FieldSpec("capacity_gb", "Capacity", "float", "GB",
              (Category.MEMORY, Category.STORAGE)),
    FieldSpec("registered", "Registered (RDIMM)", "bool", categories=(Category.MEMORY,)),
    # --- storage ------------------------------------------------------------
    FieldSpec("storage_kind", "Kind", "text", categories=(Category.STORAGE,),
              description="NVMe SSD, SATA SSD, hard drive or a networked storage system"),
    FieldSpec("interface", "Interface", "text", categories=(Category.STORAGE,)),
    FieldSpec("read_mb_s", "Sequential read", "int", "MB/s", (Category.STORAGE,)),
    FieldSpec("write_mb_s", "Sequential write", "int", "MB/s", (Category.STORAGE,)),
    FieldSpec("random_read_iops", "Random read", "int", "IOPS", (Category.STORAGE,)),
    FieldSpec("power_w", "Power", "float", "W", (Category.STORAGE,),
              "Active power draw"),
    # --- power supplies ------------------------------------------------------
    FieldSpec("wattage_w", "Rated output", "int", "W", (Category.PSU,)),
    FieldSpec("efficiency_rating", "80 PLUS", "text", categories=(Category.PSU,),
              description="White, Bronze, Silver, Gold, Platinum or Titanium"),
    FieldSpec("atx_version", "ATX version", "text", categories=(Category.PSU,)),
    FieldSpec("redundant", "Redundant module", "bool", categories=(Category.PSU,),
              description="A hot-swap server module meant to run beside spares: of N "
                          "fitted, half (rounded up) must carry the load"),
    FieldSpec("connectors_12vhpwr", "12V-2x6 / 12VHPWR", "int", "connectors",
              (Category.PSU,)),
    FieldSpec("connectors_pcie_8pin", "PCIe 8-pin", "int", "connectors", (Category.PSU,)),
    FieldSpec("connectors_eps", "EPS 8-pin (CPU)", "int", "connectors", (Category.PSU,)),
    FieldSpec("psu_form_factor", "Form factor", "text", categories=(Category.PSU,),
              description="ATX, SFX, SFX-L, TFX, CRPS, ..."),
    # --- coolers ------------------------------------------------------------
    FieldSpec("cooler_kind", "Kind", "text", categories=(Category.COOLER,),
              description="Air, all-in-one liquid (AIO) or a custom liquid loop"),
    FieldSpec("cooling_capacity_w", "Rated heat capacity", "int", "W", (Category.COOLER,),
              "The vendor's own rating, shown beside a measurement, never instead of it"),
    FieldSpec("measured_capacity_w", "Measured heat capacity", "int", "W", (Category.COOLER,),
              "CPU package power a review measured the cooler holding at the CPU's "
              "temperature limit"),
    FieldSpec("measured_capacity_at_least_w", "Measured to hold at least", "int", "W",
              (Category.COOLER,),
              "Package power a review measured the cooler holding without reaching the "
              "temperature limit: its capacity is at least this"),
    FieldSpec("height_mm", "Height", "int", "mm", (Category.COOLER,)),
    FieldSpec("radiator_mm", "Radiator", "int", "mm", (Category.COOLER,)),
    FieldSpec("supported_sockets", "Sockets", "text", categories=(Category.COOLER,)),
    # --- motherboards -------------------------------------------------------
    FieldSpec("chipset", "Chipset", "text", categories=(Category.MOTHERBOARD,),
              searchable=True),
    FieldSpec("cpu_sockets", "CPU sockets", "int",
              categories=(Category.MOTHERBOARD, Category.SERVER),
              description="2 on a dual-socket server board"),
    FieldSpec("memory_slots", "Memory slots", "int",
              categories=(Category.MOTHERBOARD, Category.SERVER)),
    FieldSpec("pcie_x16_slots", "x16 slots", "int", categories=(Category.MOTHERBOARD,),
              description="Physical x16 slots"),
    FieldSpec("pcie_x4_x8_slots", "x4/x8 slots", "int", categories=(Category.MOTHERBOARD,),
              description="Slots the open data lists by an x4 or x8 link; on many boards "
                          "these are full-length (x16) slots wired x4 or x8"),
    FieldSpec("x16_slot_spacing", "x16 slot spacing", "int", "slots",
              (Category.MOTHERBOARD,),
              "Expansion-slot positions from one x16 slot to the next (2 = adjacent "
              "double-width cards touch)"),
    FieldSpec("pcie_slot_layout", "Slot layout", "text", categories=(Category.MOTHERBOARD,),
              description="Electrical width of each full-length (x16) slot, top to bottom, "
                          "e.g. x16/x8/x16/x8"),
    FieldSpec("m2_slots", "M.2 slots", "int", categories=(Category.MOTHERBOARD,)),
    FieldSpec("board_form_factor", "Form factor", "text",
              categories=(Category.MOTHERBOARD,),
              description="ATX, E-ATX, SSI-EEB, Micro-ATX, ..."),
    # --- cases --------------------------------------------------------------
    FieldSpec("max_gpu_length_mm", "GPU clearance", "int", "mm", (Category.CASE,)),
    FieldSpec("max_cooler_height_mm", "Cooler clearance", "int", "mm", (Category.CASE,)),
    FieldSpec("case_width_mm", "Width", "int", "mm", (Category.CASE,),
              "Outside width (a tower's side to side): a cooler clearance must be less"),
    FieldSpec("expansion_slots", "Expansion slots", "int", categories=(Category.CASE,)),
    FieldSpec("max_radiator_mm", "Largest radiator", "int", "mm", (Category.CASE,)),
    FieldSpec("fans_included", "Fans included", "int", categories=(Category.CASE,)),
    FieldSpec("supported_board_form_factors", "Boards", "text", categories=(Category.CASE,)),
    FieldSpec("case_kind", "Kind", "text", categories=(Category.CASE,),
              description="Tower, rackmount or open frame"),
    FieldSpec("heat_capacity_w", "Heat capacity", "int", "W", (Category.CASE,),
              "Heat the case's airflow removes at a reasonable temperature rise"),
    FieldSpec("psu_bays", "Power supply bays", "int", categories=(Category.CASE,),
              description="ATX power supplies the case holds (most towers: one)"),
    FieldSpec("case_fan_mm", "Case fan size", "int", "mm", (Category.CASE,),
              "Size of the case's fans (120, 140, 200 mm), for its airflow"),
    # --- cloud and hosted offerings ------------------------------------------
    FieldSpec("provider", "Provider", "text", categories=(Category.CLOUD,), searchable=True),
    FieldSpec("instance_type", "Instance", "text", categories=(Category.CLOUD,),
              searchable=True),
    FieldSpec("offering_kind", "Kind", "text", categories=(Category.CLOUD,),
              description="Cloud (hourly: on demand, spot or reserved, as its price says) or "
                          "dedicated (hosted server, monthly)"),
    FieldSpec("accelerator_id", "Accelerator part", "text", categories=(Category.CLOUD,)),
    FieldSpec("accelerator_count", "Accelerators", "int", categories=(Category.CLOUD,)),
    FieldSpec("cpu_model", "CPU", "text", categories=(Category.CLOUD,), searchable=True),
    FieldSpec("vcpus", "vCPUs", "int", categories=(Category.CLOUD,)),
    FieldSpec("ram_gb", "RAM", "int", "GB", (Category.CLOUD,)),
    FieldSpec("price_per_hour_usd", "Price per hour", "float", "USD/h", (Category.CLOUD,)),
    FieldSpec("price_per_accelerator_hour_usd", "Price per accelerator-hour", "float", "USD/h",
              (Category.CLOUD,), "Derived: the hourly rate / the accelerator count"),
    FieldSpec("price_per_month_usd", "Price per month", "float", "USD/month",
              (Category.CLOUD,)),
    FieldSpec("region", "Region", "text", categories=(Category.CLOUD,)),
    # --- GPU server platforms (a chassis with a GPU baseboard: DGX, HGX, UBB) ------
    FieldSpec("baseboard", "GPU baseboard", "text", categories=_S, searchable=True,
              description="The GPU board the platform carries, e.g. HGX H100 8-GPU or "
                          "AMD Instinct MI300X UBB"),
    FieldSpec("gpu_form_factor", "GPU module form", "text", categories=_S,
              description="SXM or OAM: the module kind the baseboard takes; built-in: "
                          "a complete system whose GPU is built into its chip"),
    FieldSpec("gpu_count", "GPU modules", "int", categories=_S,
              description="Modules the baseboard carries (it is populated in full)"),
    FieldSpec("supported_gpus", "GPUs it takes", "text", categories=_S,
              description="The accelerators the baseboard takes"),
    FieldSpec("gpu_link_gb_s", "GPU-to-GPU bandwidth", "float", "GB/s", _S,
              "NVLink / Infinity Fabric bandwidth per GPU, both directions, as the "
              "vendor states it"),
    FieldSpec("complete_system", "Complete system", "bool", categories=_S,
              description="yes: CPUs, memory and drives come fitted (a DGX); no: a "
                          "barebone to fill with CPUs, memory and drives"),
    FieldSpec("supported_cpus", "CPUs it takes", "text", categories=_S, searchable=True),
    FieldSpec("memory_channels_total", "Memory channels", "int", categories=_S,
              description="DDR channels over all sockets"),
    FieldSpec("drive_bays", "Drive bays", "int", categories=_S),
    FieldSpec("nic_slots", "NIC slots", "int", categories=_S,
              description="PCIe slots for network cards (compute fabric and storage)"),
    FieldSpec("fabric_nics", "Compute-fabric NICs", "int", categories=_S,
              description="Network ports for the GPU fabric the platform ships with "
                          "(one per GPU on DGX/HGX designs)"),
    FieldSpec("fabric_nic_gb_s", "Fabric NIC speed", "int", "Gb/s", _S),
    FieldSpec("psu_count", "Power supplies", "int", categories=_S),
    FieldSpec("psu_unit_w", "Power supply rating", "int", "W", _S,
              "Output of one power-supply module"),
    FieldSpec("psu_redundancy", "Power redundancy", "text", categories=_S,
              description="N+M: N modules carry the full load, M are spare (4+2, 3+3)"),
    FieldSpec("max_power_w", "Max system power", "int", "W", _S,
              "The vendor's maximum input power: what the rack and circuit must carry"),
    FieldSpec("rack_units", "Height", "int", "U", _S),
    FieldSpec("weight_kg", "Weight", "float", "kg", _S),
    FieldSpec("system_cooling", "Cooling", "text", categories=_S,
              description="Air or liquid (direct liquid cooling of the GPUs)"),
    FieldSpec("input_voltage", "Input voltage", "text", categories=_S),
)

ALL_FIELDS: tuple[FieldSpec, ...] = COMMON_FIELDS + CATEGORY_FIELDS
FIELDS_BY_NAME: dict[str, FieldSpec] = {f.name: f for f in ALL_FIELDS}

# Fields the curated source files may fill; ``id`` is derived when absent.
COMMON_NAMES: tuple[str, ...] = tuple(f.name for f in COMMON_FIELDS)


@cache
def fields_for(category: Category) -> tuple[FieldSpec, ...]:
    """Every field that applies to ``category``, common fields first."""
    return tuple(f for f in ALL_FIELDS if category in f.categories)


@cache
def detail_fields_for(category: Category) -> tuple[FieldSpec, ...]:
    """The category's own figures (no bookkeeping fields)."""
    return tuple(f for f in CATEGORY_FIELDS if category in f.categories)


# Precisions a buyer compares, mapped to the dense figure for each.
PRECISION_FIELDS: dict[str, str] = {
    "FP32": "fp32_tflops",
    "TF32": "tf32_tensor_tflops",
    "BF16": "bf16_tensor_tflops",
    "FP16": "fp16_tensor_tflops",
    "FP8": "fp8_tensor_tflops",
    "INT8": "int8_tops",
    "FP4": "fp4_tensor_tflops",
}


# The columns a list of parts shows per category (tables, `dlhw find`, build sheets).
LIST_COLUMNS: dict[Category | None, tuple[str, ...]] = {
    None: ("name", "category", "vendor", "price_usd", "release_year"),
    Category.ACCELERATOR: ("name", "vendor", "memory_gb", "memory_bandwidth_gb_s",
                           "bf16_tensor_tflops", "fp8_tensor_tflops", "fp32_tflops", "tdp_w",
                           "form_factor", "price_usd", "release_year"),
    Category.CPU: ("name", "vendor", "cores", "threads", "boost_clock_ghz", "tdp_w", "socket",
                   "memory_channels", "pcie_lanes", "price_usd", "release_year"),
    Category.MEMORY: ("name", "vendor", "memory_type", "capacity_gb", "modules", "speed_mt_s",
                      "ecc", "registered", "price_usd"),
    Category.STORAGE: ("name", "vendor", "storage_kind", "capacity_gb", "interface",
                       "read_mb_s", "write_mb_s", "random_read_iops", "price_usd"),
    Category.PSU: ("name", "vendor", "wattage_w", "efficiency_rating", "atx_version",
                   "connectors_12vhpwr", "connectors_pcie_8pin", "price_usd"),
    Category.COOLER: ("name", "vendor", "cooler_kind", "cooling_capacity_w", "height_mm",
                      "radiator_mm", "supported_sockets", "price_usd"),
    Category.MOTHERBOARD: ("name", "vendor", "socket", "cpu_sockets", "chipset",
                           "board_form_factor",
                           "memory_type", "memory_slots", "max_memory_gb", "pcie_x16_slots",
                           "price_usd"),
    Category.CASE: ("name", "vendor", "case_kind", "max_gpu_length_mm", "max_cooler_height_mm",
                    "expansion_slots", "max_radiator_mm", "price_usd"),
    Category.CLOUD: ("name", "provider", "accelerator_count", "vcpus", "ram_gb",
                     "price_per_hour_usd", "price_per_accelerator_hour_usd",
                     "price_per_month_usd", "offering_kind", "region"),
    Category.SERVER: ("name", "vendor", "baseboard", "gpu_count", "gpu_form_factor",
                      "cpu_sockets", "memory_slots", "psu_count", "psu_redundancy",
                      "max_power_w", "rack_units", "system_cooling", "price_usd"),
}


_UNIT_SUFFIXES: tuple[tuple[str, str], ...] = (
    ("_gb_s", "GB/s"), ("_usd", "USD"), ("_kwh", "kWh"), ("_pct", "%"), ("_gb", "GB"),
    ("_mm", "mm"), ("_w", "W"),
)


def figure_label(key: str) -> str:
    """A human label for a field or a check's figure key: the vocabulary's label (with its
    unit) for a field, else the words of the key with its unit suffix spelled out
    (``wall_w`` -> "Wall (W)"), so no internal name reaches a user."""
    spec = FIELDS_BY_NAME.get(key)
    if spec is not None:
        return f"{spec.label} ({spec.unit})" if spec.unit else spec.label
    unit = ""
    for suffix, name in _UNIT_SUFFIXES:
        if key.endswith(suffix):
            key, unit = key[: -len(suffix)], name
            break
    words = " ".join(_ACRONYMS.get(w, w) for w in key.split("_") if w)
    if not any(c.isdigit() for c in words.split(" ", 1)[0]):  # "x16 slots" stays
        words = words[:1].upper() + words[1:]
    return f"{words} ({unit})" if unit else words


_ACRONYMS: dict[str, str] = {
    "cpu": "CPU", "cpus": "CPUs", "gpu": "GPU", "gpus": "GPUs", "psu": "PSU", "psus": "PSUs",
    "pcie": "PCIe", "nvme": "NVMe", "eps": "EPS", "tdp": "TDP", "vram": "VRAM", "ram": "RAM",
    "hdd": "HDD", "ssd": "SSD", "mfu": "MFU", "kv": "KV", "atx": "ATX", "aio": "AIO",
    "8pin": "8-pin", "16pin": "16-pin", "12vhpwr": "12VHPWR", "ecc": "ECC", "ups": "UPS",
    "pue": "PUE", "it": "IT", "dimm": "DIMM", "dimms": "DIMMs", "tb": "TB", "gb": "GB",
}
"""Words of a figure's key that are written as acronyms ("need_pcie_8pin" -> "Need PCIe
8-pin")."""


def field_label(name: str) -> str:
    """A field's human label from the vocabulary (``tdp_w`` -> ``TDP``), never its name."""
    spec = FIELDS_BY_NAME.get(name)
    label = spec.label if spec is not None else name.replace("_", " ")
    first = label.split(" ", 1)[0]
    acronym = first.isupper() or any(c.isupper() or c.isdigit() for c in first[1:])
    return label if acronym else label[:1].lower() + label[1:]


_COUNTED: dict[Category, tuple[str, str]] = {
    Category.STORAGE: ("drive", "drives"),
    Category.CLOUD: ("cloud offer", "cloud offers"),
}
"""Nouns to count by where the category's name is not one ("2 storage" reads wrong)."""


def category_noun(category: Category, count: float) -> str:
    """What ``count`` parts of ``category`` are called in a sentence: "1 CPU", "706 CPUs",
    "2 drives", "3 power supplies" (lower case unless an acronym leads)."""
    singular, plural = _COUNTED.get(category, (category.label, category.plural))
    words = singular if count == 1 else plural
    first = words.split(" ", 1)[0]
    acronym = first.isupper() or any(c.isupper() for c in first[1:])
    return words if acronym else words[:1].lower() + words[1:]
