"""What every Compare chart shares: colours for light and dark, axes, hover tips, export."""

from __future__ import annotations

import math
import textwrap
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from html import escape
from pathlib import Path

import pyqtgraph as pg
from PySide6.QtCore import QBuffer, QByteArray, QIODevice, QPointF, QRect, QRectF, QSize
from PySide6.QtGui import QColor, QCursor, QFont, QImage, QPainter
from PySide6.QtSvg import QSvgGenerator
from PySide6.QtWidgets import QApplication, QGraphicsItem, QToolTip, QWidget

from dlhw_desktop.core.compare.comparison import write_atomic
from dlhw_desktop.core.parts import Part
from dlhw_desktop.ui.common.theme import is_dark
from dlhw_desktop.ui.compare.charts.svg_flatten import flatten_scaled_strokes

# Tableau 10: distinct on white and on a dark grey, and kind to colour-blind readers.
SLOT_COLOURS: tuple[str, ...] = ("#4e79a7", "#f28e2b", "#e15759", "#76b7b2", "#59a14f",
                                 "#edc948", "#b07aa1", "#9c755f")
VENDOR_COLOURS: dict[str, str] = {"NVIDIA": "#76b900", "AMD": "#e8383d", "Intel": "#0071c5",
                                  "Google": "#f4b400", "AWS": "#ff9900",
                                  "Tenstorrent": "#8e5bd0"}
OTHER_VENDOR = "#8a8f98"


def compared_colour(index: int) -> str:
    """The chart colour of a part's colour index (``Comparison.colour_index``)."""
    return SLOT_COLOURS[index % len(SLOT_COLOURS)]


@dataclass(frozen=True, slots=True)
class ChartStyle:
    dark: bool
    background: str
    foreground: str
    muted: str
    grid_alpha: float
    best_pen: str


LIGHT = ChartStyle(False, "#ffffff", "#1f2328", "#6b7280", 0.25, "#1f2328")
DARK = ChartStyle(True, "#1e1f22", "#dfe1e5", "#9aa0a6", 0.22, "#f5f5f5")


def current_style() -> ChartStyle:
    app = QApplication.instance()
    return DARK if isinstance(app, QApplication) and is_dark(app) else LIGHT




def wrap_name(name: str, width: int = 22, lines: int = 2) -> str:
    parts = textwrap.wrap(name, width) or [name]
    if len(parts) > lines:
        parts = [*parts[:lines - 1], " ".join(parts[lines - 1:])]
    return "\n".join(parts)


def _number(value: float, places: int) -> str:
    return f"{value:,.{places}f}"


class NumberAxis(pg.AxisItem):
    """Ticks with thousands separators; in log mode 1, 2, 3, 5 × 10ⁿ as plain numbers."""

    def __init__(self, orientation: str, suffix: str = "", **kwargs: object) -> None:
        super().__init__(orientation, **kwargs)
        self.suffix = suffix
        self.enableAutoSIPrefix(False)

    def tickStrings(self, values: list[float], scale: float,
                    spacing: float) -> list[str]:
        if self.logMode:
            out: list[str] = []
            for value in values:
                real = 10 ** value
                exponent = math.floor(math.log10(real) + 1e-9)
                mantissa = round(real / 10 ** exponent, 3)
                if mantissa not in (1.0, 2.0, 3.0, 5.0):
                    out.append("")
                    continue
                places = max(0, -exponent)
                out.append(_number(real, places) + self.suffix)
            return out
        step = spacing * scale
        places = max(0, math.ceil(-math.log10(step))) if step > 0 else 0
        return [_number(v * scale, places) + self.suffix for v in values]


@dataclass(frozen=True, slots=True)
class Hit:
    """A rectangle in a plot's data coordinates with the tip shown over it."""

    plot: pg.PlotItem
    rect: QRectF
    tip: str


