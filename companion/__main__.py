"""``python -m companion`` is the same as the ``fog-companion`` console script."""

from __future__ import annotations

import sys

from companion.app.cli import main

if __name__ == "__main__":
    sys.exit(main())
