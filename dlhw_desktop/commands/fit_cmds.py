"""``dlhw fit`` (memory, verdict, time and cost of a workload) and ``dlhw models``."""

from __future__ import annotations

import argparse
import math
import re
import sys
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

from dlhw_desktop.commands.common import (
    bounded_int,
    finite_float,
    open_catalog,
    print_json,
    warn_user_parts,
)
from dlhw_desktop.commands.fit_serving import (
    add_serving_arguments,
    check_serving_flags,
    print_serving,
)
from dlhw_desktop.core import limits
from dlhw_desktop.core.build.build import Build, quantity_limit
from dlhw_desktop.core.errors import UnknownPartError
from dlhw_desktop.core.fields import Category
from dlhw_desktop.core.formatting import gib
from dlhw_desktop.core.parts import Part
from dlhw_desktop.core.verdict import grouped
from dlhw_desktop.core.workload.build_workload import BuildWorkload
from dlhw_desktop.core.workload.comparison import OwnVsRent
from dlhw_desktop.core.workload.cost_text import cost_figures
from dlhw_desktop.core.workload.errors import InvalidWorkloadError
from dlhw_desktop.core.workload.fit import (
    CostAssumptions,
    FitResult,
    fit,
)
from dlhw_desktop.core.workload.fit_ranking import rank_fits
from dlhw_desktop.core.workload.mapping import (
    ARCHITECTURE_KEYS,
    has_workload,
    parse_count,
    workload_to_dict,
)
from dlhw_desktop.core.workload.memory import MemoryEstimate, estimate_memory
from dlhw_desktop.core.workload.model_files import (
    LoadedModel,
    load_model_file,
    looks_like_model_file,
)
from dlhw_desktop.core.workload.model_presets import presets
from dlhw_desktop.core.workload.precision import WEIGHT_FORMATS, format_label
from dlhw_desktop.core.workload.serving import ServingEstimate, serving_for_fit
from dlhw_desktop.core.workload.workload import (
    MODES,
    OPTIMIZERS,
    SERVING_STACK_KEYS,
    STRATEGIES,
    Workload,
    recipe_text,
)

