"""``python -m mlfs_core`` runs the ``mlfs`` command line."""

import sys

from .cli import main

sys.exit(main())
