"""An exported chart SVG that every renderer draws alike: no stroke under a scaled group.

Qt's ``QSvgGenerator`` writes a plot's bars and curves in data coordinates inside a group
scaled to the screen (``matrix(1.9,0,0,81,...)``) and keeps their outlines thin with
``vector-effect: non-scaling-stroke``. Browsers honour that; other renderers (librsvg,
ImageMagick, Inkscape's older versions, many PDF converters) scale the 1 px outline by 81
and draw a black slab over the chart. ``flatten_scaled_strokes`` moves each such group's
transform into the coordinates of its shapes (rect, polygon, polyline, path with absolute
commands) and drops the vector effect, so a stroke is as wide as it says everywhere.
A group holding anything else (text, an image) or a path with relative commands is left
as it was; rotations and translations never change a stroke's width and are kept.

Pure string and XML work: no Qt, testable without a screen.
"""

from __future__ import annotations

import math
import re
import xml.etree.ElementTree as ET

SVG = "http://www.w3.org/2000/svg"
_NS = f"{{{SVG}}}"
_MATRIX = re.compile(r"\s*matrix\(([^)]*)\)\s*")
_NUMBER = r"[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?"
_PATH_TOKEN = re.compile(rf"([A-Za-z])|({_NUMBER})")
_BAKEABLE = {"rect", "polygon", "polyline", "path", "line"}

Matrix = tuple[float, float, float, float, float, float]


def flatten_scaled_strokes(svg: bytes) -> bytes:
    """``svg`` with every scaled group's transform baked into its shapes; see the module."""
    ET.register_namespace("", SVG)
    ET.register_namespace("xlink", "http://www.w3.org/1999/xlink")
    root = ET.fromstring(svg)
    changed = False
    for group in root.iter(f"{_NS}g"):
        matrix = _matrix(group.get("transform", ""))
        if matrix is None or _keeps_widths(matrix) or not len(group):
            continue
        baked = [_baked(child, matrix) for child in group]
        if any(b is None for b in baked):
            continue
        for child, new in zip(list(group), baked, strict=True):
            group.remove(child)
            group.append(new)  # type: ignore[arg-type]
        group.set("transform", "matrix(1,0,0,1,0,0)")
        changed = True
    if not changed:
        return svg
    return b'<?xml version="1.0" encoding="UTF-8" standalone="no"?>\n' + ET.tostring(
        root, encoding="utf-8", xml_declaration=False)


def _matrix(text: str) -> Matrix | None:
    match = _MATRIX.fullmatch(text)
    if match is None:
        return None
    try:
        a, b, c, d, e, f = (float(v) for v in match.group(1).split(","))
    except ValueError:
        return None
    return a, b, c, d, e, f


def _keeps_widths(m: Matrix) -> bool:
    """A translation, rotation or mirror: strokes keep their width under it."""
    a, b, c, d, _, _ = m
    return (math.isclose(a * a + b * b, 1.0, rel_tol=1e-6)
            and math.isclose(c * c + d * d, 1.0, rel_tol=1e-6)
            and math.isclose(a * c + b * d, 0.0, abs_tol=1e-6))


def _apply(m: Matrix, x: float, y: float) -> tuple[float, float]:
    a, b, c, d, e, f = m
    return a * x + c * y + e, b * x + d * y + f


def _points(m: Matrix, pairs: list[tuple[float, float]]) -> str:
    return " ".join(f"{px:.3f},{py:.3f}" for px, py in (_apply(m, x, y) for x, y in pairs))


def _baked(element: ET.Element, m: Matrix) -> ET.Element | None:
    """A copy of ``element`` drawn in the group's parent coordinates; None when it is not
    a shape this can move (the group is then left as it was)."""
    tag = element.tag.removeprefix(_NS)
    if tag not in _BAKEABLE or element.get("transform") or len(element):
        return None
    attrs = {k: v for k, v in element.attrib.items() if k != "vector-effect"}
    try:
        if tag == "rect":
            x, y = float(attrs.pop("x", 0)), float(attrs.pop("y", 0))
            w, h = float(attrs.pop("width")), float(attrs.pop("height"))
            attrs.pop("rx", None)
            attrs.pop("ry", None)
            corners = [(x, y), (x + w, y), (x + w, y + h), (x, y + h)]
            return ET.Element(f"{_NS}polygon", {**attrs, "points": _points(m, corners)})
        if tag in ("polygon", "polyline"):
            numbers = [float(v) for v in re.findall(_NUMBER, attrs["points"])]
            pairs = list(zip(numbers[::2], numbers[1::2], strict=False))
            return ET.Element(element.tag, {**attrs, "points": _points(m, pairs)})
        if tag == "line":
            x1, y1 = _apply(m, float(attrs["x1"]), float(attrs["y1"]))
            x2, y2 = _apply(m, float(attrs["x2"]), float(attrs["y2"]))
            return ET.Element(element.tag, {**attrs, "x1": f"{x1:.3f}", "y1": f"{y1:.3f}",
                                            "x2": f"{x2:.3f}", "y2": f"{y2:.3f}"})
        path = _path(attrs["d"], m)
        return None if path is None else ET.Element(element.tag, {**attrs, "d": path})
    except (KeyError, ValueError):
        return None


def _path(d: str, m: Matrix) -> str | None:
    """Absolute M, L, C, Q, S, T and Z commands with their points moved; None for
    anything else (relative commands, H/V, arcs)."""
    out: list[str] = []
    numbers: list[float] = []

    def flush() -> bool:
        if len(numbers) % 2:
            return False
        pairs = list(zip(numbers[::2], numbers[1::2], strict=True))
        if pairs:
            out.append(_points(m, pairs))
        numbers.clear()
        return True

    for command, number in _PATH_TOKEN.findall(d):
        if command:
            if command not in "MLCQSTZ" or not flush():
                return None
            out.append(command)
        else:
            numbers.append(float(number))
    return " ".join(out) if flush() else None
