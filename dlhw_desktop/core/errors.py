"""The project's own errors: narrow, each with a message a user can act on."""

from __future__ import annotations


class DlhwError(Exception):
    """Base of every error the program reports to a user instead of a traceback."""


class CatalogError(DlhwError):
    """The catalog file is missing, unreadable, corrupt or of the wrong schema."""


class UnknownPartError(DlhwError, KeyError):
    """A part id that the catalog (and the user's own parts) does not hold."""

    def __init__(self, part_id: str) -> None:
        super().__init__(part_id)
        self.part_id = part_id

    def __str__(self) -> str:
        return f"unknown part id: {self.part_id!r}"


class CatalogSourceError(DlhwError):
    """A curated source file under resources/catalog/ is malformed."""


class BuildFileError(DlhwError):
    """A build file that cannot be read: malformed, not a build, or a newer version."""
