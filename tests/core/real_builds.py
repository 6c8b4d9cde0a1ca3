"""Fifteen builds that vendors ship or that people published with their parts lists.

Each build is entered from catalog parts as a user would: every part has the name the
source publishes (what a user types into the search box) and the catalog part the user
would pick from what that search finds. ``expect`` is the verdict the source supports:
``"works"`` (the machine was built and ran, or a vendor ships it) or the id of the check
that must fail (a documented failure). ``missing`` names the published parts the catalog
does not have yet; such a build cannot be entered fully and its test is an expected
failure (strict), so the score stays honest.

The table is read by ``tests/core/test_real_builds.py`` and summarised in
``docs/REAL_BUILDS.md``.
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class Published:
    """One line of a published parts list."""

    name: str
    """As the source writes it: what a user would type into the search box."""
    category: str
    part_id: str
    quantity: int = 1


@dataclass(frozen=True)
class RealBuild:
    key: str
    title: str
    source: str
    date: str
    """When the source was published or last updated ("undated" when it says not)."""
    parts: tuple[Published, ...]
    expect: str
    """``"works"`` or the id of the check that must fail."""
    why: str
    missing: tuple[str, ...] = ()
    """Published parts that are not in the catalog (the build is then an xfail)."""
    mains: str = "120V-15A"
    warn: tuple[str, ...] = field(default=())
    """Checks the source's own words say should not pass cleanly (a warning)."""


P = Published

