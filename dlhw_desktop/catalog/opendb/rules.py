"""Cleaning rules for the BuildCores OpenDB: the defects its README lists, as small
functions. Each returns ``None`` for a value that is unknown or impossible, so an
empty cell (shown "n/a") replaces it, never a guess or a zero."""

from __future__ import annotations

import re

FIRST_YEAR, LAST_YEAR = 1990, 2027
"""Release years outside this range are typos (the dataset has 20117 and 0)."""

_NUMBER = re.compile(r"-?\d+(?:[.,]\d+)?")


def number(raw: object) -> float | None:
    """A cell as a number; empty, text or NaN -> ``None``."""
    if raw is None or isinstance(raw, bool):
        return None
    if isinstance(raw, int | float):
        value = float(raw)
    else:
        text = str(raw).strip().replace(",", "")
        if not text:
            return None
        try:
            value = float(text)
        except ValueError:
            return None
    return value if value == value else None  # NaN is unknown


def in_range(raw: object, low: float, high: float) -> float | None:
    """A plausible figure: ``low <= value <= high``, else unknown (negative, zero or
    absurd values are typos, not figures)."""
    value = number(raw)
    if value is None or not low <= value <= high:
        return None
    return value


def whole(raw: object, low: float, high: float) -> int | None:
    value = in_range(raw, low, high)
    return None if value is None else round(value)


def release_year(raw: object) -> int | None:
    """20117, 0 or a negative year is dropped."""
    return whole(raw, FIRST_YEAR, LAST_YEAR)


def clock_ghz(raw: object) -> float | None:
    """A clock in GHz; a figure above 100 was given in MHz (3200 -> 3.2)."""
    value = number(raw)
    if value is None or value <= 0:
        return None
    if value > 100:
        value /= 1000
    return round(value, 3) if 0.1 <= value <= 10 else None


_CAPACITY = re.compile(r"(\d+(?:\.\d+)?)\s*(TB|GB|MB)\b", re.I)


def capacity_gb(raw: object) -> float | None:
    """``512``, ``"2 TB"``, ``"2TB"``, ``"512GB"`` -> GB (decimal, as drives are sold)."""
    value = number(raw)
    if value is None and raw is not None:
        match = _CAPACITY.search(str(raw))
        if match:
            scale = {"TB": 1000.0, "GB": 1.0, "MB": 0.001}[match.group(2).upper()]
            value = float(match.group(1)) * scale
    if value is None or not 0 < value <= 1_000_000:
        return None
    return value


def psu_connectors(raw: object) -> int | None:
    """A PSU's connector count; 0 is unknown at any wattage (the open data's default: a
    400 W unit with "0 EPS" still powers a CPU)."""
    count = whole(raw, 0, 24)
    return None if count == 0 else count


def efficiency_rating(raw: str | None) -> str | None:
    """``"80+ Gold"`` -> ``"Gold"``; plain 80 PLUS (``"80+"``, ``"80+ Standard"``) ->
    ``"White"``; anything else unknown."""
    if not raw:
        return None
    text = raw.strip().lower().replace("plus", "+").replace(" ", "")
    if not text.startswith("80+"):
        return None
    tier = text[3:]
    if tier in ("", "standard", "white"):
        return "White"
    names = {"bronze": "Bronze", "silver": "Silver", "gold": "Gold", "platinum": "Platinum",
             "titanium": "Titanium"}
    return names.get(tier)


_ATX_VERSION = re.compile(r"\bATX\s*(3\.[01]|3)\b", re.I)
_ATX12V_VERSION = re.compile(r"\bATX\s*12\s*V\s*v?\s*(2\.\d{1,2})\b", re.I)


def atx_version(name: str, *designations: str) -> str | None:
    """The ATX version a PSU's own product designation states (the dataset has no field).

    ``"... ATX 3.1 ..."`` -> ``"3.1"``, ``"ATX12V v2.4"`` -> ``"2.4"``. The name is read first,
    then the other designations (series, part numbers: ``"Prime TX ATX 3.1"``); a stated minor
    version wins over a bare ``"ATX 3"``/``"ATX3-..."``, which reads as ``"3.0"``."""
    bare = False
    for text in (name, *designations):
        for match in _ATX_VERSION.finditer(text or ""):
            if match.group(1) != "3":
                return match.group(1)
            bare = True
        match = _ATX12V_VERSION.search(text or "")
        if match and not bare:
            return match.group(1)
    return "3.0" if bare else None


