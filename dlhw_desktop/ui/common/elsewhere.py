"""Where typed words match when the current category has nothing: "No match here —
5 in Power supplies" with links that go there (the Catalog tab and the Build tab's picker
say it the same way)."""

from __future__ import annotations

from html import escape

from dlhw_desktop.catalog.part_query import PartQuery
from dlhw_desktop.catalog.store import Catalog
from dlhw_desktop.core.fields import Category

CATEGORY_LINK = "category:"
ALL_LINK = "category:all"


def elsewhere_text(catalog: Catalog, text: str, here: Category | None,
                   lead: str = "No match here") -> str:
    """Rich text: ``lead`` and up to two categories holding matches for ``text`` (most
    first, as links), then all of them; "Nothing matches …" when none do."""
    found: list[tuple[int, Category]] = []
    if here is not None:
        for category in Category:
            if category is not here:
                count = catalog.count(PartQuery(category=category, text=text))
                if count:
                    found.append((count, category))
    if not found:
        return f"Nothing matches “{escape(text.strip())}”"
    found.sort(key=lambda pair: -pair[0])
    links = [f"<a href='{CATEGORY_LINK}{c.value}'>{n:,} in {escape(c.plural)}</a>"
             for n, c in found[:2]]
    more = (f", <a href='{ALL_LINK}'>all {sum(n for n, _ in found):,}</a>"
            if len(found) > 2 else "")
    return f"{escape(lead)} — {', '.join(links)}{more}"


def linked_category(link: str) -> tuple[bool, Category | None]:
    """``(True, category)`` for a category link of ``elsewhere_text`` (``None``: All
    parts); ``(False, None)`` for any other link."""
    if not link.startswith(CATEGORY_LINK):
        return False, None
    if link == ALL_LINK:
        return True, None
    try:
        return True, Category(link[len(CATEGORY_LINK):])
    except ValueError:
        return False, None