BUILDS: tuple[RealBuild, ...] = (
    RealBuild(
        key="krasserm-2x-gtx1080",
        title="Martin Krasser's 2x GTX 1080 deep learning box",
        source="https://gist.github.com/krasserm/dec5e3f9664e3e0d8d93cd59f4dbf744",
        date="undated (Ubuntu 16.04 era)",
        parts=(
            P("MSI Z370 GAMING PRO CARBON", "motherboard",
              "motherboard/msi-z370-gaming-pro-carbon-ddr4-atx"),
            P("Gigabyte GeForce GTX 1080", "accelerator",
              "accelerator/gigabyte-geforce-gtx-1080-gaming-8gb-gddr5x-black-orange", 2),
            P("Intel Core i5-8400", "cpu", "cpu/intel-core-i5-8400"),
            P("Scythe CPU Cooler Mugen 5 PCGH Edition", "cooler",
              "cooler/scythe-mugen-5-pcgh-edition-air-155mm-43-03-cfm-silver-black"),
            P("Crucial CT8G4DFS8266 8 GB", "memory",
              "memory/crucial-ct8g4dfs8266-green-black-ddr4-2666-cl19-8gb-1x8gb", 4),
            P("be quiet! Straight Power 11 750W", "psu",
              "psu/be-quiet-straight-power-11-750w-fully-modular-power-supply-80-plus-gold"),
            P("Samsung 850 EVO 500GB", "storage",
              "storage/samsung-850-evo-500gb-ssd-2-5-sata-6-0-gb-s"),
            P("be quiet! Silent Base 600", "case",
              "case/be-quiet-silent-base-600-atx-mid-tower-black"),
        ),
        expect="works",
        why="The author's working deep learning machine (published as his setup).",
    ),
    RealBuild(
        key="shmuelie-13900k-3090",
        title="i9-13900K + RTX 3090 workstation (128 GB DDR4)",
        source="https://gist.github.com/shmuelie/149408dee8e39aad46ab22514d1816bc",
        date="undated (13th-gen Core era, 2023)",
        parts=(
            P("ASUS PRIME Z790-P WIFI D4", "motherboard",
              "motherboard/asus-prime-z790-p-wifi-d4-atx"),
            P("Cooler Master MasterBox MB600L V2", "case",
              "case/cooler-master-masterbox-mb600l-v2-atx-mid-tower-black"),
            P("Corsair HX1000i", "psu",
              "psu/corsair-hx1000i-1000w-80-platinum-certified-fully-modular"),
            P("Intel Core i9-13900K", "cpu", "cpu/intel-core-i9-13900k"),
            P("Team T-FORCE ZEUS 32GB DDR4-3200", "memory",
              "memory/teamgroup-t-force-zeus-32gb-ddr4-3200", 4),
            P("Rocket NVMe 4.0 SSD 2TB", "storage",
              "storage/sabrent-rocket-4-2tb-ssd-m-2-pcie-4-0-nvme", 2),
            P("GeForce RTX 3090", "accelerator", "accelerator/nvidia-geforce-rtx-3090"),
        ),
        expect="works",
        why="The author's daily machine, listed part by part. The card is published as "
            "\"Dell GeForce RTX 3090\" (an OEM card sold in Dell systems, not a retail "
            "model): a user searching for it picks the reference RTX 3090.",
    ),
    RealBuild(
        key="origin-genesis-4x-gp100",
        title="ORIGIN PC Genesis: Threadripper 2990WX, 4x Quadro GP100 (vendor configuration)",
        source="https://pastebin.com/XbAynXSC",
        date="undated (2018-2019, Threadripper 2990WX era)",
        parts=(
            P("1.6 Kilowatt EVGA SuperNOVA G2", "psu",
              "psu/evga-supernova-1600-g2-atx-1600w-80-gold-fully-modular"),
            P("ASUS ROG X399 Zenith Extreme", "motherboard",
              "motherboard/asus-x399-rog-zenith-extreme-str4-ddr4-eatx"),
            P("ASUS ROG RYUO 240 AIO Liquid", "cooler",
              "cooler/asus-rog-ryuo-water-240mm-rgb-80-95-cfm-black"),
            P("AMD Ryzen Threadripper 2990WX", "cpu", "cpu/amd-ryzen-threadripper-2990wx"),
            P("16GB NVIDIA Quadro GP100", "accelerator", "accelerator/nvidia-quadro-gp100", 4),
            P("64GB ORIGIN PC DDR4 Powered by Kingston 3000MHz (4 X 16GB)", "memory",
              "memory/origin-pc-ddr4-3000-64gb-4x16gb"),
            P("4TB Samsung 860 PRO", "storage", "storage/samsung-860-pro-4tb-ssd-2-5-sata", 2),
            P("1TB Samsung 970 Pro PCIe NVMe M.2", "storage",
              "storage/samsung-970-pro-1-tb-m-2-2280-pcie-3-0-x4-nvme"),
            P("ORIGIN PC Genesis case", "case", "case/origin-pc-genesis"),
        ),
        expect="works",
        why="A configuration the vendor sells and ships.",
        missing=("ORIGIN PC Genesis case (the vendor's own chassis; no published limits)",
                 "ORIGIN PC DDR4-3000 64 GB (4x16GB) by Kingston (vendor-branded; the catalog "
                 "has no Kingston DDR4-3000 16 GB module or 64 GB kit)"),
    ),
    RealBuild(
        key="deeplearningathome-gtx1080",
        title="Deep learning at home: GTX 1080 Founders Edition PC",
        source="http://deeplearningathome.com/2016/09/Building-PC-For-Deep-Learning-Hardware.html",
        date="2016-09-30",
        parts=(
            P("Intel Core i5-6600K", "cpu", "cpu/intel-core-i5-6600k"),
            P("Cooler Master Hyper 212 EVO", "cooler",
              "cooler/cooler-master-hyper-212-evo-air-159mm-82-9-cfm-sleeve-bearing"),
            P("MSI Z170A SLI", "motherboard", "motherboard/msi-z170-a-sli-ddr4-atx"),
            P("Corsair Vengeance LPX 32GB (2 x 16GB) DDR4-3200", "memory",
              "memory/corsair-vengeance-lpx-black-yellow-ddr4-3200-cl16-32gb-2x16gb"),
            P("Samsung 850 EVO-Series 500GB", "storage",
              "storage/samsung-850-evo-500gb-ssd-2-5-sata-6-0-gb-s"),
            P("NVIDIA GeForce GTX 1080 8GB Founders Edition", "accelerator",
              "accelerator/nvidia-founders-edition-geforce-gtx-1080-8gb-gddr5x"),
            P("Rosewill NIGHTHAWK 117", "case",
              "case/rosewill-nighthawk-117-atx-full-tower-black-acrylic-side-panel"),
            P("Corsair RMx 850W", "psu",
              "psu/corsair-rm850x-atx-850w-fully-modular-80-gold-certified"),
        ),
        expect="works",
        why="A PCPartPicker list the author built and used.",
    ),
    RealBuild(
        key="jonready-ripper-2x3090",
        title="\"ripper\": Threadripper 3970X with two NVLinked RTX 3090s",
        source="https://jonready.com/blog/posts/local-llm-rig.html",
        date="undated (2026)",
        parts=(
            P("AMD Threadripper 3970X", "cpu", "cpu/amd-ryzen-threadripper-3970x"),
            P("MSI TRX40 PRO 10G", "motherboard", "motherboard/msi-trx40-pro-10g"),
            P("NVIDIA RTX 3090 24GB", "accelerator", "accelerator/nvidia-geforce-rtx-3090", 2),
        ),
        expect="works",
        why="Runs local LLM inference daily (\"sustained inference temps hover around 50 C\"). "
            "The post names no memory kit, PSU or case, so those stay unchosen.",
    ),
    RealBuild(
        key="autonomous-4x-rtx-pro-6000",
        title="4x RTX PRO 6000 Blackwell on W790 in an open CNC frame",
        source="https://github.com/autonomous-ai/autonomous-computer/blob/main/4x-6000/bom/bom.md",
        date="undated (2025-2026; bill of materials marked draft)",
        parts=(
            P("ASUS Pro WS W790E-SAGE SE", "motherboard",
              "motherboard/asus-pro-ws-w790e-sage-se"),
            P("Intel Xeon w5-3423", "cpu", "cpu/intel-xeon-w5-3423"),
            P("Heatsink 4677-2UAF8", "cooler", "cooler/heatsink-4677-2uaf8"),
            P("32 GB DDR5-4800 ECC", "memory",
              "memory/samsung-m321r4ga3bb6-cqk-32gb-ddr5-4800-ecc-rdimm", 6),
            P("2 TB NVMe PCIe 4.0", "storage",
              "storage/transcend-250s-2tb-ssd-m-2-2280-pcie-4-0-x4-nvme"),
            P("NVIDIA RTX PRO 6000 Blackwell Workstation Edition", "accelerator",
              "accelerator/nvidia-rtx-pro-6000-blackwell-workstation-edition", 4),
            P("2,000 W, native 12V-2x6", "psu",
              "psu/cooler-master-x-mighty-2000-230v-atx-2000w-fully-modular-80-platinum"
              "-certified", 2),
        ),
        expect="works",
        why="Published as a build guide with a bill of materials and assembly steps; the "
            "repository's README describes an EPYC 9124 variant of the same machine. The open "
            "CNC frame (18 fans) has no catalog case; the generic lines (memory, SSD, PSU) are "
            "entered as a user would pick them.",
        missing=("Intel Xeon w5-3423 (not in the catalog; its figures were not confirmed from "
                 "a vendor page)", "the unbranded LGA4677 heatsink 4677-2UAF8"),
        mains="230V-16A",
    ),
    RealBuild(
        key="neverwinter-lazarus-m40",
        title="\"AI LAZARUS\": Ryzen 9 5900X, GTX 1080 Ti + Tesla M40 24GB",
        source="https://pastebin.com/wRVCpcep",
        date="2022-10-10",
        parts=(
            P("gigabyte b550-ud-ac", "motherboard", "motherboard/gigabyte-b550-ud-ac-ddr4-atx"),
            P("AMD Ryzen 9 5900X", "cpu", "cpu/amd-ryzen-9-5900x"),
            P("Noctua NH-U12S", "cooler", "cooler/noctua-nh-u12s-air-158mm-55-cfm"),
            P("G.Skill RipJaws V Series 64GB (2 x 32GB)", "memory",
              "memory/g-skill-ripjaws-v-black-ddr4-3200-cl16-64gb-2x32gb", 2),
            P("1080 TI nvidia", "accelerator", "accelerator/nvidia-geforce-gtx-1080-ti"),
            P("NVIDIA TESLA M40 24GB", "accelerator", "accelerator/nvidia-tesla-m40-24-gb"),
        ),
        expect="works",
        warn=("cooling.passive",),
        why="Runs, but the passive Tesla M40 needs its own airflow in a desktop (the author "
            "notes a fan mount as work in progress).",
    ),
    RealBuild(
        key="supermicro-821ge-8x-h100",
        title="Supermicro SYS-821GE-TNHR with 8x H100 SXM5, 2x Xeon Platinum 8480+",
        source="https://www.supermicro.com/en/products/system/gpu/8u/sys-821ge-tnhr",
        date="2023 (product launch)",
        parts=(
            P("Supermicro SYS-821GE-TNHR", "server", "server/supermicro-sys-821ge-tnhr"),
            P("NVIDIA H100 SXM5 80GB", "accelerator", "accelerator/nvidia-h100-sxm5-80-gb", 8),
            P("Intel Xeon Platinum 8480+", "cpu", "cpu/intel-xeon-platinum-8480", 2),
            P("Samsung 64GB DDR5-4800 ECC RDIMM", "memory",
              "memory/samsung-m321r8ga0bb0-cqk-64gb-ddr5-4800-ecc-rdimm", 32),
        ),
        expect="works",
        why="A vendor-shipped HGX H100 system in the configuration it is sold in.",
        mains="208V-60A-3ph",
    ),
    RealBuild(
        key="nvidia-dgx-h100",
        title="NVIDIA DGX H100",
        source="https://docs.nvidia.com/dgx/dgxh100-user-guide/introduction-to-dgxh100.html",
        date="2023",
        parts=(
            P("NVIDIA DGX H100", "server", "server/nvidia-dgx-h100"),
            P("NVIDIA H100 SXM5 80GB", "accelerator", "accelerator/nvidia-h100-sxm5-80-gb", 8),
        ),
        expect="works",
        why="NVIDIA's own complete system.",
        mains="208V-60A-3ph",
    ),
    RealBuild(
        key="hotchpotch-2x-rtx5090",
        title="Two RTX 5090s on a 1650 W Taichi supply at 200 V",
        source="https://hotchpotch.dev/articles/rtx5090x2-pc/",
        date="2025 (end of year)",
        parts=(
            P("RTX 5090", "accelerator", "accelerator/nvidia-geforce-rtx-5090", 2),
            P("ASRock Taichi TC-1650T", "psu",
              "psu/asrock-taichi-tc-1650t-black-silver-atx-1650w-fully-modular-80-titanium"
              "-certified"),
        ),
        expect="works",
        why="Built and used for training; the author had a 200 V / 20 A outlet installed "
            "because 100 V household outlets top out at 1500 W.",
        mains="230V-16A",
    ),
    RealBuild(
        key="fail-strix-4090-in-nr200",
        title="ROG Strix RTX 4090 (357.6 mm) in a Cooler Master NR200 (330 mm)",
        source="https://www.wepc.com/tips/rtx-4090-size/",
        date="2023-11-21",
        parts=(
            P("ROG Strix RTX 4090", "accelerator",
              "accelerator/asus-rog-strix-gaming-geforce-rtx-4090-24gb-gddr6x-black"),
            P("Cooler Master NR200", "case",
              "case/cooler-master-masterbox-nr200-mini-itx-desktop-black"),
        ),
        expect="compat.gpu_length",
        why="WePC gives the Strix 4090 as 357.6 x 149.3 x 70.1 mm; Cooler Master gives the "
            "NR200 330 mm of graphics-card length: the card does not go in.",
    ),
    RealBuild(
        key="fail-4090-adapter-on-two-8pin",
        title="RTX 4090 Founders Edition on a 600 W PSU with two PCIe 8-pin cables",
        source="https://www.nvidia.com/en-us/geforce/graphics-cards/40-series/rtx-4090/",
        date="2022-10",
        parts=(
            P("NVIDIA GeForce RTX 4090 Founders Edition", "accelerator",
              "accelerator/nvidia-founders-edition-geforce-rtx-4090-24gb-gddr6x"),
            P("EVGA 600 BQ", "psu", "psu/evga-110-bq-0600-k1-600-bq-80-bronze-600w"),
        ),
        expect="power.connectors",
        why="NVIDIA's specification: the 16-pin adapter takes 3x PCIe 8-pin cables (or one "
            "450 W 16-pin cable) and 850 W system power; a PSU with two 8-pin cables cannot "
            "feed it.",
    ),
    RealBuild(
        key="fail-rdimm-on-x670e",
        title="DDR5 ECC RDIMM in a consumer AM5 board (ROG Strix X670E-E, Ryzen 9 7950X)",
        source="https://rog.asus.com/motherboards/rog-strix/rog-strix-x670e-e-gaming-wifi-model/spec/",
        date="2022-09",
        parts=(
            P("ROG STRIX X670E-E GAMING WIFI", "motherboard",
              "motherboard/asus-rog-strix-x670e-e-gaming-wifi-am5-ddr5-atx"),
            P("AMD Ryzen 9 7950X", "cpu", "cpu/amd-ryzen-9-7950x"),
            P("Kingston KSM48R40BD8KMM-32HMR", "memory",
              "memory/kingston-server-premier-ksm48r40bd8kmm-32hmr-32gb-ddr5-4800-ecc-rdimm", 2),
        ),
        expect="memory.registered",
        why="The board takes unbuffered DDR5 DIMMs only; registered server modules do not "
            "train on AM5 desktop boards.",
    ),
    RealBuild(
        key="fail-4090-on-650w",
        title="Single RTX 4090 with a Ryzen 9 7950X on a 650 W supply",
        source="https://www.nvidia.com/en-us/geforce/graphics-cards/40-series/rtx-4090/",
        date="2022-10",
        parts=(
            P("NVIDIA GeForce RTX 4090", "accelerator", "accelerator/nvidia-geforce-rtx-4090"),
            P("AMD Ryzen 9 7950X", "cpu", "cpu/amd-ryzen-9-7950x"),
            P("Seasonic Focus GX-650", "psu",
              "psu/seasonic-focus-gx-black-650w-fully-modular-80-gold-certified"),
        ),
        expect="power.psu_load",
        why="NVIDIA requires 850 W of system power for the RTX 4090; 450 W of card and a "
            "170 W TDP (230 W package power) CPU overrun a 650 W unit.",
    ),
    RealBuild(
        key="fail-4x-3090-on-z790",
        title="Four RTX 3090s on a consumer Z790 board",
        source="https://craftrigs.pages.dev/articles/122-3x-3090-to-threadripper-multi-gpu-upgrade",
        date="undated (2025)",
        parts=(
            P("ASUS PRIME Z790-P WIFI D4", "motherboard",
              "motherboard/asus-prime-z790-p-wifi-d4-atx"),
            P("Intel Core i9-13900K", "cpu", "cpu/intel-core-i9-13900k"),
            P("RTX 3090", "accelerator", "accelerator/nvidia-geforce-rtx-3090", 4),
        ),
        expect="compat.x16_slots",
        why="A consumer LGA1700 board has 20 CPU lanes and one CPU x16 slot: a fourth GPU "
            "drops cards to x4 through the chipset; the author moves to Threadripper.",
    ),
)
