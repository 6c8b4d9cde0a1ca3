"""Where to put point labels so that none is cut by the plot's edge or crosses another.

Pure geometry in pixels (no Qt), so it is tested without a screen: each label tries the
four sides of its point in turn (right, left, above, below, beside the marker) and takes
the first free one; a label that must be shown (a compared part) takes its least bad side
when none is free, an optional one (a notable outlier) is dropped.
"""

from __future__ import annotations

from dataclasses import dataclass

Rect = tuple[float, float, float, float]  # left, top, width, height (pixels, y down)

SIDES: tuple[tuple[float, float, float, float], ...] = (
    (0.0, -0.5, 1.0, 0.0),    # right of the point, centred on it
    (-1.0, -0.5, -1.0, 0.0),  # left of it
    (-0.5, -1.0, 0.0, -1.0),  # above it
    (-0.5, 0.0, 0.0, 1.0),    # below it
)
"""Where a label may go, in order: (dx, dy) multipliers of the label's size from its point,
and the direction (gx, gy) in which the gap (the marker's radius) pushes it away."""


@dataclass(frozen=True, slots=True)
class LabelRequest:
    x: float  # the point, in pixels
    y: float
    width: float  # the label's text, in pixels
    height: float
    gap: float = 4.0  # pixels between the point and the label (the marker's radius)
    required: bool = False


@dataclass(frozen=True, slots=True)
class Placement:
    index: int  # into the requests
    rect: Rect  # where the label's text goes; its top-left corner is the label's position


def _overlap(a: Rect, b: Rect) -> float:
    w = min(a[0] + a[2], b[0] + b[2]) - max(a[0], b[0])
    h = min(a[1] + a[3], b[1] + b[3]) - max(a[1], b[1])
    return w * h if w > 0 and h > 0 else 0.0


def _outside(rect: Rect, bounds: Rect) -> float:
    """How much of ``rect`` lies outside ``bounds`` (pixels squared)."""
    inside = _overlap(rect, bounds)
    return rect[2] * rect[3] - inside


def place_labels(requests: list[LabelRequest], bounds: Rect) -> list[Placement]:
    """Labels in order of priority (required ones first); linear in labels x corners x
    placed labels, and a chart has a dozen at most."""
    placed: list[Placement] = []
    order = sorted(range(len(requests)), key=lambda i: not requests[i].required)
    for index in order:
        request = requests[index]
        best: tuple[float, Placement] | None = None
        for mx, my, gx, gy in SIDES:
            rect = (request.x + mx * request.width + gx * request.gap,
                    request.y + my * request.height + gy * request.gap,
                    request.width, request.height)
            cost = _outside(rect, bounds) * 4 + sum(_overlap(rect, p.rect) for p in placed)
            candidate = Placement(index, rect)
            if cost == 0:
                best = (0.0, candidate)
                break
            if best is None or cost < best[0]:
                best = (cost, candidate)
        assert best is not None
        if best[0] == 0 or request.required:
            placed.append(best[1])
    return sorted(placed, key=lambda p: p.index)
