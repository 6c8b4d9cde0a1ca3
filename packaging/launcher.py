"""Entry point of the packaged app: the same `dlhw` command line as from source."""

from dlhw_desktop.cli import main

raise SystemExit(main())
