"""Save and open builds as ``.dlhw.json`` files.

Format (version 1)::

    {"format": "dlhw-build", "version": 1, "name": "...",
     "parts": [{"id": "accelerator/nvidia-geforce-rtx-4090", "quantity": 2,
                "category": "accelerator", "name": "NVIDIA GeForce RTX 4090"}, ...],
     "workload": {"tier": "demanding", ...other workload keys...},
     "notes": "..."}

Parts are stored by id and resolved through the catalog on open (``resolve(id)``), so a
corrected catalog figure reaches old builds. ``category`` and ``name`` are kept only so
a part the catalog no longer has can be shown as a named placeholder. A custom part
(``Part.custom``, ids ``custom/...`` by convention) is resolved the same way (the
resolver looks in the user's own parts) and also carries its figures under ``"custom"``,
so a build file sent to a colleague still opens with the part intact.

Reading is strict about structure (``BuildFileError`` with one line a user can act on)
and lenient about content: unknown keys are ignored, the workload's other keys are kept
as they are, and a part that cannot be resolved becomes a placeholder with a warning.
Writing is atomic: a temporary file in the same folder, fsync, then ``os.replace``.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Mapping
from contextlib import suppress
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from dlhw_desktop.core import limits
from dlhw_desktop.core.build.build import (
    DEFAULT_NAME,
    TIER_NAMES,
    Build,
    QuantityLimitError,
    slot_for,
)
from dlhw_desktop.core.build.file_bounds import (
    check_document_text,
    checked_figure,
    checked_text,
    json_hooks,
)
from dlhw_desktop.core.errors import BuildFileError, UnknownPartError
from dlhw_desktop.core.fields import FIELDS_BY_NAME, Category, detail_fields_for
from dlhw_desktop.core.files.atomic import write_atomic
from dlhw_desktop.core.files.reading import FileReadError, read_bounded
from dlhw_desktop.core.parts import FigureSource, Part, format_value
from dlhw_desktop.core.user_figures import (
    MAX_FIGURES,
    UserFigure,
    UserFigureError,
    apply_figures,
    figures_of,
    from_mapping,
    revalidated,
)
from dlhw_desktop.core.workload.build_workload import BuildWorkload

FORMAT = "dlhw-build"
VERSION = 1
SUFFIX = ".dlhw.json"
CUSTOM_PREFIX = "custom/"
PLACEHOLDER_SOURCE = "(not in the catalog)"

Resolver = Callable[[str], Part | None]


@dataclass(frozen=True, slots=True)
class LoadedBuild:
    """An opened build and what the user should be told about it."""

    build: Build
    warnings: tuple[str, ...] = ()
    missing_ids: tuple[str, ...] = ()


def is_custom_id(part_id: str) -> bool:
    return part_id.startswith(CUSTOM_PREFIX)


def custom_part_id(category: Category, vendor: str, name: str) -> str:
    """The id convention for a user's own part: ``custom/<category>/<vendor-model>``."""
    from dlhw_desktop.core.parts import make_part_id

    return CUSTOM_PREFIX + make_part_id(category, vendor, name)


def placeholder_part(part_id: str, category: Category, name: str | None = None) -> Part:
    """A stand-in for a part the catalog no longer has: every figure unknown, so the
    checks say "unknown" about it instead of guessing."""
    return Part(
        id=part_id, category=category, vendor="", name=name or part_id,
        source=PLACEHOLDER_SOURCE, source_date="",
        notes=f"{part_id} is not in the catalog or your parts; its figures are unknown.",
        custom=is_custom_id(part_id),
    )


def is_placeholder(part: Part) -> bool:
    return part.source == PLACEHOLDER_SOURCE


# --- writing -------------------------------------------------------------------------


def to_dict(build: Build) -> dict[str, Any]:
    parts: list[dict[str, Any]] = []
    for item in build.items():
        entry: dict[str, Any] = {"id": item.part.id, "quantity": item.quantity,
                                 "category": item.part.category.value,
                                 "name": item.part.display_name}
        if item.part.custom and not is_placeholder(item.part):
            entry["custom"] = item.part.to_dict()
        elif mine := figures_of(item.part):
            entry["your_figures"] = [
                {"field": f.field, "value": f.value, "entered": f.entered, "note": f.note}
                for f in mine]
        parts.append(entry)
    return {
        "format": FORMAT,
        "version": VERSION,
        "name": build.name,
        "parts": parts,
        "workload": {"tier": build.tier, **build.workload.to_mapping()},
        "notes": build.notes,
    }


