from dlhw_desktop.cli import main

raise SystemExit(main())
