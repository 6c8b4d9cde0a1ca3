"""The assumptions the checks depend on: electricity price, utilisation and the circuit.

Read from and written to the declared settings (``build/...``); the planner reruns its
checks when they change.
"""

from __future__ import annotations

from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QLabel,
    QVBoxLayout,
    QWidget,
)

from dlhw_desktop.core.checks import MAINS, CheckSettings
from dlhw_desktop.ui.common.number_input import CountSpinBox, NumberSpinBox
from dlhw_desktop.ui.common.settings import AppSettings


def check_settings_from(settings: AppSettings) -> CheckSettings:
    """The stored assumptions; a damaged value falls back to the default, never crashes."""
    try:
        return CheckSettings(
            price_per_kwh_usd=float(settings.get("build/electricity_usd_per_kwh")),
            utilisation=float(settings.get("build/utilisation")),
            mains=str(settings.get("build/mains")),
        )
    except (TypeError, ValueError):
        return CheckSettings()


def store_check_settings(settings: AppSettings, values: CheckSettings) -> None:
    settings.set("build/electricity_usd_per_kwh", values.price_per_kwh_usd)
    settings.set("build/utilisation", values.utilisation)
    settings.set("build/mains", values.mains)


class CheckSettingsDialog(QDialog):
    def __init__(self, current: CheckSettings, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("check_settings_dialog")
        self.setWindowTitle("Check settings")
        self.price = NumberSpinBox(objectName="settings_price")
        self.price.setRange(0.0, 5.0)
        self.price.setDecimals(3)
        self.price.setSingleStep(0.01)
        self.price.setPrefix("$ ")
        self.price.setSuffix(" per kWh")
        self.price.setValue(current.price_per_kwh_usd)
        self.utilisation = CountSpinBox(objectName="settings_utilisation")
        self.utilisation.setRange(0, 100)
        self.utilisation.setSuffix(" % of the year at full load")
        self.utilisation.setValue(round(current.utilisation * 100))
        self.mains = QComboBox(objectName="settings_mains")
        for key, mains in MAINS.items():
            self.mains.addItem(f"{mains.label} ({mains.limit_w:,.0f} W continuous)", key)
        self.mains.setCurrentIndex(max(0, self.mains.findData(current.mains)))
        form = QFormLayout()
        form.addRow("Electricity price", self.price)
        form.addRow("Utilisation", self.utilisation)
        form.addRow("Household circuit", self.mains)
        note = QLabel("The energy cost per year and the wall-socket check use these. A "
                      "continuous load may use 80 % of a North American breaker's rating.")
        note.setWordWrap(True)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok
                                   | QDialogButtonBox.StandardButton.Cancel)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addLayout(form)
        layout.addWidget(note)
        layout.addWidget(buttons)

    def values(self) -> CheckSettings:
        return CheckSettings(price_per_kwh_usd=self.price.value(),
                             utilisation=self.utilisation.value() / 100.0,
                             mains=str(self.mains.currentData()))
