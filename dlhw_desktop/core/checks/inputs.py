"""The figures the build checks read, per category: declared once.

The coverage report (``dlhw catalog info --coverage``) counts, per category, the parts that
have every input the checks read; ``tests/core/test_check_inputs.py`` ties this declaration
to the checks both ways: every figure a check reads on a complete build is declared here
(as an input, or as optional with the reason), and blanking any declared input makes the
checks it names say "unknown" with the figure's human label and the part's name.
"""

from __future__ import annotations

from dataclasses import dataclass

from dlhw_desktop.core.fields import FIELDS_BY_NAME, Category
from dlhw_desktop.core.limits import INTEGRATED_FORM, SERVER_MODULE_FORMS
from dlhw_desktop.core.parts import Part

NOT_IN_A_SLOT: frozenset[str] = SERVER_MODULE_FORMS | {"cloud"}
"""Accelerator forms that never sit in a PCIe slot: a server's baseboard holds them, or
they are rented. Slot, length, cable and airflow figures do not apply to them."""


@dataclass(frozen=True, slots=True)
class CheckInput:
    """One figure the checks read on parts of one category.

    ``checks``: the ids of the results that say "unknown" naming it when it is missing.
    ``unless``: (field, values) — the input does not apply to a part whose ``field`` is one
    of ``values`` (lower-cased; a yes/no figure reads "1"), e.g. a card's length to an SXM
    module.
    """

    field: str
    checks: tuple[str, ...]
    unless: tuple[str, frozenset[str]] | None = None
    or_else: tuple[str, ...] = ()
    """Fields that together stand in for this one when it is missing (a kit's capacity is
    its module count x module size)."""

    @property
    def label(self) -> str:
        return FIELDS_BY_NAME[self.field].label


def _card(name: str, *checks: str) -> CheckInput:
    return CheckInput(name, checks, ("form_factor", NOT_IN_A_SLOT))


def _supplied(name: str, *checks: str) -> CheckInput:
    """A platform's supply figure: not read on a system whose GPU is built into its chip."""
    return CheckInput(name, checks, ("gpu_form_factor", frozenset({INTEGRATED_FORM})))


def _barebone(name: str, *checks: str) -> CheckInput:
    return CheckInput(name, checks, ("complete_system", frozenset({"1"})))


CHECK_INPUTS: dict[Category, tuple[CheckInput, ...]] = {
    Category.ACCELERATOR: (
        CheckInput("form_factor", ("compat.baseboard",)),
        CheckInput("memory_gb", ("memory.ram_vs_vram", "tier.gpu")),
        CheckInput("tdp_w", ("power.psu_load",)),
        _card("slot_width", "compat.x16_slots", "compat.case_slots"),
        _card("board_length_mm", "compat.gpu_length"),
        _card("cooling", "cooling.card_spacing"),
    ),
    Category.CPU: (
        CheckInput("socket", ("compat.socket",)),  # the cooler mounts on the board's
        CheckInput("tdp_w", ("power.psu_load", "cooling.cpu")),
        CheckInput("cores", ("tier.cpu",)),
        CheckInput("threads", ("tier.cpu",)),
        CheckInput("memory_type", ("memory.type",)),
        CheckInput("memory_channels", ("memory.channels",)),
        CheckInput("max_memory_gb", ("memory.capacity",)),
        CheckInput("pcie_lanes", ("compat.pcie_lanes",)),
        CheckInput("max_sockets", ("compat.cpu_sockets",)),
    ),
    Category.MOTHERBOARD: (
        CheckInput("socket", ("compat.socket",)),
        CheckInput("cpu_sockets", ("compat.cpu_sockets",)),
        CheckInput("memory_type", ("memory.type",)),
        CheckInput("memory_slots", ("memory.slots",)),
        CheckInput("max_memory_gb", ("memory.capacity",)),
        CheckInput("pcie_x16_slots", ("compat.x16_slots",)),
        CheckInput("board_form_factor", ("compat.board_size",)),
    ),
    Category.MEMORY: (
        CheckInput("memory_type", ("memory.type",)),
        CheckInput("modules", ("memory.slots", "memory.channels")),
        CheckInput("capacity_gb", ("memory.capacity", "memory.ram_vs_vram", "tier.ram"),
                   or_else=("modules", "module_size_gb")),
        CheckInput("registered", ("memory.registered",)),
    ),
    Category.STORAGE: (
        CheckInput("storage_kind", ("tier.storage_primary",)),
        CheckInput("capacity_gb", ("tier.storage_primary",)),
    ),
    Category.PSU: (
        CheckInput("wattage_w", ("power.psu_load", "tier.psu")),
        CheckInput("efficiency_rating", ("tier.psu",)),
        # Without them, the counts of units of the same wattage class are read
        # (``checks.psu_connector_model``): only without a wattage is the check unknown.
        CheckInput("connectors_12vhpwr", ("power.connectors",), or_else=("wattage_w",)),
        CheckInput("connectors_pcie_8pin", ("power.connectors",), or_else=("wattage_w",)),
    ),
    Category.COOLER: (
        CheckInput("supported_sockets", ("compat.cooler_socket",)),
        # A liquid cooler's pump block is low: the case clearance is an air cooler's check;
        # an AIO's radiator is checked against the case's radiator mounts instead.
        CheckInput("height_mm", ("compat.cooler_height",),
                   ("cooler_kind", frozenset({"aio", "custom-loop"}))),
        CheckInput("radiator_mm", ("compat.radiator",),
                   ("cooler_kind", frozenset({"air", "custom-loop", ""}))),
        CheckInput("cooler_kind", ("tier.cooling",)),
    ),
    Category.CASE: (
        CheckInput("max_gpu_length_mm", ("compat.gpu_length",)),
        # Without it, a tower's clearance is estimated from towers taking the same boards
        # (``checks.case_clearance_model``): only without those is the fit unknown.
        CheckInput("max_cooler_height_mm", ("compat.cooler_height",),
                   or_else=("supported_board_form_factors",)),
        CheckInput("expansion_slots", ("compat.case_slots",)),
        CheckInput("supported_board_form_factors", ("compat.board_size",)),
        CheckInput("case_kind", ("cooling.passive",)),
    ),
    Category.SERVER: (
        CheckInput("gpu_form_factor", ("compat.server_modules",)),
        CheckInput("gpu_count", ("compat.server_modules",)),
        _supplied("psu_count", "power.server_supplies"),
        _supplied("psu_unit_w", "power.server_supplies"),
        _supplied("psu_redundancy", "power.server_supplies"),
        # A barebone is also the board its CPUs and memory are checked against.
        _barebone("socket", "compat.socket"),
        _barebone("cpu_sockets", "compat.cpu_sockets"),
        _barebone("memory_type", "memory.type"),
        _barebone("memory_slots", "memory.slots"),
        _barebone("max_memory_gb", "memory.capacity"),
    ),
    Category.CLOUD: (),  # a cloud offer is never checked as part of a machine
}

