"""``dlhw part``: figures you read from the box, for parts whose figure the catalog lacks.

``dlhw part set cooler/noctua-nh-u12s cooling_capacity_w 180`` keeps the figure in your
data ("your figure, <date>"); every check and estimate then uses it, wherever the part is
looked up (build files, ``dlhw check``, ``dlhw fit --build``, ``dlhw share``, the app).
"""

from __future__ import annotations

import argparse
import sys

from dlhw_desktop.commands.common import open_catalog, print_json
from dlhw_desktop.core.errors import UnknownPartError


def register(sub: argparse._SubParsersAction) -> None:
    part = sub.add_parser("part", help="your own figures for a part (from its box or page)")
    actions = part.add_subparsers(dest="part_command", metavar="ACTION", required=True)

    set_ = actions.add_parser("set", help="enter a figure the catalog lacks")
    set_.add_argument("id", help="part id, e.g. cooler/noctua-nh-u12s")
    set_.add_argument("field", help="the figure, by name or label, e.g. cooling_capacity_w "
                                    "or \"Rated heat capacity\" (dlhw part fields ID lists "
                                    "them)")
    set_.add_argument("value", help="e.g. 180, 3.1, yes, blower")
    set_.add_argument("--note", default="", help='where it is from, e.g. "box, 2026-11"')
    set_.set_defaults(func=cmd_set)

    list_ = actions.add_parser("list", help="the figures you entered")
    list_.add_argument("id", nargs="?", default=None, help="only this part's")
    list_.add_argument("--json", action="store_true", help="print JSON")
    list_.set_defaults(func=cmd_list)

    remove = actions.add_parser("remove", help="forget a figure you entered")
    remove.add_argument("id")
    remove.add_argument("field", nargs="?", default=None,
                        help="the figure to forget (default: all of the part's)")
    remove.set_defaults(func=cmd_remove)

    fields = actions.add_parser("fields", help="the figures you may enter for a part, with "
                                               "their ranges and current values")
    fields.add_argument("id")
    fields.set_defaults(func=cmd_fields)


def _resolver(args: argparse.Namespace):
    from dlhw_desktop.catalog.userparts import PartResolver

    return PartResolver(open_catalog(args))


def _report(store) -> None:
    if store.damaged:
        print(f"warning: {store.damaged}", file=sys.stderr)
    for problem in store.problems:
        print(f"warning: {problem}", file=sys.stderr)


def _part(resolver, part_id: str):
    part = resolver.find(part_id)
    if part is None:
        raise UnknownPartError(part_id)
    return part


def cmd_set(args: argparse.Namespace) -> int:
    from dlhw_desktop.core.parts import format_value
    from dlhw_desktop.core.user_figures import make_figure

    resolver = _resolver(args)
    part = _part(resolver, args.id)
    figure = make_figure(part, args.field, args.value, args.note)
    before = part.get(figure.field)
    resolver.user_figures.save([figure])
    _report(resolver.user_figures)
    was = "" if before is None else f" (was {format_value(figure.field, before)})"
    print(f"{part.display_name}: {figure.label} {format_value(figure.field, figure.value)}"
          f"{was}, your figure of {figure.entered}")
    return 0


def cmd_list(args: argparse.Namespace) -> int:
    from dlhw_desktop.catalog.user_figures_store import UserFiguresStore
    from dlhw_desktop.core.parts import format_value

    store = UserFiguresStore()
    figures = store.for_part(args.id) if args.id else store.figures()
    _report(store)
    if args.json:
        print_json({"figures": [f.to_dict() for f in figures],
                    "problems": store.problems, "damaged": store.damaged})
        return 0
    if not figures:
        print("no figures of yours yet: dlhw part set ID FIELD VALUE", file=sys.stderr)
        return 0
    for figure in figures:
        note = f"  {figure.note}" if figure.note else ""
        print(f"{figure.part_id}  {figure.label}: {format_value(figure.field, figure.value)}"
              f"  (entered {figure.entered}){note}")
    return 0


def cmd_remove(args: argparse.Namespace) -> int:
    from dlhw_desktop.catalog.user_figures_store import UserFiguresStore
    from dlhw_desktop.core.user_figures import UserFigureError

    store = UserFiguresStore()
    removed = store.remove(args.id, args.field)
    _report(store)
    if not removed:
        what = f"{args.field} of {args.id}" if args.field else f"any figure of {args.id}"
        raise UserFigureError(f"you have not entered {what} (dlhw part list shows yours)")
    print(f"removed {removed} figure{'s' if removed != 1 else ''} of {args.id}")
    return 0


def cmd_fields(args: argparse.Namespace) -> int:
    from dlhw_desktop.core.parts import format_value
    from dlhw_desktop.core.user_figures import range_text, settable_fields

    resolver = _resolver(args)
    part = _part(resolver, args.id)
    _report(resolver.user_figures)
    for spec in settable_fields(part.category):
        value = part.get(spec.name)
        kind = part.figure_kind(spec.name) if value is not None else ""
        shown = format_value(spec.name, value) + (f" ({kind})" if kind else "")
        print(f"{spec.name:32} {spec.label:28} {shown:24} {range_text(spec)}")
    return 0