class ChartBase(pg.GraphicsLayoutWidget):
    """A titled chart with a notes line under it, hover tips, and PNG/SVG export."""

    kind = "chart"

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName(f"chart_{self.kind}")
        self.style_ = current_style()
        self.ci.setContentsMargins(10, 8, 14, 6)
        self.ci.setSpacing(6)
        self.title = pg.LabelItem("", size="11pt")
        self.notes = pg.LabelItem("", size="9pt", justify="left")
        self._notes_text: list[str] = []
        self._hints: list[str] = []
        self.source_line = "Source: DL Hardware Desktop catalog"
        """Printed under an exported chart in place of the on-screen hints."""
        self.title_text = ""
        self._hits: list[Hit] = []
        self.scene().sigMouseMoved.connect(self._hover)
        self.setBackground(self.style_.background)
        self.colour_of: Callable[[str], str] | None = None
        """A compared part's colour by its id (the tab sets it: colours stay with their
        parts when another is removed); without it, colours go by position."""

    def colours(self, parts: Sequence[Part]) -> list[str]:
        """The colour of each compared part, in order."""
        if self.colour_of is None:
            return [SLOT_COLOURS[i % len(SLOT_COLOURS)] for i in range(len(parts))]
        return [self.colour_of(p.id) for p in parts]

    # --- style -------------------------------------------------------------------------
    def apply_style(self, style: ChartStyle) -> None:
        self.style_ = style
        self.setBackground(style.background)
        for plot in self.plots():
            style_plot(plot, style)
        self.restyle()

    def restyle(self) -> None:
        """Re-colour texts; subclasses redraw their data with the new style."""

    def plots(self) -> list[pg.PlotItem]:
        return []

    def set_title(self, text: str, subtitle: str = "") -> None:
        self.title_text = text
        html = f"<b>{escape(text)}</b>"
        if subtitle:
            html += (f"&nbsp;&nbsp;<span style='color:{self.style_.muted}; font-size:9pt'>"
                     f"{escape(subtitle)}</span>")
        self.title.setText(html, color=self.style_.foreground)

    def set_notes(self, lines: list[str], hints: Sequence[str] = ()) -> None:
        """``lines`` say what the chart leaves out and why (kept in exports); ``hints`` say
        how to use it on screen (hover, click) and are replaced by the source in exports."""
        self._notes_text = list(lines)
        self._hints = list(hints)
        self._show_notes([*lines, *hints])

    def _show_notes(self, lines: Sequence[str]) -> None:
        html = "<br>".join(escape(line) for line in lines) if lines else "&nbsp;"
        self.notes.setText(html, color=self.style_.muted)

    def notes_text(self) -> list[str]:
        return [*self._notes_text, *self._hints]

    def export_notes(self) -> list[str]:
        """What an exported chart prints under it: the notes, then its source and date."""
        return [*self._notes_text, self.source_line]

    @contextmanager
    def _exporting(self) -> Iterator[None]:
        """Swap the on-screen hints for the source line while the chart is painted out."""
        self._show_notes(self.export_notes())
        self.about_to_export()
        self.ci.layout.activate()  # lay the swapped notes out before painting
        try:
            yield
        finally:
            self._show_notes(self.notes_text())
            self.after_export()
            self.ci.layout.activate()

    def about_to_export(self) -> None:
        """Subclasses adjust what only the screen needs (e.g. hover highlights)."""

    def after_export(self) -> None:
        """Undo ``about_to_export``."""

    # --- hover -------------------------------------------------------------------------
    def set_hits(self, hits: list[Hit]) -> None:
        self._hits = hits

    def _hover(self, pos: QPointF) -> None:
        for hit in self._hits:
            vb = hit.plot.getViewBox()
            if not vb.sceneBoundingRect().contains(pos):
                continue
            point = vb.mapSceneToView(pos)
            if hit.rect.normalized().contains(point):
                QToolTip.showText(QCursor.pos(), hit.tip, self)
                return
        if self._hits:
            QToolTip.hideText()

    # --- export ------------------------------------------------------------------------
    def render_image(self, scale: float = 2.0) -> QImage:
        """The chart as an image, ``scale`` times its on-screen size (sharp in reports).

        Painted through ``QGraphicsScene.render`` so every item scales alike (pyqtgraph's
        ImageExporter leaves the legend at screen size).
        """
        width, height = max(1, self.width()), max(1, self.height())
        image = QImage(int(width * scale), int(height * scale),
                       QImage.Format.Format_ARGB32_Premultiplied)
        image.fill(QColor(self.style_.background))
        with self._exporting():
            painter = QPainter(image)
            painter.setRenderHint(QPainter.RenderHint.Antialiasing)
            painter.setRenderHint(QPainter.RenderHint.TextAntialiasing)
            self._render_scene(painter, QRectF(0, 0, image.width(), image.height()))
            painter.end()
        return image

    def _render_scene(self, painter: QPainter, target: QRectF) -> None:
        source = self.mapToScene(self.viewport().rect()).boundingRect()
        self.scene().render(painter, target, source)

    def png_bytes(self, scale: float = 2.0) -> bytes:
        image = self.render_image(scale)
        data = QByteArray()
        buffer = QBuffer(data)
        buffer.open(QIODevice.OpenModeFlag.WriteOnly)
        image.save(buffer, "PNG")
        buffer.close()
        return bytes(data.data())

    def svg_bytes(self) -> bytes:
        """The chart as SVG, painted by Qt's ``QSvgGenerator`` at screen resolution, with
        no stroke left under a scaled group (``svg_flatten``: non-browser renderers draw
        those as slabs).

        (pyqtgraph's own SVGExporter raises on some of these items in 0.14.)
        """
        width, height = max(1, self.width()), max(1, self.height())
        data = QByteArray()
        buffer = QBuffer(data)
        buffer.open(QIODevice.OpenModeFlag.WriteOnly)
        generator = QSvgGenerator()
        generator.setOutputDevice(buffer)
        generator.setSize(QSize(width, height))
        generator.setViewBox(QRect(0, 0, width, height))
        generator.setResolution(max(72, self.logicalDpiX()))
        generator.setTitle(self.title_text or "DL Hardware Desktop chart")
        generator.setDescription("Exported from DL Hardware Desktop, Compare tab")
        # Vector shapes, not pixmaps: a scatter's markers come from a cached atlas on
        # screen, which an SVG would carry whole, squeezed into every marker.
        items = [i for i in self.scene().items() if hasattr(i, "setExportMode")]
        for item in items:
            item.setExportMode(True, {"antialias": True})
        try:
            with self._exporting():
                painter = QPainter(generator)
                painter.fillRect(QRectF(0, 0, width, height), QColor(self.style_.background))
                self._render_scene(painter, QRectF(0, 0, width, height))
                painter.end()
        finally:
            for item in items:
                item.setExportMode(False)
        buffer.close()
        return flatten_scaled_strokes(bytes(data.data()))

    def export_png(self, path: str | Path, scale: float = 2.0) -> Path:
        return write_atomic(path, self.png_bytes(scale))

    def export_svg(self, path: str | Path) -> Path:
        return write_atomic(path, self.svg_bytes())


