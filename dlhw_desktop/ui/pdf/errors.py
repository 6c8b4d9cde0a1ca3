"""What can go wrong when a sheet is written, as errors a user can act on."""

from __future__ import annotations

from dlhw_desktop.core.errors import DlhwError


class SheetExportError(DlhwError):
    """The sheet could not be written (folder, permissions, disk space, a locked file)."""


class SheetFontError(SheetExportError):
    """The bundled font cannot be used: the PDF would show boxes instead of text."""
