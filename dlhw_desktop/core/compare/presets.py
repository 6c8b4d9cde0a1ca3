"""Named comparisons a buyer starts from (consumer cards, datacenter generations, ...); each
slot lists candidate part ids and the first one the catalog has wins.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from dlhw_desktop.core.compare.comparison import MAX_PARTS


# --- presets ---------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class Preset:
    """A named comparison; each slot lists candidate ids, the first one present wins."""

    name: str
    description: str
    slots: tuple[tuple[str, ...], ...]
    precision: str | None = None


def _a(*names: str) -> tuple[str, ...]:
    return tuple(f"accelerator/{n}" for n in names)


PRESETS: tuple[Preset, ...] = (
    Preset("Seed comparison",
           "A100, TPU v4, an MI200-family card and an FPGA card, as the seed article "
           "compares them",
           (_a("nvidia-a100-pcie-40-gb", "nvidia-a100-sxm4-80-gb"),
            _a("google-tpu-v4"),
            _a("amd-instinct-mi250x", "amd-instinct-mi250", "amd-instinct-mi210"),
            _a("amd-alveo-u250", "amd-versal-vck5000")),
           "BF16"),
    Preset("Consumer vs datacenter",
           "The biggest consumer card against the datacenter parts it is weighed against",
           (_a("nvidia-geforce-rtx-4090"),
            _a("nvidia-a100-pcie-40-gb", "nvidia-a100-sxm4-80-gb"),
            _a("nvidia-h100-sxm5-80-gb", "nvidia-h100-pcie-80-gb")),
           "BF16"),
    Preset("Current flagships",
           "This generation's top training parts from each vendor",
           (_a("nvidia-h200-sxm-141-gb", "nvidia-h200-nvl"), _a("nvidia-b200"),
            _a("amd-instinct-mi300x"), _a("amd-instinct-mi355x"), _a("intel-gaudi-3"),
            _a("google-tpu-v6e-trillium")),
           "BF16"),
    Preset("Workstation cards",
           "Large-memory cards for a desk-side machine",
           (_a("nvidia-rtx-6000-ada-generation"),
            _a("nvidia-rtx-pro-6000-blackwell-workstation-edition"),
            _a("nvidia-rtx-a6000"), _a("amd-radeon-pro-w7900")),
           "FP16"),
    Preset("Consumer GPUs with prices",
           "Cards a home rig is built from, all with a launch price: value per dollar",
           (_a("nvidia-geforce-rtx-3090"), _a("nvidia-geforce-rtx-4070-ti-super"),
            _a("nvidia-geforce-rtx-4080-super"), _a("nvidia-geforce-rtx-4090"),
            _a("nvidia-geforce-rtx-5080"), _a("nvidia-geforce-rtx-5090"),
            _a("amd-radeon-rx-7900-xtx")),
           "FP16"),
    Preset("AMD vs NVIDIA by generation",
           "Each Instinct card beside the NVIDIA part it competed with",
           (_a("nvidia-a100-sxm4-80-gb"), _a("amd-instinct-mi250x"),
            _a("nvidia-h100-sxm5-80-gb"), _a("amd-instinct-mi300x"),
            _a("nvidia-h200-sxm-141-gb"), _a("amd-instinct-mi325x"),
            _a("nvidia-b200"), _a("amd-instinct-mi355x")),
           "BF16"),
    Preset("Inference cards",
           "Low-power datacenter cards for serving models",
           (_a("nvidia-t4"), _a("nvidia-a2"), _a("nvidia-l4"), _a("nvidia-a10"),
            _a("nvidia-l40s")),
           "INT8"),
    Preset("Cloud-only accelerators",
           "TPUs and Trainium, rented by the hour (no purchase price)",
           (_a("google-tpu-v4"), _a("google-tpu-v5e"), _a("google-tpu-v5p"),
            _a("google-tpu-v6e-trillium"), _a("aws-trainium"), _a("aws-trainium2")),
           "BF16"),
)
PRESETS_BY_NAME: dict[str, Preset] = {p.name: p for p in PRESETS}


def resolve_preset(preset: Preset, exists: Callable[[str], bool]) -> list[str]:
    """The preset's ids present in the catalog: per slot, the first candidate that exists."""
    ids: list[str] = []
    for candidates in preset.slots:
        found = next((c for c in candidates if exists(c)), None)
        if found is not None and found not in ids:
            ids.append(found)
    return ids[:MAX_PARTS]
