"""Which parts of a category fit the build so far: the part picker's compatibility rules.

Pure logic (no Qt, no SQL; the rule types live in ``compat_rules``). For a build and a
category, ``compat_filter`` returns rules of two kinds, each of which the catalog turns
into a WHERE clause and the picker uses to say, for one row, why it is hidden or marked:

- ``ValueRule``: a judgement on a few text fields of the candidate (socket, memory type,
  form factor, connectors, ...). The catalog asks it once per distinct value of those
  fields and filters the rejected values out in SQL, so the filter and the hover text can
  never disagree.
- ``LimitRule``: a number of the candidate against a limit of the build (a card's length
  against the case's clearance), compared in SQL.

Unknown never hides a part: a figure missing on either side leaves the part visible and
marked "not checked: <figure> unknown" (``MarkRule`` when the build's side is missing).
The rules follow the checks' vocabulary (``checks._util``, ``checks.power``) so a part the
picker offers does not then fail the same check once added.
"""

from __future__ import annotations

import math
from typing import Any, Literal

from dlhw_desktop.core.build.build import Build, Slot
from dlhw_desktop.core.compat.connectors import Connectors, parse_power_connectors
from dlhw_desktop.core.compat.psu_power import psu_load_rule
from dlhw_desktop.core.compat.rules import (
    FIT_FIELDS,
    FITS,
    OK,
    CompatFilter,
    LimitRule,
    MarkRule,
    PartFit,
    Rule,
    ValueRule,
    Values,
    Verdict,
    is_active,
)
from dlhw_desktop.core.compat.rules import no as _no
from dlhw_desktop.core.compat.rules import unknown as _unknown
from dlhw_desktop.core.compat.vocabulary import (
    RDIMM_SOCKETS,
    UDIMM_SOCKETS,
    form_list,
    memory_types,
    norm_form,
    norm_socket,
    socket_list,
)
from dlhw_desktop.core.fields import Category, field_label
from dlhw_desktop.core.limits import INTEGRATED_FORM, SERVER_MODULE_FORMS
from dlhw_desktop.core.parts import Part

CONSUMER_SOCKETS: frozenset[str] = frozenset({"AM4", "AM5", "LGA1700", "LGA1851", "LGA1200"})
"""Consumer sockets (normalised): their platforms take unbuffered DIMMs only."""

SLOT_W = 75.0  # a PCIe slot's own power
PCIE_8PIN_W = 150.0
MIN_ADAPTER_8PINS = 2


# --- the rules -------------------------------------------------------------------------


def _of(label: str, part: Part) -> str:
    return f"{label} of {part.display_name}"


def _text(value: Any) -> str:
    return "" if value is None else str(value).strip()


def _platforms(build: Build) -> list[Part]:
    """The parts whose socket and memory a CPU, board or kit must match."""
    board = build.motherboard or build.server
    return [p for p in (build.cpu, board) if p is not None]


def _socket_rule(other: Part) -> Rule:
    """A CPU against the board's socket, or a board against the CPU's."""
    theirs = other.text("socket")
    if not theirs:
        return MarkRule("socket", f"not checked: {_of('socket', other)} unknown")
    want = norm_socket(theirs)

    def judge(values: Values) -> Verdict:
        mine = _text(values.get("socket"))
        if not mine:
            return _unknown("socket")
        if norm_socket(mine) == want:
            return OK
        return _no(f"socket {mine}, but {other.display_name} is {theirs}")

    return ValueRule("socket", ("socket",), judge)


def _cooler_mount_rule(cooler: Part) -> Rule:
    """A CPU or board's socket against the build's cooler's mounting kits."""
    listed = cooler.text("supported_sockets")
    supported = socket_list(listed)
    if not supported:
        return MarkRule("cooler_socket", f"not checked: {_of('sockets', cooler)} unknown")

    def judge(values: Values) -> Verdict:
        mine = _text(values.get("socket"))
        if not mine:
            return _unknown("socket")
        if norm_socket(mine) in supported:
            return OK
        return _no(f"{cooler.display_name} does not mount on {mine} (it supports {listed})")

    return ValueRule("cooler_socket", ("socket",), judge)