def dumps(build: Build) -> str:
    try:
        # allow_nan=False: a file with NaN in it would not open again (loads refuses it)
        return json.dumps(to_dict(build), indent=2, ensure_ascii=False,
                          allow_nan=False) + "\n"
    except (TypeError, ValueError) as exc:
        raise BuildFileError(f"cannot save the build: a workload value is not JSON ({exc})") \
            from None


def save(build: Build, path: str | os.PathLike[str]) -> Path:
    """Write atomically: a crash or full disk leaves the old file whole, never half."""
    target = Path(path)
    data = dumps(build).encode("utf-8")
    try:
        return write_atomic(target, data)
    except OSError as exc:
        raise BuildFileError(f"cannot save {target.name}: {exc.strerror or exc}") from None


# --- reading -------------------------------------------------------------------------


def load(path: str | os.PathLike[str], resolve: Resolver) -> LoadedBuild:
    target = Path(path)
    try:
        raw = read_bounded(target, limits.MAX_BUILD_FILE_BYTES)
    except FileReadError as exc:
        raise BuildFileError(str(exc)) from None
    try:
        return loads(raw, resolve)
    except BuildFileError as exc:
        raise BuildFileError(f"cannot open {target.name}: {exc}") from None


def loads(data: str | bytes, resolve: Resolver) -> LoadedBuild:
    if isinstance(data, bytes):
        try:
            data = data.decode("utf-8-sig")
        except UnicodeDecodeError:
            raise BuildFileError("not a build file (not UTF-8 text)") from None
    if len(data) > limits.MAX_BUILD_FILE_BYTES:
        raise BuildFileError(f"not a build file (larger than "
                             f"{limits.MAX_BUILD_FILE_BYTES / 2**20:,.0f} MB)")
    try:
        document = json.loads(data, **json_hooks())
    except json.JSONDecodeError as exc:
        raise BuildFileError(
            f"not a build file (invalid JSON at line {exc.lineno}, column {exc.colno}: "
            f"{exc.msg})") from None
    except RecursionError:
        raise BuildFileError("not a build file (JSON nested too deeply)") from None
    return from_dict(document, resolve)


def from_dict(document: Any, resolve: Resolver) -> LoadedBuild:
    """A parsed build document -> ``LoadedBuild``; ``BuildFileError`` when malformed."""
    if not isinstance(document, dict):
        kind = type(document).__name__
        raise BuildFileError(f"not a build file (a JSON {_json_kind(kind)}, not an object)")
    if document.get("format") != FORMAT:
        raise BuildFileError(f"not a DL Hardware build file (format is "
                             f"{document.get('format')!r}, expected {FORMAT!r})")
    version = document.get("version")
    if isinstance(version, bool) or not isinstance(version, int) or version < 1:
        raise BuildFileError(f"malformed build file: version must be a whole number >= 1, "
                             f"not {version!r}")
    if version > VERSION:
        raise BuildFileError(f"made by a newer version of DL Hardware Desktop (file version "
                             f"{version}; this version reads up to {VERSION}): please update")
    name = checked_text(_string(document, "name", DEFAULT_NAME), "the build's name",
                        limits.MAX_NAME_CHARS)
    notes = checked_text(_string(document, "notes", ""), "the build's notes",
                         limits.MAX_NOTES_CHARS)
    if notes.count("\n") >= limits.MAX_NOTES_LINES:
        raise BuildFileError(f"the build's notes have {notes.count(chr(10)) + 1:,} lines; "
                             f"at most {limits.MAX_NOTES_LINES:,} are allowed")
    if "parts" not in document:
        raise BuildFileError("malformed build file: no \"parts\" list")
    entries = document["parts"]
    if not isinstance(entries, list):
        raise BuildFileError("malformed build file: \"parts\" must be a list")
    if len(entries) > limits.MAX_DISTINCT_PARTS:
        raise BuildFileError(f"malformed build file: {len(entries):,} parts; a build file "
                             f"holds at most {limits.MAX_DISTINCT_PARTS:,}")
    workload = document.get("workload", {})
    if workload is None:
        workload = {}
    if not isinstance(workload, dict):
        raise BuildFileError("malformed build file: \"workload\" must be an object")

    warnings: list[str] = []
    tier = workload.get("tier")
    if tier is not None and tier not in TIER_NAMES:
        warnings.append(f"Unknown workload tier {tier!r} ignored "
                        f"(expected {' or '.join(TIER_NAMES)}).")
        tier = None
    typed = BuildWorkload.kept_as_is({k: v for k, v in workload.items() if k != "tier"})
    if typed.error:
        warnings.append(f"The workload cannot be estimated ({typed.error}); it is kept as "
                        "it is in the file.")
    build = Build(name=name, notes=notes, tier=tier, workload=typed)

    parsed = [_entry(i, e) for i, e in enumerate(entries, start=1)]
    check_document_text(document)  # after the named fields, whose messages are clearer
    missing_ids: list[str] = []
    # Each id is resolved once and a part listed twice is counted once, with its
    # quantities summed: the work grows with the distinct parts, not with repeats.
    resolved: dict[str, Part | None] = {}
    plan: list[list[Any]] = []  # [part, quantity], in file order
    multi: dict[str, list[Any]] = {}
    for part_id, quantity, entry in parsed:
        if part_id in resolved:
            part = resolved[part_id]
        else:
            part = resolved[part_id] = _resolve(part_id, entry, resolve, warnings,
                                                missing_ids)
        if part is None:
            continue
        if slot_for(part).single:
            plan.append([part, quantity])
        elif part_id in multi:
            multi[part_id][1] += quantity
        else:
            multi[part_id] = [part, quantity]
            plan.append(multi[part_id])
    for part, quantity in plan:
        slot = slot_for(part)
        if slot.single:
            current = build.occupant(slot)
            if current is not None:
                if current.part.id != part.id:
                    warnings.append(f"Second {slot.label} {part.display_name} ignored; the "
                                    f"build keeps {current.part.display_name}.")
                continue
            limit = slot.max_count or 1
            if quantity > limit:
                warnings.append(f"{part.display_name}: a build holds at most {limit} "
                                f"{slot.label.lower()}; quantity {quantity:,} read as "
                                f"{limit}.")
                quantity = limit
        try:
            build.add(part, quantity)
        except QuantityLimitError as exc:
            raise BuildFileError(f"{part.display_name} ({part.id}): {exc}") from None
    return LoadedBuild(build, tuple(warnings), tuple(missing_ids))


