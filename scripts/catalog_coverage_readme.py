"""Write the coverage section of resources/catalog/README.md from a catalog (run after
`make catalog`): the table `dlhw catalog info --coverage --markdown` prints, between the
README's coverage markers.

    .venv/bin/python scripts/catalog_coverage_readme.py [--catalog catalog.db]
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
README = REPO / "resources" / "catalog" / "README.md"
START, END = "<!-- coverage:start -->", "<!-- coverage:end -->"


def main() -> int:
    sys.path.insert(0, str(REPO))
    from dlhw_desktop.catalog.coverage import SINCE_YEAR, coverage
    from dlhw_desktop.catalog.store import Catalog
    from dlhw_desktop.commands.coverage_cmds import coverage_markdown

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--catalog", type=Path, default=REPO / "catalog.db")
    args = parser.parse_args()
    catalog = Catalog.open(args.catalog)
    info = catalog.info()
    table = coverage_markdown(coverage(catalog), SINCE_YEAR,
                              f"catalog {info.catalog_version}, {info.total:,} parts, data as "
                              f"of {info.data_date}")
    text = README.read_text(encoding="utf-8")
    section = f"{START}\n{table}\n{END}"
    if START in text and END in text:
        text = text[:text.index(START)] + section + text[text.index(END) + len(END):]
    else:
        text = text.rstrip("\n") + "\n\n## Coverage: what the checks can judge\n" + section + "\n"
    README.write_text(text, encoding="utf-8")
    print(f"wrote the coverage section of {README}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
