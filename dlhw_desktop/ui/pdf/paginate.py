"""Blocks -> pages: each block goes where it fits whole; nothing atomic is ever cut.

Rules, in order: spacing at the top of a page is dropped; a block that does not fit the
space left starts a new page (a text block taller than the space may instead split
between lines); a chain of ``keep_with_next`` blocks (a heading, a table header) moves
with the first block that follows it; a table row that starts a page brings its
table's header row with it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from dlhw_desktop.ui.pdf.blocks import Block, Spacer, TextBlock

MIN_SPLIT_SHARE = 0.2
"""Split a text block only when at least this share of the page is left for its head."""


@dataclass(frozen=True, slots=True)
class Placed:
    block: Block
    y: float
    """Offset from the top of the page's content area."""


def _chain_height(queue: Sequence[Block], start: int) -> float:
    """Height of ``queue[start]`` plus the blocks it must be kept with."""
    total = 0.0
    i = start
    while i < len(queue):
        block = queue[i]
        if isinstance(block, Spacer):
            total += block.height
            i += 1
            continue
        total += block.height
        if not block.keep_with_next:
            break
        i += 1
    return total


def paginate(blocks: Sequence[Block], page_height: float) -> list[list[Placed]]:
    pages: list[list[Placed]] = [[]]
    y = 0.0
    queue = list(blocks)
    i = 0

    def new_page() -> None:
        nonlocal y
        pages.append([])
        y = 0.0

    while i < len(queue):
        block = queue[i]
        if isinstance(block, Spacer):
            if pages[-1] and y + block.height < page_height:
                y += block.height
            i += 1
            continue
        if not pages[-1] and block.header is not None and block.header is not block:
            pages[-1].append(Placed(block.header, y))
            y += block.header.height
        need = _chain_height(queue, i)
        space = page_height - y
        if need <= space or (not pages[-1] and block.height <= space):
            pages[-1].append(Placed(block, y))
            y += block.height
            i += 1
            continue
        if isinstance(block, TextBlock) and (space >= page_height * MIN_SPLIT_SHARE
                                             or block.height > page_height):
            pieces = block.split(space)
            if pieces is not None:
                head, tail = pieces
                pages[-1].append(Placed(head, y))
                queue[i] = tail
                new_page()
                continue
        if pages[-1] and not _only_header(pages[-1]):
            new_page()
            continue
        # Alone on a page and still too tall: place it anyway (it is clipped by the page).
        pages[-1].append(Placed(block, y))
        y += block.height
        i += 1
    return [page for page in pages if page]


def _only_header(page: list[Placed]) -> bool:
    return len(page) == 1 and page[0].block.keep_with_next
