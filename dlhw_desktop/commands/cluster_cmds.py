"""``dlhw cluster BUILD_OR_PLAN``: N nodes of a build, their fabric, racks, power, cost, time.

The input is a build file (``--nodes`` says how many) or a cluster plan file; options
override what a plan holds. ``-o PLAN`` saves the plan (atomically). Bad input ends with
one line naming the field and exit status 2 (``ClusterInputError`` is a ``DlhwError``).
"""

from __future__ import annotations

import argparse
import sys
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING

from dlhw_desktop.commands.common import (
    add_force,
    checked_output,
    open_catalog,
    print_json,
    warn_user_parts,
)

if TYPE_CHECKING:
    from dlhw_desktop.core.cluster.plan import GearPrice


def register(sub: argparse._SubParsersAction) -> None:
    from dlhw_desktop.core.cluster.fabric import FABRICS

    p = sub.add_parser(
        "cluster", help="plan a cluster of N nodes of a build: fabric, racks, power, cost, time",
        description="Plan N identical nodes of a build (or open a cluster plan): the compute "
                    "fabric's switches, cables and transceivers, racks, facility power, cost, "
                    "checkpoint time and time to train the build's workload.")
    p.add_argument("source", type=Path, help="a build (.dlhw.json) or a cluster plan")
    p.add_argument("--nodes", type=int, default=None, help="how many nodes")
    p.add_argument("--fabric", choices=list(FABRICS), default=None,
                   help="compute fabric (default ib-ndr: InfiniBand NDR 400 Gb/s)")
    p.add_argument("--rack-kw", type=float, default=None,
                   help="power limit per rack, kW")
    p.add_argument("--pue", type=float, default=None, help="facility PUE (default 1.3)")
    p.add_argument("--storage-write", type=float, default=None,
                   metavar="GB/S",
                   help="storage tier's aggregate write bandwidth")
    p.add_argument("--storage-read", type=float, default=None,
                   metavar="GB/S",
                   help="storage tier's aggregate read bandwidth")
    p.add_argument("--params", type=float, default=None,
                   help="model parameters (e.g. 70e9)")
    p.add_argument("--tokens", type=float, default=None, help="training tokens")
    p.add_argument("--mfu", type=float, default=None, help="model FLOPs utilisation, 0-1")
    p.add_argument("--no-overlap", action="store_true",
                   help="gradient exchange does not overlap the backward pass")
    p.add_argument("-o", "--output", type=Path, default=None, metavar="PLAN",
                   help="save the cluster plan to this file")
    p.add_argument("--markdown", type=Path, default=None, metavar="MD",
                   help="also write the cluster sheet as Markdown (bill of materials, racks, "
                        "fabric, power, cost, time)")
    add_force(p)
    p.add_argument("--json", action="store_true", help="print JSON")
    p.set_defaults(func=cmd_cluster)


def cmd_cluster(args: argparse.Namespace) -> int:
    from dlhw_desktop.catalog.userparts import PartResolver, UserParts
    from dlhw_desktop.core.build import buildfile
    from dlhw_desktop.core.cluster import planfile
    from dlhw_desktop.core.cluster.plan import ClusterInputError, ClusterSpec
    from dlhw_desktop.core.fields import Category
    from dlhw_desktop.core.files.atomic import write_atomic
    from dlhw_desktop.reports.cluster_sheet import (
        plan_for_build,
        sections,
        to_json,
        to_markdown,
    )

    # before any work: never over the build or plan read, the app's data, or a file
    if args.output is not None:
        checked_output(args, args.output, [args.source])
    if args.markdown is not None:
        checked_output(args, args.markdown, [args.source, args.output])
    catalog = open_catalog(args)
    resolve = PartResolver(catalog, UserParts())
    document = planfile.read_document(args.source)  # bounded, regular files only
    if planfile.is_plan(document):
        build, spec, warnings = planfile.from_dict(document, resolve)
    else:
        loaded = buildfile.from_dict(document, resolve)
        build, warnings = loaded.build, list(loaded.warnings)
        spec = ClusterSpec(nodes=args.nodes if args.nodes is not None else 1)
    warn_user_parts(resolve)  # the user's parts or price book, when not all was read
    for warning in warnings:
        print(f"dlhw: warning: {warning}", file=sys.stderr)
    changes: dict[str, object] = {}
    for option, name in (("nodes", "nodes"), ("fabric", "fabric"), ("rack_kw", "rack_kw"),
                         ("pue", "pue"), ("storage_write", "storage_write_gb_s"),
                         ("storage_read", "storage_read_gb_s"), ("params", "params"),
                         ("tokens", "tokens"), ("mfu", "mfu")):
        value = getattr(args, option)
        if value is not None:
            changes[name] = value
    if args.no_overlap:
        changes["overlap"] = False
    spec = replace(spec, **changes)  # each number checked by name (plan.SPEC_FIELDS) in
    # plan_for_build: --params 0, 1e308 or inf is one line naming Parameters (params)
    plan = plan_for_build(build, spec, catalog.parts(Category.CLOUD), _gear_prices(),
                          resolve.find)
    if args.output is not None:
        planfile.save(build, spec, args.output)
    if args.markdown is not None:
        try:
            write_atomic(args.markdown, to_markdown(plan, build.name).encode())
        except OSError as exc:
            raise ClusterInputError(f"cannot write {args.markdown.name}: "
                                    f"{exc.strerror or exc}") from None
    if args.json:
        print_json(to_json(plan))
        return 0
    for title, rows in sections(plan):
        print(title)
        width = max(len(label) for label, _ in rows) if rows else 0
        for label, value in rows:
            print(f"  {label:<{width}}  {value}")
    if args.output is not None:
        print(f"saved {args.output}")
    return 0


def _gear_prices() -> dict[str, GearPrice]:
    """The user's quotes for switches, cables and transceivers (a damaged price book is
    said once and leaves the network unpriced)."""
    from dlhw_desktop.catalog.price_store import PriceBook
    from dlhw_desktop.core.cluster.gear import gear_prices
    from dlhw_desktop.core.prices.book import PriceBookError

    book = PriceBook()  # rows left out were said with the build's parts
    try:
        return dict(gear_prices(book.prices(), book.rates()))
    except PriceBookError as exc:
        print(f"dlhw: warning: network prices not read: {exc}", file=sys.stderr)
        return {}
