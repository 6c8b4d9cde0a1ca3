"""Fit verdicts per GPU, ranking of what fits, and the advisor's three proposals."""

from __future__ import annotations

import pytest

from dlhw_desktop.core.fields import Category
from dlhw_desktop.core.parts import Part
from dlhw_desktop.core.verdict import CheckResult
from dlhw_desktop.core.workload.advisor import QUESTIONS, Answers, advise
from dlhw_desktop.core.workload.errors import InvalidWorkloadError
from dlhw_desktop.core.workload.fit import fit, memory_status, vram_bytes
from dlhw_desktop.core.workload.fit_ranking import rank_fits
from dlhw_desktop.core.workload.memory import GiB
from dlhw_desktop.core.workload.model_presets import preset
from dlhw_desktop.core.workload.workload import Parallelism, Workload


def accelerator(part_id: str, name: str, *, memory_gb: float | None, bandwidth: float | None,
                bf16: float | None, price: float | None, tdp: int | None = 300,
                vendor: str = "NVIDIA", **specs: float | str) -> Part:
    figures: dict[str, float | int | str | bool | None] = {
        "memory_gb": memory_gb, "memory_bandwidth_gb_s": bandwidth,
        "bf16_tensor_tflops": bf16, "fp16_tensor_tflops": bf16, "tdp_w": tdp,
        "form_factor": "pcie",
    }
    figures.update(specs)
    return Part(id=f"accelerator/{part_id}", category=Category.ACCELERATOR, vendor=vendor,
                name=name, source="test", source_date="2025-01-01", price_usd=price,
                specs=figures)


# NVIDIA datasheets: RTX 4090 (24 GB, 1008 GB/s, 165 dense BF16 with FP32 accumulate),
# A100 80GB (2039 GB/s, 312 dense BF16), H100 SXM (80 GB, 3350 GB/s, 989 dense BF16).
RTX_4090 = accelerator("rtx-4090", "GeForce RTX 4090", memory_gb=24, bandwidth=1008,
                       bf16=165.2, price=1599, tdp=450, int8_tops=660.6)
RTX_3060 = accelerator("rtx-3060", "GeForce RTX 3060 12 GB", memory_gb=12, bandwidth=360,
                       bf16=51.2, price=329, tdp=170)
A100_80 = accelerator("a100-80", "A100 SXM4 80 GB", memory_gb=80, bandwidth=2039, bf16=312,
                      price=15000, tdp=400)
H100_SXM = accelerator("h100-sxm", "H100 SXM5 80 GB", memory_gb=80, bandwidth=3350,
                       bf16=989.4, price=30000, tdp=700, form_factor="sxm")
NO_MEMORY = accelerator("mystery", "Mystery card", memory_gb=None, bandwidth=None, bf16=None,
                        price=100)
TPU = accelerator("tpu", "TPU", memory_gb=95, bandwidth=2765, bf16=459, price=None,
                  vendor="Google", form_factor="cloud", market_segment="cloud")


def cloud(part_id: str, accelerator_id: str, count: int, per_hour: float) -> Part:
    return Part(id=f"cloud/{part_id}", category=Category.CLOUD, vendor="Cloud Co",
                name=part_id, source="test", source_date="2025-01-01",
                specs={"accelerator_id": accelerator_id, "accelerator_count": count,
                       "price_per_hour_usd": per_hour, "provider": "Cloud Co"})


CLOUD_H100X8 = cloud("h100x8", H100_SXM.id, 8, 98.32)
CLOUD_A100X1 = cloud("a100x1", A100_80.id, 1, 3.67)
CLOUD_4090 = cloud("4090x1", RTX_4090.id, 1, 0.69)

ACCELERATORS = (RTX_4090, RTX_3060, A100_80, H100_SXM, NO_MEMORY, TPU)
CLOUD = (CLOUD_H100X8, CLOUD_A100X1, CLOUD_4090)
LLAMA_8B = preset("llama-3.1-8b")


# --- verdict ------------------------------------------------------------------------


