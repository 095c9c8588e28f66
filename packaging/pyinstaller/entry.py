"""The bundled program's entry point: the same ``main`` as the ``bme-desktop`` console script."""

from bme_desktop.cli import main

raise SystemExit(main())
