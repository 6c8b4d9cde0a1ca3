"""One socket under two names: "TR4" and "sTR4" (X399 Threadripper) are the same socket."""

from __future__ import annotations

from dlhw_desktop.catalog.store import Catalog
from dlhw_desktop.core.build.build import Build
from dlhw_desktop.core.checks import check_build
from dlhw_desktop.core.compat.vocabulary import norm_socket, socket_list

X399_BOARD = "motherboard/asus-x399-rog-zenith-extreme-str4-ddr4-eatx"  # socket "TR4"


def test_str4_and_tr4_are_one_socket_and_strx4_is_another() -> None:
    assert norm_socket("sTR4") == norm_socket("TR4") == norm_socket("Socket TR4") == "TR4"
    assert norm_socket("sTRX4") == "STRX4" != norm_socket("sTR4")
    assert "TR4" in socket_list("AM4, sTR4, sTRX4")


def test_a_2990wx_fits_an_x399_board_whichever_name_each_uses(catalog: Catalog) -> None:
    cpu = catalog.get("cpu/amd-ryzen-threadripper-2990wx")
    board = catalog.get(X399_BOARD)
    assert norm_socket(cpu.text("socket")) == norm_socket(board.text("socket"))
    build = Build()
    build.add(cpu)
    build.add(board)
    result = check_build(build).get("compat.socket")
    assert result is not None and result.status == "pass", result


def test_a_3970x_still_does_not_fit_an_x399_board(catalog: Catalog) -> None:
    build = Build()
    build.add(catalog.get("cpu/amd-ryzen-threadripper-3970x"))
    build.add(catalog.get(X399_BOARD))
    result = check_build(build).get("compat.socket")
    assert result is not None and result.status == "fail", result