EXIT_FAILED_CHECK = 1


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "fit", help="memory, verdict, time and cost of a model on some GPUs",
        description="Estimate the GPU memory of a workload (bytes per GPU, item by item), "
        "the verdict per GPU (pass <= 90 %% of its memory, warn <= 100 %%, fail above), the "
        "training time or serving speed, and the cost. Exit status 1 when a GPU fails.")
    which = p.add_mutually_exclusive_group()
    which.add_argument("--model", metavar="NAME|PATH",
                       help="a preset (see 'dlhw models'), or a model on disk: a GGUF "
                       "file, a Hugging Face folder or its config.json, a .safetensors "
                       "file (headers only are read); with --build, default: the build "
                       "file's workload")
    which.add_argument("--params", metavar="N", type=_count,
                       help="a custom model's parameter count (8e9, 8B, 125M)")
    arch = p.add_argument_group("custom architecture (with --params)")
    for flag, name in (("--layers", "L"), ("--hidden", "H"), ("--heads", "A"),
                       ("--kv-heads", "K"), ("--head-dim", "D"), ("--vocab", "V"),
                       ("--context", "C")):
        arch.add_argument(flag, type=bounded_int(1), metavar=name)
    arch.add_argument("--active-params", type=_count, metavar="N",
                      help="mixture of experts: parameters used per token")
    p.add_argument("--mode", choices=MODES, help="default inference")
    p.add_argument("--precision", metavar="P",
                   help="weights (inference) or compute (training): "
                   + ", ".join(WEIGHT_FORMATS) + " (default BF16; bitsandbytes 4-bit: NF4 "
                   "is the library default, 4.5 bits, NF4-DQ with double quantisation, "
                   "4.127 bits; QLoRA takes either, default NF4)")
    p.add_argument("--batch", type=bounded_int(1), metavar="B",
                   help="concurrent sequences (inference) or micro-batch per GPU (training), "
                   "default 1")
    p.add_argument("--seq", type=bounded_int(1), metavar="S", help="tokens per sequence")
    p.add_argument("--tokens", type=_count, metavar="D",
                   help="dataset tokens to train on, or tokens to generate")
    p.add_argument("--samples", type=_count, metavar="N",
                   help="dataset size in samples (images) instead of tokens")
    p.add_argument("--mfu", type=finite_float, metavar="M",
                   help="model FLOPs utilisation, 0-1 (default: fitted on published runs)")
    p.add_argument("--optimizer", choices=OPTIMIZERS,
                   help="default: the mode's recipe (paged-adamw for qlora, else adamw)")
    p.add_argument("--fp32-grads", action="store_true", help="keep gradients in fp32")
    recompute = p.add_mutually_exclusive_group()
    recompute.add_argument("--checkpointing", action="store_true",
                           help="activation checkpointing (default: on for lora and qlora, "
                           "as their recipes run; off for full training)")
    recompute.add_argument("--no-checkpointing", action="store_true",
                           help="no activation checkpointing, whatever the mode's recipe")
    p.add_argument("--checkpoint-every", type=int, metavar="N",
                   help="with --checkpointing, recompute every N-th layer only (default 1)")
    p.add_argument("--no-flash-attention", action="store_true",
                   help="store the attention scores (no FlashAttention/SDPA)")
    p.add_argument("--lora-rank", type=bounded_int(1), metavar="R", help="default 16")
    p.add_argument("--lora-dropout", type=finite_float, metavar="P",
                   help="LoRA dropout (default 0; above 0 each adapted module keeps a "
                   "copy of its input)")
    p.add_argument("--loss-chunks", type=bounded_int(1, 4096), metavar="N",
                   help="training loss computed in N chunks (default 1, as transformers; "
                   "8 as torchtune's chunked cross-entropy)")
    p.add_argument("--kv-precision", metavar="P",
                   help="KV cache precision (default BF16; FP8, Q8_0, Q4_0 ...)")
    p.add_argument("--serving", choices=SERVING_STACK_KEYS,
                   help="serving stack for the achievable decode speed (default llama.cpp "
                   "for GGUF formats, else vllm)")
    add_serving_arguments(p)
    gpus = p.add_mutually_exclusive_group()
    gpus.add_argument("--gpus", action="append", metavar="ID[xN]",
                      help="accelerator part id with an optional count, e.g. "
                      "accelerator/nvidia-geforce-rtx-4090x2 (repeatable)")
    gpus.add_argument("--build", type=Path, metavar="FILE",
                      help="use the accelerators of a saved build file, and its workload "
                      "where no flag overrides it")
    gpus.add_argument("--rank", type=bounded_int(1, 1000), nargs="?", const=10, metavar="N",
                      help="list the N cheapest catalog options that fit (default 10)")
    p.add_argument("--strategy", choices=STRATEGIES,
                   help="how several GPUs share the work (default: tp for inference, "
                   "zero3 for training)")
    p.add_argument("--offload", action="store_true",
                   help="offload optimizer state and gradients to CPU memory")
    cost = p.add_argument_group("cost assumptions")
    cost.add_argument("--electricity", type=finite_float, default=None, metavar="USD_PER_KWH")
    cost.add_argument("--pue", type=finite_float, default=None)
    cost.add_argument("--years", type=finite_float, default=None, help="amortisation period")
    cost.add_argument("--utilisation", type=finite_float, default=None, metavar="U",
                      help="share of the year the machine works (0-1)")
    p.add_argument("--json", action="store_true", help="print JSON")
    p.set_defaults(func=cmd_fit)

    m = sub.add_parser("models", help="list the model presets")
    m.add_argument("--json", action="store_true", help="print JSON")
    m.set_defaults(func=cmd_models)


MAX_COUNT_VALUE = 1e18
"""Parameters, tokens or samples: a quintillion is beyond any model or dataset."""


def _count(text: str) -> float:
    """``8e9``, ``8B``, ``125m``, ``1.5T`` -> a number (argparse type)."""
    try:
        value = parse_count(text)
    except InvalidWorkloadError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None
    if not math.isfinite(value) or not 0 < value <= MAX_COUNT_VALUE:
        raise argparse.ArgumentTypeError(f"{text[:40]!r} is not a count from 1 to "
                                         f"{MAX_COUNT_VALUE:.0e}")
    return value


_MODEL_KEYS = ("model", "model_name", "params", "active_params", *ARCHITECTURE_KEYS)


def _flags_mapping(args: argparse.Namespace) -> dict[str, Any]:
    """The flags the user gave, as a workload mapping (``core.workload.mapping``)."""
    data: dict[str, Any] = {
        "model": args.model, "params": args.params, "active_params": args.active_params,
        **{key: getattr(args, key) for key in ARCHITECTURE_KEYS},
        "mode": args.mode, "precision": args.precision, "batch": args.batch,
        "seq": args.seq, "tokens": args.tokens, "samples": args.samples,
        "optimizer": args.optimizer, "lora_rank": args.lora_rank,
        "kv_precision": args.kv_precision, "mfu": args.mfu, "strategy": args.strategy,
        "serving": args.serving, "loss_chunks": args.loss_chunks,
        "lora_dropout": args.lora_dropout, "checkpoint_every": args.checkpoint_every,
        "input_tokens": args.input_tokens, "output_tokens": args.output_tokens,
        "users": args.users, "target_tps": args.target_tps, "target_ttft": args.target_ttft,
    }
    # store_true flags: only a flag that was given overrides a saved value
    if args.fp32_grads:
        data["fp32_grads"] = True
    if args.checkpointing:
        data["checkpointing"] = True
    if getattr(args, "no_checkpointing", False):
        data["checkpointing"] = False
    if args.no_flash_attention:
        data["flash_attention"] = False
    if args.offload:
        data["cpu_offload"] = True
    return {key: value for key, value in data.items() if value is not None}


