"""Small helpers the checks share: number formatting, names, sockets, platforms."""

from __future__ import annotations

import math
import re
from collections.abc import Iterable

from dlhw_desktop.core.fields import FIELDS_BY_NAME
from dlhw_desktop.core.limits import SERVER_MODULE_FORMS, plural
from dlhw_desktop.core.parts import Part

__all__ = ["SERVER_MODULE_FORMS"]

RDIMM_SOCKETS: frozenset[str] = frozenset(
    {"STR5", "SWRX8", "SP3", "SP5", "SP6", "LGA4677", "LGA4189", "LGA3647", "LGA4710",
     "LGA7529", "LGA2011-3"}
)
"""Workstation/server sockets whose memory controllers take registered DIMMs (RDIMMs):
Threadripper 7000 / PRO (sTR5), Threadripper PRO 3000/5000 (sWRX8), EPYC (SP3, SP5, SP6),
Xeon W-3400/2400 and Xeon Scalable 4th/5th gen (LGA4677), 3rd gen (LGA4189), 1st/2nd gen
(LGA3647). AMD and Intel platform pages list RDIMM support for each."""

UDIMM_SOCKETS: frozenset[str] = frozenset(
    {"AM4", "AM5", "LGA1700", "LGA1851", "LGA1200", "LGA1151", "LGA1150", "LGA2066",
     "STRX4", "TR4"}
)
"""Consumer and HEDT sockets that take unbuffered DIMMs only (Ryzen on AM4/AM5, Core on
LGA1151-LGA1851, Core X on LGA2066, Threadripper 1000-3000 non-PRO on TR4/sTRX4)."""


SOCKET_ALIASES = {"STR4": "TR4"}
"""One socket under two names: AMD calls the X399 Threadripper socket both "TR4" and
"sTR4" (boards and CPUs in the catalog use either), unlike sTRX4 and sTR5, which differ."""


def norm_socket(text: str | None) -> str:
    """``"Socket AM5"``, ``"LGA 1700"``, ``"sTR5"`` -> ``"AM5"``, ``"LGA1700"``, ``"STR5"``;
    ``"sTR4"`` -> ``"TR4"`` (the same socket)."""
    if not text:
        return ""
    value = re.sub(r"^\s*(socket|skt)\s*", "", text.strip(), flags=re.I)
    value = re.sub(r"\s+", "", value).upper()
    return SOCKET_ALIASES.get(value, value)


_FORM_ALIASES = {"matx": "microatx", "uatx": "microatx", "mitx": "miniitx", "eeb": "ssieeb",
                 "ceb": "ssiceb"}


def norm_form(text: str) -> str:
    """``"mATX"``, ``"Micro-ATX"`` -> ``"microatx"``: board sizes as the checks compare them."""
    key = "".join(ch for ch in text.lower() if ch.isalnum())
    return _FORM_ALIASES.get(key, key)


def form_list(text: str) -> set[str]:
    """A case's ``supported_board_form_factors`` text -> normalised board sizes."""
    return {norm_form(t) for t in text.replace(";", ",").split(",") if t.strip()}


def socket_list(text: str | None) -> set[str]:
    """A cooler's ``supported_sockets`` text -> normalised socket names."""
    if not text:
        return set()
    tokens = re.split(r"[,;/|]|\s+and\s+", text)
    result = {norm_socket(t) for t in tokens if t.strip()}
    # "LGA115x" covers LGA1150/1151/1155/1156.
    if "LGA115X" in result:
        result |= {"LGA1150", "LGA1151", "LGA1155", "LGA1156"}
    return result


def memory_types(text: str | None) -> set[str]:
    """``"DDR4/DDR5"`` or ``"DDR5-6000"`` -> ``{"DDR4", "DDR5"}`` (``LPDDR``/``GDDR`` ignored)."""
    if not text:
        return set()
    return {m.upper() for m in re.findall(r"(?<![A-Z])DDR\d", text.upper())}


def watts(value: float) -> str:
    return f"{value:,.0f} W"


def pct(fraction: float) -> str:
    return f"{fraction * 100:.0f} %"


def gb(value: float) -> str:
    if value >= 1000 and value % 1000 == 0:
        return f"{value / 1000:g} TB"
    return f"{value:,.0f} GB" if float(value).is_integer() else f"{value:,.1f} GB"


def num(value: float) -> str:
    return f"{value:,.0f}" if float(value).is_integer() else f"{value:,.1f}"


def round_up(value: float, step: float) -> float:
    return math.ceil(value / step) * step


def counted(part: Part, quantity: int) -> str:
    """``"2x NVIDIA GeForce RTX 4090"`` or just the name for one."""
    return f"{quantity}x {part.display_name}" if quantity != 1 else part.display_name


def join(names: Iterable[str]) -> str:
    items = list(dict.fromkeys(names))
    if len(items) <= 2:
        return " and ".join(items)
    return ", ".join(items[:-1]) + " and " + items[-1]


def field_label(name: str) -> str:
    """A field's human label from the vocabulary (``tdp_w`` -> ``TDP``), never its name."""
    spec = FIELDS_BY_NAME.get(name)
    label = spec.label if spec is not None else name.replace("_", " ")
    first = label.split(" ", 1)[0]
    acronym = first.isupper() or any(c.isupper() or c.isdigit() for c in first[1:])
    return label if acronym else label[:1].lower() + label[1:]


def missing(pairs: Iterable[tuple[Part, str]]) -> str:
    """``"missing TDP of NVIDIA RTX 4090, rated output of Corsair RM850x"``: labels from
    the field vocabulary, so no internal name reaches a user."""
    text = ", ".join(dict.fromkeys(f"{field_label(name)} of {part.display_name}"
                                   for part, name in pairs))
    return f"missing {text}"


def count_of(count: float, singular: str, plural_form: str | None = None) -> str:
    """``"1 card"``, ``"3 cards"``: never "card(s)"."""
    return plural(count, singular, plural_form)


def _words(text: str) -> str:
    return " " + re.sub(r"[^a-z0-9]+", " ", text.lower()).strip() + " "


def matches_name(part: Part, names: Iterable[str]) -> str | None:
    """The first of ``names`` the part is (whole words: "Noctua NH-D15" matches
    "Noctua NH-D15 chromax.black" but not "Noctua NH-D15S"), else None."""
    have = _words(part.display_name)
    for name in names:
        want = _words(name)
        if want.strip() and want in have:
            return name
    return None


def unique(parts: Iterable[Part]) -> list[Part]:
    """Parts without repeats, by id, in first-seen order (``Part`` is not hashable)."""
    seen: dict[str, Part] = {}
    for part in parts:
        seen.setdefault(part.id, part)
    return list(seen.values())


_SCHEME = re.compile(r"^\s*(\d+)\s*\+\s*(\d+)\s*$")


def redundancy(server: Part) -> tuple[int, int] | None:
    """``psu_redundancy`` "4+2" -> (4, 2); ``None`` when unknown or unreadable."""
    match = _SCHEME.match(server.text("psu_redundancy"))
    return (int(match.group(1)), int(match.group(2))) if match else None


def carrying_w(server: Part) -> float | None:
    """Output of the supplies that must carry the load with the spares lost (N x rating)."""
    unit = server.number("psu_unit_w")
    scheme = redundancy(server)
    if unit is None or scheme is None:
        return None
    return unit * scheme[0]
