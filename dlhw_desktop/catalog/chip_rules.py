"""Rules on GPU chip rows, applied after every chip figure is in and before board-partner
cards inherit them (a card takes its chip's figures as these rules leave them).

- **Regional (export) variants take their vendor-stated figures.** A cut-down variant
  (RTX 5090 D, 5090 D V2, 4090 D) is computed from its SM count and clock like its full
  chip, which overstates it where the cap is in firmware. ``rules/export_variants.csv``
  gives the variant's stated AI TOPS (or TPP) against its full chip's: its tensor figures
  are the full chip's x that ratio. An export variant the file does not list (a name ending
  in ``D`` or ``D V2`` after a model number) has no stated figure: its tensor figures stay
  empty, never the full chip's.
- **Multi-GPU boards say so.** ``board_gpus`` is the number of GPUs on one board (A16: 4),
  from ``rules/multi_gpu_boards.csv`` or a name that says two (``X2``, ``Duo``): memory,
  bandwidth and throughput are per GPU (what one model sees), the TDP is the board's.
- **Sparse is not dense.** A dense figure equal to (or above) its sparse figure is the
  sparse one filed as dense: it is left empty.
"""

from __future__ import annotations

import re
from typing import Any

from dlhw_desktop.catalog.rule_log import RuleLog, read_rule_file

TENSOR_FIELDS = ("tf32_tensor_tflops", "bf16_tensor_tflops", "fp16_tensor_tflops",
                 "fp8_tensor_tflops", "int8_tops", "fp4_tensor_tflops",
                 "fp16_tensor_tflops_sparse", "fp8_tensor_tflops_sparse", "int8_tops_sparse")
SPARSE_PAIRS = (("fp16_tensor_tflops", "fp16_tensor_tflops_sparse"),
                ("fp8_tensor_tflops", "fp8_tensor_tflops_sparse"),
                ("int8_tops", "int8_tops_sparse"))
EXPORT_FILE = "export_variants.csv"
EXPORT_COLUMNS = ("part_id", "full_part_id", "stated_ai_tops", "full_ai_tops", "source",
                  "source_date", "note")
BOARDS_FILE = "multi_gpu_boards.csv"
BOARD_COLUMNS = ("part_id", "board_gpus", "source", "source_date", "note")
# "GeForce RTX 5090 D", "GeForce RTX 5090 D V2", "RTX 6000D": NVIDIA's China variants.
EXPORT_NAME = re.compile(r"\d\s?D(?:\s+V\d+)?$")
# "Radeon R9 295X2", "FirePro S9300 x2", "Radeon Pro Duo", "GeForce GTX 760 X2".
TWO_GPU_NAME = re.compile(r"\d\s?X2\b|\bx2$|\bDuo\b|\bHD 7990\b|\bGTX 690\b|\bTITAN Z\b",
                          re.IGNORECASE)

Parts = dict[str, dict[str, Any]]
Sources = dict[tuple[str, str], tuple[str, ...]]


def apply_chip_rules(parts: Parts, figure_sources: Sources, sources_dir: Any,
                     log: RuleLog) -> None:
    export_variants(parts, figure_sources, read_rule_file(sources_dir, EXPORT_FILE,
                                                          EXPORT_COLUMNS), log)
    multi_gpu_boards(parts, figure_sources, read_rule_file(sources_dir, BOARDS_FILE,
                                                           BOARD_COLUMNS), log)
    sparse_not_dense(parts, figure_sources, log)


def _chips(parts: Parts) -> list[dict[str, Any]]:
    return [parts[k] for k in sorted(parts)
            if parts[k]["category"] == "accelerator" and not parts[k].get("chip_id")]


def export_variants(parts: Parts, figure_sources: Sources, rows: list[dict[str, str]],
                    log: RuleLog) -> None:
    stated: dict[str, dict[str, str]] = {}
    for row in rows:
        if row["part_id"] not in parts or row["full_part_id"] not in parts:
            log.report(row["_origin"], row["part_id"], "export variant",
                       "the variant or its full chip is not in the catalog")
            continue
        try:
            ratio = float(row["stated_ai_tops"]) / float(row["full_ai_tops"])
        except (ValueError, ZeroDivisionError):
            log.report(row["_origin"], row["part_id"], "export variant",
                       "stated_ai_tops and full_ai_tops must be numbers above zero")
            continue
        stated[row["part_id"]] = row
        variant, full = parts[row["part_id"]], parts[row["full_part_id"]]
        for name in TENSOR_FIELDS:
            value = full.get(name)
            if value is None:
                variant[name] = None
                figure_sources.pop((variant["id"], name), None)
                continue
            variant[name] = round(float(value) * ratio, 1)
            figure_sources[(variant["id"], name)] = (
                variant["id"], name, row["source"], row["source_date"],
                f"computed from {full['name']}'s {value:g} x {row['stated_ai_tops']}/"
                f"{row['full_ai_tops']} (the stated AI TOPS / TPP of the two; {row['note']}) "
                "(estimate)")
        log.change("export variant: tensor figures scaled to its stated AI TOPS",
                   f"{variant['id']} x{ratio:.3f}")
    for chip in _chips(parts):
        if (chip["id"] in stated or chip.get("vendor") != "NVIDIA"
                or not EXPORT_NAME.search(chip["name"])):
            continue
        cleared = [n for n in TENSOR_FIELDS if chip.get(n) is not None]
        for name in cleared:
            chip[name] = None
            figure_sources.pop((chip["id"], name), None)
        if cleared:
            log.change("export variant without a stated figure: tensor figures left empty",
                       f"{chip['id']} ({len(cleared)} figures)")


def multi_gpu_boards(parts: Parts, figure_sources: Sources, rows: list[dict[str, str]],
                     log: RuleLog) -> None:
    listed: dict[str, dict[str, str]] = {}
    for row in rows:
        if row["part_id"] not in parts or not row["board_gpus"].isdigit():
            log.report(row["_origin"], row["part_id"], "multi-GPU board",
                       "not a part in the catalog, or board_gpus is not a whole number")
            continue
        listed[row["part_id"]] = row
    for chip in _chips(parts):
        row = listed.get(chip["id"])
        if row is not None:
            gpus = int(row["board_gpus"])
            source = (row["source"], row["source_date"], row["note"])
        elif TWO_GPU_NAME.search(chip["name"]):
            gpus = 2
            source = (chip["source"], chip["source_date"],
                      "inferred from the name (X2 / Duo boards carry two GPUs); the "
                      "memory, bandwidth and FP32 figures are one GPU's")
        else:
            continue
        if gpus < 2:
            continue
        chip["board_gpus"] = gpus
        figure_sources[(chip["id"], "board_gpus")] = (chip["id"], "board_gpus", *source)
        said = (f"{gpus} GPUs on one board: memory, bandwidth and throughput are per GPU, "
                "TDP is the whole board's")
        chip["dl_note"] = "; ".join(x for x in (said, chip.get("dl_note")) if x)
        log.change("multi-GPU board: GPU count set, figures per GPU",
                   f"{chip['id']} ({gpus} GPUs)")


def sparse_not_dense(parts: Parts, figure_sources: Sources, log: RuleLog) -> None:
    for chip in _chips(parts):
        for dense, sparse in SPARSE_PAIRS:
            d, s = chip.get(dense), chip.get(sparse)
            if d is None or s is None or float(d) < 0.99 * float(s):
                continue
            chip[dense] = None
            figure_sources.pop((chip["id"], dense), None)
            log.change("sparse figure filed as dense: dense left empty",
                       f"{chip['id']} {dense} {d:g} (sparse {s:g})")