def test_thresholds() -> None:
    vram = 24 * GiB
    assert memory_status(0.90 * vram, vram) == "pass"
    assert memory_status(0.91 * vram, vram) == "warn"
    assert memory_status(1.00 * vram, vram) == "warn"
    assert memory_status(1.01 * vram, vram) == "fail"
    assert memory_status(0.50 * vram, None) == "unknown"
    # a lower bound never passes, but can still fail
    assert memory_status(0.50 * vram, vram, complete=False) == "unknown"
    assert memory_status(1.50 * vram, vram, complete=False) == "fail"


def test_vram_is_binary() -> None:
    assert vram_bytes(RTX_4090) == 24 * 2**30
    assert vram_bytes(NO_MEMORY) is None


def test_llama_8b_bf16_fits_a_4090_and_the_check_joins_the_planner() -> None:
    result = fit(Workload(LLAMA_8B, seq=4096), [(RTX_4090, 1)])
    (check,) = result.checks
    assert isinstance(check, CheckResult)
    assert check.kind == "workload" and check.status == "pass"
    assert check.part_ids == (RTX_4090.id,)
    assert "GiB" in check.message and "24.0 GiB" in check.message
    assert check.figures["weights_bytes"] == 16_060_000_000
    assert check.figures["vram_bytes"] == 24 * 2**30
    assert result.inference is not None and result.inference.bound == "memory"


def test_full_training_of_8b_fails_on_a_4090_with_a_suggestion() -> None:
    result = fit(Workload(LLAMA_8B, "training", tokens=1e9), [(RTX_4090, 1)])
    assert result.status == "fail"
    assert "checkpointing" in result.checks[0].suggestion
    # a job that does not fit gets no time and no cost (issue #19)
    assert result.training is None and result.job_hours is None and result.cost is None
    assert any("does not fit" in n for n in result.notes)


def test_one_verdict_per_gpu_and_mixed_gpus_follow_the_slowest() -> None:
    w = Workload(LLAMA_8B, "qlora", tokens=1e8, checkpointing=True, seq=2048)
    result = fit(w, [(RTX_4090, 1), (RTX_3060, 1)])
    assert len(result.checks) == 2
    assert [c.part_ids[0] for c in result.checks] == [RTX_4090.id, RTX_3060.id]
    assert result.training is not None
    assert result.training.peak_flops_per_gpu == pytest.approx(51.2e12)


def test_costs_of_own_and_cloud() -> None:
    w = Workload(LLAMA_8B, "lora", tokens=1e8, checkpointing=True, seq=2048)
    own = fit(w, [(A100_80, 1)])
    assert own.own is not None and own.cost is not None
    assert own.own.price_usd == 15000
    assert own.cost.own_usd == pytest.approx(own.job_hours * own.own.usd_per_hour)
    rented = fit(w, [(A100_80, 1)], cloud_offering=CLOUD_A100X1)
    assert rented.cost is not None
    assert rented.cost.cloud_usd == pytest.approx(rented.job_hours * 3.67)


def test_bad_fit_input() -> None:
    with pytest.raises(InvalidWorkloadError):
        fit(Workload(LLAMA_8B), [(RTX_4090, 0)])
    with pytest.raises(InvalidWorkloadError):
        fit(Workload(LLAMA_8B), [])
    with pytest.raises(InvalidWorkloadError):
        fit(Workload(LLAMA_8B), [(RTX_4090, 2)], Parallelism(4, "tp"))


# --- ranking ------------------------------------------------------------------------


def test_rank_finds_the_smallest_count_and_sorts_by_cost() -> None:
    w = Workload(preset("llama-3.1-70b"), precision="Q4_K_M", seq=4096)
    options = rank_fits(w, ACCELERATORS, CLOUD)
    own = {o.accelerator.id: o for o in options if o.kind == "own"}
    # 43 GiB of weights + cache: two 24 GiB cards are tight, four pass; one A100 passes
    assert own[RTX_4090.id].count == 4 and own[RTX_4090.id].status == "pass"
    assert own[A100_80.id].count == 1
    assert TPU.id not in own and NO_MEMORY.id not in own  # not buyable / no memory figure
    costs = [o.cost_usd for o in options if o.cost_usd is not None]
    assert costs == sorted(costs)
    assert all(o.status in ("pass", "warn") for o in options)
    # the cloud 4090 (one card) cannot hold it; the cloud A100 can
    cloud_ids = {o.part_id for o in options if o.kind == "cloud"}
    assert CLOUD_A100X1.id in cloud_ids and CLOUD_4090.id not in cloud_ids
    record = own[A100_80.id].to_dict()
    assert record["part_id"] == A100_80.id and record["count"] == 1


