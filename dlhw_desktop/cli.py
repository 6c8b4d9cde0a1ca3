"""The ``dlhw`` command: the GUI with no arguments, headless subcommands otherwise.

Each subcommand lives in ``dlhw_desktop/commands/<name>.py`` with ``register(subparsers)``.
Errors of the project's own kind become one line on stderr and exit status 2; argparse's
own usage errors also exit 2. A traceback means a bug.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path

from dlhw_desktop import APP_NAME, __version__, commands
from dlhw_desktop.core.errors import DlhwError

EXIT_OK = 0
EXIT_FAILED_CHECK = 1
EXIT_BAD_INPUT = 2


class _Parser(argparse.ArgumentParser):
    """argparse that reports errors in one line (exit 2) instead of the full usage."""

    def error(self, message: str) -> None:  # type: ignore[override]
        self.exit(EXIT_BAD_INPUT, f"dlhw: error: {message} (see 'dlhw --help')\n")


def build_parser(argv: Sequence[str] | None = None) -> argparse.ArgumentParser:
    """The parser, with only the command module ``argv`` needs (all of them for help or a
    word that is not a command, so argparse can list the choices)."""
    parser = _Parser(
        prog="dlhw",
        description=f"{APP_NAME}: choose and assemble hardware for deep learning. "
        "Without a command, opens the app.",
    )
    parser.add_argument("--version", action="version", version=f"dlhw {__version__}")
    parser.add_argument(
        "--catalog", type=Path, default=None, metavar="PATH",
        help="catalog database to use (default: the bundled catalog.db)",
    )
    parser.add_argument(
        "--exit-after-show", action="store_true",
        help="open the window, exit 0 right after its first paint (start-up timing)",
    )
    parser.add_argument(
        "--exit-when-ready", action="store_true",
        help="open the window, exit 0 once the catalog's first rows are painted "
             "(start-up timing)",
    )
    parser.add_argument(
        "--self-test", action="store_true",
        help="check that the app works end to end, offscreen, and exit",
    )
    parser.add_argument(
        "--open", dest="open_files", action="append", type=Path, default=[],
        metavar="BUILD", help="open a saved build (.dlhw.json) in the app",
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    for module in commands.load(_needed_modules(argv)):
        module.register(sub)
    return parser


def _needed_modules(argv: Sequence[str] | None) -> list[str] | None:
    if argv is None:
        return None
    words = [a for a in argv if not a.startswith("-")]
    options = [a for a in argv if a.startswith("-")]
    if any(o in ("-h", "--help") for o in options) and not words:
        return None
    takes_value = {"--catalog", "--open"}
    previous = ""
    for arg in argv:
        if not arg.startswith("-") and previous not in takes_value:
            module = commands.COMMANDS.get(arg)
            return [module] if module else None
        previous = arg.split("=", 1)[0]
    return []  # no command: the GUI


def main(argv: Sequence[str] | None = None) -> int:
    from dlhw_desktop.commands.common import safe_output

    with safe_output():  # no escape sequence from a file or a device reaches the terminal
        return _main(argv)


def _main(argv: Sequence[str] | None) -> int:
    args_list = list(sys.argv[1:] if argv is None else argv)
    parser = build_parser(args_list)
    args = parser.parse_args(args_list)
    try:
        if args.command is None:
            return _run_gui(args)
        return int(args.func(args) or 0)
    except DlhwError as exc:
        print(f"dlhw: error: {exc}", file=sys.stderr)
        return EXIT_BAD_INPUT
    except BrokenPipeError:
        return EXIT_OK
    except KeyboardInterrupt:
        return 130


def _run_gui(args: argparse.Namespace) -> int:
    if args.self_test:
        from dlhw_desktop.ui.shell.self_test import run_self_test

        return run_self_test(args.catalog)
    from dlhw_desktop.ui.shell.app import run_app

    return run_app(
        catalog_path=args.catalog,
        exit_after_show=args.exit_after_show,
        exit_when_ready=args.exit_when_ready,
        open_files=list(args.open_files),
    )


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