_PSU_FORMS = {"atx": "ATX", "sfx": "SFX", "sfx-l": "SFX-L", "tfx": "TFX", "flexatx": "Flex ATX",
              "flex atx": "Flex ATX", "atx/eps": "ATX", "mini-itx": "Mini-ITX"}


_SFX_L = re.compile(r"\bSFX-?L\b", re.I)


def psu_form_factor(raw: str | None, name: str = "", part_numbers: str = "") -> str | None:
    """The unit's form factor; its own name or part number saying "SFX-L" wins over a
    dataset "SFX" (ASUS ROG LOKI: ``ROG-LOKI-850P-SFX-L-GAMING`` filed as SFX)."""
    form = _PSU_FORMS.get((raw or "").strip().lower())
    if form == "SFX" and (_SFX_L.search(name) or _SFX_L.search(part_numbers)):
        return "SFX-L"
    return form


_SOCKET_COUNT = re.compile(r"^\s*(\d)\s*x\s*(.+)$", re.I)


def socket(raw: str | None) -> tuple[str | None, int]:
    """A board's or CPU's socket as the curated files write it, and how many:
    ``"LGA 1700"`` -> (``"LGA1700"``, 1); ``"2 x LGA 2011-3 Narrow"`` ->
    (``"LGA2011-3"``, 2); a CPU soldered to the board (``"Integrated Atom"``) -> (None, 0)."""
    text = (raw or "").strip()
    count = 1
    match = _SOCKET_COUNT.match(text)
    if match:
        count, text = int(match.group(1)), match.group(2)
    if not text or text.lower().startswith("integrated"):
        return None, 0
    text = re.sub(r"\s+narrow$", "", text, flags=re.I)
    text = re.sub(r"^LGA\s+", "LGA", text, flags=re.I)
    if text.upper() == "LGA1151V2":
        text = "LGA1151"
    return text, count


_BOARD_FORMS = {"atx": "ATX", "microatx": "Micro-ATX", "miniitx": "Mini-ITX", "eatx": "E-ATX",
                "ssieeb": "SSI-EEB", "ssiceb": "SSI-CEB", "xlatx": "XL-ATX",
                "thinminiitx": "Thin Mini-ITX", "hptx": "HPTX", "minidtx": "Mini-DTX",
                "flexatx": "Flex-ATX", "ministx": "Mini-STX", "eeb": "SSI-EEB",
                "ceb": "SSI-CEB", "matx": "Micro-ATX"}


def board_form_factor(raw: str | None) -> str | None:
    """``"Micro ATX"`` -> ``"Micro-ATX"``, ``"EATX"`` -> ``"E-ATX"`` (the names the
    curated files and the case check use)."""
    key = "".join(ch for ch in (raw or "").lower() if ch.isalnum())
    return _BOARD_FORMS.get(key)


def board_form_factors(raw: list[str] | str | None) -> str | None:
    """A case's board list ``"ATX;Micro ATX"`` -> ``"ATX; Micro-ATX"`` (known ones only)."""
    items = raw if isinstance(raw, list) else (raw or "").split(";")
    forms = [f for f in (board_form_factor(i) for i in items) if f]
    return "; ".join(dict.fromkeys(forms)) or None


def case_kind(raw: str | None) -> str | None:
    """The dataset's case form factor -> tower, rackmount or open-frame (HTPC, cube and
    desktop cases are towers for the checks: a closed box with front-to-back airflow)."""
    text = (raw or "").lower()
    if not text:
        return None
    if "rack" in text:
        return "rackmount"
    if "open" in text or "test bench" in text:
        return "open-frame"
    return "tower"


def memory_type(raw: str | None) -> str | None:
    """``"DDR5"`` -> ``"DDR5"``; ``"DDR1"`` -> ``"DDR"``; anything else unknown."""
    match = re.fullmatch(r"\s*(LP)?DDR(\d)?\s*", raw or "", re.I)
    if not match:
        return None
    digit = match.group(2)
    return "DDR" if digit in (None, "1") else f"DDR{digit}"


