"""`python -m equilibria` does what `equilibria` does."""

import sys

try:
    from equilibria.cli.main import main  # the standard library only: Ctrl+C this early is rare, and ends quietly too
except KeyboardInterrupt:
    sys.exit(130)

sys.exit(main())
