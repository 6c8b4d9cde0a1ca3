"""The words parts are matched on: sockets, board sizes, memory types, DIMM kinds.

Both the checks and the picker's rules compare parts through these, so a socket the picker
calls compatible is one the checks pass.
"""

from __future__ import annotations

import re
from functools import lru_cache

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


@lru_cache(maxsize=4096)
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
    return set(_socket_set(text))


@lru_cache(maxsize=4096)
def _socket_set(text: str | None) -> frozenset[str]:
    """``socket_list``, read once per distinct text (the picker judges thousands of
    coolers per change of the build, over a few hundred distinct socket lists)."""
    if not text:
        return set()
    tokens = re.split(r"[,;/|]|\s+and\s+", text)
    result = {norm_socket(t) for t in tokens if t.strip()}
    # "LGA115x" covers LGA1150/1151/1155/1156.
    if "LGA115X" in result:
        result |= {"LGA1150", "LGA1151", "LGA1155", "LGA1156"}
    return frozenset(result)


def memory_types(text: str | None) -> set[str]:
    """``"DDR4/DDR5"`` or ``"DDR5-6000"`` -> ``{"DDR4", "DDR5"}`` (``LPDDR``/``GDDR`` ignored)."""
    if not text:
        return set()
    return {m.upper() for m in re.findall(r"(?<![A-Z])DDR\d", text.upper())}