def _planned_workload(args: argparse.Namespace,
                      saved: BuildWorkload | None = None) -> BuildWorkload:
    """The build file's workload as it is, or the flags over it (a model flag replaces its
    model), parsed once."""
    flags = _flags_mapping(args)
    if saved is not None and saved.error and not flags:
        raise InvalidWorkloadError(f"the build's workload cannot be estimated: {saved.error}")
    if saved is not None and saved.workload is not None and not flags:
        return saved
    base = saved.to_mapping() if saved is not None else {}
    if "model" in flags or "params" in flags:
        for key in _MODEL_KEYS:
            base.pop(key, None)
    merged = {**base, **flags}
    if not has_workload(merged):
        raise InvalidWorkloadError(
            "give --model or --params (or a --build file that has a workload)")
    return BuildWorkload.from_mapping(merged)


def _assumptions(args: argparse.Namespace, build: Build | None = None) -> CostAssumptions:
    """``core.checks.own_cost.job_assumptions``: the function the app's panel, the sheet
    and the share text use too."""
    from dlhw_desktop.core.checks.own_cost import job_assumptions

    if args.electricity is not None and args.electricity < 0:
        raise InvalidWorkloadError(f"electricity price must be >= 0, got {args.electricity!r}")
    for name, value in (("pue", args.pue), ("years", args.years),
                        ("utilisation", args.utilisation)):
        if value is not None and value <= 0:
            raise InvalidWorkloadError(f"{name} must be positive, got {value!r}")
    return job_assumptions(build, electricity_usd_per_kwh=args.electricity,
                           utilisation=args.utilisation, years=args.years, pue=args.pue)


_GPU_SPEC = re.compile(r"^(?P<id>.+?)\s*(?:[x*:])\s*(?P<n>\d+)$")


Finder = Callable[[str], "Part | None"]


def part_finder(catalog: Any) -> Finder:
    """Look ids up in the catalog, then in the user's own parts (``custom/...`` ids)."""
    from dlhw_desktop.catalog.userparts import PartResolver

    return PartResolver(catalog).find


def parse_gpu_spec(spec: str, find: Finder) -> tuple[Part, int]:
    """``ID``, ``IDxN``, ``ID:N`` or ``ID*N`` -> (part, N); the ``accelerator/`` prefix is
    optional. An id that itself ends in x and digits is matched whole first."""
    def lookup(part_id: str) -> Part | None:
        for candidate in (part_id, f"accelerator/{part_id}"):
            part = find(candidate)
            if part is not None:
                return part
        return None

    text = spec.strip()
    whole = lookup(text)
    if whole is not None:
        return _accelerator(whole), 1
    match = _GPU_SPEC.match(text)
    if match:
        digits = match.group("n")
        count = int(digits) if len(digits) <= 12 else limits.MAX_CLOUD_UNITS + 1
        if count < 1:
            raise InvalidWorkloadError(f"GPU count must be at least 1 in {spec!r}")
        part = lookup(match.group("id"))
        if part is not None:
            kind = quantity_limit(part)
            if count > kind.most:
                asked = digits if len(digits) > 12 else count
                raise InvalidWorkloadError(f"{spec[:80]}: {kind.message(asked)}")
            return _accelerator(part), count
    raise UnknownPartError(text)


def _accelerator(part: Part) -> Part:
    if part.category is not Category.ACCELERATOR:
        raise InvalidWorkloadError(f"{part.id} is a {part.category.label}, not an accelerator")
    return part


def _load_build(path: Path, find: Finder) -> Build:
    """A saved build (``core.buildfile``); its warnings go to stderr."""
    from dlhw_desktop.core.build import buildfile

    loaded = buildfile.load(path, find)
    warn_user_parts(getattr(find, "__self__", None))
    for warning in loaded.warnings:
        print(f"dlhw: warning: {warning}", file=sys.stderr)
    return loaded.build


