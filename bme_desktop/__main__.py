from bme_desktop.cli import main

raise SystemExit(main())
