"""``dlhw cluster``: a plan from a shell; bad input is one line naming the field, exit 2."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from dlhw_desktop.catalog.store import Catalog
from dlhw_desktop.cli import main
from dlhw_desktop.core.build import buildfile
from dlhw_desktop.core.build.templates import template


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture
def dgx(catalog: Catalog, tmp_path: Path) -> Path:
    return buildfile.save(template("dgx-h100").build(catalog.get),
                          tmp_path / "dgx.dlhw.json")


def test_cluster_json_counts_and_saves_a_plan(capsys, dgx: Path, tmp_path: Path) -> None:
    plan = tmp_path / "pod.dlhwcluster.json"
    code, out, err = run(capsys, "cluster", str(dgx), "--nodes", "256", "--params", "70e9",
                         "--tokens", "2e12", "--json", "-o", str(plan))
    assert code == 0, err
    data = json.loads(out)
    assert data["gpus"] == 2048
    assert (data["fabric"]["leaf"], data["fabric"]["spine"]) == (64, 32)
    assert data["bill_of_materials"][0]["count"] == 256
    assert data["training"]["days"] > 0
    code, out, _ = run(capsys, "cluster", str(plan), "--nodes", "512")
    assert code == 0 and "4,096x NVIDIA H100" in out and "128 core" not in out


@pytest.mark.parametrize(("args", "field"), [
    (["--nodes", "0"], "nodes"), (["--nodes", "1000000"], "nodes"),
    (["--fabric", "ib-xdr"], "fabric"), (["--rack-kw", "8"], "rack_kw"),
    (["--mfu", "7"], "mfu"),
])
def test_bad_input_is_one_line_and_exit_2(capsys, dgx: Path, args: list[str],
                                          field: str) -> None:
    code, out, err = run(capsys, "cluster", str(dgx), *args)
    assert code == 2 and not out
    assert f"({field}): " in err and err.startswith("dlhw: error: ") and err.count("\n") == 1


def test_a_file_that_is_neither_is_refused(capsys, tmp_path: Path) -> None:
    junk = tmp_path / "junk.json"
    junk.write_text("{not json")
    code, _, err = run(capsys, "cluster", str(junk))
    assert code == 2 and "not a build or a cluster plan" in err


def test_markdown_sheet(capsys, dgx: Path, tmp_path: Path) -> None:
    sheet = tmp_path / "pod.md"
    code, _, err = run(capsys, "cluster", str(dgx), "--nodes", "32", "--markdown", str(sheet))
    assert code == 0, err
    text = sheet.read_text()
    # the node line carries the DGX H100's sourced (reported) price
    from dlhw_desktop.catalog.store import Catalog

    node = Catalog.open().get("server/nvidia-dgx-h100").price_usd
    assert node is not None
    assert f"| NVIDIA DGX H100 node (8x NVIDIA H100 SXM5 80 GB) | 32 | ${node:,.0f} |" in text
    assert "## Fabric" in text and "8 leaf, 4 spine" in text


def test_network_quotes_set_with_dlhw_price_price_the_cluster(capsys, dgx: Path) -> None:
    code, out, _ = run(capsys, "cluster", str(dgx), "--nodes", "32", "--json")
    assert code == 0 and json.loads(out)["cost"]["network_usd"] is None
    for key, amount in (("switch:qm9700", "24000"), ("cable:400", "300"),
                        ("transceiver:400", "900")):
        code, out, _ = run(capsys, "price", "set", key, amount, "--note", "ACME quote")
        assert code == 0 and "used by dlhw cluster" in out
    code, out, _ = run(capsys, "cluster", str(dgx), "--nodes", "32", "--json")
    cost = json.loads(out)["cost"]
    assert cost["network_usd"] is not None and cost["network_usd"] > 24_000
    assert cost["network_basis"].startswith("your quotes")
    code, out, _ = run(capsys, "price", "list", "--json")
    names = {row["part_id"]: row["name"] for row in json.loads(out)["prices"]}
    assert names["switch:qm9700"] == "NVIDIA Quantum-2 QM9700 switch (64 x 400 Gb/s)"
    code, _, err = run(capsys, "price", "set", "switch:nope", "10")
    assert code != 0 and "nope" in err  # not gear, and no such part