def style_plot(plot: pg.PlotItem, style: ChartStyle) -> None:
    """Axes, grid and label colours for the palette."""
    pen = pg.mkPen(style.muted, width=1)
    for name in ("left", "bottom", "top", "right"):
        axis = plot.getAxis(name)
        axis.setPen(pen)
        axis.setTextPen(pg.mkPen(style.foreground))
        if axis.label is not None and axis.labelText:
            axis.setLabel(axis.labelText, **{"color": style.foreground, "font-size": "10pt"})
    plot.showGrid(x=plot.ctrl.xGridCheck.isChecked(), y=plot.ctrl.yGridCheck.isChecked(),
                  alpha=style.grid_alpha)


def set_axis_label(plot: pg.PlotItem, side: str, text: str, style: ChartStyle) -> None:
    plot.getAxis(side).setLabel(text, **{"color": style.foreground, "font-size": "10pt"})


def make_plot(style: ChartStyle, left_suffix: str = "", bottom: pg.AxisItem | None = None
              ) -> pg.PlotItem:
    """A plot with number axes, no mouse menu, grid lines, styled."""
    plot = pg.PlotItem(axisItems={"left": NumberAxis("left", suffix=left_suffix),
                                  "bottom": bottom or NumberAxis("bottom")})
    plot.setMenuEnabled(False)
    plot.hideButtons()
    vb = plot.getViewBox()
    vb.setMouseEnabled(x=False, y=False)
    style_plot(plot, style)
    return plot


def text_item(style: ChartStyle, anchor: tuple[float, float], size_pt: float = 9,
              angle: float = 0, opaque: bool = False) -> pg.TextItem:
    """A label; ``opaque`` ones sit on the background colour, so that a reference line
    passing behind them does not strike through the text."""
    item = pg.TextItem("", color=style.foreground, anchor=anchor, angle=angle,
                       fill=pg.mkBrush(style.background) if opaque else None)
    font = QFont()
    font.setPointSizeF(size_pt)
    item.setFont(font)
    return item


def layout_legend(columns: int) -> pg.LegendItem:
    """A legend for a row of the chart's layout (under the plot, never over the data).

    pyqtgraph legends ignore transformations (they float over a plot at screen size);
    one in the layout must scale with the chart when it is exported at 2x.
    """
    legend = pg.LegendItem(colCount=columns, labelTextSize="9pt", frame=False)
    legend.setFlag(QGraphicsItem.GraphicsItemFlag.ItemIgnoresTransformations, False)
    return legend