def dimm_kind(form_factor: str | None, registered: bool | None) -> str | None:
    """A module's kind: SODIMM, RDIMM or UDIMM."""
    text = (form_factor or "").lower()
    if "so-dimm" in text or "sodimm" in text:
        return "SODIMM"
    if registered is True:
        return "RDIMM"
    if registered is False or "dimm" in text:
        return "UDIMM"
    return None


def strip_vendor(name: str, vendor: str) -> str:
    """The model name without the vendor it starts with (the vendor is its own field)."""
    clean = " ".join(name.split())
    if vendor and clean.lower().startswith(vendor.lower() + " "):
        return clean[len(vendor) + 1:].strip()
    return clean


def yes_no(raw: object) -> bool | None:
    text = str(raw).strip().lower() if raw is not None else ""
    if text in ("true", "yes", "1"):
        return True
    if text in ("false", "no", "0"):
        return False
    return None


def chipset_name(raw: str | None) -> str | None:
    """``"Intel B760"`` -> ``"B760"`` (the curated files name chipsets without the
    vendor); ``"CPU Integrated"`` (a system-on-chip board) -> unknown."""
    text = " ".join((raw or "").split())
    if not text or text.lower().startswith("cpu"):
        return None
    first, _, rest = text.partition(" ")
    return rest if first.upper() in ("INTEL", "AMD") and rest else text


LONG_NAME_CHARS = 70
_NAME_TAIL = re.compile(r",\s|\s[-|\u2013]\s|\swith\s", re.I)


def part_name(name: str, vendor: str) -> str:
    """A retailer-style title -> the part's name: without the vendor it starts with, stray
    leading punctuation, and, past ``LONG_NAME_CHARS``, the marketing tail after the first
    ", " / " - " / " with " ("... Internal Solid State Drive, High-Speed Read/Write ...")."""
    clean = strip_vendor(name, vendor).lstrip(" -|,:;")
    if len(clean) > LONG_NAME_CHARS:
        for match in _NAME_TAIL.finditer(clean):
            if match.start() >= 25:
                return clean[:match.start()].rstrip(" -,")
    return clean


def max_memory_gb(raw: object) -> int | None:
    """Most memory a CPU or board takes, in GB: 0 is unknown; 1-3 were given in TB (the
    dataset has Threadripper PRO 7985WX at "2": 2 TB); beyond 16 TB is absurd."""
    value = in_range(raw, 1, 16384)
    if value is None:
        return None
    if value <= 3:
        value *= 1024
    return round(value)


_CPU_TAIL = re.compile(r"\s+\d+(?:\.\d+)?\s*GHz\s+\d+-Core\b.*$", re.I)
_CPU_PACKAGING = re.compile(r"\s*\(?\bOEM\s*/\s*Tray\b\)?", re.I)


def cpu_name(name: str) -> str:
    """``"Xeon E5 2660 2.2 GHz 8-Core LGA2011 OEM/Tray"`` -> ``"Xeon E5 2660"``: the clock,
    core count and socket are fields of their own, and boxed and tray parts are one CPU."""
    clean = _CPU_PACKAGING.sub("", _CPU_TAIL.sub("", name))
    return cpu_model_name(" ".join(clean.split()))


_TRADEMARK = re.compile(r"\s*(?:[\u2122\u00ae]|\((?:TM|R)\))", re.I)
_THREADRIPPER_WX = re.compile(r"\bThreadripper\s+(?!PRO\b)([3-9]\d{3}WX)\b", re.I)


def cpu_model_name(name: str) -> str:
    """The name AMD sells the CPU under, so one CPU gets one id: without trademark signs
    (``"Ryzen\u2122 5 7500F"`` -> ``"Ryzen 5 7500F"``), and a Threadripper whose number ends
    in WX from the 3000 generation on is a Threadripper PRO (``"Threadripper 9985WX"`` ->
    ``"Threadripper PRO 9985WX"``; the 2990WX and 2970WX were not PRO parts)."""
    clean = " ".join(_TRADEMARK.sub("", name).split())
    return _THREADRIPPER_WX.sub(r"Threadripper PRO \1", clean)
