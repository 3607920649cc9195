"""`python -m game` does what `equilibria` does."""

import sys

from game.cli import main

sys.exit(main())
