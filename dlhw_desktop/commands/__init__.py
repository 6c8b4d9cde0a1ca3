"""Headless subcommands of ``dlhw``; each module has ``register(subparsers)``.

A command sets ``func`` on its parser: ``func(args) -> int`` (exit status). It raises
``DlhwError`` for bad input; ``cli.main`` turns that into one line and exit status 2.

Modules are imported only when their command is used (or for ``--help``), so opening the
app does not pay for the estimators, checks and PDF code the commands pull in.
"""

from __future__ import annotations

from importlib import import_module
from types import ModuleType

# Command word -> module that registers it (a module may register several words).
COMMANDS: dict[str, str] = {
    "find": "catalog_cmds", "show": "catalog_cmds", "catalog": "catalog_cmds",
    "fit": "fit_cmds", "models": "fit_cmds",
    "check": "check_cmds",
    "export": "export_cmds", "share": "export_cmds",
    "detect": "detect_cmds",
    "price": "price_cmds",
    "cluster": "cluster_cmds",
    "part": "part_cmds",
}


def load(module_names: list[str] | None = None) -> tuple[ModuleType, ...]:
    """The command modules named (all of them by default), in a stable order."""
    names = module_names if module_names is not None else list(dict.fromkeys(COMMANDS.values()))
    return tuple(import_module(f"{__name__}.{name}") for name in dict.fromkeys(names))


def __getattr__(name: str) -> object:
    if name == "COMMAND_MODULES":
        return load()
    raise AttributeError(name)
