"""The compute fabric: switches with their real port counts, counted as a fat tree.

Topology (NVIDIA DGX SuperPOD reference architecture, H100 and B200 editions): one NIC per
GPU, rail-optimised: GPU *i* of every node goes to the leaf of rail *i*; a leaf gives half
its ports to nodes and half to spines, so the tree is non-blocking. With ``k`` ports per
switch at the fabric's speed:

- up to ``k`` ports in all: one switch;
- two tiers (up to ``k * k/2`` endpoints): ``ceil(nodes / (k/2))`` node groups (scalable
  units) with one leaf per rail each; as many uplinks as node ports in use, spread over
  ``ceil(uplinks / k)`` spines;
- three tiers (up to ``k**3 / 4``): pods of ``k/2`` leaves and ``k/2`` spines, spines =
  leaves rounded up to whole pods, core = ``ceil(endpoints / k)``.

Cables: nodes to leaves = leaves to spines = spines to core = endpoints (non-blocking).
Transceivers: every link optical, as the SuperPOD cables it (copper inside a rack would
replace some); one per NIC port, and on the switch side one per cage (QM9700:
twin-port OSFP, two 400G ports per cage).

With 64-port QM9700 switches this reproduces the SuperPOD B200 table (tests cite it):
2 SU = 16 leaves / 8 spines / 512 + 512 cables; 8 SU = 64 / 32; 16 SU = 128 / 128 / 64 core
with 4,096 cables per tier; 64 SU (16,384 GPUs) = 512 / 512 / 256.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

SUPERPOD_B200 = ("https://docs.nvidia.com/dgx-superpod/reference-architecture-scalable-"
                 "infrastructure-b200/latest/dgx-superpod-architecture.html")


@dataclass(frozen=True, slots=True)
class Switch:
    """One switch model at one port speed."""

    key: str
    name: str
    ports: int
    port_gb_s: int
    """Port speed in Gb/s."""
    ports_per_cage: int
    rack_units: int | None
    source: str
    note: str = ""


@dataclass(frozen=True, slots=True)
class Fabric:
    key: str
    label: str
    kind: str  # "InfiniBand" or "RoCE Ethernet"
    switch: Switch

    @property
    def gb_s(self) -> int:
        return self.switch.port_gb_s


_QM9700_SRC = "https://itctshop.com/infiniband-switch-guide"
_QM9700_SPLIT = "https://yobitel.com/knowledge-base/nvidia-quantum-2"
_Q3400_SRC = ("https://ziash.github.io/nvidia-nca-aiio-study-guide/02-ai-infrastructure/"
              "09-high-speed-network-options/")
_SN5600_SRC = "https://probsee.com/p/NVIDIA_Spectrum_SN5600"

QM9700 = Switch("qm9700", "NVIDIA Quantum-2 QM9700", 64, 400, 2, 1, _QM9700_SRC,
                "64 NDR 400 Gb/s ports in 1U (32 twin-port OSFP cages)")
QM9700_200 = Switch("qm9700-200", "NVIDIA Quantum-2 QM9700 (split)", 128, 200, 4, 1,
                    _QM9700_SPLIT, "128 x 200 Gb/s in split mode")
Q3400 = Switch("q3400", "NVIDIA Quantum-X800 Q3400", 144, 800, 1, None, _Q3400_SRC,
               "144 ports of 800 Gb/s; height and cage layout not read (one transceiver "
               "counted per port)")
SN5600_800 = Switch("sn5600", "NVIDIA Spectrum-4 SN5600", 64, 800, 1, 2, _SN5600_SRC,
                    "64 x 800 GbE in 2U, 51.2 Tb/s")
SN5600_400 = Switch("sn5600-400", "NVIDIA Spectrum-4 SN5600 (2x400G breakout)", 128, 400, 2,
                    2, _SN5600_SRC, "128 x 400 GbE: 51.2 Tb/s split in two per port "
                    "(inferred from the 800G ports and the breakout options)")
SN5600_200 = Switch("sn5600-200", "NVIDIA Spectrum-4 SN5600 (breakout)", 128, 200, 2, 2,
                    _SN5600_SRC, "counted as 128 x 200 GbE (the 400G breakout run at 200G; "
                    "the source lists breakouts up to 256 x 100 GbE)")

FABRICS: dict[str, Fabric] = {f.key: f for f in (
    Fabric("ib-ndr", "InfiniBand NDR 400 Gb/s", "InfiniBand", QM9700),
    Fabric("ib-ndr200", "InfiniBand NDR200 200 Gb/s", "InfiniBand", QM9700_200),
    Fabric("ib-xdr", "InfiniBand XDR 800 Gb/s", "InfiniBand", Q3400),
    Fabric("roce-200", "RoCE Ethernet 200 Gb/s", "RoCE Ethernet", SN5600_200),
    Fabric("roce-400", "RoCE Ethernet 400 Gb/s", "RoCE Ethernet", SN5600_400),
    Fabric("roce-800", "RoCE Ethernet 800 Gb/s", "RoCE Ethernet", SN5600_800),
)}


@dataclass(frozen=True, slots=True)
class FabricCount:
    """Switches, cables and transceivers of one fat tree."""

    endpoints: int
    tiers: int
    leaves: int
    spines: int
    core: int
    node_leaf_cables: int
    leaf_spine_cables: int
    spine_core_cables: int
    transceivers: int

    @property
    def switches(self) -> int:
        return self.leaves + self.spines + self.core

    @property
    def cables(self) -> int:
        return self.node_leaf_cables + self.leaf_spine_cables + self.spine_core_cables


def max_endpoints(switch: Switch) -> int:
    """The largest non-blocking three-tier tree: k**3 / 4 ports."""
    return switch.ports ** 3 // 4


def count_fabric(nodes: int, rails: int, switch: Switch) -> FabricCount:
    """The fat tree for ``nodes`` x ``rails`` NIC ports (see the module's notes)."""
    k = switch.ports
    half = k // 2
    endpoints = nodes * rails
    if endpoints > max_endpoints(switch):
        raise ValueError(f"{endpoints:,} ports exceed a three-tier tree of {switch.name} "
                         f"({max_endpoints(switch):,})")
    if endpoints <= k:
        leaves, spines, core, tiers = 1, 0, 0, 1
        up1 = up2 = 0
    else:
        groups = math.ceil(nodes / half) if rails > 1 else math.ceil(endpoints / half)
        leaves = groups * rails if rails > 1 else groups
        up1 = endpoints  # non-blocking: as many uplinks as node ports in use
        if leaves <= k:  # two tiers: every leaf reaches every spine
            tiers, spines, core, up2 = 2, math.ceil(up1 / k), 0, 0
        else:
            tiers = 3
            spines = math.ceil(leaves / half) * half
            up2 = endpoints
            core = math.ceil(up2 / k)
    switch_ports = endpoints + 2 * up1 + 2 * up2
    transceivers = endpoints + math.ceil(switch_ports / switch.ports_per_cage)
    return FabricCount(endpoints, tiers, leaves, spines, core, endpoints, up1, up2,
                       transceivers)