def _cooler_sockets_rule(build: Build) -> Rule | None:
    """A cooler candidate's sockets against the platform's (the CPU's, else the board's)."""
    platform = next((p for p in _platforms(build) if p.text("socket")), None)
    if platform is None:
        first = next(iter(_platforms(build)), None)
        return None if first is None else MarkRule(
            "cooler_socket", f"not checked: {_of('socket', first)} unknown")
    socket = platform.text("socket")
    want = norm_socket(socket)

    def judge(values: Values) -> Verdict:
        supported = socket_list(_text(values.get("supported_sockets")))
        if not supported:
            return _unknown("supported sockets")
        return OK if want in supported else _no(
            f"no mounting kit for {socket} ({platform.display_name})")

    return ValueRule("cooler_socket", ("supported_sockets",), judge)


def _memory_type_rule(against: list[Part], field: str = "memory_type") -> Rule | None:
    """The candidate's memory types must meet every part in ``against`` (kits or
    platforms)."""
    if not against:
        return None
    unknown = [p for p in against if not memory_types(p.text("memory_type"))]
    if unknown:
        return MarkRule("memory_type",
                        f"not checked: {_of('memory type', unknown[0])} unknown")
    wanted = [(p, memory_types(p.text("memory_type"))) for p in against]

    def judge(values: Values) -> Verdict:
        mine = memory_types(_text(values.get(field)))
        if not mine:
            return _unknown("memory type")
        for part, types in wanted:
            if not mine & types:
                return _no(f"{'/'.join(sorted(mine))}, but {part.display_name} takes "
                           f"{part.text('memory_type')}")
        return OK

    return ValueRule("memory_type", (field,), judge)


def dimm_kinds(text: str | None) -> set[str]:
    """``"UDIMM;RDIMM"`` -> ``{"UDIMM", "RDIMM"}``."""
    return {t.strip().upper() for t in (text or "").replace(",", ";").split(";") if t.strip()}


def takes_registered(dimm_text: str | None, socket: str | None) -> set[bool] | None:
    """The module kinds a platform takes: ``{True}`` registered only, ``{False}``
    unbuffered only, ``{True, False}`` both; ``None`` unknown. ``dimm_kinds`` when given,
    else the socket's class as the memory check knows it."""
    kinds = dimm_kinds(dimm_text)
    if kinds:
        accepted: set[bool] = set()
        if kinds & {"RDIMM", "LRDIMM"}:
            accepted.add(True)
        if kinds & {"UDIMM", "SODIMM"}:
            accepted.add(False)
        return accepted or None
    key = norm_socket(socket)
    if key in CONSUMER_SOCKETS or key in UDIMM_SOCKETS:
        return {False}
    if key in RDIMM_SOCKETS:
        return {True}
    return None


def _kind_name(registered: bool) -> str:
    return "registered (RDIMM)" if registered else "unbuffered (UDIMM)"


def _registered_rule_for_kits(build: Build) -> Rule | None:
    """A memory kit candidate's ``registered`` against the platforms' DIMM kinds."""
    platforms = _platforms(build)
    if not platforms:
        return None
    accepted: set[bool] = {True, False}
    unknown: Part | None = None
    for part in platforms:
        takes = takes_registered(part.text("dimm_kinds"), part.text("socket"))
        if takes is None:
            unknown = unknown or part
            continue
        accepted &= takes
    if unknown is not None and accepted == {True, False}:
        return MarkRule("registered", f"not checked: {_of('memory modules', unknown)} unknown")
    who = platforms[-1].display_name if len(platforms) == 1 else " and ".join(
        p.display_name for p in platforms)

    def judge(values: Values) -> Verdict:
        value = values.get("registered")
        if value is None:
            return _unknown(field_label("registered"))
        if bool(value) in accepted:
            return OK
        if not accepted:
            return _no(f"{who} take no common module kind")
        return _no(f"{_kind_name(bool(value))}, but {who} "
                   f"take{'s' if len(platforms) == 1 else ''} "
                   f"{_kind_name(not bool(value))} memory only")

    return ValueRule("registered", ("registered",), judge)


