"""Cluster plan files (``.dlhwcluster.json``): a build (as in a build file) plus the
cluster's choices, versioned, validated on the way in and saved atomically.

Document::

    {"format": "dlhw-cluster", "version": 1,
     "build": { ...a build file's document... },
     "cluster": {"nodes": 32, "fabric": "ib-ndr", "rack_kw": 40, "pue": 1.3, ...}}
"""

from __future__ import annotations

import json
import math
import os
from dataclasses import asdict, fields
from pathlib import Path
from typing import Any

from dlhw_desktop.core import limits
from dlhw_desktop.core.build import buildfile
from dlhw_desktop.core.build.build import Build
from dlhw_desktop.core.cluster.plan import ClusterInputError, ClusterSpec, bad, check_numbers
from dlhw_desktop.core.errors import BuildFileError
from dlhw_desktop.core.files.atomic import write_atomic
from dlhw_desktop.core.files.reading import FileReadError, read_text_bounded

FORMAT = "dlhw-cluster"
VERSION = 1
SUFFIX = ".dlhwcluster.json"
_KINDS: dict[str, tuple[type, ...]] = {
    "nodes": (int,), "fabric": (str,), "overlap": (bool,), "precision": (str,)}


def to_dict(build: Build, spec: ClusterSpec) -> dict[str, Any]:
    return {"format": FORMAT, "version": VERSION, "build": buildfile.to_dict(build),
            "cluster": asdict(spec)}


def save(build: Build, spec: ClusterSpec, path: str | os.PathLike[str]) -> Path:
    data = (json.dumps(to_dict(build, spec), indent=2, ensure_ascii=False) + "\n").encode()
    target = Path(path)
    try:
        return write_atomic(target, data)
    except OSError as exc:
        raise ClusterInputError(f"cannot save {target.name}: {exc.strerror or exc}") from None


def is_plan(document: Any) -> bool:
    return isinstance(document, dict) and document.get("format") == FORMAT


def spec_from_mapping(data: Any) -> ClusterSpec:
    """The ``cluster`` object -> ``ClusterSpec``; a wrong key or type names the field."""
    if not isinstance(data, dict):
        raise ClusterInputError("cluster: expected an object")
    known = {f.name for f in fields(ClusterSpec)}
    unknown = sorted(set(data) - known)
    if unknown:
        raise ClusterInputError(f"cluster: unknown field {unknown[0]!r}")
    values: dict[str, Any] = {}
    for name, value in data.items():
        kinds = _KINDS.get(name)
        if value is None and name not in ("nodes", "fabric", "overlap", "precision"):
            values[name] = None
            continue
        if kinds is not None:
            ok = isinstance(value, kinds) and not (kinds == (int,) and isinstance(value, bool))
        else:
            ok = (isinstance(value, int | float) and not isinstance(value, bool)
                  and math.isfinite(value))
        if not ok:
            raise bad(name, f"{value!r} is not a valid value")
        values[name] = float(value) if kinds is None else value
    if "nodes" not in values:
        raise bad("nodes", "missing")
    spec = ClusterSpec(**values)
    check_numbers(spec)  # each number in its range, named (a null where one is required)
    return spec


def from_dict(document: Any, resolve: buildfile.Resolver) -> tuple[Build, ClusterSpec,
                                                                    list[str]]:
    if not is_plan(document):
        raise ClusterInputError("not a cluster plan (format is not 'dlhw-cluster')")
    version = document.get("version")
    if not isinstance(version, int) or isinstance(version, bool) or version < 1:
        raise ClusterInputError(f"version: {version!r} is not a plan file version")
    if version > VERSION:
        raise ClusterInputError(f"version: the plan is version {version}; this dlhw reads "
                                f"up to {VERSION}")
    try:
        loaded = buildfile.from_dict(document.get("build"), resolve)
    except BuildFileError as exc:
        raise ClusterInputError(f"build: {exc}") from None
    return loaded.build, spec_from_mapping(document.get("cluster")), list(loaded.warnings)


def read_document(path: str | os.PathLike[str]) -> Any:
    """The JSON of a build or plan file: a regular file of at most
    ``MAX_BUILD_FILE_BYTES`` (a FIFO, a device or a huge file is one line, not a hang), its
    numbers at most ``MAX_INT_DIGITS`` digits long; ``ClusterInputError`` otherwise."""
    target = Path(path)
    try:
        text = read_text_bounded(target, limits.MAX_BUILD_FILE_BYTES)
        return json.loads(text, parse_int=_bounded_int, parse_constant=_no_constant)
    except FileReadError as exc:
        raise ClusterInputError(str(exc)) from None
    except (ValueError, RecursionError) as exc:  # JSONDecodeError is a ValueError
        raise ClusterInputError(f"{target.name} is not a build or a cluster plan (not "
                                f"JSON: {str(exc)[:80]})") from None


def _bounded_int(text: str) -> int:
    if len(text.lstrip("-")) > limits.MAX_INT_DIGITS:
        raise ValueError(f"a number of {len(text):,} digits")
    return int(text)


def _no_constant(name: str) -> float:
    raise ValueError(f"{name} is not a number JSON allows")


def load(path: str | os.PathLike[str], resolve: buildfile.Resolver) -> tuple[
        Build, ClusterSpec, list[str]]:
    return from_dict(read_document(path), resolve)