def _json_kind(python_kind: str) -> str:
    return {"list": "list", "str": "string", "int": "number", "float": "number",
            "bool": "boolean", "NoneType": "null"}.get(python_kind, python_kind)


def _string(document: Mapping[str, Any], key: str, default: str) -> str:
    value = document.get(key, default)
    if value is None:
        return default
    if not isinstance(value, str):
        raise BuildFileError(f"malformed build file: \"{key}\" must be text")
    return value


def _entry(number: int, entry: Any) -> tuple[str, int, Mapping[str, Any]]:
    where = f"malformed build file: part {number}"
    if not isinstance(entry, dict):
        raise BuildFileError(f"{where} is not an object")
    part_id = entry.get("id")
    if not isinstance(part_id, str) or not part_id.strip():
        raise BuildFileError(f"{where} has no id")
    if len(part_id) > limits.MAX_ID_CHARS:
        raise BuildFileError(f"{where}: its id has {len(part_id):,} characters; a part id "
                             f"has at most {limits.MAX_ID_CHARS}")
    quantity = entry.get("quantity", 1)
    if isinstance(quantity, bool) or not isinstance(quantity, int):
        raise BuildFileError(f"{where} ({part_id}): quantity must be a whole number, "
                             f"not {quantity!r}")
    if quantity < 1:
        raise BuildFileError(f"{where} ({part_id}): quantity must be at least 1, "
                             f"not {quantity}")
    return part_id, quantity, entry


def _resolve(part_id: str, entry: Mapping[str, Any], resolve: Resolver,
             warnings: list[str], missing_ids: list[str]) -> Part | None:
    try:
        part = resolve(part_id)
    except UnknownPartError:
        part = None
    if part is not None:
        return _with_carried_figures(part, entry.get("your_figures"), warnings)
    label = entry.get("name") if isinstance(entry.get("name"), str) else None
    if label is not None:
        label = checked_text(label, f"the name of {part_id}", limits.MAX_NAME_CHARS)
    embedded = entry.get("custom")
    if isinstance(embedded, dict):
        restored = _custom_part(part_id, embedded)
        if restored is not None:
            warnings.append(f"{restored.display_name} is not in your parts; restored from "
                            "the figures saved in the file.")
            return restored
    category = _category(part_id, entry)
    missing_ids.append(part_id)
    if category is None:
        warnings.append(f"{label or part_id} ({part_id}) is not in the catalog and its kind "
                        "is unknown; left out.")
        return None
    warnings.append(f"{label or part_id} ({part_id}) is not in the catalog; kept as a "
                    "placeholder with unknown figures.")
    return placeholder_part(part_id, category, label)


