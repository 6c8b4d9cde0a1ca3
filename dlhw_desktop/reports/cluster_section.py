"""A cluster plan as the cluster section of the build sheet (pure data, already text).

What someone buying N servers reads: the bill of materials (identical items once, with a
count), the racks, the fabric tier by tier, power and cooling, what it costs, how long the
build's workload takes on it, and where the figures come from. The PDF draws it
(``ui/pdf/cluster_blocks``); any other renderer can. Unknown figures read "n/a", never 0.

    section = cluster_section(plan, build.name)
    sheet = dataclasses.replace(build_sheet, cluster=section)
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from dlhw_desktop.core.cluster.fabric import SUPERPOD_B200
from dlhw_desktop.core.cluster.plan import RACK_UNITS, ClusterPlan
from dlhw_desktop.core.field_values import code_label
from dlhw_desktop.core.formatting import NA
from dlhw_desktop.reports.cluster_sheet import number_text, training_rows, usd_text

Pair = tuple[str, str]


@dataclass(frozen=True, slots=True)
class ClusterTable:
    """A titled table: headers, one alignment per column ("left"/"right"), rows of text."""

    title: str
    headers: tuple[str, ...]
    aligns: tuple[str, ...]
    shares: tuple[float, ...]
    """Each column's share of the table's width (they add up to 1)."""
    rows: tuple[tuple[str, ...], ...]
    total: tuple[str, ...] = ()
    """An emphasised last row (a sum), or () for none."""
    note: str = ""


@dataclass(frozen=True, slots=True)
class ClusterSection:
    title: str
    summary: tuple[tuple[str, str, str], ...]
    """Headline figures: (label, value, note)."""
    tables: tuple[ClusterTable, ...]
    assumptions: tuple[str, ...]
    sources: tuple[str, ...]

    def texts(self) -> Iterator[str]:
        yield self.title
        for figure in self.summary:
            yield from figure
        for table in self.tables:
            yield from (table.title, table.note, *table.headers, *table.total)
            for row in table.rows:
                yield from row
        yield from self.assumptions
        yield from self.sources




def _bom(plan: ClusterPlan) -> ClusterTable:
    rows = []
    total = 0.0
    missing = 0
    for item, count, price in plan.bill_of_materials():
        subtotal = price * count if price is not None else None
        if subtotal is None:
            missing += 1
        else:
            total += subtotal
        rows.append((item, f"{count:,}", usd_text(price), usd_text(subtotal)))
    label = "Total" if not missing else f"Known total ({missing} item(s) without a price)"
    known = total if missing < len(rows) else None
    return ClusterTable(
        "Bill of materials", ("Item", "Count", "Unit price", "Subtotal"),
        ("left", "right", "right", "right"), (0.55, 0.13, 0.16, 0.16), tuple(rows),
        (label, "", "", usd_text(known)),
        "Identical items appear once with their count. Switch, cable and transceiver "
        "prices: n/a where the catalog has no sourced price (never counted as zero).")


def _racks(plan: ClusterPlan) -> ClusterTable:
    node = plan.node
    full, rest = divmod(plan.spec.nodes, plan.nodes_per_rack)
    rows: list[tuple[str, ...]] = []
    per_node_kw = node.power_w / 1000 if node.power_w is not None else None
    height = node.rack_units

    def rack_row(kind: str, racks: int, nodes: int) -> tuple[str, ...]:
        used = f"{nodes * height:g} of {RACK_UNITS} U" if height else NA
        kw = number_text(per_node_kw * nodes if per_node_kw is not None else None, " kW", 1)
        return (kind, f"{racks:,}", f"{nodes}x {node.name}", used, kw,
                code_label(node.cooling) if node.cooling else NA)

    if full:
        rows.append(rack_row("Compute rack", full, plan.nodes_per_rack))
    if rest:
        rows.append(rack_row("Compute rack (part-filled)", 1, rest))
    if plan.network_rack_units is not None:
        racks = -(-plan.network_rack_units // RACK_UNITS)
        rows.append(("Network rack", f"{racks:,}",
                     f"{plan.network.switches:,}x {plan.fabric.switch.name}",
                     f"{plan.network_rack_units:,} U in all", NA, "air"))
    else:
        rows.append(("Network rack", NA, f"{plan.network.switches:,}x "
                     f"{plan.fabric.switch.name}", "switch height not in the catalog", NA,
                     NA))
    return ClusterTable(
        "Racks", ("Rack", "Racks", "Contents, per rack", "Height used", "Power per rack",
                  "Cooling"),
        ("left", "right", "left", "right", "right", "left"),
        (0.23, 0.07, 0.3, 0.13, 0.15, 0.12), tuple(rows),
        note=f"Limit {plan.spec.rack_kw:g} kW per rack; {RACK_UNITS}U racks. Switch power "
             "is not counted (not in the catalog).")


def _fabric(plan: ClusterPlan) -> ClusterTable:
    net, sw = plan.network, plan.fabric.switch
    rows: list[tuple[str, ...]] = [
        ("Node NIC ports", "", f"{net.endpoints:,}",
         f"{net.endpoints // plan.spec.nodes} per node, {plan.fabric.gb_s} Gb/s"),
        ("Leaf", f"{net.leaves:,}", f"{net.node_leaf_cables:,}",
         "node to leaf, one rail per GPU" if plan.node.gpus > 1 else "node to leaf")]
    if net.spines:
        rows.append(("Spine", f"{net.spines:,}", f"{net.leaf_spine_cables:,}",
                     "leaf to spine (non-blocking)"))
    if net.core:
        rows.append(("Core", f"{net.core:,}", f"{net.spine_core_cables:,}",
                     "spine to core (non-blocking)"))
    rows.append(("Transceivers", "", f"{net.transceivers:,}",
                 f"every link optical; {sw.ports_per_cage} port(s) per switch cage"))
    return ClusterTable(
        f"Fabric: {plan.fabric.label}, {net.tiers} tier(s)",
        ("Tier", "Switches", "Cables / ports", "What it connects"),
        ("left", "right", "right", "left"), (0.2, 0.13, 0.17, 0.5), tuple(rows),
        ("Total", f"{net.switches:,}", f"{net.cables:,} cables", f"{sw.name}, "
         f"{sw.ports} x {sw.port_gb_s} Gb/s"),
        "Rail-optimised fat tree as in NVIDIA's DGX SuperPOD reference architecture.")


def _pairs(title: str, rows: list[Pair], note: str = "") -> ClusterTable:
    return ClusterTable(title, ("", ""), ("left", "left"), (0.3, 0.7), tuple(rows), note=note)


def _power(plan: ClusterPlan) -> ClusterTable:
    node = plan.node
    return _pairs("Power and cooling", [
        ("Node power", f"{number_text(node.power_w, ' W')} ({node.power_basis})"),
        ("IT power", number_text(plan.it_kw, " kW", 1)),
        ("Facility power", f"{number_text(plan.facility_kw, ' kW', 1)} at PUE {plan.spec.pue:g}"),
        ("Heat to remove", number_text(plan.heat_btu_h, " BTU/h")),
        ("Cooling", code_label(node.cooling) if node.cooling else NA),
        ("Floor (rack footprint)", number_text(plan.floor_m2, " m²", 1)),
        ("Energy per year", f"{number_text(plan.yearly_kwh, ' kWh')} at "
                            f"{plan.spec.utilisation:.0%} use"),
    ])


def _cost(plan: ClusterPlan) -> ClusterTable:
    node = plan.node
    return _pairs("Cost", [
        ("Nodes", f"{usd_text(plan.capex_known_usd)} ({node.price_basis})" if node.price_usd
                  else f"{NA}: {node.price_basis}"),
        ("Network", f"{usd_text(plan.network_capex_usd)} ({plan.network_price_basis})"
                    if plan.network_capex_usd is not None
                    else f"{NA}: {plan.network_price_basis}"),
        ("Total capex", usd_text(plan.capex_usd)),
        ("Energy per year", f"{usd_text(plan.yearly_energy_usd)} at "
                            f"${plan.spec.price_per_kwh_usd:g}/kWh"),
    ])


def _time(plan: ClusterPlan) -> ClusterTable | None:
    rows = training_rows(plan)
    if rows is None:
        return None
    return _pairs("Time to train the build's workload", rows,
                  "The build's job timed as the Workload panel times it on one node, the "
                  "nodes as data-parallel copies when one node holds the job (else 6ND "
                  "split over the fewest nodes that hold it), plus the exposed ring "
                  "all-reduce over each GPU's own NIC.")


def _storage(plan: ClusterPlan) -> ClusterTable | None:
    if plan.checkpoint_bytes is None and plan.spec.storage_write_gb_s is None:
        return None
    return _pairs("Storage", [
        ("Checkpoint", number_text(plan.checkpoint_bytes / 1e12 if plan.checkpoint_bytes else None,
                          " TB", 2) + " (14 bytes per parameter)"),
        ("Write bandwidth", number_text(plan.spec.storage_write_gb_s, " GB/s")),
        ("Time to write a checkpoint", number_text(plan.checkpoint_write_s, " s", 1)),
    ])


def cluster_section(plan: ClusterPlan, build_name: str) -> ClusterSection:
    """The plan as the sheet's cluster section; constant size whatever the node count."""
    t = plan.training
    summary = (
        ("Nodes", f"{plan.spec.nodes:,}", plan.node.name),
        ("GPUs", f"{plan.gpus:,}", plan.node.gpu.display_name),
        ("IT power", number_text(plan.it_kw, " kW", 1),
         f"{number_text(plan.facility_kw, ' kW', 0)} at PUE {plan.spec.pue:g}"),
        ("Racks", f"{plan.compute_racks:,}", f"{plan.nodes_per_rack} nodes each"),
        ("Capex", usd_text(plan.capex_usd if plan.capex_usd is not None
                       else (plan.capex_known_usd or None)),
         "nodes and network" if plan.capex_usd is not None
         else "nodes only, network n/a" if plan.capex_known_usd else "prices missing"),
        ("Time to train", f"{t.days:,.1f} days" if t is not None else NA,
         "the build's workload" if t is not None else "no workload set"),
    )
    tables = [_bom(plan), _racks(plan), _fabric(plan), _power(plan), _cost(plan)]
    tables += [x for x in (_storage(plan), _time(plan)) if x is not None]
    sources = [f"Switch: {plan.fabric.switch.name}: {plan.fabric.switch.source}",
               f"Topology and counts: NVIDIA DGX SuperPOD reference architecture: "
               f"{SUPERPOD_B200}"]
    sources += list(plan.price_sources)
    return ClusterSection(f"Cluster: {plan.spec.nodes:,} nodes of {build_name}",
                          summary, tuple(tables), plan.assumptions, tuple(sources))
