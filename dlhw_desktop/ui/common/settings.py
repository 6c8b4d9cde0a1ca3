"""Every persistent setting, declared once: key, type, default and what it is for."""

from __future__ import annotations

import math
import os
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from PySide6.QtCore import QByteArray, QSettings, QStandardPaths

from dlhw_desktop import APP_ID, ORG_NAME
from dlhw_desktop.ui.common import safe_ini


@dataclass(frozen=True, slots=True)
class Setting:
    key: str
    type: type
    default: Any
    description: str


SETTINGS: dict[str, Setting] = {s.key: s for s in (
    Setting("window/geometry", bytes, b"", "Main window geometry"),
    Setting("window/state", bytes, b"", "Main window toolbars and docks"),
    Setting("window/tab", int, 0, "The tab in front when the app last closed"),
    Setting("catalog/category", str, "accelerator",
            "Category the Catalog tab shows at start ('' is All parts)"),
    Setting("catalog/splitter", bytes, b"", "Catalog tab splitter sizes"),
    Setting("view/theme", str, "system", "Colour theme: system, light or dark"),
    Setting("compare/part_ids", list, [], "Accelerators in the comparison"),
    Setting("compare/precision", str, "BF16", "Precision charted in the Compare tab"),
    Setting("compare/baseline", str, "", "Baseline of the normalised view"),
    Setting("compare/chart", str, "bars", "Compare chart: bars, normalised, derived or scatter"),
    Setting("compare/metric", str, "throughput", "Metric of the Compare tab's bar chart"),
    Setting("compare/scatter_x", str, "tdp", "Scatter x axis: price or tdp"),
    Setting("compare/log", bool, True, "Log axes in the scatter chart"),
    Setting("compare/log_normalised", bool, False, "Log scale in the normalised chart"),
    Setting("compare/splitter", bytes, b"", "Compare tab chart/table splitter sizes"),
    Setting("build/recent_files", list, [], "Recently opened build files"),
    Setting("build/electricity_usd_per_kwh", float, 0.17, "Electricity price"),
    Setting("build/utilisation", float, 0.5, "Share of the year the machine runs loaded"),
    Setting("build/mains", str, "120V-15A", "Household circuit: 120V-15A or 230V-16A"),
    Setting("build/splitter", bytes, b"", "Build tab splitter sizes"),
    Setting("build/last_folder", str, "", "Folder of the last build opened or saved"),
    Setting("export/sheet_folder", str, "", "Folder the last build sheet (PDF) went to"),
    Setting("export/chart_folder", str, "", "Folder the last chart (PNG, SVG) went to"),
    Setting("export/table_folder", str, "", "Folder the last table (CSV, Markdown) went to"),
    Setting("workload/years", float, 3.0,
            "Years own hardware is amortised over in the workload cost"),
    Setting("what_fits/geometry", bytes, b"", "What-fits dialog geometry"),
    Setting("advisor/geometry", bytes, b"", "Advisor dialog geometry"),
    Setting("advisor/budget_usd", float, 0.0, "Budget last given to the advisor (0: none)"),
    Setting("advisor/deployment", str, "either", "Advisor: cloud, on-premise or either"),
    Setting("advisor/data_private", bool, False, "Advisor: the data must stay on premises"),
)}


def settings_file() -> Path:
    """Where the settings live: ``$DLHW_DATA_DIR/dlhw_desktop.conf`` when that is set (tests,
    portable installs, as the README says), else the platform's config folder
    (``~/.config/dlhw/dlhw_desktop.conf`` on Linux)."""
    override = os.environ.get("DLHW_DATA_DIR")
    if override:
        return Path(override) / f"{APP_ID}.conf"
    folder = QStandardPaths.writableLocation(
        QStandardPaths.StandardLocation.GenericConfigLocation) or str(Path.home() / ".config")
    return Path(folder) / ORG_NAME / f"{APP_ID}.conf"


class AppSettings:
    """Typed access to ``QSettings`` through the declarations above.

    The file is checked as text before Qt reads any of it (``safe_ini.clean``): a value
    Qt would unpickle is removed, so a crafted settings file cannot run code. Every value
    is read with its declared type and anything else gives the default. ``problem`` says,
    in one line, what was removed (empty when nothing was).
    """

    def __init__(self, qsettings: QSettings | None = None) -> None:
        self._fallback: tempfile.TemporaryDirectory[str] | None = None
        self.problem = ""
        if qsettings is None:  # checked before Qt opens it (a FIFO would block Qt)
            path = settings_file()
            result = safe_ini.clean(path)
            qsettings = QSettings(str(path), QSettings.Format.IniFormat) \
                if not result.error else None
        else:  # constructing QSettings reads the file but does not parse it yet
            path = Path(qsettings.fileName())
            result = safe_ini.clean(path)
        if result.error or qsettings is None:
            # It could not be checked or cleaned: not read at all; defaults, in memory.
            self._fallback = tempfile.TemporaryDirectory(prefix="dlhw-settings-")
            qsettings = QSettings(str(Path(self._fallback.name) / "settings.conf"),
                                  QSettings.Format.IniFormat)
            self.problem = (f"the settings file {path} was not read ({result.error}); the "
                            "defaults are used")
        self._q = qsettings
        if result.error:
            return
        if result.changed:
            self._q.sync()  # the file changed under it: read again, without those entries
        for key, value in result.migrated.items():
            if key in SETTINGS and isinstance(value, _PLAIN.get(SETTINGS[key].type, ())):
                self.set(key, list(value) if SETTINGS[key].type is list else value)
        if result.dropped:
            self.problem = (f"the settings file {path} held a value that could run code when "
                            f"read ({', '.join(result.dropped[:3])}); it was removed and the "
                            f"default used (the file as it was is kept at {result.kept_as})")

    def get(self, key: str) -> Any:
        setting = SETTINGS[key]
        try:
            if not self._q.contains(key):
                return setting.default
            if setting.type is bytes:
                raw = self._q.value(key, QByteArray(), type=QByteArray)
                return bytes(raw.data()) if isinstance(raw, QByteArray) else setting.default
            if setting.type is list:
                raw = self._q.value(key, [], type=list)
                if not isinstance(raw, list):
                    return setting.default
                return [v for v in raw if isinstance(v, str)]
            raw = self._q.value(key, "", type=str)
            if not isinstance(raw, str):
                return setting.default
            if setting.type is str:
                return raw
            if setting.type is bool:
                lowered = raw.strip().lower()
                if lowered in ("true", "1"):
                    return True
                return False if lowered in ("false", "0") else setting.default
            if setting.type is float:
                number = float(raw)
                return number if math.isfinite(number) else setting.default
            return setting.type(raw)
        except (TypeError, ValueError, OverflowError):
            return setting.default

    def set(self, key: str, value: Any) -> None:
        if key not in SETTINGS:
            raise KeyError(key)
        if SETTINGS[key].type is bytes:
            # As Qt's own @ByteArray: plain bytes would be pickled into the file by PySide.
            value = QByteArray(bytes(value))
        self._q.setValue(key, value)

    def sync(self) -> None:
        self._q.sync()


_PLAIN: dict[type, tuple[type, ...]] = {
    bytes: (bytes,), str: (str,), list: (list,), bool: (bool,), float: (float, int),
}