def _with_carried_figures(part: Part, carried: Any, warnings: list[str]) -> Part:
    """The figures the file's author entered for this part (so a colleague opening it gets
    the same verdict), each checked again; a figure you entered yourself for the same
    field wins, and a difference is said."""
    if carried is None:
        return part
    if not isinstance(carried, list) or len(carried) > MAX_FIGURES:
        warnings.append(f"{part.display_name}: the file's figures are not a list of at most "
                        f"{MAX_FIGURES:,}; ignored.")
        return part
    figures: list[UserFigure] = []
    for data in carried:
        if not isinstance(data, dict):
            warnings.append(f"{part.display_name}: a figure in the file is not an object; "
                            "ignored.")
            continue
        try:
            figure = revalidated(part, from_mapping({**data, "part_id": part.id}))
        except UserFigureError as exc:
            warnings.append(f"{part.display_name}: a figure in the file ignored ({exc}).")
            continue
        if part.figure_kind(figure.field) == "your figure":
            if part.get(figure.field) != figure.value:
                warnings.append(
                    f"{part.display_name}: the file's {figure.label.lower()} "
                    f"({format_value(figure.field, figure.value)}) differs from yours "
                    f"({format_value(figure.field, part.get(figure.field))}); yours is used.")
            continue
        figures.append(figure)
    return apply_figures(part, figures)


def _category(part_id: str, entry: Mapping[str, Any]) -> Category | None:
    candidates = [entry.get("category")]
    bare = part_id[len(CUSTOM_PREFIX):] if is_custom_id(part_id) else part_id
    candidates.append(bare.split("/", 1)[0] if "/" in bare else None)
    for value in candidates:
        if isinstance(value, str):
            with suppress(ValueError):
                return Category(value)
    return None


def _custom_part(part_id: str, data: Mapping[str, Any]) -> Part | None:
    """Rebuild a custom part from ``Part.to_dict`` output, dropping ill-typed figures."""
    category = _category(part_id, data)
    if category is None:
        return None
    specs: dict[str, Any] = {}
    for spec in detail_fields_for(category):
        value = data.get(spec.name)
        if value is None:
            continue
        if _well_typed(spec.kind, value):
            specs[spec.name] = checked_figure(part_id, spec, value)
    sources: dict[str, FigureSource] = {}
    raw_sources = data.get("figure_sources")
    if isinstance(raw_sources, dict):
        for key, value in raw_sources.items():
            if isinstance(value, dict) and isinstance(value.get("source"), str):
                sources[str(key)] = FigureSource(value["source"],
                                                 str(value.get("source_date") or ""),
                                                 str(value.get("note") or ""))

    def text(key: str) -> str | None:
        value = data.get(key)
        if not isinstance(value, str):
            return None
        most = limits.MAX_NAME_CHARS if key in ("name", "vendor") else limits.MAX_TEXT_CHARS
        return checked_text(value, f"the {key} of {part_id}", most)

    def number(key: str) -> float | None:
        value = data.get(key)
        ok = isinstance(value, int | float) and not isinstance(value, bool)
        return checked_figure(part_id, FIELDS_BY_NAME[key], value) if ok else None

    year = data.get("release_year")
    if isinstance(year, int) and not isinstance(year, bool) and not 1900 <= year <= 2200:
        raise BuildFileError(f"{part_id}: release year {year} is not a year (1900 to 2200)")
    return Part(
        id=part_id, category=category, vendor=text("vendor") or "",
        name=text("name") or part_id, source=text("source") or "your own part",
        source_date=text("source_date") or "", price_usd=number("price_usd"),
        price_date=text("price_date"), price_kind=text("price_kind"),
        release_year=year if isinstance(year, int) and not isinstance(year, bool) else None,
        family=text("family"), notes=text("notes"), specs=specs, figure_sources=sources,
        custom=True,
    )


def _well_typed(kind: str, value: Any) -> bool:
    if kind == "bool":
        return isinstance(value, bool)
    if kind in ("int", "float"):
        return isinstance(value, int | float) and not isinstance(value, bool)
    return isinstance(value, str)
