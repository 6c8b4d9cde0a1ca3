"""Names as keys: "NVIDIA GeForce RTX 4090 24GB (R)" and "rtx 4090" meet on one key.

Trademarks, clock speeds, core counts, generations, memory sizes and vendor words are
taken apart so that a detected device name, a catalog name and a user's typing compare
on what identifies the part.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

_TRADEMARKS = re.compile(r"\((?:r|tm|c)\)|[®™©]", re.IGNORECASE)
_CLOCK = re.compile(r"(?:\bcpu\s*)?@\s*[\d.]+\s*[gm]hz|\b[\d.]+\s*[gm]hz\b", re.IGNORECASE)
_CORES = re.compile(r"\b\d+[- ]cores?\b", re.IGNORECASE)
_GENERATION = re.compile(r"\b\d+(?:st|nd|rd|th)\s+gen(?:eration)?\b", re.IGNORECASE)
_WITH_GRAPHICS = re.compile(r"\s(?:w/|with)\s+radeon\b.*$", re.IGNORECASE)
_MEMORY = re.compile(r"(?<![a-z0-9.])(\d+(?:\.\d+)?)\s*(?:gb|gib)(?![a-z0-9])", re.IGNORECASE)
_PCIE = re.compile(r"\bpci[- ]?(?:e|express)\b", re.IGNORECASE)
_FORM_TOKENS = re.compile(r"^(pcie|sxm\d*|oam)$")
_NOISE = frozenset({
    "nvidia", "amd", "intel", "ati", "advanced", "micro", "devices", "corporation", "corp",
    "inc", "co", "ltd", "graphics", "processor", "cpu", "gpu", "card", "accelerator",
    "generation", "edition", "series", "the", "and", "w", "technologies", "technology",
})
_MEMORY_TYPES = re.compile(r"^(hbm\d*e?|gddr\d+x?|ddr\d+|lpddr\d+x?)$")
# Words a tool adds or drops without changing the product.
_OPTIONAL = frozenset({"geforce", "tesla", "quadro", "radeon", "instinct", "core", "xeon"})
_VENDOR_ALIASES: tuple[tuple[str, str], ...] = (
    ("advanced micro devices", "amd"), ("amd", "amd"), ("ati", "amd"), ("nvidia", "nvidia"),
    ("habana", "intel"), ("intel", "intel"), ("asustek", "asus"), ("asus", "asus"),
    ("micro-star", "msi"), ("msi", "msi"), ("super micro", "supermicro"),
    ("supermicro", "supermicro"), ("gigabyte", "gigabyte"), ("asrock", "asrock"),
)


@dataclass(frozen=True, slots=True)
class NameKey:
    """A name reduced to what tells products apart."""

    models: frozenset[str]         # tokens with a digit: 4090, a100, i7, 14700k, mi300x
    words: frozenset[str]          # other significant words: ti, super, d, nvl, laptop
    memory_gb: float | None = None
    form: str | None = None        # pcie, sxm or oam
    tokens: tuple[str, ...] = ()   # every token, for tie-breaks

    @property
    def usable(self) -> bool:
        """A key with no model number ("Intel Xeon Processor") identifies nothing."""
        return bool(self.models)


def name_key(name: str) -> NameKey:
    """Reduce a product name to its key; the same function serves catalog and machine."""
    text = _TRADEMARKS.sub(" ", name)
    text = _WITH_GRAPHICS.sub(" ", text)
    text = _CLOCK.sub(" ", text)
    text = _CORES.sub(" ", text)
    text = _GENERATION.sub(" ", text)
    text = _PCIE.sub(" pcie ", text)
    memory: float | None = None
    match = _MEMORY.search(text)
    if match:
        memory = float(match.group(1))
        text = text[:match.start()] + " " + text[match.end():]
    tokens = [t for t in re.split(r"[^a-z0-9+]+", text.lower()) if t]
    form: str | None = None
    models: set[str] = set()
    words: set[str] = set()
    for token in tokens:
        if _FORM_TOKENS.match(token):
            form = "sxm" if token.startswith("sxm") else token
        elif token in _NOISE or _MEMORY_TYPES.match(token):
            continue
        elif any(c.isdigit() for c in token):
            models.add(token)
        elif token not in _OPTIONAL:
            words.add(token)
    return NameKey(frozenset(models), frozenset(words), memory, form, tuple(tokens))


def clean_name(name: str) -> str:
    """A readable name: trademarks, clock and core-count suffixes removed."""
    text = _TRADEMARKS.sub(" ", name)
    text = _CLOCK.sub(" ", text)
    text = _CORES.sub(" ", text)
    text = re.sub(r"\s+", " ", text).strip()
    stripped = re.sub(r"\s+(?:CPU|Processor)$", "", text, flags=re.IGNORECASE)
    # Keep "Processor" when nothing else names the model ("Intel Xeon Processor").
    return stripped if any(c.isdigit() for c in stripped) else text


def vendor_key(vendor: str) -> str:
    lowered = vendor.lower()
    for needle, key in _VENDOR_ALIASES:
        if lowered.startswith(needle) or f" {needle}" in f" {lowered}":
            return key
    return lowered.split()[0] if lowered.split() else ""
