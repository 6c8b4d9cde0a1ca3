"""Headless subcommands of ``dlhw``; each module has ``register(subparsers)``.

A command sets ``func`` on its parser: ``func(args) -> int`` (exit status). It raises
``DlhwError`` for bad input; ``cli.main`` turns that into one line and exit status 2.
"""

from __future__ import annotations

from types import ModuleType

from dlhw_desktop.commands import catalog_cmds, check_cmds, detect_cmds, export_cmds, fit_cmds

COMMAND_MODULES: tuple[ModuleType, ...] = (
    catalog_cmds, fit_cmds, check_cmds, export_cmds, detect_cmds,
)