def _registered_rule_for_platforms(build: Build) -> Rule | None:
    """A CPU or board candidate's DIMM kinds (or socket) against the kits chosen."""
    kits = [i.part for i in build.memory]
    if not kits:
        return None
    flags = {bool(k.get("registered")) for k in kits if k.get("registered") is not None}
    if not flags:
        return MarkRule("registered", f"not checked: {_of('registered', kits[0])} unknown")

    def judge(values: Values) -> Verdict:
        takes = takes_registered(_text(values.get("dimm_kinds")), _text(values.get("socket")))
        if takes is None:
            return _unknown("memory modules")
        wrong = [f for f in flags if f not in takes]
        if not wrong:
            return OK
        return _no(f"takes {' and '.join(_kind_name(t) for t in sorted(takes)) or 'neither'}"
                   f" memory; the build's kits are {_kind_name(wrong[0])}")

    return ValueRule("registered", ("dimm_kinds", "socket"), judge)


def _board_size_rule(case: Part) -> Rule:
    takes = case.text("supported_board_form_factors")
    accepted = form_list(takes)
    if not accepted:
        return MarkRule("board_size", f"not checked: {_of('boards', case)} unknown")

    def judge(values: Values) -> Verdict:
        size = _text(values.get("board_form_factor"))
        if not size:
            return _unknown("form factor")
        return OK if norm_form(size) in accepted else _no(
            f"{size}, but {case.display_name} takes {takes}")

    return ValueRule("board_size", ("board_form_factor",), judge)


def _case_takes_board_rule(board: Part) -> Rule:
    size = board.text("board_form_factor")
    if not size:
        return MarkRule("board_size", f"not checked: {_of('form factor', board)} unknown")
    want = norm_form(size)

    def judge(values: Values) -> Verdict:
        takes = form_list(_text(values.get("supported_board_form_factors")))
        if not takes:
            return _unknown("supported boards")
        return OK if want in takes else _no(f"does not take {size} boards "
                                            f"({board.display_name})")

    return ValueRule("board_size", ("supported_board_form_factors",), judge)


def _cards(build: Build) -> list[Part]:
    if build.server is not None:
        return []
    return [i.part for i in build.accelerators
            if i.part.text("form_factor").lower() not in SERVER_MODULE_FORMS
            for _ in range(i.quantity)]


def _card_length_rules(build: Build) -> list[Rule]:
    """A case candidate's GPU clearance against the longest card."""
    cards = _cards(build)
    if not cards:
        return []
    rules: list[Rule] = []
    unknown = [c for c in cards if c.number("board_length_mm") is None]
    if unknown:
        rules.append(MarkRule("gpu_length", f"not checked: {_of('length', unknown[0])} unknown"))
    known = [c for c in cards if c.number("board_length_mm") is not None]
    if known:
        longest = max(known, key=lambda c: c.number("board_length_mm") or 0)
        length = longest.number("board_length_mm") or 0
        rules.append(LimitRule("gpu_length", "max_gpu_length_mm", "ge", length,
                               f"takes cards up to less than {length:.0f} mm "
                               f"({longest.display_name})"))
    return rules


def _limit_against(part: Part, field: str, key: str, cand_field: str, op: Literal["le", "ge"],
                   why: str) -> Rule:
    limit = part.number(field)
    if limit is None:
        return MarkRule(key, f"not checked: {_of(field_label(field), part)} unknown")
    return LimitRule(key, cand_field, op, limit, why.format(limit=limit, name=part.display_name))


# --- power connectors ---------------------------------------------------------------


