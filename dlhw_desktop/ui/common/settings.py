"""Every persistent setting, declared once: key, type, default and what it is for."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from PySide6.QtCore import QByteArray, QSettings

from dlhw_desktop import APP_ID, ORG_NAME


@dataclass(frozen=True, slots=True)
class Setting:
    key: str
    type: type
    default: Any
    description: str


SETTINGS: dict[str, Setting] = {s.key: s for s in (
    Setting("window/geometry", bytes, b"", "Main window geometry"),
    Setting("window/state", bytes, b"", "Main window toolbars and docks"),
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
    Setting("workload/years", float, 3.0,
            "Years own hardware is amortised over in the workload cost"),
    Setting("what_fits/geometry", bytes, b"", "What-fits dialog geometry"),
    Setting("advisor/geometry", bytes, b"", "Advisor dialog geometry"),
    Setting("advisor/budget_usd", float, 0.0, "Budget last given to the advisor (0: none)"),
    Setting("advisor/deployment", str, "either", "Advisor: cloud, on-premise or either"),
    Setting("advisor/data_private", bool, False, "Advisor: the data must stay on premises"),
)}


class AppSettings:
    """Typed access to ``QSettings`` through the declarations above."""

    def __init__(self, qsettings: QSettings | None = None) -> None:
        self._q = qsettings or QSettings(ORG_NAME, APP_ID)

    def get(self, key: str) -> Any:
        setting = SETTINGS[key]
        raw = self._q.value(key, setting.default)
        if raw is None:
            return setting.default
        try:
            if setting.type is bytes:
                return bytes(raw) if not isinstance(raw, bytes) else raw
            if setting.type is list:
                if isinstance(raw, str):
                    return [raw] if raw else []
                return list(raw)
            if setting.type is bool:
                return raw in (True, "true", "1", 1)
            return setting.type(raw)
        except (TypeError, ValueError):
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