def _build_accelerators(path: Path, build: Build) -> list[tuple[Part, int]]:
    pairs = [(item.part, item.quantity) for item in build.accelerators]
    if not pairs:
        raise InvalidWorkloadError(f"{path.name}: the build has no accelerators")
    return pairs


def _model_file(args: argparse.Namespace) -> LoadedModel | None:
    """``--model PATH``: the model read from disk (its warnings to stderr); the flags then
    carry its parameter count so the rest of the command treats it as a custom model."""
    if not args.model or not looks_like_model_file(args.model):
        return None
    loaded = load_model_file(args.model)
    for warning in loaded.warnings:
        print(f"dlhw: warning: {warning}", file=sys.stderr)
    args.model = None
    args.params = loaded.model.params
    return loaded


def cmd_fit(args: argparse.Namespace) -> int:
    build: Build | None = None
    find: Finder | None = None
    if args.gpus or args.build:
        find = part_finder(open_catalog(args))
    if args.build:
        assert find is not None
        build = _load_build(args.build, find)
    loaded = _model_file(args)
    if loaded is not None and args.precision is None and loaded.precision:
        args.precision = loaded.precision  # the format the file stores its weights in
    planned = _planned_workload(args, build.workload if build is not None else None)
    workload = planned.workload
    assert workload is not None  # _planned_workload raised otherwise
    check_serving_flags(args, workload, find is not None)
    serving: ServingEstimate | None = None
    if loaded is not None:
        workload = replace(workload, model=loaded.model)
        planned = planned.with_workload(workload)
    assumptions = _assumptions(args, build)
    data: dict[str, Any] = {"workload": _workload_dict(workload),
                            "model": workload.model.to_dict()}
    if loaded is not None:
        data["model_file"] = {k: v for k, v in loaded.to_dict().items() if k != "model"}
    result: FitResult | None = None
    comparison: OwnVsRent | None = None
    if find is not None:
        if build is not None and args.build:
            accelerators = _build_accelerators(args.build, build)
        else:
            accelerators = [parse_gpu_spec(s, find) for s in args.gpus]
        count = sum(n for _, n in accelerators)
        result = fit(workload, accelerators,
                     planned.parallelism(count),
                     assumptions=assumptions)
        memory = result.memory
        data.update(result.to_dict())
        comparison = _comparison(args, result, workload, assumptions, accelerators, find)
        data["own_vs_rent"] = comparison.to_dict()
        if planned.serving.is_set:  # asked by a serving flag or the build file
            serving = serving_for_fit(result, planned.serving,
                                      open_catalog(args).parts(Category.CLOUD))
        data["serving"] = None if serving is None else serving.to_dict()
    else:
        memory = estimate_memory(workload, planned.parallelism(1))
        data["memory"] = memory.to_dict()
    ranking = None
    if args.rank is not None:
        if args.rank < 1:
            raise InvalidWorkloadError("--rank must be at least 1")
        catalog = open_catalog(args)
        ranking = rank_fits(workload, catalog.parts(Category.ACCELERATOR, chips_only=True),
                            catalog.parts(Category.CLOUD), strategy=args.strategy,
                            assumptions=assumptions)[: args.rank]
        data["ranking"] = [o.to_dict() for o in ranking]
    if args.json:
        print_json(data)
    else:
        _print_text(workload, memory, result, ranking, comparison)
        if serving is not None:
            print_serving(serving)
    if result is not None and result.status == "fail":
        return EXIT_FAILED_CHECK
    return 0


def _workload_dict(w: Workload) -> dict[str, Any]:
    """The saved form (``workload_to_dict``) plus what follows from it."""
    return {**workload_to_dict(w), "weights_format": w.base_format,
            "compute_precision": w.compute, "seq": w.seq_len,
            "tokens": w.tokens, "samples": w.samples}


_GPU_NUMBER = re.compile(r" #(\d+)\b")



def _comparison(args: argparse.Namespace, result: FitResult, workload: Workload,
                assumptions: CostAssumptions, accelerators: list[tuple[Part, int]],
                find: Finder) -> OwnVsRent:
    """Own against the like-for-like rental, as the panel and the sheet compute it."""
    from dlhw_desktop.core.checks.own_cost import compare_job

    catalog = open_catalog(args)
    return compare_job(result, workload, assumptions,
                       catalog.parts(Category.ACCELERATOR, chips_only=True),
                       catalog.parts(Category.CLOUD), accelerators[0][0], find)


