"""More published builds, in the format of ``real_builds.py`` (sources read 2026).

Same rules as the first fifteen: every part is named as the source writes it and entered as
the catalog part a user would pick from that search; ``expect`` is ``"works"`` or the id of
the check that must fail. A failure the source documents but that no check judges yet is
written ``"fails:<what>"`` and explained in ``why``; ``warn`` lists the checks the source's
own words say should not pass cleanly. ``missing`` names the published parts the catalog
lacks (such a build cannot be entered fully).
"""

from __future__ import annotations

from tests.core.real_builds import P, RealBuild

MORE_BUILDS: tuple[RealBuild, ...] = (
    RealBuild(
        key="muellerzr-workhorse-2x4090",
        title="\"Workhorse\": Ryzen 9 7900X, two RTX 4090 SUPRIM LIQUID X, Leadex 1600 W",
        source="https://github.com/muellerzr/muellerzr.github.io/blob/main/blog/workhorse.qmd",
        date="2024-04-14",
        parts=(
            P("AMD Ryzen 9 7900x", "cpu", "cpu/amd-ryzen-9-7900x"),
            P("Lian Li Galahad II Trinity 360mm", "cooler",
              "cooler/lian-li-galahad-ii-trinity-performance-108-29-cfm-water-360mm-black"),
            P("MSI SUPRIM LIQUID X 4090", "accelerator",
              "accelerator/msi-suprim-liquid-x-geforce-rtx-4090-24-gb", 2),
            P("Asus ProArt X670E-CREATOR", "motherboard",
              "motherboard/asus-x670e-proart-creator-wifi-ddr5-atx"),
            P("G.Skill Trident Z5 RGB 96 DDR5-6800 CL34", "memory",
              "memory/g-skill-trident-z5-rgb-matte-black-ddr5-6800-cl34-96gb-2x48gb"),
            P("Super Flower Leadex Platinum 1600W", "psu",
              "psu/super-flower-leadex-platinum-1600w-fully-modular-80-platinum-certified"),
            P("Samsung 990 Pro 2TB", "storage", "storage/samsung-990-pro-2tb-mz-v9p2t0b-am"),
            P("Thermaltake Core P6 ATX Mid Tower", "case",
              "case/thermaltake-core-p6-atx-mid-tower-black"),
        ),
        expect="works",
        why="The author's training machine (\"it's handled the 4090's like a champ\"); the "
            "liquid-cooled cards are two slots wide and peak at 63 C in his stress test. "
            "\"96GB, 2x ... 96 DDR5-6800 CL34\" is one 2x48 GB kit; the Galahad II Trinity "
            "colour is not given (black picked).",
    ),
    RealBuild(
        key="fail-muellerzr-workhorse-gf3-1650",
        title="The same dual-4090 Workhorse on its first PSU, a Toughpower GF3 1650 W",
        source="https://github.com/muellerzr/muellerzr.github.io/blob/main/blog/workhorse.qmd",
        date="2024-04-14",
        parts=(
            P("AMD Ryzen 9 7900x", "cpu", "cpu/amd-ryzen-9-7900x"),
            P("Lian Li Galahad II Trinity 360mm", "cooler",
              "cooler/lian-li-galahad-ii-trinity-performance-108-29-cfm-water-360mm-black"),
            P("MSI SUPRIM LIQUID X 4090", "accelerator",
              "accelerator/msi-suprim-liquid-x-geforce-rtx-4090-24-gb", 2),
            P("Asus ProArt X670E-CREATOR", "motherboard",
              "motherboard/asus-x670e-proart-creator-wifi-ddr5-atx"),
            P("G.Skill Trident Z5 RGB 96 DDR5-6800 CL34", "memory",
              "memory/g-skill-trident-z5-rgb-matte-black-ddr5-6800-cl34-96gb-2x48gb"),
            P("Toughpower GF3 1650W", "psu",
              "psu/thermaltake-toughpower-gf3-tt-premium-black-1650w-fully-modular-80-gold"
              "-certified"),
            P("Samsung 990 Pro 2TB", "storage", "storage/samsung-990-pro-2tb-mz-v9p2t0b-am"),
            P("Thermaltake Core P6 ATX Mid Tower", "case",
              "case/thermaltake-core-p6-atx-mid-tower-black"),
        ),
        expect="fails:psu-shuts-down-under-dual-4090-load",
        why="The build's revision 1.0.0 (builds/workhorse/1.0.0) lists this PSU; the blog: "
            "\"When these 4090 beasts draw a ton of power, the system will just shut down\", so "
            "he replaced it with a 1600 W Platinum unit. The load (2x450 W + a 170 W CPU) is "
            "well inside 1650 W: a unit tripping on GPU load peaks, which no rating-based check "
            "judges (the catalog has no ATX version for this GF3 for power.transients). The "
            "name is the list's \"Toughpower GF3 1650W Gold - TT Premium Edition\", cut.",
    ),
    RealBuild(
        key="jan-2x4090-wrx80e",
        title="Jan's 2x RTX 4090 workstation: Threadripper PRO 5965WX on WRX80E, open frame",
        source="https://github.com/janhq/jan/blob/af71a894288c862bd3df0368de6884c3343f31ce/"
               "docs/docs/hardware/examples/4090x2-@dan-jan.md",
        date="undated (2023; cites r/LocalLLaMA 16lxt6a)",
        parts=(
            P("Ryzen Threadripper Pro 5965WX", "cpu", "cpu/amd-ryzen-threadripper-pro-5965wx"),
            P("Asus Pro WS WRX80E Sage SE WiFi", "motherboard",
              "motherboard/asus-pro-ws-wrx80e-sage-se-wifi"),
            P("Asus Strix RTX 4090 24GB OC", "accelerator",
              "accelerator/asus-rog-strix-gaming-oc-geforce-rtx-4090-24gb-gddr6x-black", 2),
            P("Samsung 990 Pro 2TB", "storage", "storage/samsung-990-pro-2tb-mz-v9p2t0b-am"),
            P("BeQuiet Dark Rock Pro TR4", "cooler",
              "cooler/be-quiet-dark-rock-pro-tr4-air-163mm-59-5-cfm-black"),
            P("FSP Cannon 2000W Pro", "psu",
              "psu/fsp-group-cannon-pro-230v-atx-2000w-fully-modular-80-gold-certified"),
        ),
        expect="works",
        why="Jan's docs: \"Jan uses a 2 x 4090 Workstation to run Codellama for internal use\". "
            "The list's RAM line, \"4 x G.Skill Ripjaw S5 2x32 6000C32\", is DDR5 UDIMM and "
            "cannot go in this DDR4 RDIMM board, so it is left out rather than entered as a "
            "failure the source does not report. The cooler is published \"BeQuiet Dark Rock 4 "
            "Pro TR4\"; the catalog part is the Dark Rock Pro TR4, which the catalog lists for "
            "sTR4/sTRX4 only although the machine runs it on this sWRX8 board.",
        missing=("Veddha 6GPUs Frame Black (open mining frame; no catalog case)",),
    ),
    RealBuild(
        key="samsyeung-romed8-2x3090",
        title="Homelab AI box: EPYC 7532 on ROMED8-2T with two RTX 3090 FE on risers",
        source="https://github.com/samsyeung/homelab/blob/main/homelab.md",
        date="undated (2024-2025)",
        parts=(
            P("AsRock Romed8-2T", "motherboard", "motherboard/asrock-rack-romed8-2t"),
            P("EPYC 7532", "cpu", "cpu/amd-epyc-7532"),
            P("Artic Freezer 4U SP3", "cooler", "cooler/arctic-freezer-4u-sp3"),
            P("Kingston DDR4 ECC Reg", "memory",
              "memory/kingston-server-premier-ksm32rd4-32mrr-32gb-ddr4-3200-ecc-rdimm", 8),
            P("Nvidia RTX 3090 Founders", "accelerator",
              "accelerator/nvidia-founders-edition-geforce-rtx-3090-24gb-gddr6x", 2),
            P("T.F.Skywindl 2000W modular", "psu", "psu/t-f-skywindl-2000w"),
        ),
        expect="works",
        why="Built \"primarily to setup and learn about AI\"; the cooler runs \"ambient + 30 "
            "under load\". 8 x Kingston ECC registered = 256 GB, i.e. 32 GB RDIMMs (the module "
            "number is not given; a DDR4-3200 part picked). Case: \"Ebay GPU Frame\". The GPUs "
            "are published \"Nvidia RTX 3090 Founders Editition\" (typo; the name is cut).",
        missing=("AMD EPYC 7532", "Arctic Freezer 4U SP3 (the catalog has the 4U-M)",
                 "T.F.Skywindl 2000W modular PSU", "Ebay GPU Frame (open frame)"),
    ),
    RealBuild(
        key="practicalai-2920x-2080ti-titanrtx",
        title="Practical AI 112: Threadripper 2920X, RTX 2080 Ti + Titan RTX in an O11 Air",
        source="https://github.com/thechangelog/show-notes/blob/master/practicalai/"
               "practical-ai-112.md",
        date="2020-11 (episode 112)",
        parts=(
            P("AMD Ryzen Threadripper 2920X", "cpu", "cpu/amd-ryzen-threadripper-2920x"),
            P("Noctua NH-U12S TR4-SP3", "cooler", "cooler/noctua-nh-u12s-tr4-sp3-air-158mm"),
            P("GIGABYTE X399 AORUS PRO", "motherboard", "motherboard/gigabyte-x399-aorus-pro"),
            P("Corsair Vengeance LPX", "memory",
              "memory/corsair-vengeance-lpx-32gb-2x16gb-ddr4-3200-cl16-black", 2),
            P("Samsung 970 EVO Plus 1TB", "storage",
              "storage/samsung-970-evo-plus-m-2-2280-1tb-pcie-gen-3-0-x4"),
            P("RTX 2080 Ti", "accelerator", "accelerator/nvidia-geforce-rtx-2080-ti"),
            P("Titan RTX", "accelerator", "accelerator/nvidia-titan-rtx"),
            P("Lian Li PC-O11AIR", "case",
              "case/lian-li-pc-o11-air-atx-full-tower-black-tempered-glass"),
            P("Rosewill Hercules", "psu",
              "psu/rosewill-hercules-1600-1600w-80-silver-semi-modular"),
        ),
        expect="works",
        why="Daniel Whitenack's deep learning workstation, listed in the show notes. \"16GB (2x "
            "2 packs), total 64GB\" is read as two 2x16 GB kits (speed not given: DDR4-3200 "
            "picked; searched as \"Corsair Vengeance LPX\"); \"Rosewill Hercules\" is the 1600 W "
            "unit (two variants; Silver picked).",
    ),
    RealBuild(
        key="devmiikak-3x3090-x570",
        title="Three RTX 3090-class cards on an X570 Dark Hero (5800X3D, HX1500i)",
        source="https://github.com/devMiikaK/multigpu-system/blob/main/README.md",
        date="undated (2024-2025)",
        parts=(
            P("Ryzen 5800x3D", "cpu", "cpu/amd-ryzen-7-5800x3d"),
            P("Asus ROG Crosshair VIII Dark Hero x570", "motherboard",
              "motherboard/asus-x570-rog-crosshair-viii-dark-hero-am4-ddr4-atx"),
            P("Noctua NH-D15", "cooler", "cooler/noctua-nh-d15"),
            P("RTX 3090 Asus TUF OC", "accelerator",
              "accelerator/asus-tuf-gaming-oc-geforce-rtx-3090-24-gb"),
            P("RTX 3090 Founders Edition", "accelerator",
              "accelerator/nvidia-founders-edition-geforce-rtx-3090-24gb-gddr6x"),
            P("RTX 3090 Ti Gainward Phantom", "accelerator",
              "accelerator/gainward-phantom-geforce-rtx-3090-ti"),
            P("Corsair HX1500i", "psu", "psu/corsair-hx1500i-cp-9020309-na"),
        ),
        expect="compat.x16_slots",
        why="\"It's difficult to fit three 3-slot graphics cards into a regular consumer "
            "motherboard due to the PCIe slot spacing. In order to fit the third 3090 in, I "
            "would need two PCIe risers\": the cards do not go straight into the board's slots "
            "(the machine runs with a riser card and a riser cable, which the catalog has no "
            "part for). Case and RAM are not named.",
        missing=("Gainward RTX 3090 Ti Phantom",),
    ),
    RealBuild(
        key="fail-devmiikak-2x3090-stacked",
        title="Two RTX 3090s in adjacent slots of an X570 Dark Hero: too hot for training",
        source="https://github.com/devMiikaK/multigpu-system/blob/main/README.md",
        date="undated (2024-2025)",
        parts=(
            P("Ryzen 5800x3D", "cpu", "cpu/amd-ryzen-7-5800x3d"),
            P("Asus ROG Crosshair VIII Dark Hero x570", "motherboard",
              "motherboard/asus-x570-rog-crosshair-viii-dark-hero-am4-ddr4-atx"),
            P("Noctua NH-D15", "cooler", "cooler/noctua-nh-d15"),
            P("RTX 3090 Asus TUF OC", "accelerator",
              "accelerator/asus-tuf-gaming-oc-geforce-rtx-3090-24-gb"),
            P("RTX 3090 Founders Edition", "accelerator",
              "accelerator/nvidia-founders-edition-geforce-rtx-3090-24gb-gddr6x"),
        ),
        expect="fails:stacked-open-air-cards-too-hot-in-case",
        warn=("cooling.card_spacing",),
        why="Part 2: \"The issue was the lack of space between the 2 gpus, and the poor cooling "
            "and airflow of the old NZXT case ... This machine could not be used for long AI "
            "training\"; the case prevented using the lowest slot. A case with more airflow "
            "fixed it. The two 3090s are read from the final list (the Ti came later); the old "
            "NZXT case is not named, so no case check can fire.",
    ),
    RealBuild(
        key="williamfalcon-4x1080ti",
        title="William Falcon's deep learning GPU box: 4x GTX 1080 Ti on an X99-E WS",
        source="https://github.com/williamFalcon/deep-learning-gpu-box-build-instructions",
        date="undated (2017, GTX 1080 Ti era)",
        parts=(
            P("Samsung 850 evo (250 GB)", "storage", "storage/samsung-850-evo-250gb-ssd-2-5-sata"),
            P("Samsung 850 evo (1 TB)", "storage",
              "storage/samsung-850-evo-1tb-ssd-2-5-sata-6-0-gb-s"),
            P("Seagate FireCuda (2TB)", "storage",
              "storage/seagate-firecuda-2tb-hybrid-3-5-7200-rpm-sata"),
            P("Intel i7 (6+ cores)", "cpu", "cpu/intel-core-i7-unnamed-6-core"),
            P("Corsair 1500 W", "psu", "psu/corsair-ax1500i-1500w-fully-modular-80-titanium"
              "-certified"),
            P("Asus X99-E WS", "motherboard", "motherboard/asus-x99-e-ws"),
            P("Crucial (16GB+ each)", "memory", "memory/crucial-16gb-ddr4", 4),
            P("Phanteks Enthoo Pro", "case", "case/phanteks-enthoo-pro"),
            P("NVIDIA 1080Ti", "accelerator", "accelerator/nvidia-geforce-gtx-1080-ti", 4),
            P("Corsair H115i", "cooler",
              "cooler/corsair-h115i-water-280mm-104-65-cfm"),
        ),
        expect="works",
        why="Published as the parts for \"a sick GPU box with multiple GPUs\" (\"I use both\" "
            "blower and open-fan cards); he warns \"If your machine gets too hot, the GPUs will "
            "auto-throttle down\". The CPU and RAM are Amazon links only: model not named. The "
            "cooler is published \"Corsair CW-9060027-WW Hydro Series H115i\".",
        missing=("Intel i7 (6+ cores): the model is an Amazon link, not named",
                 "Asus X99-E WS (the catalog has the consumer X99-E only)",
                 "Crucial 16 GB DDR4 module (not named)",
                 "Phanteks Enthoo Pro (the first one; the catalog has the Enthoo Pro 2)"),
    ),
    RealBuild(
        key="fail-puget-4x3090-one-1600w",
        title="Puget Systems: four RTX 3090 Turbo on one EVGA SuperNOVA 1600 P2",
        source="https://www.thefpsreview.com/2020/10/22/puget-systems-tests-four-blower-style-"
               "geforce-rtx-3090-cards-in-a-single-workstation-1717-watt-peak-power-draw/",
        date="2020-10-22",
        parts=(
            P("Intel Xeon W-2255", "cpu", "cpu/intel-xeon-w-2255"),
            P("Noctua NH-U12DX", "cooler", "cooler/noctua-nh-u12dxi4-air-158mm-55-cfm"),
            P("Asus WS C422 SAGE/10G", "motherboard", "motherboard/asus-ws-c422-sage-10g"),
            P("Samsung 970 Pro 512GB", "storage",
              "storage/samsung-970-pro-512-gb-m-2-2280-ssd-pcie-3-0-x4-nvme"),
            P("GIGABYTE GeForce RTX 3090 TURBO 24G", "accelerator",
              "accelerator/gigabyte-turbo-black-geforce-rtx-3090-24gb-gddr6x", 4),
            P("EVGA SuperNOVA 1600 P2", "psu", "psu/evga-supernova-1600-p2-220-p2-1600-x1"),
        ),
        expect="power.psu_load",
        warn=("power.circuit",),
        why="Even with each card power-limited to 300 W, Puget measured 1,717 W at the wall, "
            "~1,580 W inside the 1600 W unit: \"cutting it extremely close ... definitely not "
            "something we would recommend\". At the cards' stock 350 W the load is over the "
            "rating; 1,717 W is also above a 15 A circuit's 1,440 W continuous. Memory (128 GB, "
            "per tomshardware.fr and phonandroid.com) and case are not named.",
        missing=("ASUS WS C422 SAGE/10G",),
    ),
    RealBuild(
        key="puget-4x3090-two-1600w",
        title="Puget Systems: four RTX 3090 Turbo on two EVGA SuperNOVA 1600 P2",
        source="https://www.tomshw.it/hardware/questo-pc-consuma-piu-di-una-lavatrice/",
        date="2020-10",
        parts=(
            P("Intel Xeon W-2255", "cpu", "cpu/intel-xeon-w-2255"),
            P("Noctua NH-U12DX", "cooler", "cooler/noctua-nh-u12dxi4-air-158mm-55-cfm"),
            P("Asus WS C422 SAGE/10G", "motherboard", "motherboard/asus-ws-c422-sage-10g"),
            P("Samsung 970 Pro 512GB", "storage",
              "storage/samsung-970-pro-512-gb-m-2-2280-ssd-pcie-3-0-x4-nvme"),
            P("GIGABYTE GeForce RTX 3090 TURBO 24G", "accelerator",
              "accelerator/gigabyte-turbo-black-geforce-rtx-3090-24gb-gddr6x", 4),
            P("EVGA SuperNOVA 1600 P2", "psu", "psu/evga-supernova-1600-p2-220-p2-1600-x1", 2),
        ),
        expect="works",
        why="The same test machine, third run: two 1600 W supplies at stock card power; Puget "
            "ran its benchmarks on it (blower cards exhaust out of the case). The wall circuit "
            "is not stated.",
        missing=("ASUS WS C422 SAGE/10G",),
    ),
    RealBuild(
        key="trainsh-4090-waterforce-wrx80e",
        title="RTX 4090 Waterforce + Threadripper PRO 5975WX upgrade of a Titan Xp workstation",
        source="https://train.sh/blog/2023-03-upgrade-gpu-desktop",
        date="2023-03",
        parts=(
            P("AORUS GeForce RTX 4090 Xtreme Waterforce 24G", "accelerator",
              "accelerator/gigabyte-aorus-xtreme-waterforce-geforce-rtx-4090-24-gb"),
            P("TITAN Xp", "accelerator", "accelerator/nvidia-titan-xp", 2),
            P("AMD Ryzen Threadripper PRO 5975WX", "cpu",
              "cpu/amd-ryzen-threadripper-pro-5975wx"),
            P("ASUS Pro WS WRX80E-SAGE SE WIFI", "motherboard",
              "motherboard/asus-pro-ws-wrx80e-sage-se-wifi"),
            P("ROG Thor 1600W Titanium", "psu",
              "psu/asus-rog-thor-1600t2-gaming-silver-black-1600w-fully-modular-80-titanium"
              "-certified"),
            P("KRAKEN Z73 RGB", "cooler", "cooler/nzxt-kraken-z73-rgb-water-360mm-52-44-cfm"
              "-white-black"),
            P("ROG GR701", "case",
              "case/asus-rog-hyperion-gr701-eatx-full-tower-computer-case"),
            P("WD BLACK SN850 4TB", "storage", "storage/western-digital-black-sn850-4tb"),
            P("Samsung 990 PRO 2TB", "storage", "storage/samsung-990-pro-2tb-mz-v9p2t0b-am"),
        ),
        expect="works",
        why="Built and tested: \"testing with cpuburn and gpuburn showed no significant "
            "temperature issues\"; two Titan Xp kept as display outputs. The board is published "
            "as the WRX80E-SAGE SE WIFI II (the catalog has the first WIFI revision, same "
            "layout); \"ROG Genesis GR701\" is the ROG Hyperion GR701; the Thor 1600 W Titanium "
            "revision is not given (1600T2 picked). RAM, the Lexar ARES 4TB and Hikvision C4000 "
            "4TB are left out. The catalog lists no Threadripper socket for the Kraken Z73; the "
            "post runs it on this CPU (\"The CPU is square while the water-block is round\").",
        missing=("WD BLACK SN850 4TB (the catalog stops at 2TB)",),
    ),
    RealBuild(
        key="3r1sn5-13900kf-4090-godlike",
        title="i9-13900KF + MSI RTX 4090 Gaming Trio on a Z790 GODLIKE \"for training models\"",
        source="https://github.com/3r1sn5/3r1sn5.github.io/blob/main/collections/"
               "_computerScience/2023-9-08-WorkStation.md",
        date="2023-09-08",
        parts=(
            P("MSI MEG Z790 GODLIKE", "motherboard", "motherboard/msi-z790-meg-godlike-ddr5-eatx"),
            P("Intel Core i9-13900KF", "cpu", "cpu/intel-core-i9-13900kf"),
            P("MSI 4090 Gaming Trio", "accelerator",
              "accelerator/msi-geforce-rtx-4090-gaming-trio-24g"),
            P("G.Skill Trident Z5 32GB", "memory", "memory/g-skill-trident-z5-32gb-ddr5", 2),
            P("MSI MEG Ai1300P", "psu",
              "psu/msi-meg-ai1300p-pcie5-black-copper-atx-1300w-fully-modular-80-platinum"
              "-certified"),
            P("Solidigm P44 Pro 1TB", "storage",
              "storage/solidigm-p44-pro-1tb-ssd-m-2-pcie-4-0-nvme", 2),
            P("Solidigm P44 Pro 2TB", "storage",
              "storage/solidigm-p44-pro-2tb-ssd-m-2-pcie-4-0-x4-nvme", 2),
            P("MSI MEG Coreliquid S360", "cooler",
              "cooler/msi-meg-coreliquid-s360-water-360mm-black"),
            P("MSI MEG Prospect 700R", "case",
              "case/msi-meg-prospect-700r-atx-mid-tower-black-tempered-glass-side-panel"),
        ),
        expect="works",
        why="The author's workstation (\"For training some Models\"); the case is \"officially "
            "verified to support the Z790 Godlike\" (the catalog gives the case ATX boards only). "
            "The Trident Z5 32GB x2 speed is not given.",
        missing=("G.Skill Trident Z5 32 GB DDR5 module (speed not given; the catalog lists "
                 "kits by speed)",),
    ),
    RealBuild(
        key="poctoprod-5950x-2x3090",
        title="Homelab AI rig: Ryzen 9 5950X, two RTX 3090 on an MSI MAG X570 TOMAHAWK WIFI",
        source="https://www.poctoprod.org/pages/hardware/builds/x570-5950x-rtx3090",
        date="2026-04-24",
        parts=(
            P("MSI MAG X570 TOMAHAWK WIFI", "motherboard",
              "motherboard/msi-mag-x570-tomahawk-wifi"),
            P("AMD Ryzen 9 5950X", "cpu", "cpu/amd-ryzen-9-5950x"),
            P("NVIDIA RTX 3090", "accelerator", "accelerator/nvidia-geforce-rtx-3090", 2),
        ),
        expect="works",
        why="\"The primary homelab machine. Built for AI inference and local model serving\"; the "
            "second 3090 runs at x4 through the chipset, which the page documents as the "
            "trade-off: it sits in the board's second physical x16 slot (x4 electrical). The "
            "64 GB DDR4, SSDs, PSU, cooler and case are not named.",
    ),
    RealBuild(
        key="fail-13900k-nh-l9i-sugo14",
        title="Core i9-13900K under a Noctua NH-L9i-17xx in a SilverStone SUGO 14",
        source="https://smallformfactor.net/news/toms-hardware-tests-noctua-low-profile-coolers-"
               "in-sff-case-against-intel-i9-13900k",
        date="undated (2023; reports Tom's Hardware's test)",
        parts=(
            P("Intel i9-13900K", "cpu", "cpu/intel-core-i9-13900k"),
            P("Noctua L9i-17xx", "cooler",
              "cooler/noctua-nh-l9i-17xx-air-37mm-33-84-cfm-brown-beige"),
            P("SilverStone Sugo 14", "case",
              "case/silverstone-sugo-14-mini-itx-desktop-black-yellow"),
        ),
        expect="cooling.cpu",
        why="Tom's Hardware: the 13900K \"will run at 100C on all of the test coolers\"; on the "
            "L9i it holds only 119 W at full load (near 200 W on the NH-D9L), costing 5,000-6,000 "
            "Cinebench R23 points against the D9L: a flagship under a low-profile cooler "
            "throttles. The test board and memory are not named in the article.",
    ),
    RealBuild(
        key="fail-lambda-4x3090-one-circuit",
        title="Four RTX 3090s on one household circuit (Lambda's RTX 30-series build advice)",
        source="https://www.sipoch.com/en/article/300330019564120",
        date="2020-09 (Lambda blog post, mirrored)",
        parts=(
            P("RTX 3090", "accelerator", "accelerator/nvidia-geforce-rtx-3090", 4),
        ),
        expect="power.circuit",
        why="Lambda (shipping RTX 3090 workstations): \"4x is not recommended because it would "
            "require two PSUs plugged into separate circuits or retrofitting your electrical "
            "setup\"; \"These GPUs may overload your circuit (or blow your PSU)\". 4 x 350 W "
            "already exceeds a 120 V 15 A circuit's continuous limit at the wall. The app's "
            "circuit check only warns, so the failure is written as fails:.",
    ),
    RealBuild(
        key="airadar-core-p3-2x3090",
        title="Two RTX 3090s in a Thermaltake Core P3 with a 3D-printed radiator bracket",
        source="https://ai-radar.it/article/due-rtx-3090-nel-thermaltake-core-p3-lingegno-al-"
               "servizio-dellinference-llm-locale?lang=en",
        date="undated (2025-2026; reports a Reddit post)",
        parts=(
            P("Thermaltake Core P3", "case",
              "case/thermaltake-core-p3-atx-mid-tower-black-tempered-glass-side-panel"),
            P("RTX 3090", "accelerator", "accelerator/nvidia-geforce-rtx-3090", 2),
        ),
        expect="works",
        why="Runs a 27B LLM locally (\"qwen 27b go brrrrr\"); the open-frame case needed a "
            "3D-printed bracket to tilt the radiator. The other parts are not named.",
    ),
    RealBuild(
        key="wopr-7x4090-epyc",
        title="WOPR: seven RTX 4090s on an EPYC 7763 with four Corsair RM1000x Shift",
        source="https://www.mov-axbx.com/wopr/wopr_power.html",
        date="undated (built from December 2023)",
        parts=(
            P("RTX 4090", "accelerator", "accelerator/nvidia-geforce-rtx-4090", 7),
            P("AMD Epyc 7763", "cpu", "cpu/amd-epyc-7763"),
            P("Corsair RM1000x Shift", "psu", "psu/corsair-rm1000x-shift-cp-9020253-na", 4),
        ),
        expect="works",
        why="\"I just went for it with four 1000W power supplies, and it works\" (one PSU per "
            "pair of cards, the fourth for the seventh card and the platform); used for "
            "fine-tuning with DeepSpeed. The power page names no board, memory or frame; the "
            "mains circuit is not stated.",
        mains="230V-16A",
    ),
    RealBuild(
        key="localaiservers-8x4090d-genoa",
        title="8x RTX 4090D on dual EPYC 9004 (GENOA2D24G-2L+) with four 2000 W PSUs",
        source="https://redlib.titolab.com/r/LocalAIServers",
        date="undated (2025-2026, Reddit r/LocalAIServers post)",
        parts=(
            P("RTX 4090D", "accelerator", "accelerator/nvidia-geforce-rtx-4090-d", 8),
            P("ASRock Rack GENOA2D24G-2L+", "motherboard",
              "motherboard/asrock-rack-genoa2d24g-2l"),
        ),
        expect="works",
        why="An on-prem inference rig serving a team (\"Real-world draw under inference load: "
            "~4,600W\"), custom CNC'd 4U chassis. The post gives the CPUs only as \"Dual AMD "
            "EPYC 9004 Genoa\" and the PSUs as \"4x 2000W\".",
        missing=("ASRock Rack GENOA2D24G-2L+", "Dual AMD EPYC 9004 (model not named)",
                 "4x 2000W PSUs (model not named)", "custom CNC'd 4U chassis"),
        mains="208V-60A-3ph",
    ),
    RealBuild(
        key="fail-northcutt-3x-open-air-2080ti",
        title="Curtis Northcutt's 3x EVGA RTX 2080 Ti rig (open-air cards, later swapped for "
              "blowers)",
        source="https://l7.curtisnorthcutt.com/build-pro-deep-learning-workstation",
        date="2019-01-31 (receipt date; updated 2019-03/04)",
        parts=(
            P("EVGA GeForce RTX 2080 Ti", "accelerator",
              "accelerator/evga-xc-gaming-geforce-rtx-2080-ti-11gb-gddr6-black-clear", 3),
        ),
        expect="fails:stacked-open-air-cards-overheat",
        why="\"Update: To avoid overheating, I now use these blower-style GPUs: 1. ASUS GeForce "
            "RTX 2080 Ti 11G Turbo Edition\": three open-air cards stacked in one machine ran "
            "too hot. The EVGA model is not named (XC Gaming picked); the rest of the list is "
            "further down the post and was not read, so no board: card_spacing cannot fire.",
    ),
    RealBuild(
        key="muellerzr-workhorse-r120-4gpu-2psu",
        title="Workhorse revision 1.2.0: 2x RTX 4090 + 2x RTX 3060 on two PSUs (GF3 + C1200)",
        source="https://github.com/muellerzr/muellerzr.github.io/blob/main/builds/workhorse/"
               "1.2.0/index.qmd",
        date="2025-04-22",
        parts=(
            P("AMD Ryzen 9 7900x", "cpu", "cpu/amd-ryzen-9-7900x"),
            P("Lian Li Galahad II Trinity 360mm", "cooler",
              "cooler/lian-li-galahad-ii-trinity-performance-108-29-cfm-water-360mm-black"),
            P("MSI SUPRIM LIQUID X 4090", "accelerator",
              "accelerator/msi-suprim-liquid-x-geforce-rtx-4090-24-gb", 2),
            P("RTX 3060", "accelerator", "accelerator/nvidia-geforce-rtx-3060-12-gb", 2),
            P("Asus ProArt X670E-CREATOR", "motherboard",
              "motherboard/asus-x670e-proart-creator-wifi-ddr5-atx"),
            P("G.Skill Trident Z5 RGB 96 DDR5-6800 CL34", "memory",
              "memory/g-skill-trident-z5-rgb-matte-black-ddr5-6800-cl34-96gb-2x48gb"),
            P("Toughpower GF3 1650W", "psu",
              "psu/thermaltake-toughpower-gf3-tt-premium-black-1650w-fully-modular-80-gold"
              "-certified"),
            P("NZXT C1200 ATX 3.1", "psu",
              "psu/nzxt-c1200-fully-modular-atx-power-supply-1200-watts-atx-3-1-white"),
            P("Samsung 990 Pro 2TB", "storage", "storage/samsung-990-pro-2tb-mz-v9p2t0b-am"),
            P("Thermaltake Core P6 ATX Mid Tower", "case",
              "case/thermaltake-core-p6-atx-mid-tower-black"),
        ),
        expect="works",
        why="The revision page lists only changes from 1.0.0: two RTX 3060s added on M.2-to-PCIe "
            "risers (M.2L/M.2R-PCIE90-300MM) and a second PSU joined by an ADD2PSU adapter; "
            "CPU, cooler, board, RAM, SSD and case are those of 1.0.0 (the Core P6 is replaced "
            "only in 1.3.0). The 3060 model and the C1200's colour are not given (published "
            "\"NZXT C1200 Gold ATX 3.1\"). Two different "
            "PSUs in one machine: the app has no way to say which PSU feeds which card.",
    ),
)
