"""Bounds on what a build may hold and what a file may carry, each with the reason for it.

Everything that comes from outside (a build file, the command line, the planner's quantity
editor, a custom part) is held to these at the edge, so the checks, the fit and the build
sheet do work that grows with the distinct parts entered and stays bounded in size. A value
beyond one of them is refused with the limit named, never clamped in silence.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

INTEGRATED_FORM = "integrated"
"""The GPU built into a complete system's chip (Apple M-series Max/Ultra, NVIDIA GB10, AMD
Ryzen AI Max): it comes with the system, which powers and cools it."""

SERVER_MODULE_FORMS: frozenset[str] = frozenset(
    {"sxm", "sxm2", "sxm3", "sxm4", "sxm5", "oam", INTEGRATED_FORM})
"""Accelerator form factors that are not PCIe cards: modules on a server baseboard, or a
complete system's integrated GPU (powered and cooled by the platform either way)."""

# --- quantities in one build (one machine, or one rented fleet) --------------------------

MAX_CPUS = 2
"""Dual-socket boards are the most the catalog holds (and the checks count per socket)."""

MAX_PSUS = 4
"""A 4U GPU server's 2+2 redundant modules; no desktop or server takes more."""

MAX_COOLERS = 2
"""One per CPU."""

MAX_PCIE_CARDS = 20
"""PCIe accelerator cards in one machine: the largest PCIe GPU servers take 10
double-width or 20 single-width cards."""

MAX_SERVER_MODULES = 72
"""SXM/OAM modules: a GB200 NVL72 rack (72 GPUs in one NVLink domain) is the largest
system sold as one machine."""

MAX_MEMORY_KITS = 48
"""Memory kits (each at least one DIMM): 2 sockets x 12 channels x 2 DIMMs per channel."""

MAX_DRIVES = 90
"""A 4U top-loading storage server's 90 bays."""

MAX_CLOUD_UNITS = 10_000
"""Rented instances or chips: more than the largest TPU pod (8,960 v5p chips), so a
cluster fits and a typo of 10**30 does not; at 8 GPUs an instance, a workload fit then
weighs at most 80,000 GPUs."""

MAX_FIT_GPUS = 16_384
"""GPUs a workload fit of a build weighs: the fit judges each GPU on its own, so this
keeps it near a second; a larger cluster is fitted a part at a time."""

MAX_DISTINCT_PARTS = 1_000
"""Distinct parts in one build file: a real build has under 30; a bound keeps loading,
checking and printing short."""

# --- file and field sizes ------------------------------------------------------------------

MAX_BUILD_FILE_BYTES = 16 * 1024 * 1024
"""A build file of 1,000 custom parts with every figure is under 2 MB; 16 MB is generous
and keeps ``/dev/zero`` or a mistaken disk image from filling memory."""

MAX_PRICE_LIST_BYTES = 32 * 1024 * 1024
"""A price list or quote: a 100,000-row vendor list is about 10 MB as CSV."""

MAX_PRICE_LIST_ROWS = 200_000
"""Rows of one price list: twice a distributor's whole catalogue; a million rows is a
mistaken file, refused before it freezes a preview."""

MAX_MODEL_CONFIG_BYTES = 4 * 1024 * 1024
"""A model's ``config.json``: the largest real ones (multimodal, with every layer type
listed) are under 100 KB; only its fields are read."""

MAX_MODEL_INDEX_BYTES = 64 * 1024 * 1024
"""``model.safetensors.index.json``: one line per tensor, a few MB for the largest models."""

MAX_ID_CHARS = 200
"""Part ids are ``category/vendor-model`` slugs, under 100 characters in the catalog."""

MAX_NAME_CHARS = 200
"""Names and vendors of parts and builds: the longest catalog name is under 80."""

MAX_TEXT_CHARS = 2_000
"""Any other text of a part (a source address, a note, a text figure)."""

MAX_NOTES_CHARS = 20_000
"""A build's notes: about eight printed pages on the build sheet."""

MAX_NOTES_LINES = 500
"""Lines of a build's notes: about seven printed pages even when every line is short."""

MAX_FIGURE = 1e9
"""Largest figure a custom part may carry: above every real one (watts, GB, TFLOPS,
dollars) by orders of magnitude, and far from float overflow when multiplied by a
quantity."""

MAX_INT_DIGITS = 24
"""Digits of a whole number in a build file (10**24 is beyond every limit above), well
under Python's 4,300-digit conversion limit."""

MAX_SEARCH_RESULTS = 100_000
"""``dlhw find --limit``: more rows than any catalog holds."""


@dataclass(frozen=True, slots=True)
class QuantityLimit:
    """How many parts of one kind a build takes, and what they are called."""

    most: int
    singular: str
    plural: str

    def describe(self, count: int) -> str:
        return f"{count:,} {self.singular if count == 1 else self.plural}"

    def message(self, asked: int | str) -> str:
        asked_text = f"{asked:,}" if isinstance(asked, int) else asked
        return (f"a build holds at most {self.describe(self.most)}; "
                f"{asked_text} asked")


def plural(count: float | int, singular: str, plural_form: str | None = None) -> str:
    """``1 card``, ``2 cards``, ``1,000 cards``: a count with its noun, never "card(s)"."""
    word = singular if count == 1 else (plural_form or singular + "s")
    whole = isinstance(count, int) or float(count).is_integer()
    return f"{int(count):,} {word}" if whole else f"{count:,g} {word}"


def finite_number(value: object) -> bool:
    """A real number (not a bool), neither NaN nor infinite."""
    return (isinstance(value, int | float) and not isinstance(value, bool)
            and math.isfinite(value))


def valid_text(text: str) -> bool:
    """Text that can be written as UTF-8 (no lone surrogates such as ``"\\ud800"``)."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def bounded_notes(text: str) -> str:
    """``text`` cut to what a build's notes may hold (characters, then lines)."""
    text = text[:MAX_NOTES_CHARS]
    lines = text.split("\n")
    return "\n".join(lines[:MAX_NOTES_LINES]) if len(lines) > MAX_NOTES_LINES else text