def _print_text(workload: Workload, memory: MemoryEstimate, result: FitResult | None,
                ranking: list[Any] | None, comparison: OwnVsRent | None = None) -> None:
    out = sys.stdout.write
    model = workload.model
    recipe = (f", {recipe_text(workload.checkpointing, workload.optimizer, workload.mode)}"
              if workload.training else "")
    out(f"{model.name}: {workload.mode}, {format_label(workload.base_format)}, "
        f"batch {workload.batch}, {workload.seq_len} tokens/sample{recipe}\n")
    out(f"Memory per GPU ({memory.parallel.describe()}):\n")
    width = max(len(i.label) for i in memory.items)
    for item in memory.items:
        amount = "unknown" if item.bytes is None else f"{item.bytes:>17,.0f} B"
        out(f"  {item.label:<{width}}  {amount:>19}  {gib(item.bytes):>11}  {item.note}\n")
    total = f"{memory.per_gpu_bytes:>17,.0f} B"
    bound = "" if memory.complete else "  (lower bound)"
    out(f"  {'Total':<{width}}  {total:>19}  {gib(memory.per_gpu_bytes):>11}{bound}\n")
    for item in memory.host_items:
        out(f"  host RAM: {item.label} {gib(item.bytes)}\n")
    for note in (result.notes if result else memory.notes):
        out(f"  note: {note}\n")
    if result is not None:
        out("Verdict:\n")
        for check, _ in grouped(result.checks):  # one line for N identical GPUs
            out(f"  {check.status.upper():<7} {check.message}\n")
            if check.suggestion:
                out(f"          try: {check.suggestion}\n")
        if result.training is not None:
            t = result.training
            out(f"Time (estimate): {t.flops:.3g} FLOPs ({t.rule}) -> {t.hours:,.1f} h "
                f"({t.days:,.2f} days, {t.gpu_hours:,.0f} GPU-hours) at {t.mfu:.0%} MFU, "
                f"{t.mfu_basis}" + (f"; {t.scaling}" if t.scaling else "") + "\n")
        elif result.inference is not None and result.inference.tokens_per_s:
            i = result.inference
            out(f"Speed: {i.describe()}\n")
            extra = []
            if i.compute_bound_tokens_per_s:
                extra.append(f"compute bound {i.compute_bound_tokens_per_s:,.0f} tokens/s")
            if i.time_to_first_token_s is not None:
                extra.append(f"prefill {i.prefill_tokens_per_s:,.0f} tokens/s, first token "
                             f"after {i.time_to_first_token_s:,.2f} s for {i.prompt_tokens:,} "
                             "prompt tokens")
            if extra:
                out("       " + "; ".join(extra) + "\n")
            if i.samples_per_s:
                out(f"       ~{i.samples_per_s:,.1f} samples/s\n")
        elif result.status == "fail":
            out("Time and cost: none, the job does not fit\n")
        elif workload.training and workload.tokens is None and workload.samples is None:
            out("Time: give --tokens (or --samples) for a training time\n")
        if result.job_hours is not None:
            out(f"Job: {result.job_hours:,.2f} h\n")
        if comparison is not None:
            for figure in cost_figures(comparison):
                out(f"{figure.label}: {figure.value}"
                    + (f" ({figure.note})" if figure.note else "") + "\n")
        if result.usd_per_million_tokens is not None:
            out(f"Cost per million tokens at batch {workload.batch}: "
                f"${result.usd_per_million_tokens:,.3f}\n")
    if ranking is not None:
        out("What fits (cheapest first):\n")
        if not ranking:
            out("  nothing in the catalog fits with up to 8 GPUs\n")
        for option in ranking:
            cost = "n/a" if option.cost_usd is None else f"${option.cost_usd:,.0f}"
            fraction = "" if option.fraction is None else f"{option.fraction:.0%} "
            out(f"  {option.status.upper():<7} {option.kind:<5} {option.label}: {cost} "
                f"({option.cost_basis}); {fraction}of memory  [{option.part_id}]\n")


def cmd_models(args: argparse.Namespace) -> int:
    models = presets()
    if args.json:
        print_json([m.to_dict() for m in models])
        return 0
    width = max(len(m.key) for m in models)
    for m in models:
        params = f"{m.params / 1e9:,.2f}B" if m.params >= 1e9 else f"{m.params / 1e6:,.0f}M"
        extra = []
        if m.is_moe:
            extra.append(f"{m.compute_params / 1e9:,.1f}B active")
        if m.layers:
            extra.append(f"{m.layers} layers")
        if m.attention != "n/a":
            extra.append(f"{m.attention} {m.heads}/{m.kv_heads_effective} heads")
        if m.context:
            extra.append(f"context {m.context:,}")
        print(f"{m.key:<{width}}  {m.name}: {params} {m.kind}"
              + (f" ({', '.join(extra)})" if extra else ""))
    return 0