def adapter_8pins(tdp_w: float | None) -> int:
    """PCIe 8-pins a 16-pin card needs through an adapter (as ``checks.power`` counts)."""
    if tdp_w is None:
        return 4
    return max(MIN_ADAPTER_8PINS, min(4, math.ceil((tdp_w - SLOT_W) / PCIE_8PIN_W)))


def connectors_fit(need: Connectors, adapter_costs: list[int], have_h: float | None,
                   have_8: float | None) -> Verdict:
    """Whether a PSU's cables feed the cards (``check_connectors``' rule: a missing 16-pin
    may be fed from spare 8-pins through the card's adapter)."""
    if need.hpwr and have_h is None:
        return _unknown(field_label("connectors_12vhpwr") + " count")
    short = max(0, need.hpwr - int(have_h or 0))
    if (need.pcie8 or need.eps or short) and have_8 is None:
        return _unknown(field_label("connectors_pcie_8pin") + " count")
    spare = int(have_8 or 0) - need.pcie8
    if spare < 0:
        return _no(f"{int(have_8 or 0)}x PCIe 8-pin; the cards need {need.describe()}")
    adapters = sum(sorted(adapter_costs)[:short])
    if adapters > spare:
        return _no(f"{int(have_h or 0)}x 16-pin and {int(have_8 or 0)}x PCIe 8-pin; the "
                   f"cards need {need.describe()}")
    return OK


def _card_needs(cards: list[Part]) -> tuple[Connectors, list[int], Part | None]:
    """The cards' cables, each 16-pin's adapter cost, and the first unreadable card."""
    need = Connectors()
    costs: list[int] = []
    for card in cards:
        cables = parse_power_connectors(card.text("power_connectors") or None)
        if cables is None:
            return need, costs, card
        need += cables
        costs += [adapter_8pins(card.number("tdp_w"))] * cables.hpwr
    return need, costs, None


def _psu_rule(build: Build) -> Rule | None:
    cards = _cards(build)
    if not cards:
        return None
    need, costs, unreadable = _card_needs(cards)
    if unreadable is not None:
        return MarkRule("connectors",
                        f"not checked: {_of('power connectors', unreadable)} unknown")
    if need == Connectors():
        return None
    count = max(1, build.count(Slot.PSU))

    def judge(values: Values) -> Verdict:
        h, eight = values.get("connectors_12vhpwr"), values.get("connectors_pcie_8pin")
        return connectors_fit(need, costs, None if h is None else float(h) * count,
                              None if eight is None else float(eight) * count)

    return ValueRule("connectors", ("connectors_12vhpwr", "connectors_pcie_8pin"), judge)


def _card_power_rule(build: Build) -> Rule | None:
    """A card candidate's cables, added to the cards chosen, against the build's PSU."""
    psu = build.psu
    if psu is None:
        return None
    cards = _cards(build)
    need, costs, unreadable = _card_needs(cards)
    if unreadable is not None:
        return None  # the PSU check says so; the candidate's own cables are judged alone
    count = max(1, build.count(Slot.PSU))
    h, eight = psu.number("connectors_12vhpwr"), psu.number("connectors_pcie_8pin")
    h = None if h is None else h * count
    eight = None if eight is None else eight * count

    def judge(values: Values) -> Verdict:
        cables = parse_power_connectors(_text(values.get("power_connectors")) or None)
        if cables is None:
            return _unknown("power connectors")
        if cables == Connectors():
            return OK
        # the cheapest adapter (2x 8-pin): a card is hidden only when it cannot fit
        extra = [MIN_ADAPTER_8PINS] * cables.hpwr
        verdict = connectors_fit(need + cables, costs + extra, h, eight)
        if verdict.status == "unknown":
            return Verdict("unknown", verdict.reason.replace(
                "not checked: ", f"not checked: {psu.display_name}'s "))
        if verdict.status == "incompatible":
            return _no(f"{psu.display_name} has too few cables for it: {verdict.reason}")
        return OK

    return ValueRule("connectors", ("power_connectors",), judge)