OPTIONAL_INPUTS: dict[Category, dict[str, str]] = {
    Category.ACCELERATOR: {
        "power_connectors": "when not listed, the fewest cables the board power needs are "
                            "counted (75 W slot, 150 W per 8-pin, 600 W per 16-pin), said so",
        "board_gpus": "set only on a multi-GPU board (A16: 4): memory and throughput count "
                      "once per GPU; unset is one GPU",
    },
    Category.CPU: {
        "sustained_power_w": "without it the CPU is judged at its base power (TDP), said so",
    },
    Category.MOTHERBOARD: {
        "x16_slot_spacing": "read only when two or more cards share the board's x16 slots; "
                            "without it cards that fit whatever the spacing pass, a board "
                            "with an x16 slot at every position is read as 1 (derived), two "
                            "cards on an ATX board are judged against the ATX boards whose "
                            "layout is published (slot_spacing_model), else unknown",
        "pcie_x4_x8_slots": "read only when there are more cards than x16 slots: slots the "
                            "open data lists as x4/x8 may be full-length, so that is a "
                            "warning, not a failure",
    },
    Category.MEMORY: {
        "module_size_gb": "the kit's capacity is modules x module size when no capacity "
                          "is given",
    },
    Category.STORAGE: {
        "power_w": "without it a drive counts at its kind's stated allowance (8 W NVMe)",
    },
    Category.PSU: {
        "redundant": "only server modules are marked; an unmarked unit is an ATX unit",
        "atx_version": "an unknown version is judged as ATX 2.x for GPU transients, said so",
    },
    Category.COOLER: {
        "measured_capacity_w": "a review's measurement; without one the maker's rating, "
                               "else an estimate from the height or radiator, is used",
        "measured_capacity_at_least_w": "a review's lower bound; read like a measurement",
        "cooling_capacity_w": "the maker's rating: used when nothing was measured, and shown "
                              "beside a measurement",
    },
    Category.CASE: {
        "max_radiator_mm": "read only when the build's cooler is an AIO; without it a "
                           "tower is judged against towers with a similar graphics "
                           "clearance whose figure is published (radiator_model), else "
                           "the radiator check says unknown",
        "heat_capacity_w": "most cases publish no heat figure: judged only when known",
        "fans_included": "the airflow check assumes a typical tower's three 140 mm fans "
                         "without it, said so, and offers to enter it",
        "case_fan_mm": "120 mm assumed when the fan count is known and the size is not",
        "psu_bays": "an unknown tower is taken to hold one ATX supply (a few hold two), "
                    "said so",
    },
    Category.SERVER: {
        "max_power_w": "without it the load is the parts' own sustained draw, said so",
        "gpu_link_gb_s": "shown beside the module check, never judged",
        "baseboard": "named in messages only",
        "supported_gpus": "without it any module of the right form is taken",
        "complete_system": "unmarked: a barebone that still needs CPUs and memory",
    },
    Category.CLOUD: {},
}
"""Figures the checks read when present but do not need, with what happens without them."""


def inputs_for(category: Category) -> tuple[CheckInput, ...]:
    return CHECK_INPUTS[category]


def applies_to(spec: CheckInput, part: Part) -> bool:
    """Whether the input applies to this part (see ``CheckInput.unless``)."""
    if spec.unless is None:
        return True
    name, values = spec.unless
    value = part.get(name)
    if isinstance(value, float) and value.is_integer():
        value = int(value)  # a count read back as 1.0 is the count 1
    if value is None:
        text = ""
    elif isinstance(value, bool):
        text = "1" if value else "0"
    else:
        text = str(value).lower()
    return text not in values
