"""What each check looks at and how it decides, in words a buyer reads ("What's this?").

Keyed by the check id's prefix (``power.psu_load`` for ``power.psu_load.gpu0``); each
text names the figures used and the thresholds, the same rules the check modules'
docstrings give with their sources.
"""

from __future__ import annotations

EXPLANATIONS: dict[str, str] = {
    "power.psu_load": (
        "The sustained DC load (board powers, CPU TDPs and a platform allowance) against "
        "the power supply's rating. Pass up to 80 %, warn above (no headroom for boost, "
        "ageing or a warm room), fail above 100 %."),
    "power.transients": (
        "GPU power spikes: a card may draw up to 3x its board power for 100 µs (PCIe CEM "
        "5.0). An ATX 3.x supply rides through 200 % of its rating; an ATX 2.x one is "
        "judged with the cards at 2x. Exceeding it warns of shutdowns under load."),
    "power.connectors": (
        "The cards' power cables against the supply's 16-pin (12V-2x6, 600 W) and PCIe "
        "8-pin (150 W) connectors; adapters from 8-pin cables count with a warning."),
    "power.circuit": (
        "The draw at the wall (DC load over the supply's efficiency on its 80 PLUS curve) "
        "against the circuit in the check settings (e.g. 120 V / 15 A: 1,440 W continuous "
        "at 80 %); within 5 % of the limit warns."),
    "power.redundancy": (
        "Redundant server supplies: the load must be carried with the spares lost "
        "(1+1, 2+2, 3+3)."),
    "power.server_supplies": (
        "A GPU server's own power modules with their redundancy scheme (e.g. 4+2): the "
        "maximum system power must be carried by the modules left when the spares fail."),
    "power.server_circuit": (
        "A GPU server's maximum power against its feed: data-centre circuits (208 V or "
        "230 V, single or three phase) and what the check settings name."),
    "cooling.cpu": "The CPU cooler's rated capacity (W) against the CPU's TDP.",
    "cooling.case": ("The heat the case must move (every part's power) against what its "
                     "fans and size are rated for."),
    "cooling.card_spacing": (
        "Open-air cards stacked without a free slot between them choke each other's "
        "intake; blower and liquid cards are fine side by side."),
    "cooling.passive": ("Passive datacenter cards need a server chassis's forced airflow; "
                        "in a desktop case they overheat."),
    "memory.type": "The memory kit's type (DDR4/DDR5) against the board's and the CPU's.",
    "memory.registered": ("Registered (RDIMM) and unbuffered (UDIMM) modules do not mix; "
                          "workstation and server sockets take RDIMMs."),
    "memory.slots": "The modules of every kit against the board's DIMM slots.",
    "memory.channels": ("Bandwidth needs every memory channel filled: modules against the "
                        "CPU's channels (per socket)."),
    "memory.capacity": "The memory against the board's and the CPU's maximum.",
    "memory.ram_vs_vram": ("System memory against the GPUs' memory: loading and pinning a "
                           "model wants at least as much RAM as VRAM."),
    "compat.socket": "The CPU's socket against the board's.",
    "compat.cpu_sockets": "CPUs against the board's sockets (a dual-socket board takes two).",
    "compat.cooler_socket": "The cooler's supported sockets against the CPU's socket.",
    "compat.cooler_height": ("An air cooler's height against the case's clearance (a liquid "
                             "cooler's pump block is low: its radiator is checked instead)."),
    "compat.radiator": "An AIO's radiator against the largest radiator the case mounts.",
    "compat.gpu_length": "Each card's length against the case's GPU clearance.",
    "compat.board_size": "The board's form factor against the sizes the case takes.",
    "compat.x16_slots": ("Cards against the board's x16 slots, counting each card's width in "
                 "slots (a 3-slot card covers its neighbours)."),
    "compat.case_slots": "The cards' total width in slots against the case's expansion slots.",
    "compat.pcie_lanes": ("The lanes the cards and drives want against what the CPU (or two) "
                          "provide; fewer lanes still work, at lower bandwidth."),
    "compat.complete": ("Whether the build has every part a machine needs: a build with a "
                        "part missing cannot be shown to work."),
    "compat.cloud": "Cloud offers and cloud-only chips are rented, not parts of this box.",
    "compat.baseboard": ("SXM and OAM modules sit on a server baseboard: they need a GPU "
                         "server platform, not a desktop board."),
    "compat.server_modules": ("The modules against the server's baseboard: its kind (SXM or "
                              "OAM), the models it takes, and the full count."),
    "compat.server_complete": "What a GPU server platform needs fitted before it runs.",
    "compat.server_parts": "Parts a GPU server platform brings itself, or does not take.",
    "tier": ("Each part against the seed article's minimum and recommended specs for the "
             "chosen workload tier."),
    "workload.memory": ("The chosen model and job against each GPU's memory: weights, "
                        "gradients, optimizer state, activations, KV cache and overhead. "
                        "Pass up to 90 %, warn up to 100 %, fail above."),
    "workload.invalid": "The workload as saved cannot be estimated; the reason is given.",
}


def explain(check_id: str) -> str:
    """The explanation for a check id (its longest known prefix), or "" for none."""
    parts = check_id.split(".")
    for end in range(len(parts), 0, -1):
        text = EXPLANATIONS.get(".".join(parts[:end]))
        if text:
            return text
    return ""