def _module_rule(build: Build) -> Rule | None:
    """SXM / OAM modules need a server baseboard: not offered for a desktop build. A
    cloud-only accelerator (TPU, Trainium) is rented, never fitted to any machine."""
    if not (build.server or build.motherboard or build.case):
        return None
    desktop = build.server is None

    def judge(values: Values) -> Verdict:
        form = _text(values.get("form_factor")).lower()
        if form == "cloud":
            return _no("sold only as a cloud instance: rent it, it cannot be fitted")
        if desktop and form == INTEGRATED_FORM:
            return _no("the GPU built into a complete system: choose the system instead")
        if desktop and form in SERVER_MODULE_FORMS:
            return _no(f"an {form.upper()} module mounts on a server baseboard, not in a "
                       "PCIe slot")
        return OK

    return ValueRule("module", ("form_factor",), judge)


# --- per category ---------------------------------------------------------------------


def compat_filter(build: Build, category: Category,
                  load: tuple[float | None, float] | None = None) -> CompatFilter:
    """The rules a part of ``category`` must meet to fit ``build`` as it is now.

    A part that would replace one in the build (another board when a board is chosen) is
    judged against the rest of the build, not against the part it replaces. ``load``:
    the build's sustained DC load and its cards' share (``checks.summarize`` computes
    them; the picker passes them in), so a power supply that cannot carry the build, or
    its cards' spikes, is not offered."""
    rules: list[Rule | None] = []
    kits = [i.part for i in build.memory]
    board = build.motherboard or build.server
    if category is Category.CPU:
        if board is not None:
            rules.append(_socket_rule(board))
        if build.cooler is not None:
            rules.append(_cooler_mount_rule(build.cooler))
        rules.append(_memory_type_rule(kits))
        rules.append(_registered_rule_for_platforms(build))
    elif category in (Category.MOTHERBOARD, Category.SERVER):
        if build.cpu is not None:
            rules.append(_socket_rule(build.cpu))
        if build.cooler is not None and build.cpu is None:
            rules.append(_cooler_mount_rule(build.cooler))
        rules.append(_memory_type_rule(kits))
        rules.append(_registered_rule_for_platforms(build))
        if category is Category.MOTHERBOARD and build.case is not None:
            rules.append(_board_size_rule(build.case))
    elif category is Category.MEMORY:
        rules.append(_memory_type_rule(_platforms(build)))
        rules.append(_registered_rule_for_kits(build))
    elif category is Category.COOLER:
        rules.append(_cooler_sockets_rule(build))
        if build.case is not None:
            rules.append(_limit_against(
                build.case, "max_cooler_height_mm", "cooler_height", "height_mm", "le",
                "taller than {name}'s {limit:.0f} mm cooler clearance"))
    elif category is Category.CASE:
        if build.motherboard is not None:
            rules.append(_case_takes_board_rule(build.motherboard))
        rules.extend(_card_length_rules(build))
        if build.cooler is not None:
            rules.append(_limit_against(
                build.cooler, "height_mm", "cooler_height", "max_cooler_height_mm", "ge",
                "cooler clearance below {name}'s {limit:.0f} mm height"))
    elif category is Category.ACCELERATOR:
        rules.append(_module_rule(build))
        if build.case is not None and build.server is None:
            rules.append(_limit_against(
                build.case, "max_gpu_length_mm", "gpu_length", "board_length_mm", "le",
                "longer than {name}'s {limit:.0f} mm GPU clearance"))
        rules.append(_card_power_rule(build))
    elif category is Category.PSU:
        rules.append(_psu_rule(build))
        rules.append(psu_load_rule(build, load))
    return CompatFilter(category, tuple(r for r in rules if r is not None))


__all__ = ["FITS", "FIT_FIELDS", "CompatFilter", "LimitRule", "MarkRule", "PartFit",
           "ValueRule", "compat_filter", "is_active"]
