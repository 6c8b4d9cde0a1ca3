"""``dlhw fit`` and ``dlhw models``: output, JSON, exit statuses for bad input."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from dlhw_desktop import cli
from dlhw_desktop.commands import fit_cmds
from dlhw_desktop.core.errors import UnknownPartError
from dlhw_desktop.core.fields import Category
from dlhw_desktop.core.parts import Part
from dlhw_desktop.core.workload.model_presets import presets

RTX_4090 = Part("accelerator/nvidia-geforce-rtx-4090", Category.ACCELERATOR, "NVIDIA",
                "GeForce RTX 4090", "test", "2025-01-01", price_usd=1599,
                specs={"memory_gb": 24, "memory_bandwidth_gb_s": 1008,
                       "bf16_tensor_tflops": 165.2, "fp16_tensor_tflops": 165.2, "tdp_w": 450})
MI300X = Part("accelerator/amd-instinct-mi300x", Category.ACCELERATOR, "AMD",
              "Instinct MI300X", "test", "2025-01-01", price_usd=None,
              specs={"memory_gb": 192, "memory_bandwidth_gb_s": 5300,
                     "bf16_tensor_tflops": 1307.4, "tdp_w": 750})
CPU = Part("cpu/amd-ryzen-9", Category.CPU, "AMD", "Ryzen 9", "test", "2025-01-01")
CLOUD = Part("cloud/gpu-box", Category.CLOUD, "Cloud Co", "GPU box", "test", "2025-01-01",
             specs={"accelerator_id": MI300X.id, "accelerator_count": 1,
                    "price_per_hour_usd": 4.0})


class FakeCatalog:
    """The part of ``catalog.store.Catalog`` the fit command uses."""

    def __init__(self, parts: list[Part]) -> None:
        self._parts = {p.id: p for p in parts}

    def find(self, part_id: str) -> Part | None:
        return self._parts.get(part_id)

    def get(self, part_id: str) -> Part:
        part = self.find(part_id)
        if part is None:
            raise UnknownPartError(part_id)
        return part

    def parts(self, category: Category | None = None, chips_only: bool = False) -> list[Part]:
        return [p for p in self._parts.values() if (category is None or p.category == category)
                and not (chips_only and p.get("chip_id"))]


@pytest.fixture(autouse=True)
def _with_fit_commands(monkeypatch: pytest.MonkeyPatch) -> None:
    catalog = FakeCatalog([RTX_4090, MI300X, CPU, CLOUD])
    monkeypatch.setattr(fit_cmds, "open_catalog", lambda args: catalog)


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = cli.main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_models_lists_every_preset(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "models")
    assert code == 0
    for model in presets():
        assert model.key in out
    code, out, _ = run(capsys, "models", "--json")
    data = json.loads(out)
    assert {m["key"] for m in data} == {m.key for m in presets()}
    llama = next(m for m in data if m["key"] == "llama-3.1-8b")
    assert llama["kv_heads"] == 8 and llama["attention"] == "GQA"


def test_fit_without_gpus_prints_the_breakdown_in_bytes(
        capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "fit", "--model", "llama-3.1-8b", "--precision", "bf16")
    assert code == 0
    assert "16,060,000,000 B" in out
    assert "GQA" in out


def test_fit_on_a_gpu_json(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "fit", "--model", "llama-3.1-8b", "--gpus",
                       "nvidia-geforce-rtx-4090", "--tokens", "1M", "--json")
    assert code == 0
    data: dict[str, Any] = json.loads(out)
    assert data["status"] == "pass"
    weights = next(i for i in data["memory"]["items"] if i["key"] == "weights")
    assert weights["bytes"] == 16_060_000_000
    (check,) = data["checks"]
    assert check["kind"] == "workload" and check["part_ids"] == [RTX_4090.id]
    assert data["inference"]["bound"] == "memory"
    assert data["job_hours"] > 0 and data["cost"]["own_usd"] > 0


def test_fit_failing_verdict_exits_1(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "fit", "--model", "llama-3.1-70b", "--gpus",
                       "accelerator/nvidia-geforce-rtx-4090x2")
    assert code == 1
    # two identical GPUs, one verdict line (issue 15: output grows with distinct parts)
    assert out.count("FAIL") == 1 and "FAIL    2x NVIDIA GeForce RTX 4090" in out


def test_fit_training_time_and_custom_architecture(
        capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "fit", "--params", "7B", "--layers", "32", "--hidden", "4096",
                       "--heads", "32", "--kv-heads", "8", "--mode", "training",
                       "--tokens", "1e9", "--gpus", "amd-instinct-mi300x:4", "--checkpointing",
                       "--json")
    assert code == 0
    data = json.loads(out)
    assert len(data["checks"]) == 4
    # --checkpointing recomputes the forward pass: 8ND, not 6ND (PaLM appendix B)
    seq = data["workload"]["seq"]
    attention = 2 * 32 * 4096 * seq  # PaLM's 12 L H Q T per token, over the factor 6
    assert data["training"]["flops"] == pytest.approx(8 * (7e9 + attention) * 1e9)
    assert data["memory"]["parallelism"] == "zero3"


def test_rank_lists_what_fits(capsys: pytest.CaptureFixture[str]) -> None:
    # with checkpointing (without it 32 layers of 4096-token activations plus the fp32 loss
    # over 128,256 logits do not fit a 24 GB card: issue #19); LoRA, not QLoRA, so that
    # offers without CUDA may rank too (issue #17)
    code, out, _ = run(capsys, "fit", "--model", "llama-3.1-8b", "--mode", "lora",
                       "--checkpointing", "--rank", "5", "--json")
    assert code == 0
    ranking = json.loads(out)["ranking"]
    ids = {r["part_id"] for r in ranking}
    assert RTX_4090.id in ids and CLOUD.id in ids


def test_a_qlora_job_is_never_ranked_on_a_gpu_without_cuda(
        capsys: pytest.CaptureFixture[str]) -> None:
    # with checkpointing, so that it fits a 24 GB card at all (issue #19)
    code, out, _ = run(capsys, "fit", "--model", "llama-3.1-8b", "--mode", "qlora",
                       "--checkpointing", "--rank", "5", "--json")
    assert code == 0
    ids = {r["part_id"] for r in json.loads(out)["ranking"]}
    assert RTX_4090.id in ids
    assert CLOUD.id not in ids and MI300X.id not in ids  # bitsandbytes 4-bit is CUDA-only


@pytest.mark.parametrize("argv", [
    ("fit", "--model", "gpt-9"),
    ("fit", "--model", "llama-3.1-8b", "--batch", "-1"),
    ("fit", "--model", "llama-3.1-8b", "--seq", "0"),
    ("fit", "--params", "-5"),
    ("fit", "--model", "llama-3.1-8b", "--precision", "FP12"),
    ("fit", "--model", "llama-3.1-8b", "--gpus", "accelerator/nope"),
    ("fit", "--model", "llama-3.1-8b", "--gpus", "cpu/amd-ryzen-9"),
    ("fit", "--model", "llama-3.1-8b", "--gpus", "nvidia-geforce-rtx-4090x0"),
    ("fit", "--model", "llama-3.1-8b", "--mfu", "0"),
    ("fit", "--model", "llama-3.1-8b", "--mode", "training", "--precision", "INT4"),
    ("fit", "--model", "llama-3.1-8b", "--params", "8e9"),
    ("fit", "--params", "eight"),
])
def test_bad_input_exits_2_without_traceback(capsys: pytest.CaptureFixture[str],
                                             argv: tuple[str, ...]) -> None:
    with pytest.raises(SystemExit) as info:
        raise SystemExit(cli.main(list(argv)))
    assert info.value.code == 2
    err = capsys.readouterr().err
    assert err.startswith("dlhw: error:")
    assert "Traceback" not in err


def test_fit_uses_a_saved_build(capsys: pytest.CaptureFixture[str],
                                tmp_path: Path) -> None:
    path = tmp_path / "box.dlhw.json"
    path.write_text(json.dumps({
        "format": "dlhw-build", "version": 1, "name": "box",
        "parts": [{"id": RTX_4090.id, "quantity": 2, "category": "accelerator"},
                  {"id": CPU.id, "quantity": 1, "category": "cpu"}],
    }))
    code, out, _ = run(capsys, "fit", "--model", "llama-3.1-8b", "--mode", "qlora",
                       "--checkpointing", "--build", str(path), "--json")
    assert code == 0
    data = json.loads(out)
    assert [c["part_ids"] for c in data["checks"]] == [[RTX_4090.id], [RTX_4090.id]]


def test_build_without_accelerators_is_bad_input(capsys: pytest.CaptureFixture[str],
                                                 tmp_path: Path) -> None:
    path = tmp_path / "cpu-only.dlhw.json"
    path.write_text(json.dumps({"format": "dlhw-build", "version": 1, "name": "cpu",
                                "parts": [{"id": CPU.id, "quantity": 1}]}))
    code, _, err = run(capsys, "fit", "--model", "gpt2", "--build", str(path))
    assert code == 2 and "no accelerators" in err
    code, _, err = run(capsys, "fit", "--model", "gpt2", "--build", str(path) + ".missing")
    assert code == 2 and err.startswith("dlhw: error:")


# --- serving capacity (issue #30 item 2) ---------------------------------------------------


def test_fit_answers_how_many_users_and_how_fast(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "fit", "--model", "llama-3.1-8b", "--precision", "Q4_K_M",
                       "--gpus", RTX_4090.id, "--input-tokens", "1000", "--output-tokens",
                       "200", "--target-tps", "30")
    assert code == 0
    assert "Serving: llama.cpp, 1,000 input + 200 output tokens per request" in out
    assert "leave-one-GPU-out error" in out
    assert "concurrent requests" in out and "tokens/s per user" in out
    assert "target 30 tokens/s per user: up to" in out
    assert "per million output tokens" in out
    code, out, _ = run(capsys, "fit", "--model", "llama-3.1-8b", "--precision", "Q4_K_M",
                       "--gpus", RTX_4090.id, "--users", "4", "--target-ttft", "0.5",
                       "--json")
    serving = json.loads(out)["serving"]
    assert serving["at"]["concurrency"] == 4
    for key in ("max_concurrency", "kv_bytes_per_sequence", "own_usd_per_million_output_tokens",
                "rented_usd_per_million_output_tokens", "targets", "basis"):
        assert key in serving
    assert serving["at"]["per_user_tokens_per_s"] > 0
    assert serving["targets"][0]["kind"] == "ttft"


def test_fit_says_when_no_concurrency_meets_the_target(
        capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "fit", "--model", "llama-3.1-8b", "--precision", "BF16",
                       "--gpus", RTX_4090.id, "--target-tps", "10000")
    assert code == 0
    assert "no concurrency reaches it; the nearest is" in out and "at 1 user" in out


@pytest.mark.parametrize("flags", [
    ["--users", "0"], ["--users", "-4"], ["--users", "1" + "0" * 30], ["--users", "abc"],
    ["--target-tps", "0"], ["--target-tps", "nan"], ["--target-tps", "-inf"],
    ["--target-tps", "1e400"], ["--target-ttft", "-1"], ["--input-tokens", "0"],
    ["--output-tokens", "1e99"], ["--input-tokens", "200000"],
])
def test_fit_refuses_bad_serving_input_in_one_line(capsys: pytest.CaptureFixture[str],
                                                   flags: list[str]) -> None:
    with pytest.raises(SystemExit) as info:  # argparse's own errors exit from inside
        raise SystemExit(cli.main(["fit", "--model", "llama-3.1-8b", "--gpus", RTX_4090.id,
                                   *flags]))
    out, err = capsys.readouterr()
    assert info.value.code == 2 and out == ""
    assert err.startswith("dlhw: error:") and err.count("\n") == 1
    assert "Traceback" not in err


def test_serving_flags_need_gpus_and_an_inference_job(capsys: pytest.CaptureFixture[str]
                                                      ) -> None:
    code, _, err = run(capsys, "fit", "--model", "llama-3.1-8b", "--users", "3")
    assert code == 2 and "--users needs GPUs" in err
    code, _, err = run(capsys, "fit", "--model", "llama-3.1-8b", "--mode", "training",
                       "--gpus", RTX_4090.id, "--users", "3")
    assert code == 2 and "applies to serving" in err


def test_qlora_takes_its_recipe_unless_told(capsys: pytest.CaptureFixture[str]) -> None:
    """Issue #28: the same recipe defaults as the app (one definition)."""
    code, out, _ = run(capsys, "fit", "--model", "llama-3.1-8b", "--mode", "qlora", "--json")
    assert code == 0
    workload = json.loads(out)["workload"]
    assert workload["checkpointing"] is True and workload["optimizer"] == "paged-adamw"
    code, out, _ = run(capsys, "fit", "--model", "llama-3.1-8b", "--mode", "qlora",
                       "--no-checkpointing", "--json")
    assert code == 0 and json.loads(out)["workload"]["checkpointing"] is False


def test_fit_says_where_the_training_mfu_comes_from(
        capsys: pytest.CaptureFixture[str]) -> None:
    args = ("fit", "--model", "llama-3.1-8b", "--mode", "lora", "--tokens", "1e8",
            "--batch", "8", "--gpus", "amd-instinct-mi300x:4")
    code, out, _ = run(capsys, *args)
    assert code == 0
    assert "MFU, estimate (fit on" in out and "leave-one-source-out error" in out
    code, out, _ = run(capsys, *args, "--mfu", "0.3")
    assert code == 0 and "at 30% MFU, yours" in out
