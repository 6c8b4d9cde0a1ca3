"""Drag payloads: part ids under a vendor MIME type, resolved through the catalog on drop."""

from __future__ import annotations

from PySide6.QtCore import QMimeData

PART_MIME = "application/x-dlhw-part-id"


def part_ids_to_mime(part_ids: list[str]) -> QMimeData:
    mime = QMimeData()
    mime.setData(PART_MIME, "\n".join(part_ids).encode("utf-8"))
    mime.setText("\n".join(part_ids))
    return mime


def part_ids_from_mime(mime: QMimeData | None) -> list[str]:
    """The ids carried by a drag; empty when it carries none (or garbage)."""
    if mime is None or not mime.hasFormat(PART_MIME):
        return []
    try:
        text = bytes(mime.data(PART_MIME).data()).decode("utf-8")
    except UnicodeDecodeError:
        return []
    return [line.strip() for line in text.splitlines() if line.strip()][:64]
