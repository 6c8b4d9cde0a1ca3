"""Errors of the workload estimators: bad input a user can correct."""

from __future__ import annotations

from dlhw_desktop.core.errors import DlhwError


class WorkloadError(DlhwError):
    """A workload that cannot be estimated as given."""


class UnknownModelError(WorkloadError, KeyError):
    """A model name that is not one of the presets."""

    def __init__(self, name: str, known: tuple[str, ...] = ()) -> None:
        super().__init__(name)
        self.name = name
        self.known = known

    def __str__(self) -> str:
        hint = f" (known: {', '.join(self.known)})" if self.known else ""
        return f"unknown model: {self.name!r}{hint}"


class UnknownPrecisionError(WorkloadError, KeyError):
    """A precision or weight-format name the estimators do not know."""

    def __init__(self, name: str, known: tuple[str, ...] = ()) -> None:
        super().__init__(name)
        self.name = name
        self.known = known

    def __str__(self) -> str:
        hint = f" (known: {', '.join(self.known)})" if self.known else ""
        return f"unknown precision: {self.name!r}{hint}"


class InvalidWorkloadError(WorkloadError, ValueError):
    """A number out of range (negative, zero where it must be positive) or a bad combination."""