def test_rank_costs_cloud_by_job_hours() -> None:
    w = Workload(LLAMA_8B, "qlora", tokens=1e8, checkpointing=True, seq=2048)
    options = rank_fits(w, ACCELERATORS, CLOUD)
    a100 = next(o for o in options if o.part_id == CLOUD_A100X1.id)
    assert a100.job_hours is not None
    assert a100.cost_usd == pytest.approx(a100.job_hours * 3.67)


def test_tensor_parallel_counts_divide_the_heads() -> None:
    # 70B has 64 heads: 3 GPUs cannot split them, so the 3060 jumps from 4 to 8
    w = Workload(preset("llama-3.1-70b"), precision="Q4_K_M", seq=4096)
    options = rank_fits(w, [RTX_3060])
    assert options and options[0].count in (4, 8)


def test_nothing_fits() -> None:
    w = Workload(preset("llama-3.1-405b"), "training", tokens=1e9)
    assert rank_fits(w, [RTX_3060]) == []


# --- advisor ------------------------------------------------------------------------


def test_the_advisor_asks_the_seed_articles_questions() -> None:
    keys = [q.key for q in QUESTIONS]
    assert keys == ["model", "batch", "mode", "budget", "deployment", "data_private"]


def test_three_proposals_with_reasons() -> None:
    answers = Answers(Workload(LLAMA_8B, "qlora", tokens=5e8, seq=2048, checkpointing=True))
    advice = advise(answers, ACCELERATORS, CLOUD)
    assert len(advice.proposals) == 3
    assert len({(p.option.kind, p.option.accelerator.id) for p in advice.proposals}) == 3
    kinds = {p.option.kind for p in advice.proposals}
    assert kinds == {"own", "cloud"}
    for proposal in advice.proposals:
        assert proposal.reasons
        assert "GiB" in proposal.reasons[0]


def test_private_data_keeps_everything_on_premises() -> None:
    answers = Answers(Workload(LLAMA_8B, "qlora", tokens=5e8, seq=2048, checkpointing=True),
                      data_private=True)
    advice = advise(answers, ACCELERATORS, CLOUD)
    assert advice.proposals
    assert all(p.option.kind == "own" for p in advice.proposals)
    assert any("premises" in r for p in advice.proposals for r in p.reasons)
    assert any("cloud offerings left out" in n for n in advice.notes)


def test_budget_limits_the_proposals() -> None:
    answers = Answers(Workload(LLAMA_8B, "inference", seq=4096), budget_usd=2000,
                      deployment="on-premise")
    advice = advise(answers, ACCELERATORS, CLOUD)
    assert advice.proposals
    assert all((p.option.cost_usd or 0) <= 2000 for p in advice.proposals)
    too_small = advise(Answers(Workload(LLAMA_8B), budget_usd=10, deployment="on-premise"),
                       ACCELERATORS, CLOUD)
    assert not too_small.proposals
    assert any("nothing fits the budget" in n for n in too_small.notes)


def test_bad_answers() -> None:
    with pytest.raises(InvalidWorkloadError):
        Answers(Workload(LLAMA_8B), deployment="moon")
    with pytest.raises(InvalidWorkloadError):
        Answers(Workload(LLAMA_8B), budget_usd=-5)


def test_cloud_parts_need_their_accelerator() -> None:
    orphan = Part("cloud/orphan", Category.CLOUD, "C", "Orphan", "t", "2025",
                  specs={"accelerator_id": "accelerator/none", "accelerator_count": 1,
                         "price_per_hour_usd": 1.0})
    assert rank_fits(Workload(LLAMA_8B), [], [orphan]) == []
