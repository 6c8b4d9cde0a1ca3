"""Build templates: starting points a user can load into the planner and change.

Pure data: part ids, quantities and a workload tier. Each template is a machine a shop
would assemble, with parts from the bundled catalog, and is tested against the checks
(``tests/core/test_templates.py``): no check may fail, and every warning the checks give
is listed in ``accepted`` with the reason a real build of this kind lives with it.
``unknown`` results are allowed only where the catalog lacks a figure (data honesty:
an empty figure stays empty).

The four tier templates follow the second seed article (Cherry Servers, "Deep Learning
Hardware [Architecture + Requirements]"): its minimum and recommended specs for
demanding and less-demanding workloads.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType

from dlhw_desktop.core.build.build import Build
from dlhw_desktop.core.parts import Part


@dataclass(frozen=True, slots=True)
class Template:
    """A named build: ``parts`` are ``(part id, quantity)`` pairs in slot order."""

    key: str
    name: str
    description: str
    parts: tuple[tuple[str, int], ...]
    tier: str | None = None
    mains: str = "120V-15A"
    """The household circuit the build is meant for (a 4-GPU machine wants 20 A or 230 V)."""
    accepted: Mapping[str, str] = field(default_factory=lambda: MappingProxyType({}))
    """Check id -> why a warning from that check is expected and acceptable here."""

    @property
    def part_ids(self) -> tuple[str, ...]:
        return tuple(part_id for part_id, _ in self.parts)

    def build(self, get: Callable[[str], Part]) -> Build:
        """The template as a build, its parts read with ``get`` (a catalog's or a
        resolver's ``get``: an unknown id raises there)."""
        build = Build(name=self.name, tier=self.tier)
        for part_id, quantity in self.parts:
            build.add(get(part_id), quantity)
        return build


_TR_COOLER = ("Noctua makes this cooler for Threadripper's lid, but no review here measured "
              "it on one: its capacity there is unknown until entered from Noctua's page.")
_DRP5 = ("The Dark Rock Pro 5 was measured holding 250 W at 42 dB (noise-normalised) without "
         "reaching the limit; the Core i7-14700K's 253 W is at that edge: at full fan speed "
         "it holds more.")


def _accepted(**reasons: str) -> Mapping[str, str]:
    return MappingProxyType({key.replace("__", "."): text for key, text in reasons.items()})


_TIER_CPU = "The article's minimum CPU; its recommendation is 32 cores or more."
_TIER_GPU_DEMANDING = ("The article recommends H100 or several A100s; those are passive "
                       "server cards that need a rackmount chassis's airflow, so a "
                       "workstation uses actively cooled cards.")

TEMPLATES: tuple[Template, ...] = (
    Template(
        key="demanding-minimum",
        name="Demanding workloads: minimum",
        description=(
            "The article's minimum for demanding workloads: a 16-core Threadripper PRO "
            "5955WX, an RTX 4090 (24 GB), 1,200 W Platinum. sWRX8 takes DDR4 registered "
            "memory, so the 128 GB DDR5 of the article becomes DDR4 RDIMM (the smallest "
            "RDIMM set in the catalog is 8 x 32 GB = 256 GB)."),
        tier="demanding",
        parts=(
            ("cpu/amd-ryzen-threadripper-pro-5955wx", 1),
            ("motherboard/asus-pro-ws-wrx80e-sage-se-wifi", 1),
            ("memory/samsung-m393a4k40db3-cwe-32gb-ddr4-3200-ecc-rdimm-8-module-set", 1),
            ("accelerator/nvidia-geforce-rtx-4090", 1),
            ("storage/samsung-990-pro-2tb-mz-v9p2t0b-am", 1),
            ("storage/samsung-870-evo-4tb-mz-77e4t0b-am", 1),
            ("psu/corsair-hx1200i-cp-9020281-na", 1),
            ("cooler/noctua-nh-u14s-tr4-sp3", 1),
            ("case/corsair-7000d-airflow-cc-9011218-ww", 1),
        ),
        accepted=_accepted(
            cooling__cpu=_TR_COOLER,
            tier__cpu=_TIER_CPU,
            tier__gpu="The minimum GPU (RTX 4090, 24 GB); H100/A100 are the recommendation.",
            tier__psu="The minimum PSU (1,200 W Platinum); 1,600 W is for several GPUs.",
        ),
    ),
    Template(
        key="demanding-recommended",
        name="Demanding workloads: recommended",
        description=(
            "The article's recommendation for demanding workloads: Threadripper PRO 7995WX "
            "(96 cores), 256 GB DDR5 RDIMM, two RTX 6000 Ada (48 GB each, blower), 1,600 W "
            "Titanium, 4 TB NVMe plus 8 TB SATA SSD."),
        tier="demanding",
        parts=(
            ("cpu/amd-ryzen-threadripper-pro-7995wx", 1),
            ("motherboard/asus-pro-ws-wrx90e-sage-se", 1),
            ("memory/samsung-m321r4ga3pb0-cwm-32gb-ddr5-5600-ecc-rdimm-8-module-set", 1),
            ("accelerator/nvidia-rtx-6000-ada-generation", 2),
            ("storage/samsung-990-pro-4tb-mz-v9p4t0b-am", 1),
            ("storage/samsung-870-qvo-8tb-mz-77q8t0b-am", 1),
            ("psu/seasonic-prime-tx-1600-atx-3", 1),
            ("cooler/noctua-nh-u14s-tr5-sp6", 1),
            ("case/phanteks-enthoo-pro-2-server-edition", 1),
        ),
        accepted=_accepted(
            tier__gpu=_TIER_GPU_DEMANDING,
            cooling__cpu=_TR_COOLER,
        ),
    ),
    Template(
        key="less-demanding-minimum",
        name="Less-demanding workloads: minimum",
        description=(
            "The article's minimum for less-demanding workloads: Ryzen 7 7700X (8 cores), "
            "32 GB DDR5, RTX 4070 (12 GB), 750 W Gold, 1 TB NVMe plus a 2 TB HDD."),
        tier="less-demanding",
        parts=(
            ("cpu/amd-ryzen-7-7700x", 1),
            ("motherboard/asus-tuf-gaming-b650-plus-wifi", 1),
            ("memory/corsair-vengeance-32gb-2x16gb-ddr5-6000-cl30-cmk32gx5m2b6000c30", 1),
            ("accelerator/nvidia-geforce-rtx-4070", 1),
            ("storage/samsung-990-pro-1tb-mz-v9p1t0b-am", 1),
            ("storage/western-digital-wd-red-plus-2tb-wd20efpx", 1),
            ("psu/seasonic-focus-gx-750-atx-3", 1),
            ("cooler/deepcool-ak620", 1),
            ("case/corsair-4000d-airflow-cc-9011200-ww", 1),
        ),
        accepted=_accepted(
            tier__cpu="The minimum CPU (8 cores); 12 cores are recommended.",
            tier__gpu="The minimum GPU (RTX 4070, 12 GB); the L4 is the recommendation.",
            tier__ram="The minimum RAM (32 GB); 64 GB are recommended.",
            tier__psu="The minimum PSU (750 W Gold); 850 W is recommended.",
        ),
    ),
    Template(
        key="less-demanding-recommended",
        name="Less-demanding workloads: recommended",
        description=(
            "The article's recommendation for less-demanding workloads: Core i7-14700K "
            "(20 cores), 64 GB DDR5, RTX 4080 SUPER (16 GB), 850 W, 2 TB NVMe plus a 4 TB "
            "HDD."),
        tier="less-demanding",
        parts=(
            ("cpu/intel-core-i7-14700k", 1),
            ("motherboard/gigabyte-z790-aorus-elite-x-wifi7", 1),
            ("memory/corsair-vengeance-64gb-2x32gb-ddr5-6000-cl30-cmk64gx5m2b6000z30", 1),
            ("accelerator/nvidia-geforce-rtx-4080-super", 1),
            ("storage/samsung-990-pro-2tb-mz-v9p2t0b-am", 1),
            ("storage/western-digital-wd-red-plus-4tb-wd40efpx", 1),
            ("psu/seasonic-focus-gx-850-atx-3", 1),
            ("cooler/be-quiet-dark-rock-pro-5", 1),
            ("case/fractal-design-torrent", 1),
        ),
        accepted=_accepted(
            cooling__cpu=_DRP5,
            tier__gpu=("The article recommends an NVIDIA L4 for inference; the L4 is a "
                       "passive server card, so a desktop keeps the RTX 4080 SUPER."),
        ),
    ),
    Template(
        key="single-rtx-4090",
        name="Single RTX 4090 workstation",
        description=(
            "A common one-GPU deep-learning desktop: Ryzen 9 9950X, 96 GB DDR5, RTX 4090 "
            "(24 GB), 1,000 W ATX 3 PSU with a native 16-pin cable, 2 TB NVMe."),
        parts=(
            ("cpu/amd-ryzen-9-9950x", 1),
            ("motherboard/asus-tuf-gaming-b650-plus-wifi", 1),
            ("memory/g-skill-trident-z5-rgb-96gb-2x48gb-ddr5-6400-cl32-f5-6400j3239f48gx2-tz5rk",
             1),
            ("accelerator/nvidia-geforce-rtx-4090", 1),
            ("storage/samsung-990-pro-2tb-mz-v9p2t0b-am", 1),
            ("psu/corsair-rm1000x-shift-cp-9020253-na", 1),
            ("cooler/be-quiet-dark-rock-pro-5", 1),
            ("case/fractal-design-torrent", 1),
        ),
    ),
    Template(
        key="four-gpu-workstation",
        name="4-GPU workstation",
        description=(
            "Four RTX 6000 Ada (48 GB, 2-slot blower) on a WRX90 board with a "
            "Threadripper PRO 7975WX, 512 GB DDR5 RDIMM and a 2,200 W PSU, as workstation "
            "vendors ship it. Its ~1.9 kW wall draw needs a 120 V / 20 A or a 230 V circuit."),
        tier="demanding",
        mains="120V-20A",
        parts=(
            ("cpu/amd-ryzen-threadripper-pro-7975wx", 1),
            ("motherboard/asus-pro-ws-wrx90e-sage-se", 1),
            ("memory/samsung-m321r8ga0pb0-cwm-64gb-ddr5-5600-ecc-rdimm-8-module-set", 1),
            ("accelerator/nvidia-rtx-6000-ada-generation", 4),
            ("storage/samsung-990-pro-4tb-mz-v9p4t0b-am", 1),
            ("storage/samsung-870-qvo-8tb-mz-77q8t0b-am", 1),
            ("psu/seasonic-prime-px-2200", 1),
            ("cooler/noctua-nh-u14s-tr5-sp6", 1),
            ("case/phanteks-enthoo-pro-2-server-edition", 1),
        ),
        accepted=_accepted(
            cooling__cpu=_TR_COOLER,
            tier__gpu=_TIER_GPU_DEMANDING,
            power__circuit=("~1.9 kW at the wall is over a 120 V / 15 A circuit's 1,440 W "
                            "continuous limit; it is meant for a 20 A or 230 V circuit."),
            power__connectors=("The catalog lists no cable counts for this 2,200 W unit: "
                               "the check reads units of its class, which may have too few "
                               "16-pin cables for four cards; enter the unit's counts from "
                               "its box to settle it."),
        ),
    ),
    Template(
        key="eight-gpu-server",
        name="8-GPU server",
        description=(
            "Eight NVIDIA L4 (24 GB, 72 W, low-profile, passive) in a Supermicro 4U GPU "
            "chassis with its two 2,000 W Titanium modules (1+1 redundant: one carries the "
            "load), two EPYC 7443 on a dual-socket board and 1 TB DDR4 RDIMM: "
            "the article's heavy-workload server ('Dual AMD EPYC 7443') with its "
            "recommended inference GPU. For SXM/OAM servers see the DGX H100, DGX B200 "
            "and MI300X templates."),
        mains="230V-16A",
        parts=(
            ("cpu/amd-epyc-7443", 2),
            ("motherboard/supermicro-h12dsi-n6", 1),
            ("memory/samsung-m393a8g40ab2-cwe-64gb-ddr4-3200-ecc-rdimm-16-module-set", 1),
            ("accelerator/nvidia-l4", 8),
            ("storage/samsung-pm9a3-3-84tb-u-2-mzql23t8hcls-00a07", 2),
            ("psu/supermicro-pws-2k04a-1r-2000w-titanium-redundant-module", 2),
            ("cooler/noctua-nh-u14s-tr4-sp3", 2),
            ("case/supermicro-sc747btq-r2k04b", 1),
        ),
        accepted=_accepted(
            cooling__cpu=_TR_COOLER,
            compat__pcie_lanes=("Two EPYC sockets give 128 device lanes (64 of each CPU's "
                                "link the sockets; 160 on boards wired with three links), "
                                "so eight cards run at x8: ample for L4 inference; GPU "
                                "servers that need x16 everywhere add PCIe switches."),
        ),
    ),
    Template(
        key="hosted-a100-server",
        name="Dual-EPYC A100 server (the seed article's hosted server)",
        description=(
            "The first seed article's dedicated server, 'Dual AMD EPYC 7443' with an "
            "'A100 (80 GB)', as a machine you own: the 8-GPU server template's Supermicro "
            "platform (dual-socket H12DSi board, 4U chassis, two 2,000 W Titanium modules "
            "1+1) with one A100 PCIe 80 GB (the article gives no form factor; PCIe, as the "
            "catalog's hosted row assumes) and 1 TB DDR4 RDIMM."),
        mains="230V-16A",
        parts=(
            ("cpu/amd-epyc-7443", 2),
            ("motherboard/supermicro-h12dsi-n6", 1),
            ("memory/samsung-m393a8g40ab2-cwe-64gb-ddr4-3200-ecc-rdimm-16-module-set", 1),
            ("accelerator/nvidia-a100-pcie-80-gb", 1),
            ("storage/samsung-pm9a3-3-84tb-u-2-mzql23t8hcls-00a07", 2),
            ("psu/supermicro-pws-2k04a-1r-2000w-titanium-redundant-module", 2),
            ("cooler/noctua-nh-u14s-tr4-sp3", 2),
            ("case/supermicro-sc747btq-r2k04b", 1),
        ),
    ),
    Template(
        key="dgx-h100",
        name="NVIDIA DGX H100",
        description=(
            "NVIDIA's complete 8-GPU system: eight H100 SXM5 80 GB (640 GB) on an HGX "
            "baseboard with NVSwitch (900 GB/s per GPU), two Xeon CPUs and memory fitted, "
            "six 3,300 W supplies in 4+2 (four carry the 10.2 kW maximum with two lost), "
            "8U. On a 208 V / 60 A three-phase rack feed."),
        mains="208V-60A-3ph",
        parts=(
            ("server/nvidia-dgx-h100", 1),
            ("accelerator/nvidia-h100-sxm5-80-gb", 8),
        ),
    ),
    Template(
        key="hgx-b200",
        name="HGX B200 system (DGX B200)",
        description=(
            "Eight B200 (1,440 GB) on NVIDIA's HGX B200 baseboard, as NVIDIA ships it in "
            "the DGX B200: two Xeon Platinum 8570 and 2 TB fitted, six 3.3 kW supplies in "
            "5+1, 14.3 kW maximum, 10U. On a 208 V / 60 A three-phase rack feed."),
        mains="208V-60A-3ph",
        parts=(
            ("server/nvidia-dgx-b200", 1),
            ("accelerator/nvidia-b200", 8),
        ),
    ),
    Template(
        key="mi300x-server",
        name="AMD MI300X server (Supermicro AS-8125GS-TNMR2)",
        description=(
            "Eight AMD Instinct MI300X (192 GB each, 1.5 TB) on AMD's OAM universal "
            "baseboard in the Supermicro barebone AMD runs its own comparisons on, filled "
            "as AMD did: two EPYC 9654, 24 DDR5-4800 RDIMMs (two 12 x 64 GB sets) and four "
            "3.84 TB U.2 drives. Its power-supply figures are not in the catalog, so the "
            "supplies are 'unknown' and the wall figure is estimated from the parts."),
        mains="208V-60A-3ph",
        parts=(
            ("server/supermicro-as-8125gs-tnmr2", 1),
            ("cpu/amd-epyc-9654", 2),
            ("memory/samsung-m321r8ga0bb0-cqk-64gb-ddr5-4800-ecc-rdimm-12-module-set", 2),
            ("accelerator/amd-instinct-mi300x", 8),
            ("storage/samsung-pm9a3-3-84tb-u-2-mzql23t8hcls-00a07", 4),
        ),
    ),
)

TEMPLATES_BY_KEY: dict[str, Template] = {t.key: t for t in TEMPLATES}


def template(key: str) -> Template:
    """The template with this key; ``KeyError`` names the keys there are."""
    try:
        return TEMPLATES_BY_KEY[key]
    except KeyError:
        raise KeyError(f"no template {key!r}; expected one of {', '.join(TEMPLATES_BY_KEY)}") \
            from None
