"""A cluster plan as sections of (label, value) rows and a JSON-ready dict.

Shared by ``dlhw cluster`` (text and JSON) and the Cluster tab: one place decides what a
plan shows and how its numbers read. Unknown figures read "n/a"; identical nodes, GPUs,
switches, cables and transceivers appear once, with a count.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import asdict, replace
from typing import Any

from dlhw_desktop.core.build.build import Build
from dlhw_desktop.core.checks.own_cost import fit_job, job_assumptions
from dlhw_desktop.core.checks.settings import CheckSettings
from dlhw_desktop.core.cluster.node import node_from_build
from dlhw_desktop.core.cluster.own import own_vs_rent
from dlhw_desktop.core.cluster.plan import (
    ClusterPlan,
    ClusterSpec,
    GearPrice,
    check_numbers,
    plan_cluster,
)
from dlhw_desktop.core.field_values import code_label
from dlhw_desktop.core.formatting import NA, duration, markdown_text, money
from dlhw_desktop.core.parts import Part
from dlhw_desktop.core.workload.errors import WorkloadError
from dlhw_desktop.core.workload.fit_ranking import cheapest_cloud, rank_fits
from dlhw_desktop.core.workload.precision import peak_flops
from dlhw_desktop.core.workload.workload import DEFAULT_MFU

Section = tuple[str, list[tuple[str, str]]]


def with_build_workload(spec: ClusterSpec, build: Build) -> ClusterSpec:
    """The build's own workload fills what the spec leaves open (params, tokens, and the
    MFU when the user set their own)."""
    workload = build.workload.workload
    if workload is None:
        return spec
    return replace(spec, params=spec.params or workload.model.params,
                   tokens=spec.tokens or workload.tokens,
                   mfu=spec.mfu if spec.mfu is not None or workload.mfu == DEFAULT_MFU
                   else workload.mfu,  # left at the default: the fitted MFU (plan)
                   precision=workload.precision)


def plan_for_build(build: Build, spec: ClusterSpec, cloud_offers: Sequence[Part] = (),
                   gear_prices: Mapping[str, GearPrice] | None = None,
                   find: Callable[[str], Part | None] | None = None) -> ClusterPlan:
    """N nodes of ``build``: the one call the CLI and the Cluster tab make. With ``find``
    (the catalog's), a job that fits one node is rented like for like: the cloud offer
    the Workload panel compares the build with."""
    check_numbers(spec)  # before the build's workload fills what is open: 0 is not "open"
    spec = with_build_workload(spec, build)
    check_numbers(spec)  # the workload's own figures and precision
    node = node_from_build(build)
    job = None
    if build.workload.workload is not None and build.workload.workload.training:
        try:
            job = fit_job(build, settings=CheckSettings(
                price_per_kwh_usd=spec.price_per_kwh_usd, utilisation=spec.utilisation))
        except WorkloadError:
            job = None
    settings = CheckSettings(price_per_kwh_usd=spec.price_per_kwh_usd,
                             utilisation=spec.utilisation)
    pairs = [(i.part, i.quantity) for i in build.accelerators]
    node_own = job_assumptions(build, settings, pue=spec.pue).own(pairs)
    offer = None
    if job is not None and find is not None and job.status != "fail":
        ids = {o.text("accelerator_id") for o in cloud_offers} - {""}
        accelerators = [p for p in (find(i) for i in sorted(ids)) if p is not None]
        options = rank_fits(job.workload, accelerators, cloud_offers, max_gpus=1,
                            include_own=False)
        offer = cheapest_cloud(options, node.gpu, find)
    return plan_cluster(spec, node, cloud_offers, peak_flops(node.gpu, spec.precision),
                        gear_prices, job, offer, node_own)


def number_text(value: float | None, unit: str = "", digits: int = 0) -> str:
    """A plan figure as a sheet shows it; unknown is "n/a"."""
    return NA if value is None else f"{value:,.{digits}f}{unit}"


def usd_text(value: float | None) -> str:
    return NA if value is None else f"${value:,.0f}"




def _finite(value: float, digits: int) -> str:
    """A figure, or "n/a" where the arithmetic gave no number (never "inf" or "nan")."""
    return f"{value:,.{digits}f}" if math.isfinite(value) else NA


def gpu_hours_text(hours: float) -> str:
    """GPU-hours in a unit that shows the figure: "0.4 GPU-hours", "5,120 GPU-hours",
    "2.46 million GPU-hours" (a small job read "0.00 M GPU-hours")."""
    if not math.isfinite(hours):
        return f"{NA} GPU-hours"
    if hours >= 1e6:
        return f"{hours / 1e6:,.2f} million GPU-hours"
    if hours >= 100:
        return f"{hours:,.0f} GPU-hours"
    return f"{hours:,.2g} GPU-hours" if hours < 1 else f"{hours:,.1f} GPU-hours"


def _days(seconds: float) -> str:
    """A duration in the unit that shows it ("3.2 h", "1.1 days"; not "0.0 days")."""
    return duration(seconds / 3600) if math.isfinite(seconds) else NA


def training_rows(plan: ClusterPlan) -> list[tuple[str, str]] | None:
    """Time to train the build's workload on the cluster and the same job rented; ``None``
    when the build has no workload to time."""
    t = plan.training
    if t is None:
        return None
    rows = [("Time to train", f"{_days(t.total_s)} ({gpu_hours_text(t.gpu_hours(plan.gpus))})"),
            ("Compute", _days(t.compute_s)),
            ("Gradient exchange", f"{_days(t.exchange_s)}, "
                                  f"{_days(t.exposed_s)} exposed"),
            ("Scaling model", t.model)]
    if plan.cloud is not None:
        c = plan.cloud
        rows.append(("Rented instead", f"{usd_text(c.cost_usd)}: {c.instances:,}x "
                                       f"{c.offer.display_name} for {c.hours:,.0f} h; it "
                                       f"qualifies: {c.why}"))
    else:
        rows.append(("Rented instead", f"{NA} (no priced on-demand offer of this GPU with "
                                       "the GPUs per instance a model copy needs)"))
    return rows + own_rows(plan)


def own_rows(plan: ClusterPlan) -> list[tuple[str, str]]:
    """Owning the cluster per hour, one run and the break-even against renting the same
    work: the Workload panel's arithmetic (``cost``), "at least" while a price is missing."""
    own = plan.own
    if own is None:
        return [("Own per hour", f"{NA} (a GPU's price or power is unknown)")]
    bound = "" if own.complete else "at least "
    run, per_hour, even = _own_vs_rent(plan)
    rows = [("Own per hour", f"{bound}{money(own.usd_per_hour, 'h')}: {bound}"
                             f"{usd_text(own.price_usd)} ({own.price_basis}) over "
                             f"{own.years:g} years at {own.utilisation:.0%} use + energy at "
                             f"{own.power_w / 1000:,.1f} kW, PUE {own.pue:g}, "
                             f"${own.electricity_usd_per_kwh:g}/kWh")]
    if own.unpriced:
        rows.append(("Without a price", f"{len(own.unpriced)}: {', '.join(own.unpriced)}"))
    if run is not None:
        rows.append(("One run owned", f"{bound}{money(run)}"))
    if even is not None:
        rows.append(("Break-even", "never (renting the same work costs less than the "
                     "energy)" if even.months is None else
                     f"{bound}{even.months:,.1f} months ({bound}{even.hours:,.0f} h of use; "
                     f"renting the same work costs {money(per_hour, 'h')})"))
    return rows


def sections(plan: ClusterPlan) -> list[Section]:
    node, net, sw = plan.node, plan.network, plan.fabric.switch
    out: list[Section] = [
        ("Nodes", [
            ("Node", f"{plan.spec.nodes:,}x {node.name}"),
            ("GPUs", f"{plan.gpus:,}x {node.gpu.display_name} ({node.gpus} per node)"),
            ("Node power", f"{number_text(node.power_w, ' W')} ({node.power_basis})"),
            ("Node height", number_text(node.rack_units, " U")),
            ("Cooling", code_label(node.cooling) if node.cooling else "n/a"),
        ]),
        ("Fabric", [
            ("Fabric", f"{plan.fabric.label}, rail-optimised fat tree, {net.tiers} tier(s)"),
            ("NIC ports", f"{net.endpoints:,} ({net.endpoints // plan.spec.nodes} per node)"),
            ("Switches", f"{net.switches:,}x {sw.name} ({sw.ports} x {sw.port_gb_s} Gb/s): "
                         f"{net.leaves:,} leaf, {net.spines:,} spine, {net.core:,} core"),
            ("Cables", f"{net.cables:,}: {net.node_leaf_cables:,} node-leaf, "
                       f"{net.leaf_spine_cables:,} leaf-spine, {net.spine_core_cables:,} "
                       "spine-core"),
            ("Transceivers", f"{net.transceivers:,} (every link optical)"),
        ]),
        ("Racks and facility", [
            ("Compute racks", f"{plan.compute_racks:,} ({plan.nodes_per_rack} nodes, "
                              f"{number_text(plan.rack_kw_used, ' kW', 1)} each; limit "
                              f"{plan.spec.rack_kw:g} kW)"),
            ("Network rack units", number_text(plan.network_rack_units, " U")),
            ("IT power", number_text(plan.it_kw, " kW", 1)),
            ("Facility power",
             f"{number_text(plan.facility_kw, ' kW', 1)} at PUE {plan.spec.pue:g}"),
            ("Heat", number_text(plan.heat_btu_h, " BTU/h")),
            ("Floor (rack footprint)", number_text(plan.floor_m2, " m²", 1)),
            ("Energy per year", f"{number_text(plan.yearly_kwh, ' kWh')}, "
                                f"{usd_text(plan.yearly_energy_usd)} at "
                                f"${plan.spec.price_per_kwh_usd:g}/kWh, "
                                f"{plan.spec.utilisation:.0%} use"),
        ]),
        ("Cost", [
            ("Nodes", f"{usd_text(plan.capex_known_usd) if node.price_usd else 'n/a'} "
                      f"({node.price_basis})"),
            ("Network", f"{usd_text(plan.network_capex_usd)} ({plan.network_price_basis})"),
            ("Total capex", usd_text(plan.capex_usd)),
        ]),
    ]
    checkpoint_tb = plan.checkpoint_bytes / 1e12 if plan.checkpoint_bytes else None
    storage = [("Checkpoint", number_text(checkpoint_tb, " TB", 2) + " (14 bytes/parameter)"),
               ("Write bandwidth", number_text(plan.spec.storage_write_gb_s, " GB/s")),
               ("Read bandwidth", number_text(plan.spec.storage_read_gb_s, " GB/s")),
               ("Time to write a checkpoint", number_text(plan.checkpoint_write_s, " s", 1))]
    out.append(("Storage", storage))
    rows = training_rows(plan)
    if rows is not None:
        out.append(("Time and rent", rows))
    out.append(("Assumptions", [(str(i + 1), a) for i, a in enumerate(plan.assumptions)]))
    return out


def to_json(plan: ClusterPlan) -> dict[str, Any]:
    node, net = plan.node, plan.network
    t = plan.training
    return {
        "cluster": asdict(plan.spec),
        "node": {"name": node.name, "count": plan.spec.nodes, "gpu_id": node.gpu.id,
                 "gpu": node.gpu.display_name, "gpus_per_node": node.gpus,
                 "power_w": node.power_w, "power_basis": node.power_basis,
                 "rack_units": node.rack_units, "cooling": node.cooling,
                 "price_usd": node.price_usd, "price_basis": node.price_basis},
        "gpus": plan.gpus,
        "fabric": {"key": plan.fabric.key, "label": plan.fabric.label,
                   "switch": plan.fabric.switch.name, "switch_ports": plan.fabric.switch.ports,
                   "tiers": net.tiers, "endpoints": net.endpoints, "leaf": net.leaves,
                   "spine": net.spines, "core": net.core, "switches": net.switches,
                   "cables": {"node_leaf": net.node_leaf_cables,
                              "leaf_spine": net.leaf_spine_cables,
                              "spine_core": net.spine_core_cables, "total": net.cables},
                   "transceivers": net.transceivers, "source": plan.fabric.switch.source},
        "bill_of_materials": [{"item": i, "count": c, "unit_price_usd": p}
                              for i, c, p in plan.bill_of_materials()],
        "racks": {"compute": plan.compute_racks, "nodes_per_rack": plan.nodes_per_rack,
                  "kw_per_rack": plan.rack_kw_used, "network_rack_units": plan.network_rack_units,
                  "floor_m2": plan.floor_m2},
        "power": {"it_kw": plan.it_kw, "facility_kw": plan.facility_kw,
                  "heat_btu_h": plan.heat_btu_h, "yearly_kwh": plan.yearly_kwh,
                  "yearly_energy_usd": plan.yearly_energy_usd},
        "cost": {"capex_usd": plan.capex_usd, "nodes_usd": plan.capex_known_usd or None,
                 "network_usd": plan.network_capex_usd,
                 "network_basis": plan.network_price_basis},
        "storage": {"checkpoint_bytes": plan.checkpoint_bytes,
                    "checkpoint_write_s": plan.checkpoint_write_s},
        "training": None if t is None else {
            "days": t.days, "gpu_hours": t.gpu_hours(plan.gpus), "compute_s": t.compute_s,
            "exchange_s": t.exchange_s, "exposed_s": t.exposed_s, "steps": t.steps,
            "replicas": t.replicas, "nodes_per_replica": t.nodes_per_replica, "model": t.model},
        "own": None if plan.own is None else plan.own.to_dict(),
        "own_vs_rent": dict(zip(("own_run_usd", "rent_usd_per_hour", "break_even"),
                                _own_vs_rent_json(plan), strict=True)),
        "cloud": None if plan.cloud is None else {
            "offer_id": plan.cloud.offer.id, "instances": plan.cloud.instances,
            "hours": plan.cloud.hours, "cost_usd": plan.cloud.cost_usd,
            "why": plan.cloud.why},
        "assumptions": list(plan.assumptions),
    }


def _own_vs_rent(plan: ClusterPlan) -> tuple[Any, Any, Any]:
    return own_vs_rent(plan.own, plan.training.total_s if plan.training else None,
                       plan.cloud.cost_usd if plan.cloud else None)


def _own_vs_rent_json(plan: ClusterPlan) -> tuple[Any, Any, Any]:
    run, per_hour, even = _own_vs_rent(plan)
    return run, per_hour, None if even is None else even.to_dict()


def to_markdown(plan: ClusterPlan, title: str) -> str:
    """The sheet as Markdown: a bill of materials, then every section as a table."""
    lines = [f"# Cluster plan: {markdown_text(title)}", "",
             f"{plan.spec.nodes:,} nodes, {plan.gpus:,} GPUs, {plan.fabric.label}.", "",
             "## Bill of materials", "", "| Item | Count | Unit price |", "|---|---:|---:|"]
    for item, count, price in plan.bill_of_materials():
        lines.append(f"| {markdown_text(item)} | {count:,} | {usd_text(price)} |")
    for name, rows in sections(plan):
        lines += ["", f"## {name}", "", "| | |", "|---|---|"]
        lines += [f"| {markdown_text(label)} | {markdown_text(value)} |"
                  for label, value in rows]
    lines += ["", f"Switch figures: {plan.fabric.switch.name}, {plan.fabric.switch.source}",
              "Fabric topology: NVIDIA DGX SuperPOD reference architecture (rail-optimised, "
              "non-blocking fat tree).", ""]
    return "\n".join(lines)
