"""PCIe generation of a board's CPU-attached x16 slot, from its chipset.

The BuildCores OpenDB defaults every slot to "4.0" (an LGA775 board has a "PCIe 4.0 x16"
slot), so a board's generation comes from its chipset. Each entry is the range the
platform allows for the graphics (PEG) slot: the generation every board of the chipset
has, and the highest a board maker may wire (Intel's 600/700/800-series let the maker
choose Gen 4 or Gen 5 for the CPU's x16 lanes; AMD's B650/X670/B850 make Gen 5
optional). The dataset's own figure is kept only when it lies inside that range.

Sources (read 2026-11-26): the vendors' chipset pages
(https://www.amd.com/en/products/processors/chipsets/am5.html,
https://www.amd.com/en/products/processors/chipsets/am4.html, the Intel ARK chipset
product pages, https://ark.intel.com/content/www/us/en/ark.html#@Chipsets), and for the
optional Gen 5 slot of AM5 and Intel 600-series boards the comparisons at
https://techpowerup.com/review/amd-zen-5-technical-deep-dive/5.html and
https://www.pugetsystems.com/labs/articles/Intel-Z690-vs-H670-vs-B660-vs-H610-Chipset-Comparison-2290/
"""

from __future__ import annotations

INTEL_CHIPSETS = "https://ark.intel.com/content/www/us/en/ark.html#@Chipsets"
AMD_CHIPSETS = "https://www.amd.com/en/products/processors/chipsets/am5.html"
CHIPSET_SOURCE_DATE = "2026-11-26"


def chipset_source(chipset: str | None) -> str:
    """The vendor page the chipset's generation was read from."""
    return AMD_CHIPSETS if (chipset or "").upper().startswith("AMD") else INTEL_CHIPSETS


def _same(gen: int, *names: str) -> dict[str, tuple[int, int]]:
    return {n: (gen, gen) for n in names}


def _span(low: int, high: int, *names: str) -> dict[str, tuple[int, int]]:
    return {n: (low, high) for n in names}


# Chipset name as the dataset writes it, without the vendor ("B650", "Z790", "C612").
CHIPSET_PCIE: dict[str, tuple[int, int]] = {
    # AMD AM5: X670E/B650E/X870E/X870 Gen 5 graphics; X670/B650/B850 Gen 4 with Gen 5
    # optional; A620 and B840 lower.
    **_same(5, "X670E", "B650E", "X870E", "X870"),
    **_span(4, 5, "X670", "B650", "B850"),
    **_same(4, "A620", "A620A"),
    **_span(3, 4, "B840"),
    # AMD AM4: Gen 4 on X570/B550 (with Ryzen 3000 and later); Gen 3 on the rest.
    **_span(3, 4, "X570", "B550"),
    **_same(3, "A520", "X470", "B450", "X370", "B350", "A320", "X300", "A300", "570X"),
    # AMD HEDT/workstation: TR4 X399 Gen 3, sTRX4 TRX40 Gen 4, sTR5 TRX50/WRX90 Gen 5,
    # sWRX8 WRX80 Gen 4.
    **_same(3, "X399"), **_same(4, "TRX40", "WRX80"), **_same(5, "TRX50", "WRX90"),
    # AMD AM3+/FM2+/AM1 and older: Gen 2 (990FX/990X/970/9xx, A-series FCH), Gen 3 on
    # A88X/A78/A68H with Kaveri APUs.
    **_same(2, "990FX", "990X", "970", "890FX", "890GX", "880G", "870", "790X", "785G",
            "770", "760G", "A85X", "A75", "A55", "AM1", "SR5690"),
    **_span(2, 3, "A88X", "A78", "A68H", "A68M"),
    # Intel LGA1851 (800-series): Core Ultra 200S gives Gen 5 x16; H810 Gen 4.
    **_span(4, 5, "Z890", "B860", "Q870", "W880"), **_same(4, "H810"),
    # Intel LGA1700 (600/700-series): Gen 5 x16 from the CPU, optional per board.
    **_span(4, 5, "Z690", "H670", "B660", "Q670", "W680", "Z790", "H770", "B760", "Q770",
            "W790"),
    **_same(4, "H610"),
    # Intel LGA1200: 500-series Gen 4 (with Core 11th gen), 400-series Gen 3.
    **_span(3, 4, "Z590", "H570", "B560", "Q570", "W580"),
    **_same(3, "H510", "Z490", "H470", "B460", "H410", "Q470", "W480"),
    # Intel LGA1151 and older Gen 3 platforms.
    **_same(3, "Z390", "Z370", "H370", "B365", "B360", "H310", "Q370", "Z270", "H270",
            "B250", "Q270", "Z170", "H170", "B150", "H110", "Q170", "C232", "C236", "C242",
            "C246", "Z97", "H97", "Z87", "H87", "B85", "H81", "Q87", "Q85", "C222", "C224",
            "C226", "X299", "X99", "C612", "C621", "C422", "X79", "C602", "C602J", "C606",
            "C604"),
    # Intel LGA1155: Gen 3 with Ivy Bridge on 7-series, Gen 2 with Sandy Bridge (6-series).
    **_span(2, 3, "Z77", "H77", "B75", "Q77", "Z75", "C216"),
    **_same(2, "Z68", "P67", "H67", "H61", "Q67", "Q65", "B65", "C204", "C202", "C206",
            "H57", "H55", "P55", "Q57", "X58", "5520", "P45", "G45", "G43", "B43", "Q45",
            "P43", "X48", "X38", "NM10"),
    # Intel LGA775 with PCIe 1.x graphics.
    **_same(1, "G41", "G31", "G33", "P35", "P31", "G35"),
}


def chipset_key(chipset: str | None) -> str:
    """``"Intel B760"`` / ``"AMD B850"`` / ``"B850"`` -> ``"B850"``."""
    if not chipset:
        return ""
    words = chipset.replace("/", " ").split()
    if words and words[0].upper() in ("INTEL", "AMD", "NVIDIA", "VIA"):
        words = words[1:]
    return words[0].upper() if words else ""


def board_pcie_generation(chipset: str | None, stated: int | None) -> int | None:
    """The board's x16 generation: the dataset's figure when the chipset allows it, else
    the chipset's guaranteed generation; unknown for a chipset not in the table."""
    span = CHIPSET_PCIE.get(chipset_key(chipset))
    if span is None:
        return None
    low, high = span
    if stated is not None and low <= stated <= high:
        return stated
    return low
